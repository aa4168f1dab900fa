package shell

import (
	"path"
	"slices"
	"strconv"
	"strings"
)

// Target is a path a command writes.
type Target struct {
	// Path is resolved against the command's directory.
	Path string
	// How says how it is written: "> redirect", "tee", "cp", "sed -i", ...
	How string
	// Append is set for >>, tee -a: the old content stays.
	Append bool
	// Into is set when Path is a folder the command writes files of unknown names into (an
	// archive extracted, a work tree checked out, a package installed there).
	Into bool
}

// Writes lists every path the command writes: its redirections and the destinations of the
// tools that write files (tee, cp, mv, install, ln, rsync, sed -i, perl -i, truncate, touch,
// dd of=, curl -o, wget -O, sponge, shred), and the folders and files named as where a command
// puts its output (destWrites: extraction folders, git work trees, -o FILE, --prefix DIR, ...).
func (c *Cmd) Writes(home string) []Target {
	var out []Target
	res := func(p string) string { return Resolve(p, c.Dir, home) }
	for _, r := range c.Redirs {
		if r.Writes() && r.Target != "" && !strings.HasPrefix(r.Target, procMark) {
			out = append(out, Target{Path: r.Target, How: r.Op + " redirect", Append: strings.HasPrefix(r.Op, ">>") || r.Op == "&>>"})
		}
	}
	add := func(how string, app bool, paths ...string) {
		for _, p := range paths {
			if p != "" && p != "-" && !strings.HasPrefix(p, "/dev/fd/") {
				out = append(out, Target{Path: res(p), How: how, Append: app})
			}
		}
	}
	switch c.Name {
	case "tee":
		p := Opts{}.Parse(c.Args)
		add("tee", p.Has("a", "append"), p.Operands...)
	case "cp", "mv", "install", "ln", "rsync", "scp":
		p := copyOpts(c.Name).Parse(c.Args)
		if t, ok := p.Value("t", "target-directory"); ok && c.Name != "rsync" && c.Name != "scp" {
			add(c.Name, false, t)
		} else if len(p.Operands) >= 2 || c.Name == "install" && p.Has("d") {
			dest := p.Operands[len(p.Operands)-1]
			if (c.Name == "rsync" || c.Name == "scp") && remotePath(dest) {
				local, ok := thisMachine(dest)
				if !ok {
					break
				}
				dest = local
			}
			if c.Name == "install" && p.Has("d") {
				add("install -d", false, p.Operands...)
			} else {
				add(c.Name, false, dest)
			}
		}
	case "yq":
		p := Opts{Short: "opIe", Long: []string{"output-format", "input-format", "indent", "expression", "from-file"}}.Parse(c.Args)
		if p.Has("i", "inplace") && len(p.Operands) > 1 {
			add("yq -i", false, p.Operands[len(p.Operands)-1])
		}
	case "sed", "gsed":
		p := sedOpts.Parse(c.Args)
		if p.Has("i", "in-place") || inPlaceSuffix(c.Args) {
			files := p.Operands
			if !p.Has("e", "expression", "f", "file") && len(files) > 0 {
				files = files[1:]
			}
			add("sed -i", sedAppends(c.Args), files...)
		}
	case "perl":
		if inPlaceSuffix(c.Args) || hasCluster(c.Args, 'i') {
			var files []string
			skip := false
			for _, a := range c.Args {
				switch {
				case skip:
					skip = false
				case strings.HasPrefix(a, "-"):
					skip = strings.HasSuffix(a, "e") || strings.HasSuffix(a, "E")
				default:
					files = append(files, a)
				}
			}
			add("perl -i", false, files...)
		}
	case "find":
		// -fprint FILE, -fprint0 FILE, -fls FILE, -fprintf FILE FORMAT write (truncate) FILE
		for i, a := range c.Args {
			if (a == "-fprint" || a == "-fprint0" || a == "-fls" || a == "-fprintf") && i+1 < len(c.Args) {
				add("find "+a, false, c.Args[i+1])
			}
		}
	case "vim", "vi", "nvim", "ex", "ed", "red", "emacs", "nano", "pico", "micro", "joe", "jed", "mg", "kak", "hx":
		// An editor the agent runs edits without a person at it (vim -es, ex -s, ed -s <<EOF,
		// emacs --batch): every file it opens may be written.
		add(c.Name, false, editorFiles(c.Name, c.Args)...)
	case "xxd":
		// xxd [-r] IN OUT writes OUT (a hex dump, or with -r the bytes it decodes).
		if p := (Opts{Short: "cglosn", Long: []string{"cols", "groupsize", "len", "seek", "name"}}).Parse(c.Args); len(p.Operands) > 1 {
			add("xxd", false, p.Operands[1])
		}
	case "script":
		// script [options] [FILE]: the session's typescript goes to FILE.
		p := Opts{Short: "cEoTIOB", Long: []string{"command", "echo", "output-limit", "log-timing", "log-in", "log-out", "log-io", "logging-format"}}.Parse(c.Args)
		for _, k := range [][2]string{{"T", "log-timing"}, {"I", "log-in"}, {"O", "log-out"}, {"B", "log-io"}} {
			if v, ok := p.Value(k[0], k[1]); ok {
				add("script", false, v)
			}
		}
		if len(p.Operands) > 0 {
			add("script", false, p.Operands[0])
		}
	case "python", "python3", "python2", "pypy3":
		// python3 -m json.tool IN OUT writes OUT.
		if i := slices.Index(c.Args, "json.tool"); i > 0 && c.Args[i-1] == "-m" {
			if p := (Opts{Long: []string{"indent"}}).Parse(c.Args[i+1:]); len(p.Operands) > 1 {
				add("python -m json.tool", false, p.Operands[1])
			}
		}
	case "truncate", "touch", "shred", "sponge":
		p := Opts{Short: "srtdn", Long: []string{"size", "reference", "date", "iterations"}}.Parse(c.Args)
		add(c.Name, false, p.Operands...)
	case "Set-Content", "Add-Content", "Clear-Content", "Remove-Item", "New-Item", "Rename-Item", "Export-Csv", "Export-Clixml",
		"Out-File", "Tee-Object", "Copy-Item", "Move-Item", "Compress-Archive", "Expand-Archive", "Invoke-WebRequest":
		out = append(out, c.psWrites(home)...) // PowerShell cmdlets (AnalyzePowerShell)
	case "pwsh", "powershell":
		for _, sub := range c.psNested(home) {
			out = append(out, sub.Writes(home)...)
		}
	case "dd":
		for _, a := range c.Args {
			if of, ok := strings.CutPrefix(a, "of="); ok {
				add("dd of=", false, of)
			}
		}
	case "curl":
		p := Opts{Short: "oXdHuFTeAbcKrmwEy", Long: []string{"output", "request", "data", "header", "user", "form", "upload-file", "referer", "user-agent", "cookie", "config", "range", "max-time", "write-out", "cert", "data-binary", "data-raw", "data-urlencode", "url"}}.Parse(c.Args)
		if o, ok := p.Value("o", "output"); ok {
			add("curl -o", false, o)
		} else if p.Has("O", "remote-name") {
			if name := urlName(p.Operands); name != "" {
				add("curl -O", false, name)
			}
		}
	case "aria2c":
		// aria2c -d DIR -o NAME URL: NAME under DIR (the URL's name when -o is not given).
		p := Opts{Short: "dosxjiU", Long: []string{"dir", "out", "split", "max-connection-per-server", "max-concurrent-downloads", "input-file", "user-agent"}}.Parse(c.Args)
		name, ok := p.Value("o", "out")
		if !ok {
			name = urlName(p.Operands)
		}
		if dir, ok := p.Value("d", "dir"); ok && name != "" && !strings.HasPrefix(name, "/") {
			name = strings.TrimSuffix(dir, "/") + "/" + name
		}
		if name != "" {
			add("aria2c -o", false, name)
		}
	case "wget":
		p := Opts{Short: "OoaPe", Long: []string{"output-document", "output-file", "append-output", "directory-prefix", "execute"}}.Parse(c.Args)
		if o, ok := p.Value("O", "output-document"); ok {
			add("wget -O", false, o)
		} else if _, ok := p.Value("P", "directory-prefix"); !ok {
			if name := urlName(p.Operands); name != "" {
				add("wget", false, name) // saved under the URL's file name
			}
		}
	}
	for _, p := range c.patchTargets() {
		add(c.Name+" (the patch it is given)", false, p)
	}
	if how, ps, into := c.destWrites(); len(ps) > 0 {
		for _, p := range ps {
			if p == "." && c.Dir == "" {
				continue // the directory is not known
			}
			n := len(out)
			add(how, false, p)
			if len(out) > n {
				out[n].Into = into
			}
		}
	}
	return out
}

