package shell

import "strings"

// IsCmdExe reports a program name that is Windows' cmd: cmd or cmd.exe, in any case.
func IsCmdExe(name string) bool {
	n := strings.ToLower(name)
	return n == "cmd" || n == "cmd.exe"
}

// CmdLine returns the command line cmd /c or cmd /k runs (the rest of its arguments, the
// switches before /c aside), and false when cmd is not told to run one.
func CmdLine(args []string) (string, bool) {
	for i, a := range args {
		la := strings.ToLower(a)
		switch {
		case la == "/c" || la == "/k" || la == "/r":
			return strings.Join(args[i+1:], " "), true
		case strings.HasPrefix(la, "/c") || strings.HasPrefix(la, "/k") || strings.HasPrefix(la, "/r"):
			if rest := a[2:]; rest != "" && !strings.HasPrefix(rest, ":") {
				return strings.Join(append([]string{rest}, args[i+1:]...), " "), true // /crd /s x
			}
		case strings.HasPrefix(la, "/"):
			// /q, /d, /a, /u, /e:on, /v:on, /s ...
		default:
			return "", false
		}
	}
	return "", false
}

// CmdStatements splits a cmd command line with cmd's basic grammar: commands chained with &,
// &&, || and | outside double quotes, ^ escaping the next character, each command split into
// words on blanks (and cmd's other separators , ; =) with the quotes removed.
func CmdStatements(line string) [][]string {
	var out [][]string
	var words []string
	var cur strings.Builder
	in, quote := false, false
	word := func() {
		if in {
			words = append(words, cur.String())
		}
		cur.Reset()
		in = false
	}
	stmt := func() {
		word()
		if len(words) > 0 {
			out = append(out, words)
		}
		words = nil
	}
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == '"':
			quote, in = !quote, true
		case quote:
			cur.WriteByte(ch)
		case ch == '^' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			in = true
		case ch == '&' || ch == '|' || ch == '\n' || ch == '\r':
			stmt()
			if i+1 < len(line) && line[i+1] == ch {
				i++
			}
		case ch == ' ' || ch == '\t' || ch == ',' || ch == ';' || ch == '=':
			word()
		case ch == '(' || ch == ')' || ch == '@' && !in:
			word()
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	stmt()
	return out
}
