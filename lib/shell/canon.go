package shell

import "strings"

// Canon writes a resolved path in the one form the rules compare, on operating system goos:
//
//   - macOS's firmlinks and symlinks lead to the same folders: /private/etc, /private/var and
//     /private/tmp are /etc, /var and /tmp; /System/Volumes/Data/x is /x.
//   - A Windows drive is /c: (as Resolve writes C:\ and C:/), also as WSL mounts it (/mnt/c)
//     and, on Windows, as Git Bash names it (/c).
//   - Windows' other spellings of a drive's path: the \\?\ and \\.\ prefixes, the
//     administrative share \\localhost\C$, a file's default data stream (x::$DATA), and the
//     8.3 short names of the system folders (PROGRA~1).
//   - Where the file system ignores case, so does the form: a path on a Windows drive is in
//     lower case; on macOS every path is in lower case but for its first part, which keeps
//     the spelling the rules use (/Users, /System, /Library, /Applications, /Volumes).
//
// A path with a drive letter (C:\Users\dev) is first written as Resolve writes it. Other
// paths are returned as they are.
func Canon(p, goos string) string {
	p = winSpelling(p)
	if d, ok := drivePath(p); ok {
		p = d // a home or project given as C:\Users\dev
	}
	if p == "" || p[0] != '/' {
		return p
	}
	mac := goos == "darwin" || goos == "ios"
	if mac {
		p = strings.ToLower(p)
	}
	for _, firm := range []string{"/system/volumes/data", "/System/Volumes/Data"} {
		if rest, ok := strings.CutPrefix(p, firm); ok && (rest == "" || rest[0] == '/') {
			p = rest
			if p == "" {
				p = "/"
			}
			break
		}
	}
	if rest, ok := strings.CutPrefix(p, "/private/"); ok {
		if top, _, _ := strings.Cut(rest, "/"); top == "etc" || top == "var" || top == "tmp" {
			p = p[len("/private"):]
		}
	}
	if rest, ok := strings.CutPrefix(p, "/mnt/"); ok && driveLetter(rest) {
		p = "/" + strings.ToLower(rest[:1]) + ":" + rest[1:]
	} else if goos == "windows" && driveLetter(p[1:]) {
		p = "/" + strings.ToLower(p[1:2]) + ":" + p[2:]
	}
	if len(p) >= 3 && p[2] == ':' && driveLetter(p[1:2]) && (len(p) == 3 || p[3] == '/') {
		return strings.ToLower(p)
	}
	if mac {
		top, rest, _ := strings.Cut(p[1:], "/")
		for _, name := range []string{"Users", "System", "Library", "Applications", "Volumes"} {
			if strings.EqualFold(top, name) {
				if rest != "" {
					return "/" + name + "/" + rest
				}
				return "/" + name
			}
		}
	}
	return p
}

// driveLetter reports a path part that is one letter: c, c/Users.
func driveLetter(s string) bool {
	return len(s) >= 1 && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') && (len(s) == 1 || s[1] == '/')
}

// winSpelling writes Windows' other spellings of a path on a drive as C:/...: the \\?\ and
// \\.\ prefixes, \\localhost\C$ (and 127.0.0.1, .), a trailing ::$DATA, and the 8.3 names
// of Program Files, Program Files (x86) and ProgramData. Other paths are returned as they are.
func winSpelling(p string) string {
	if !strings.ContainsAny(p, "\\~:") {
		return p
	}
	q := strings.ReplaceAll(p, `\`, "/")
	for _, pre := range []string{"//?/", "//./", "/??/"} {
		if rest, ok := strings.CutPrefix(q, pre); ok && len(rest) >= 2 && rest[1] == ':' {
			q = rest
		}
	}
	for _, host := range []string{"//localhost/", "//127.0.0.1/", "//./", "//?/unc/localhost/"} {
		rest, ok := strings.CutPrefix(strings.ToLower(q[:min(len(q), len(host))])+q[min(len(q), len(host)):], host)
		if ok && len(rest) >= 2 && rest[1] == '$' && driveLetter(rest[:1]) {
			q = rest[:1] + ":" + rest[2:]
		}
	}
	if i := strings.LastIndex(strings.ToLower(q), "::$data"); i > 0 && i == len(q)-len("::$data") {
		q = q[:i]
	}
	if len(q) >= 2 && q[1] == ':' && driveLetter(q[:1]) {
		parts := strings.Split(q, "/")
		for i, part := range parts {
			switch strings.ToLower(part) {
			case "progra~1":
				parts[i] = "Program Files"
			case "progra~2":
				parts[i] = "Program Files (x86)"
			case "progra~3":
				parts[i] = "ProgramData"
			}
		}
		return strings.Join(parts, "/")
	}
	if q != strings.ReplaceAll(p, `\`, "/") {
		return q
	}
	return p
}
