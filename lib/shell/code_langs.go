// Interpreters whose calls read otherwise: R's system2, Julia's run and rm, Tcl's exec and
// file delete, turned into the commands they amount to.

package shell

import (
	"slices"
	"strings"
)

// langCalls records what R, Julia and Tcl code runs and deletes, as code does for the
// languages whose calls take a parenthesised argument list of plain literals.
func (a *analyzer) langCalls(c *Cmd, code string, st *state, sub func() *Cmd) {
	switch {
	case c.Name == "Rscript" || c.Name == "R":
		// system2("rm", c("-rf", "/home/dev")): a program and a vector of its arguments.
		for _, m := range findCalls(code, []string{"system2"}) {
			args := splitArgs(callArgs(m[1]))
			prog, ok := a.langWord(args, 0, st)
			if !ok {
				continue
			}
			words := []string{prog}
			if len(args) > 1 {
				v := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(args[1]), "args"))
				v = strings.TrimSpace(strings.TrimPrefix(v, "="))
				if strings.HasPrefix(v, "c(") {
					for _, e := range splitArgs(callArgs(v[2:])) {
						words = append(words, a.literalOr(e, st))
					}
				} else {
					words = append(words, a.literalOr(v, st))
				}
			}
			a.simple(sub(), words, st.child())
		}
	case c.Name == "julia":
		// run(`git push --force origin main`): a command literal, split into words, no shell.
		for _, m := range findCalls(code, []string{"run", "read", "success", "pipeline"}) {
			rest := strings.TrimLeft(m[1], " \t")
			if m[0] == "pipeline" {
				// pipeline(`curl URL`, `bash`): the commands piped one into the next
				var stages []string
				for _, part := range splitArgs(callArgs(m[1])) {
					part = strings.TrimSpace(part)
					if len(part) > 1 && part[0] == '`' && strings.IndexByte(part[1:], '`') == len(part)-2 {
						stages = append(stages, part[1:len(part)-1])
					}
				}
				if len(stages) > 1 {
					a.nested(strings.Join(stages, " | "), "julia code", st, nil, c)
					continue
				}
			}
			if !strings.HasPrefix(rest, "`") {
				continue
			}
			if end := strings.IndexByte(rest[1:], '`'); end >= 0 {
				a.nested(rest[1:1+end], "julia code", st, nil, c)
			}
		}
		// rm(path; recursive=true): Base.rm, recursive when told.
		for _, m := range findCalls(code, []string{"rm", "Base.rm"}) {
			target, ok := pathValue(m[1], a.world.Home, st.cwd)
			if !ok {
				continue
			}
			args := []string{target}
			if strings.Contains(callArgs(m[1]), "recursive=true") || strings.Contains(callArgs(m[1]), "recursive = true") {
				args = []string{"-rf", target}
			}
			a.record(sub(), append([]string{"rm"}, args...))
		}
	case c.Name == "rake":
		// rake -e CODE: Ruby, whose sh "..." runs shell text.
		for _, m := range findCalls(code, []string{"sh", "ruby"}) {
			if text, ok := stringLiteral(m[1]); ok {
				a.nested(interpolateHome(text, a.world.Home, st.cwd), "rake sh", st, nil, c)
			}
		}
	case c.Name == "tclsh" || c.Name == "wish" || c.Name == "expect":
		// Tcl's commands are lines of words: exec PROG ARGS runs a program, file delete
		// [-force] PATH... deletes (recursively with -force).
		vars := map[string]string{}
		for _, line := range strings.FieldsFunc(code, func(r rune) bool { return r == '\n' || r == ';' }) {
			words := tclWords(line, a.world.Home, vars)
			if len(words) == 3 && words[0] == "set" {
				vars[words[1]] = words[2] // set d /etc: $d is /etc below
				continue
			}
			switch {
			case len(words) > 1 && words[0] == "exec":
				a.simple(sub(), words[1:], st.child())
			case len(words) > 2 && words[0] == "file" && words[1] == "delete":
				rm := []string{"rm"}
				for _, w := range words[2:] {
					switch {
					case w == "-force":
						rm = append(rm, "-rf")
					case w == "--":
					default:
						rm = append(rm, a.resolve(w, st.cwd))
					}
				}
				a.record(sub(), rm)
			}
		}
	}
}