// urlName is the file name a download without an output name is saved under: the last path
// segment of the first URL, "" when there is none.
func urlName(ops []string) string {
	for _, o := range ops {
		if i := strings.Index(o, "://"); i > 0 && !strings.Contains(o, Dyn) {
			rest := o[i+3:]
			rest, _, _ = strings.Cut(rest, "?")
			rest, _, _ = strings.Cut(rest, "#")
			if j := strings.LastIndexByte(rest, '/'); j >= 0 && j < len(rest)-1 {
				return rest[j+1:]
			}
			return ""
		}
	}
	return ""
}

// thisMachine is the local path of an scp or rsync operand that names this machine
// (localhost:~/.bashrc, 127.0.0.1:x): relative to the home of the same user.
func thisMachine(op string) (string, bool) {
	host, p, _ := strings.Cut(op, ":")
	if _, h, ok := strings.Cut(host, "@"); ok {
		host = h
	}
	switch strings.Trim(host, "[]") {
	case "localhost", "127.0.0.1", "::1", "localhost.localdomain":
	default:
		return "", false
	}
	if p == "" || !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		p = "~/" + p
	}
	return p, true
}

// remotePath reports whether an scp/rsync operand names another host (host:path).
func remotePath(p string) bool {
	i := strings.IndexByte(p, ':')
	return i > 0 && !strings.Contains(p[:i], "/")
}

