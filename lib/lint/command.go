package lint

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"mvdan.cc/sh/v3/syntax"
)

// command checks a command handler: exec form (args present) or shell form.
func (c *checker) command(ms []member, path string) {
	cmd, ok := get(ms, "command")
	if !ok || cmd.Type != gjson.String || cmd.Str == "" {
		return // reported as handler.missing-field
	}
	cpath := join(path, "command")
	shell, hasShell := get(ms, "shell")
	if args, ok := get(ms, "args"); ok {
		bad := !args.IsArray()
		for _, a := range args.Array() {
			bad = bad || a.Type != gjson.String
		}
		if bad {
			c.add(Error, "exec.args", join(path, "args"), "args must be an array of strings, one per argv entry")
		}
		if hasShell {
			c.add(Warning, "shell.ignored", join(path, "shell"), "shell is ignored in exec form (args is present): the command is spawned without a shell")
		}
		p, dynamic := c.expand(cmd.Str)
		if !dynamic {
			c.program(cmd.Str, p, cpath, Error, "exec.not-found", "the hook cannot start")
		}
		return
	}
	if hasShell {
		if shell.Str == "powershell" {
			return // another language: the checks below are for sh
		}
		if shell.Str != "bash" {
			c.add(Error, "shell.unknown", join(path, "shell"), "shell must be \"bash\" or \"powershell\", not %s", shell.Raw)
		}
	}
	c.shellForm(cmd.Str, cpath)
}

// expand substitutes ~, $HOME and ${CLAUDE_PROJECT_DIR} the way the hook's process would see
// them, approximately; dynamic is true when other variables or substitutions remain. Exec form
// has no shell: the whole string is the program, quotes and all.
func (c *checker) expand(s string) (string, bool) {
	doc, err := syntax.NewParser().Document(strings.NewReader(s))
	if err != nil {
		return s, true
	}
	w := reader{src: s, home: c.home, project: c.project, doc: true}.word(doc)
	return w.value, w.dynamic || w.value == ""
}

// program checks that the program a command starts exists and is executable.
func (c *checker) program(written, p, path string, sev Severity, rule, consequence string) {
	if !strings.Contains(p, "/") {
		if _, err := exec.LookPath(p); err != nil {
			c.add(sev, rule, path, "%s is not on PATH here (%s if Claude Code's PATH lacks it too)", p, consequence)
		}
		return
	}
	if !filepath.IsAbs(p) {
		c.add(Warning, "command.relative-path", path, "%s is relative to the session's working directory, which follows cd; start it with \"$CLAUDE_PROJECT_DIR\"/", written)
		return
	}
	fi, err := os.Stat(p)
	switch {
	case err != nil && os.IsNotExist(err):
		c.add(sev, rule, path, "%s does not exist (%s)", written, consequence)
	case err != nil:
		c.add(sev, rule, path, "%s cannot be checked: %v", written, err)
	case fi.IsDir():
		c.add(sev, rule, path, "%s is a directory (%s)", written, consequence)
	case fi.Mode()&0o111 == 0:
		c.add(sev, rule, path, "%s is not executable (%s); chmod +x it", written, consequence)
	}
}