// langWord is the literal (or evaluated path) at args[i].
func (a *analyzer) langWord(args []string, i int, st *state) (string, bool) {
	if i >= len(args) {
		return "", false
	}
	if v, ok := stringLiteral(args[i]); ok {
		return v, true
	}
	return pathValue(args[i], a.world.Home, st.cwd)
}

// literalOr is a call argument's literal or evaluated path, else a run-time value.
func (a *analyzer) literalOr(e string, st *state) string {
	if v, ok := stringLiteral(e); ok && strings.TrimSpace(skipLiteral(e)) == "" {
		return v
	}
	if v, ok := pathValue(e, a.world.Home, st.cwd); ok {
		return v
	}
	return Dyn
}

// tclWords splits a Tcl command line into words: braces and double quotes group, $env(HOME)
// and ~ are home, a variable set earlier is its value; a word with another substitution ($x,
// [cmd]) is a run-time value.
func tclWords(line, home string, vars map[string]string) []string {
	var out []string
	s := strings.TrimSpace(line)
	for s != "" {
		var w string
		switch s[0] {
		case '{':
			end := strings.IndexByte(s, '}')
			if end < 0 {
				end = len(s) - 1
			}
			w, s = s[1:end], s[min(end+1, len(s)):]
		case '"':
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				end = len(s) - 2
			}
			w, s = s[1:1+end], s[min(end+2, len(s)):]
		default:
			end := strings.IndexAny(s, " \t")
			if end < 0 {
				end = len(s)
			}
			w, s = s[:end], s[end:]
		}
		w = strings.ReplaceAll(strings.ReplaceAll(w, "$env(HOME)", home), "$::env(HOME)", home)
		for k, v := range vars {
			w = strings.ReplaceAll(w, "${"+k+"}", v)
			if strings.HasPrefix(w, "$"+k) && (len(w) == len(k)+1 || !isIdent(w[len(k)+1])) {
				w = v + w[len(k)+1:]
			}
		}
		if w == "~" || strings.HasPrefix(w, "~/") {
			w = home + w[1:]
		}
		if strings.ContainsAny(w, "$[") {
			w = Dyn
		}
		out = append(out, w)
		s = strings.TrimLeft(s, " \t")
	}
	return out
}

// loopList reads a delete call's argument that is a loop variable: the elements of the list the
// loop walks, when the code binds the variable by for NAME in [...] / (...) (Python, and its
// comprehensions), for (const NAME of [...]) (JavaScript), for my $NAME (...) (Perl) or
// [...].each { |NAME| (Ruby). A list that is not all literals gives one run-time value.
func loopList(code, rest, home, cwd string) ([]string, bool) {
	arg := strings.TrimLeft(rest, " \t(")
	// File.expand_path(d), os.path.expanduser(p), path.resolve(p): the variable inside; the
	// first two expand a leading ~ of each element.
	expand := false
	for _, w := range []string{"File.expand_path(", "os.path.expanduser(", "os.path.abspath(", "os.path.realpath(", "path.resolve(", "Path(", "pathlib.Path("} {
		if v, ok := strings.CutPrefix(arg, w); ok {
			arg, expand = v, w == "File.expand_path(" || w == "os.path.expanduser("
			break
		}
	}
	list, ok := loopOver(code, arg, rest, home, cwd)
	if expand {
		for i, e := range list {
			list[i] = tilde(e, home)
		}
	}
	return list, ok
}

