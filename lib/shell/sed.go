package shell

import "strings"

// sedOpts are sed's options that take a value.
var sedOpts = Opts{Short: "efl", Long: []string{"expression", "file", "line-length"}}

// sedScripts returns the programs given to sed: every -e, or else its first operand.
func sedScripts(args []string) []string {
	p := sedOpts.Parse(args)
	scripts := sedOpts.Values(args, "e", "expression")
	if len(scripts) == 0 && !p.Has("f", "file") && len(p.Operands) > 0 {
		scripts = p.Operands[:1]
	}
	return scripts
}

// sedProgram walks a sed program. It returns the shell commands the program runs (GNU sed's
// e command, and the replacement of s///e, which is run as a command) and whether it only
// adds lines (a and i: an in-place edit that appends, not a rewrite).
func sedProgram(script string) (runs []string, onlyAdds bool) {
	adds, others := 0, 0
	i, n := 0, len(script)
	restOfLine := func() string {
		start := i
		for i < n && script[i] != '\n' {
			if script[i] == '\\' && i+1 < n {
				i++ // a\ continues onto the next line
			}
			i++
		}
		return script[start:i]
	}
	delimited := func() (string, bool) { // the text up to the next unescaped delimiter
		if i >= n {
			return "", false
		}
		d := script[i]
		i++
		start := i
		for i < n && script[i] != d {
			if script[i] == '\\' {
				i++
			}
			i++
		}
		if i >= n {
			return "", false
		}
		i++
		return script[start : i-1], true
	}
	address := func() {
		for k := 0; k < 2; k++ {
			switch {
			case i < n && (script[i] >= '0' && script[i] <= '9' || script[i] == '$' || script[i] == '+' || script[i] == '~'):
				for i < n && strings.IndexByte("0123456789$+~", script[i]) >= 0 {
					i++
				}
			case i < n && script[i] == '/':
				delimited()
			case i+1 < n && script[i] == '\\':
				i++
				delimited()
			}
			for i < n && (script[i] == 'I' || script[i] == 'M') && k == 0 && i > 0 && script[i-1] == '/' {
				i++
			}
			if i < n && script[i] == ',' {
				i++
				continue
			}
			break
		}
		for i < n && (script[i] == ' ' || script[i] == '\t' || script[i] == '!') {
			i++
		}
	}
	for guard := 0; i < n && guard < 4096; guard++ {
		for i < n && strings.IndexByte(" \t\n;", script[i]) >= 0 {
			i++
		}
		if i >= n {
			break
		}
		address()
		if i >= n {
			break
		}
		cmd := script[i]
		i++
		switch cmd {
		case '{', '}':
		case '#':
			restOfLine()
		case 'a', 'i':
			adds++
			restOfLine()
		case 'c':
			others++
			restOfLine()
		case 'e':
			others++
			if c := strings.TrimSpace(restOfLine()); c != "" {
				runs = append(runs, c)
			} else {
				runs = append(runs, patternSpace) // a bare e runs the line itself
			}
		case 's':
			others++
			_, ok1 := delimited()
			i-- // the closing delimiter of the pattern opens the replacement
			repl, ok2 := delimited()
			if !ok1 || !ok2 {
				return runs, false
			}
			flags := ""
			for i < n && strings.IndexByte("\n;}", script[i]) < 0 {
				if script[i] == 'w' { // s///w FILE: the rest of the line is a file name
					restOfLine()
					break
				}
				flags += script[i : i+1]
				i++
			}
			if strings.Contains(flags, "e") && strings.TrimSpace(repl) != "" {
				runs = append(runs, repl)
			}
		case 'y':
			others++
			delimited()
			i--
			delimited()
		case 'r', 'R', 'w', 'W', 'b', 't', 'T', ':':
			others++
			for i < n && script[i] != '\n' && (script[i] != ';' || cmd == 'r' || cmd == 'w' || cmd == 'R' || cmd == 'W') {
				i++
			}
		default:
			others++
		}
	}
	return runs, adds > 0 && others == 0
}

// patternSpace stands for the line sed's bare e command runs.
const patternSpace = "\x00pattern"

// sedRuns analyses the commands a sed program runs; a bare e runs each input line (the text
// piped in, when known, or what an s/// before it made of it).
func (a *analyzer) sedRuns(c *Cmd, st *state) {
	for _, s := range sedScripts(c.Args) {
		runs, _ := sedProgram(s)
		for _, r := range runs {
			if r != patternSpace {
				a.nested(r, "sed e", st, nil, c)
				continue
			}
			if c.Stdin != nil && c.Stdin.Known {
				a.nested(c.Stdin.Text, "sed e", st, nil, c)
			}
			if repl := sedReplacements(s); repl != "" {
				a.nested(repl, "sed e", st, nil, c)
			}
		}
	}
}

// sedReplacements joins the replacements of a program's s commands: what the pattern space
// holds after them, as far as the program shows it.
func sedReplacements(script string) string {
	var out []string
	for _, part := range strings.Split(script, ";") {
		if p := strings.TrimSpace(part); len(p) > 3 && p[0] == 's' {
			if fields := strings.Split(p[2:], p[1:2]); len(fields) >= 2 {
				out = append(out, fields[1])
			}
		}
	}
	return strings.Join(out, "\n")
}

// sedAppends reports a sed program that only adds lines.
func sedAppends(args []string) bool {
	if p := sedOpts.Parse(args); p.Has("n", "quiet", "silent") {
		return false // sed -n -i prints only what it adds: the file is rewritten to that
	}
	scripts := sedScripts(args)
	for _, s := range scripts {
		if _, adds := sedProgram(s); !adds || strings.HasPrefix(s, "#n") {
			return false
		}
	}
	return len(scripts) > 0
}