// shellForm checks a command run by sh -c: quoting hazards, then the program it starts.
func (c *checker) shellForm(cmd, path string) {
	sc := readShell(cmd, c.home, c.project)
	if sc.open != "" {
		open := sc.open
		if strings.Contains("'\"`", open) {
			open = "the " + open + " quote"
		}
		c.add(Warning, "shell.unbalanced-quotes", path, "%s is never closed: sh cannot parse this command and the hook never runs", open)
		return
	}
	if sc.syntax != "" {
		c.add(Warning, "shell.syntax", path, "sh cannot parse this command (%s) and the hook never runs", sc.syntax)
		return
	}
	if sc.backslash {
		c.add(Warning, "shell.backslash-path", path, "backslashes in a Windows path are shell escapes (Git Bash turns C:\\Users\\x into C:Usersx); use forward slashes or exec form")
	}
	for _, v := range sc.unquoted {
		c.add(Warning, "shell.unquoted-var", path, "$%s is unquoted: a path with a space splits the command; write \"$%s\"/...", v, v)
	}
	if len(sc.words) == 0 || sc.backslash {
		return
	}
	w := sc.words[0]
	if w.dynamic || builtin(w.value) {
		return
	}
	if w.quotedTilde {
		c.add(Warning, "shell.quoted-tilde", path, "~ is not expanded inside quotes, so the program is looked up in a directory called ~; write \"$HOME\"/...")
		return
	}
	if filepath.IsAbs(w.value) && len(sc.words) > 1 && !exists(w.value) {
		next := sc.words[1]
		cont := strings.Contains(next.value, "/") && strings.IndexByte("-/$~.", next.value[0]) < 0
		if cont || exists(w.value+" "+next.value) {
			c.add(Warning, "shell.unquoted-space", path, "%s %s looks like one path with a space in it; quote it, or sh runs %s", w.raw, next.raw, w.raw)
			return
		}
	}
	c.program(w.raw, w.value, path, Warning, "shell.not-found", "sh exits 127 and the hook does nothing")
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// builtins are the shell words that are not programs on disk. A string, not a map: the
// package builds nothing at start-up.
const builtins = `. : [ [[ { ! alias bg break builtin case cd command continue declare echo eval exec
	exit export false fc fg for function getopts hash if jobs kill let local printf pwd read readonly
	return select set shift source test time trap true type typeset ulimit umask unalias unset until
	wait while`

func builtin(w string) bool { return slices.Contains(strings.Fields(builtins), w) }

// word is one word of a shell command, as far as the checks need it.
type word struct {
	raw         string // as written
	value       string // quotes removed; ~, $HOME and $CLAUDE_PROJECT_DIR expanded
	dynamic     bool   // holds something not resolved here: another variable, a substitution, a glob
	quotedTilde bool   // starts with a quoted ~, which sh does not expand
}

// shellLine is what the parser's tree of a shell-form command says, as far as the checks need it.
type shellLine struct {
	words     []word   // the words of the first command that starts a program, without VAR=value prefixes
	open      string   // what is never closed ("'", "${", "$("), "" when the command parses
	syntax    string   // the parser's complaint when the command fails to parse for another reason
	backslash bool     // a Windows path such as C:\x outside single quotes
	unquoted  []string // path variables expanded where sh splits them
}

// readShell parses a shell-form command as bash does and walks its tree. When it does not
// parse, open or syntax says why, and words come from the text before the error.
func readShell(s, home, project string) shellLine {
	var sl shellLine
	f, err := parseShell(s)
	if err != nil {
		var pe syntax.ParseError
		if !errors.As(err, &pe) {
			sl.syntax = err.Error()
			return sl
		}
		if sl.open = opened(pe.Text); sl.open == "" {
			sl.syntax = pe.Text
		}
		// The text before the error still names the program the command meant to start.
		f = nil
		for end := int(pe.Pos.Offset()); f == nil && end > 0 && end < len(s); end = int(pe.Pos.Offset()) {
			g, err := parseShell(s[:end])
			if err == nil {
				f = g
			} else if !errors.As(err, &pe) || int(pe.Pos.Offset()) >= end {
				break
			}
		}
		if f == nil {
			return sl
		}
	}
	r := reader{src: s, home: home, project: project}
	for _, a := range firstCall(f) {
		sl.words = append(sl.words, r.word(a))
	}
	if sl.open == "" && sl.syntax == "" {
		sl.hazards(f, s, false)
	}
	return sl
}

// parseShell parses bash. A here-document left open at the end is closed there, as bash does.
func parseShell(s string) (*syntax.File, error) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	f, err := p.Parse(strings.NewReader(s), "")
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		if stop, ok := strings.CutPrefix(pe.Text, "unclosed here-document "); ok && len(stop) > 2 {
			return p.Parse(strings.NewReader(s+"\n"+stop[1:len(stop)-1]+"\n"), "")
		}
	}
	return f, err
}

// opened returns what a parse error says is never closed: a quote, or an opening such as ${
// or $(, "" for other errors.
func opened(text string) string {
	for _, prefix := range []string{"reached EOF without closing quote ", "reached EOF without matching "} {
		if rest, ok := strings.CutPrefix(text, prefix); ok && len(rest) > 2 {
			// The parser quotes the token with ` or, when it is a backquote, with ".
			if end := strings.IndexByte(rest[1:], rest[0]); end > 0 {
				return rest[1 : 1+end]
			}
		}
	}
	return ""
}

// firstCall returns the words of the first command, in the order sh runs them, that starts a
// program: inside a subshell, a group or a list, after VAR=value prefixes. Substitutions and
// function bodies run later or elsewhere, and declarations, tests and arithmetic start none.
func firstCall(f *syntax.File) []*syntax.Word {
	var args []*syntax.Word
	done := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if done {
			return false
		}
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				args, done = n.Args, true
			}
		case *syntax.DeclClause, *syntax.LetClause, *syntax.TestClause, *syntax.ArithmCmd:
			done = true
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			return false
		}
		return !done
	})
	return args
}