// loopOver is loopList for the bare argument arg.
func loopOver(code, arg, rest, home, cwd string) ([]string, bool) {
	n := 0
	for n < len(arg) && (isIdent(arg[n]) || n == 0 && arg[n] == '$') {
		n++
	}
	name := strings.TrimPrefix(arg[:n], "$")
	if n < len(arg) && arg[n] == '.' {
		// d.strip, p.trim(), line.chomp: the loop variable with its text tidied
		m := n + 1
		for m < len(arg) && isIdent(arg[m]) {
			m++
		}
		if strings.HasPrefix(arg[m:], "()") {
			m += 2
		}
		if m > n+1 {
			n = m
		}
	}
	if name == "" || n == len(arg) || arg[n] != ')' && arg[n] != ',' && arg[n] != ' ' {
		return nil, false
	}
	if name == "_" {
		// Perl's postfix loop: remove_tree($_) for (LIST)
		for _, kw := range []string{" for (", " foreach (", " for(", " foreach("} {
			if i := strings.Index(rest, kw); i >= 0 {
				return listElems(rest[i+len(kw)-1:], home, cwd), true
			}
		}
	}
	for _, form := range []struct{ before, after string }{
		{"for " + name + " in ", ""}, {"for (const " + name + " of ", ""}, {"for (let " + name + " of ", ""},
		{"for (var " + name + " of ", ""}, {"for my $" + name + " ", ""}, {"foreach my $" + name + " ", ""},
		{"for (" + name + " in ", ""}, // R
	} {
		i := strings.Index(code, form.before)
		if i < 0 {
			continue
		}
		return listElems(code[i+len(form.before):], home, cwd), true
	}
	if i := strings.Index(code, "|"+name+"|"); i >= 0 {
		// [...].each { |d| ... }: the list before .each
		head := code[:i]
		if j := strings.LastIndex(head, ".each"); j >= 0 {
			head = strings.TrimRight(head[:j], " \t")
			if k := strings.LastIndex(head, "%w["); k >= 0 && strings.HasSuffix(head, "]") {
				return listElems(head[k:], home, cwd), true
			}
			if k := strings.LastIndexAny(head, "["); k >= 0 && strings.HasSuffix(head, "]") {
				return listElems(head[k:], home, cwd), true
			}
			return []string{Dyn}, true
		}
	}
	return nil, false
}

