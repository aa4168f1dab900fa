// .NET file system calls, from PowerShell ([IO.Directory]::Delete(...)) or from the C# an
// Add-Type compiles, read as the cmdlets that do the same.

package shell

import "strings"

// psDotNetCmd maps a .NET class and method to the cmdlet with the same effect; a + marks a
// call that deletes a folder with its contents whatever its arguments say.
func psDotNetCmd(call string) (string, bool) {
	switch call {
	case "directory.delete", "file.delete", "filesystem.deletefile":
		return "Remove-Item", true
	case "filesystem.deletedirectory":
		return "Remove-Item+", true
	case "file.writealltext", "file.writealllines", "file.writeallbytes":
		return "Set-Content", true
	case "file.appendalltext", "file.appendalllines":
		return "Add-Content", true
	case "file.copy", "filesystem.copydirectory", "filesystem.copyfile":
		return "Copy-Item", true
	case "file.move", "directory.move", "file.replace", "filesystem.movedirectory", "filesystem.movefile":
		return "Move-Item", true

	}
	return "", false
}

// psDotNet finds the .NET file system calls in text (C# with csharp set, else PowerShell)
// whose arguments reduce to literal text, as cmdlet statements: Name and Args.
func psDotNet(text string, csharp bool, vars map[string]string) [][]string {
	lower := strings.ToLower(text)
	var out [][]string
	for i := 0; i < len(lower) && len(out) < 64; {
		j := strings.Index(lower[i:], "(")
		if j < 0 {
			break
		}
		open := i + j
		i = open + 1
		// The member name before the parenthesis, and its class before :: or .
		k := open
		for k > 0 && isWordByte(lower[k-1]) {
			k--
		}
		method := lower[k:open]
		sep := strings.TrimRight(lower[:k], " ")
		switch {
		case strings.HasSuffix(sep, "]::"):
			sep = strings.TrimSuffix(sep, "]::")
		case strings.HasSuffix(sep, "::"):
			sep = strings.TrimSuffix(sep, "::")
		case strings.HasSuffix(sep, ".") || strings.HasSuffix(sep, ")."):
			sep = strings.TrimSuffix(sep, ".")
		default:
			continue
		}
		c := len(sep)
		for c > 0 && isWordByte(sep[c-1]) {
			c--
		}
		name, ok := psDotNetCmd(sep[c:] + "." + method)
		if method == "downloadfile" { // a WebClient's, however it is reached
			name, ok = "Invoke-WebRequest", true
		}
		if !ok {
			continue
		}
		end := psClose(text[open:])
		if end < 0 {
			continue
		}
		var args []string
		for _, a := range psSplitArgs(text[open+1 : open+end-1]) {
			v, ok := psArgValue(a, csharp, vars)
			if !ok {
				v = Dyn + "dotnet"
			}
			args = append(args, v)
		}
		if len(args) == 0 || strings.HasPrefix(args[0], Dyn) {
			continue
		}
		cmd := []string{strings.TrimSuffix(name, "+"), args[0]}
		switch {
		case strings.HasSuffix(name, "+") || name == "Remove-Item" && len(args) > 1 && strings.EqualFold(strings.TrimPrefix(args[1], "$"), "true"):
			cmd = append(cmd, "-Recurse")
		case name == "Invoke-WebRequest":
			if len(args) < 2 {
				continue
			}
			cmd = append(cmd, "-OutFile", args[1])
		case name == "Copy-Item" || name == "Move-Item":
			if len(args) < 2 {
				continue
			}
			cmd = append(cmd, args[1])
			if strings.HasPrefix(sep[c:], "filesystem") {
				cmd = append(cmd, "-Recurse")
			}
		case name == "Set-Content" || name == "Add-Content":
			if len(args) > 1 {
				cmd = append(cmd, args[1])
			}
		}
		out = append(out, cmd)
	}
	return out
}

// psSplitArgs splits a call's argument list at its top-level commas.
func psSplitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else if ch == '\\' || ch == '`' {
				i++
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
		case ch == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// psArgValue reduces one argument of a call to text: a PowerShell expression, or a C#
// literal ("..." with \ escapes, @"..." verbatim, true).
func psArgValue(a string, csharp bool, vars map[string]string) (string, bool) {
	if !csharp {
		if a == "$true" || a == "$false" {
			return a, true
		}
		return psReduce(a, vars)
	}
	switch {
	case a == "true" || a == "false":
		return a, true
	case strings.HasPrefix(a, `@"`) && strings.HasSuffix(a, `"`) && len(a) >= 3:
		return strings.ReplaceAll(a[2:len(a)-1], `""`, `"`), true
	case strings.HasPrefix(a, `"`) && strings.HasSuffix(a, `"`) && len(a) >= 2:
		var b strings.Builder
		s := a[1 : len(a)-1]
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
				b.WriteString(map[byte]string{'n': "\n", 't': "\t", '\\': `\`, '"': `"`, '\'': "'"}[s[i]])
				continue
			}
			b.WriteByte(s[i])
		}
		return b.String(), true
	}
	return "", false
}