// hazards walks the tree for the quoting mistakes the checks warn about. quoted is true inside
// double quotes and wherever else sh does not split words.
func (sl *shellLine) hazards(n syntax.Node, src string, quoted bool) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DblQuoted:
			if !quoted {
				for _, p := range n.Parts {
					sl.hazards(p, src, true)
				}
				return false
			}
		case *syntax.CmdSubst:
			if quoted {
				for _, s := range n.Stmts {
					sl.hazards(s, src, false)
				}
				return false
			}
		case *syntax.Assign:
			// An assignment's value is not split; an array's elements are.
			if n.Value != nil {
				sl.hazards(n.Value, src, true)
			}
			if n.Array != nil {
				sl.hazards(n.Array, src, quoted)
			}
			return false
		case *syntax.Redirect:
			if n.Word != nil {
				sl.hazards(n.Word, src, quoted)
			}
			if n.Hdoc != nil {
				sl.hazards(n.Hdoc, src, true)
			}
			return false
		case *syntax.Lit:
			for i := int(n.Pos().Offset()); i < min(int(n.End().Offset()), len(src)); i++ {
				if src[i] == '\\' {
					sl.backslash = sl.backslash || winPath(src, i)
					i++ // the escaped byte
				}
			}
		case *syntax.ParamExp:
			if name := n.Param; !quoted && name != nil && !n.Length && !n.Excl && pathVar(name.Value) && !slices.Contains(sl.unquoted, name.Value) {
				sl.unquoted = append(sl.unquoted, name.Value)
			}
		}
		return true
	})
}

func pathVar(name string) bool {
	return name == "CLAUDE_PROJECT_DIR" || name == "CLAUDE_PLUGIN_ROOT" || name == "CLAUDE_PLUGIN_DATA"
}

// reader gives the value of the parser's words, expanding what the hook's process would see.
type reader struct {
	src, home, project string
	doc                bool // exec form, read as a here-document: quotes and backslashes stay as written
}

func (r reader) word(w *syntax.Word) word {
	if w == nil || len(w.Parts) == 0 {
		return word{}
	}
	out := word{raw: r.src[w.Pos().Offset():w.End().Offset()]}
	var b strings.Builder
	for i, p := range w.Parts {
		r.part(p, i == 0, false, &b, &out)
	}
	out.value = b.String()
	return out
}

func (r reader) part(p syntax.WordPart, first, quoted bool, b *strings.Builder, w *word) {
	switch p := p.(type) {
	case *syntax.Lit:
		v := p.Value
		if rest, ok := strings.CutPrefix(v, "~"); ok && first && !quoted {
			// ~ and ~/x are the home directory; ~user is not resolved here.
			if rest == "" || rest[0] == '/' {
				w.dynamic = w.dynamic || r.home == ""
				v = r.home + rest
			} else {
				w.dynamic = true
			}
		}
		if r.doc {
			b.WriteString(v)
			return
		}
		for i := 0; i < len(v); i++ {
			c := v[i]
			switch {
			case c == '\\' && i+1 < len(v) && (!quoted || strings.IndexByte("$`\"\\", v[i+1]) >= 0):
				i++
				c = v[i]
			case !quoted && strings.IndexByte("*?[", c) >= 0:
				w.dynamic = true
			}
			b.WriteByte(c)
		}
	case *syntax.SglQuoted:
		w.quotedTilde = w.quotedTilde || first && strings.HasPrefix(p.Value, "~")
		w.dynamic = w.dynamic || p.Dollar
		b.WriteString(p.Value)
	case *syntax.DblQuoted:
		if l, ok := firstPart(p.Parts).(*syntax.Lit); ok && first && strings.HasPrefix(l.Value, "~") {
			w.quotedTilde = true
		}
		w.dynamic = w.dynamic || p.Dollar
		for _, q := range p.Parts {
			r.part(q, false, true, b, w)
		}
	case *syntax.ParamExp:
		// Only $NAME and ${NAME} are resolved; ${NAME:-x} and the like depend on the environment.
		name := ""
		if p.Param != nil {
			name = p.Param.Value
		}
		switch raw := r.src[p.Pos().Offset():p.End().Offset()]; {
		case raw != "$"+name && raw != "${"+name+"}":
			w.dynamic = true
		case name == "HOME":
			w.dynamic = w.dynamic || r.home == ""
			b.WriteString(r.home)
		case name == "CLAUDE_PROJECT_DIR":
			b.WriteString(r.project)
		default:
			w.dynamic = true
		}
	default: // substitutions, arithmetic, extended globs
		w.dynamic = true
	}
}

func firstPart(ps []syntax.WordPart) syntax.WordPart {
	if len(ps) == 0 {
		return nil
	}
	return ps[0]
}

// winPath reports whether the backslash at s[i] follows a drive (C:\) or starts .\ or ..\ .
func winPath(s string, i int) bool {
	if i >= 2 && s[i-1] == ':' && isLetter(s[i-2]) && (i == 2 || strings.IndexByte(" \t\"'=", s[i-3]) >= 0) {
		return true
	}
	j := i
	for j > 0 && s[j-1] == '.' && i-j < 2 {
		j--
	}
	return j < i && (j == 0 || strings.IndexByte(" \t\"'", s[j-1]) >= 0)
}