func inPlaceSuffix(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-i") && !strings.HasPrefix(a, "--") || strings.HasPrefix(a, "--in-place") {
			return true
		}
	}
	return false
}

func hasCluster(args []string, flag byte) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], flag) >= 0 {
			return true
		}
	}
	return false
}

// copyOpts are the options of a copying program that take a value; the others (cp -T,
// --backup, rsync -t -o -g ...) are flags, and reading them as taking a value would swallow
// the source and hide the destination. A function, not a table: nothing built at start-up.
func copyOpts(name string) Opts {
	switch name {
	case "install":
		return Opts{Short: "tSmog", Long: []string{"target-directory", "suffix", "mode", "owner", "group", "strip-program"}}
	case "rsync":
		return Opts{Short: "eBfTM", Long: []string{"rsh", "block-size", "filter", "temp-dir", "remote-option", "exclude", "include",
			"exclude-from", "include-from", "files-from", "chmod", "chown", "usermap", "groupmap", "backup-dir", "suffix", "log-file",
			"log-file-format", "partial-dir", "compare-dest", "copy-dest", "link-dest", "max-size", "min-size", "max-delete",
			"bwlimit", "timeout", "contimeout", "port", "password-file", "out-format", "info", "debug", "rsync-path", "skip-compress",
			"modify-window", "checksum-choice", "compress-choice", "compress-level", "sockopts", "iconv", "address"}}
	case "scp":
		return Opts{Short: "PiolFSJcD"}
	}
	return Opts{Short: "tS", Long: []string{"target-directory", "suffix"}} // cp, mv, ln
}