// listElems reads a literal list at the start of s ([...], (...), or Ruby's %w[...]): its
// elements as paths, or one run-time value when any is not a literal.
func listElems(s, home, cwd string) []string {
	s = strings.TrimLeft(s, " \t")
	if found, ok := walkBase(s, home, cwd); ok {
		return []string{found} // what a walk under a folder matches
	}
	words := false
	if strings.HasPrefix(s, "%w[") || strings.HasPrefix(s, "%w(") {
		s, words = s[2:], true
	}
	if s == "" || s[0] != '[' && s[0] != '(' {
		return []string{Dyn}
	}
	closer := byte(']')
	if s[0] == '(' {
		closer = ')'
	}
	inner := s[1:]
	inner = inner[:closing(inner, closer)]
	var elems []string
	if words {
		elems = strings.Fields(inner)
	} else {
		elems = splitArgs(inner)
	}
	var out []string
	for _, e := range elems {
		v, ok := e, words
		if !words {
			if lit, isLit := stringLiteral(e); isLit && strings.TrimSpace(skipLiteral(e)) == "" {
				v, ok = interpolateHome(lit, home, cwd), true
			} else {
				v, ok = pathValue(e, home, cwd)
			}
		}
		if !ok {
			return []string{Dyn}
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return []string{Dyn}
	}
	return out
}

// walkBase reads a list that a directory walk computes (Path('x').rglob('p'), glob.glob('x/**/p'),
// os.walk('x'), os.listdir('x'), fs.readdirSync('x')): the paths it matches, as a pattern under
// the folder (x/**/p), or anything under it (x/**/*) when no pattern narrows it.
func walkBase(s, home, cwd string) (string, bool) {
	head := s[:min(len(s), 200)]
	for _, call := range []string{"Path(", "pathlib.Path(", "os.walk(", "os.listdir(", "os.scandir(", "readdirSync(", "glob.glob(", "glob.iglob(", "Dir.glob(", "Dir["} {
		if !strings.HasPrefix(head, call) {
			continue
		}
		after := head[len(call):]
		lit, ok := stringLiteral(after)
		if !ok {
			return "", false
		}
		pattern := "**/*"
		if j := strings.IndexAny(lit, "*?["); j >= 0 {
			lit, pattern = lit[:j], lit[j:] // glob.glob('build/**/*.o'): the folder, then the pattern
		} else if k := strings.Index(after, ".rglob("); k >= 0 {
			if p, ok := stringLiteral(after[k+len(".rglob("):]); ok {
				pattern = "**/" + p
			}
		} else if k := strings.Index(after, ".glob("); k >= 0 {
			if p, ok := stringLiteral(after[k+len(".glob("):]); ok {
				pattern = p
			}
		}
		lit = strings.TrimSuffix(lit, "/")
		if lit == "" {
			lit = "."
		}
		if v, ok := pathValue(strconvQuote(lit), home, cwd); ok {
			return strings.TrimSuffix(v, "/") + "/" + pattern, true
		}
	}
	return "", false
}

// loopVariants are an exec call's arguments once per element of the literal list that a loop
// variable among them walks (Perl's for my $d (...), PHP's foreach ([...] as $d), Python's and
// JavaScript's for ... in/of): each element put in, quoted, where the variable stands. Nil when
// no argument is such a variable or the list is not all literals.
func loopVariants(code, rest, home, cwd string) []string {
	args := callArgs(rest)
	for i := 0; i < len(args); i++ {
		sigil := args[i] == '$'
		if !sigil && (i > 0 && (isIdent(args[i-1]) || args[i-1] == '$' || args[i-1] == '.') || !isIdent(args[i]) || args[i] >= '0' && args[i] <= '9') {
			continue
		}
		j := i + 1
		if !sigil {
			j = i
		}
		for j < len(args) && isIdent(args[j]) {
			j++
		}
		name := args[i:j]
		if len(name) < 2 && sigil || name == "" {
			continue
		}
		bare := strings.TrimPrefix(name, "$")
		list, ok := loopOver(code, name+")", rest, home, cwd)
		if !ok && sigil {
			list, ok = phpForeach(code, bare, home, cwd)
		}
		if !ok || len(list) == 0 || slices.Contains(list, Dyn) {
			i = j
			continue
		}
		var out []string
		for _, e := range list {
			q := "'" + strings.ReplaceAll(e, "'", `'"'"'`) + "'"
			out = append(out, replaceWord(rest, name, q))
		}
		return out
	}
	return nil
}

// phpForeach reads PHP's foreach (LIST as $name): the elements of a literal list.
func phpForeach(code, name, home, cwd string) ([]string, bool) {
	i := strings.Index(code, " as $"+name)
	if i < 0 {
		return nil, false
	}
	head := code[:i]
	j := strings.LastIndex(head, "foreach")
	if j < 0 {
		return nil, false
	}
	list := strings.TrimLeft(head[j+len("foreach"):], " \t(")
	if v, ok := strings.CutPrefix(list, "array"); ok {
		list = v
	}
	return listElems(list, home, cwd), true
}

// replaceWord replaces each whole occurrence of name (not part of a longer name) in s.
func replaceWord(s, name, with string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, name)
		if i < 0 {
			return b.String() + s
		}
		end := i + len(name)
		if i > 0 && (isIdent(s[i-1]) || s[i-1] == '$') && name[0] != '$' || end < len(s) && isIdent(s[end]) {
			b.WriteString(s[:end])
			s = s[end:]
			continue
		}
		b.WriteString(s[:i] + with)
		s = s[end:]
	}
}