// editorFiles are the files an editor's command line opens: its operands, less the values of
// its options and +commands.
func editorFiles(name string, args []string) []string {
	var takes func(string) bool
	switch name {
	case "emacs":
		takes = func(a string) bool {
			switch a {
			case "-l", "--load", "-f", "--funcall", "--eval", "--execute", "-L", "--directory", "--insert", "-t", "-d", "--display", "--chdir":
				return true
			}
			return false
		}
	case "ed", "red":
		takes = func(a string) bool { return a == "-p" }
	default: // vi's family
		exMode := name == "ex" || slices.ContainsFunc(args, func(a string) bool {
			return strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "e")
		})
		takes = func(a string) bool {
			switch a {
			case "-c", "--cmd", "-S", "-u", "-U", "-i", "-T", "-w", "-W", "-t", "-q", "--startuptime", "-r":
				return true
			case "-s":
				return !exMode // a script to read in normal mode; silent in ex mode
			}
			return false
		}
	}
	var out []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return append(out, args[i+1:]...)
		case takes(a):
			i++
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
		default:
			out = append(out, a)
		}
	}
	return out
}

// patchTargets are the files a patch or git apply given the patch's text on stdin (a
// here-document, a here-string, an echo piped in) changes, each as the path names it with
// the leading components its -p strips (git's default is 1; without -p, patch's choice is
// not known, so both the name as written and its last element), under -d or --directory.
func (c *Cmd) patchTargets() []string {
	if c.Stdin == nil || c.Stdin.Text == "" {
		return nil
	}
	var strip []int
	dir := ""
	switch {
	case c.Name == "patch":
		p := Opts{Short: "dopiBbDFrVYzgLs", Long: []string{"directory", "output", "strip", "input", "prefix", "basename-prefix", "suffix", "ifdef", "fuzz", "reject-file", "version-control", "quoting-style", "get", "backup-if-mismatch"}}.Parse(c.Args)
		if _, ok := p.Value("o", "output"); ok {
			return nil // it writes the output file alone
		}
		if _, ok := p.Value("i", "input"); ok || len(p.Operands) > 0 {
			return nil // the patch comes from a file, or one file is named
		}
		dir, _ = p.Value("d", "directory")
		if v, ok := p.Value("p", "strip"); ok {
			if n, err := strconv.Atoi(v); err == nil {
				strip = []int{n}
			}
		}
		if strip == nil {
			strip = []int{0, -1}
		}
	case c.Name == "git" && slices.Contains(c.Args, "apply"):
		strip = []int{1}
		for i, a := range c.Args {
			switch {
			case strings.HasPrefix(a, "-p") && len(a) > 2:
				if n, err := strconv.Atoi(a[2:]); err == nil {
					strip = []int{n}
				}
			case a == "-p" && i+1 < len(c.Args):
				if n, err := strconv.Atoi(c.Args[i+1]); err == nil {
					strip = []int{n}
				}
			case strings.HasPrefix(a, "--directory="):
				dir = strings.TrimPrefix(a, "--directory=")
			case a == "--directory" && i+1 < len(c.Args):
				dir = c.Args[i+1]
			case a == "--check" || a == "--stat" || a == "--numstat" || a == "--summary" || a == "--cached":
				return nil // shows, or changes the index alone
			}
		}
	default:
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, line := range strings.Split(c.Stdin.Text, "\n") {
		var name string
		switch {
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
			name = line[4:]
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "):
			_, name, _ = strings.Cut(line, " to ")
			name = "x/" + name // named without git's a/ and b/
		default:
			continue
		}
		name, _, _ = strings.Cut(name, "\t") // a timestamp after a tab
		name = strings.Trim(strings.TrimSpace(name), `"`)
		if name == "" || name == "/dev/null" {
			continue
		}
		for _, n := range strip {
			p := name
			if n < 0 {
				p = path.Base(p)
			} else {
				for k := 0; k < n; k++ {
					if _, rest, ok := strings.Cut(p, "/"); ok {
						p = rest
					}
				}
			}
			if dir != "" && !path.IsAbs(p) {
				p = path.Join(dir, p)
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}
