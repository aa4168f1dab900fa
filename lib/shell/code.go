package shell

import (
	"regexp"
	"strings"
	"sync"
)

// interpreters run program text given inline (-c, -e, ...) or on stdin.
var interpreters = map[string]bool{"perl": true, "ruby": true, "node": true, "nodejs": true, "bun": true,
	"deno": true, "php": true, "awk": true, "gawk": true, "mawk": true, "nawk": true, "lua": true,
	"luajit": true, "Rscript": true, "osascript": true, "pwsh": true, "powershell": true, "tclsh": true, "irb": true}

func isPython(name string) bool {
	return strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy")
}

// interpreterCode fills c.Code from an interpreter's inline program, or from its stdin when it
// reads its program there, and reports whether the command is an interpreter run.
func interpreterCode(c *Cmd) bool {
	name := c.Name
	if !interpreters[name] && !isPython(name) {
		return false
	}
	var code []string
	script := false // a script file operand
	args := c.Args
	switch {
	case name == "deno":
		if len(args) >= 2 && args[0] == "eval" {
			code = append(code, args[1])
		}
		script = len(code) == 0
	case strings.HasSuffix(name, "awk"):
		p := Opts{Short: "FvfE", Long: []string{"field-separator", "assign", "file", "source", "exec"}}.Parse(args)
		if s, ok := p.Value("source"); ok {
			code = append(code, s)
		}
		if !p.Has("f", "file", "E", "exec") && len(p.Operands) > 0 {
			code = append(code, p.Operands[0])
		}
		script = true
	default:
		flag := map[string]string{"php": "r", "pwsh": "c", "powershell": "c"}[name]
		if flag == "" {
			flag = "e"
			if isPython(name) {
				flag = "c"
			}
		}
		for i := 0; i < len(args); i++ {
			arg := args[i]
			if arg == "--eval" || arg == "--print" || arg == "-Command" || arg == "-command" {
				if i+1 < len(args) {
					code = append(code, args[i+1])
					i++
				}
				continue
			}
			if strings.HasPrefix(arg, "--eval=") || strings.HasPrefix(arg, "--print=") {
				_, v, _ := strings.Cut(arg, "=")
				code = append(code, v)
				continue
			}
			if !strings.HasPrefix(arg, "-") || arg == "-" {
				script = script || arg != "-"
				if isPython(name) || name == "node" || name == "ruby" || name == "perl" {
					break // the script's own arguments follow
				}
				continue
			}
			if name == "node" && arg == "-p" {
				arg = "-e"
			}
			if len(arg) > 2 && (name == "perl" || name == "ruby") && strings.IndexByte("MmIrCx", arg[1]) >= 0 {
				continue // -MModule, -Idir, -rlib: the rest of the word is the option's value
			}
			if k := strings.Index(arg, flag); k > 0 && !strings.HasPrefix(arg, "--") {
				if rest := arg[k+1:]; rest != "" {
					code = append(code, rest)
				} else if i+1 < len(args) {
					code = append(code, args[i+1])
					i++
				}
				if isPython(name) {
					break // python -c ends the options; what follows is sys.argv
				}
			}
			if isPython(name) && (arg == "-m" || strings.HasSuffix(arg, "m")) && len(code) == 0 && !strings.Contains(arg, flag) {
				script = true
				break
			}
		}
	}
	if len(code) == 0 && !script && c.Stdin != nil {
		c.Runs = append(c.Runs, c.Stdin.From...)
		if c.Stdin.Known {
			code = append(code, c.Stdin.Text)
		}
	}
	c.Code = strings.Join(code, "\n")
	return c.Code != ""
}

// Calls in interpreter code that run shell text, run a program with arguments, or delete files.
var codePatterns = sync.OnceValue(func() [3]*regexp.Regexp {
	return [3]*regexp.Regexp{
		regexp.MustCompile(`(?:\bos\.system|\bos\.popen|\bsubprocess\.(?:getoutput|getstatusoutput)|\bcommands\.getoutput|\bshell_exec|\bpassthru|\bproc_open|\bpopen|\bsystem|\bexecSync|\bexec|\bos\.execute|\bIO\.popen|\bOpen3\.\w+|\bspawnSync|\bspawn|\bexecFileSync|\bexecFile|\bsubprocess\.(?:run|call|check_call|check_output|Popen)|\bpty\.spawn|\bos\.exec\w*|\bos\.spawn\w*|\bDeno\.run|\bBun\.spawn(?:Sync)?)\s*\(?\s*`),
		regexp.MustCompile(`(?:\bshutil\.rmtree|\bos\.removedirs|\b(?:rmSync|rmdirSync|unlinkSync)|(?:\bfs\.|\)\.|\bpromises\.)(?:rm|rmdir)\b|\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree)|\brmtree|\bremove_tree|\bDeno\.remove(?:Sync)?|\bDir\.rmdir|\bFile\.delete|\bos\.remove|\bos\.unlink|\bos\.rmdir|\bunlink|\brmdir|\bfs\.unlinkSync)\s*\(?\s*`),
		regexp.MustCompile("`([^`]*)`|\\bqx\\s*[({\\[/]([^)}\\]/]*)|%x\\(([^)]*)\\)"),
	}
})

// code analyses interpreter code: shell text and argument lists it executes become nested
// commands, and deleting calls become the rm they amount to.
func (a *analyzer) code(c *Cmd, st *state) {
	code := c.Code
	if len(code) > 64<<10 {
		code = code[:64<<10]
	}
	via := c.Name + " code"
	pats := codePatterns()
	for _, m := range pats[0].FindAllStringIndex(code, 32) {
		call := code[m[0]:m[1]]
		rest := code[m[1]:]
		if list, ok := listLiteral(rest); ok {
			a.simple(&Cmd{Dir: st.cwd, Via: []string{via}, Text: c.Text, Remote: c.Remote}, list, st.child())
			continue
		}
		if s, ok := stringLiteral(rest); ok {
			if strings.Contains(call, "spawn") || strings.Contains(call, "execFile") || strings.Contains(call, "os.exec") {
				if words := strings.Fields(s); len(words) > 0 && !strings.Contains(rest, "shell") {
					args, _ := listLiteral(afterFirstArg(rest))
					a.simple(&Cmd{Dir: st.cwd, Via: []string{via}, Text: c.Text, Remote: c.Remote}, append(words, args...), st.child())
					continue
				}
			}
			a.nested(s, via, st, nil, nil)
		}
	}
	for _, m := range pats[1].FindAllStringIndex(code, 32) {
		call := code[m[0]:m[1]]
		target, ok := stringLiteral(code[m[1]:])
		if !ok {
			target, ok = pathExpr(code[m[1]:], a.world.Home)
		}
		if !ok {
			continue
		}
		args := []string{target}
		if recursiveDelete(call, code[m[1]:]) {
			args = []string{"-rf", target}
		}
		sc := &Cmd{Dir: st.cwd, Via: []string{via}, Text: c.Text, Remote: c.Remote}
		a.record(sc, append([]string{"rm"}, args...))
	}
	for _, m := range pats[2].FindAllStringSubmatch(code, 16) {
		for _, s := range m[1:] {
			if s != "" {
				a.nested(s, via, st, nil, nil)
			}
		}
	}
}

func recursiveDelete(call, rest string) bool {
	if strings.Contains(call, "rmtree") || strings.Contains(call, "rm_r") || strings.Contains(call, "remove_dir") ||
		strings.Contains(call, "remove_tree") || strings.Contains(call, "removedirs") || strings.Contains(call, "remove_entry") {
		return true
	}
	end := strings.IndexAny(rest, ");")
	if end < 0 {
		end = len(rest)
	}
	return strings.Contains(rest[:end], "recursive")
}

// stringLiteral reads a quoted string at the start of s: '...', "...", `...`, r'...',
// f"...", triple quotes; escapes decoded the common way.
func stringLiteral(s string) (string, bool) {
	s = strings.TrimLeft(s, " \t\n(")
	for len(s) > 0 && strings.IndexByte("rRbBfFuU", s[0]) >= 0 && len(s) > 1 && (s[1] == '\'' || s[1] == '"' || strings.IndexByte("rRbBfF", s[1]) >= 0) {
		s = s[1:]
	}
	if s == "" {
		return "", false
	}
	q := s[0]
	if q != '\'' && q != '"' && q != '`' {
		return "", false
	}
	if strings.HasPrefix(s, strings.Repeat(string(q), 3)) {
		end := strings.Index(s[3:], strings.Repeat(string(q), 3))
		if end < 0 {
			return "", false
		}
		return s[3 : 3+end], true
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[i])
			}
		case c == q:
			return b.String(), true
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// listLiteral reads a list of string literals at the start of s: ["rm", "-rf", "/"].
func listLiteral(s string) ([]string, bool) {
	s = strings.TrimLeft(s, " \t\n(")
	if !strings.HasPrefix(s, "[") {
		return nil, false
	}
	s = s[1:]
	var out []string
	for {
		s = strings.TrimLeft(s, " \t\n,")
		if strings.HasPrefix(s, "]") {
			return out, len(out) > 0
		}
		v, ok := stringLiteral(s)
		if !ok {
			if len(out) > 0 {
				return append(out, Dyn), true
			}
			return nil, false
		}
		out = append(out, v)
		s = skipLiteral(s)
	}
}

func skipLiteral(s string) string {
	s = strings.TrimLeft(s, " \t\n")
	for len(s) > 0 && strings.IndexByte("rRbBfFuU", s[0]) >= 0 {
		s = s[1:]
	}
	if s == "" {
		return s
	}
	q := s[0]
	for i := 1; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == q {
			return s[i+1:]
		}
	}
	return ""
}

func afterFirstArg(s string) string {
	s = skipLiteral(strings.TrimLeft(s, " \t\n("))
	return strings.TrimLeft(s, " \t\n,")
}

// pathExpr understands the few non-literal path expressions that name home or root.
func pathExpr(s, home string) (string, bool) {
	s = strings.TrimLeft(s, " \t\n(")
	for _, h := range []string{"os.path.expanduser(\"~\")", "os.path.expanduser('~')", "Path.home()", "pathlib.Path.home()",
		"os.homedir()", "require('os').homedir()", "Dir.home", "ENV['HOME']", "ENV[\"HOME\"]", "os.environ['HOME']",
		"os.environ[\"HOME\"]", "process.env.HOME", "$ENV{HOME}", "$ENV{'HOME'}", "getenv('HOME')", "getenv(\"HOME\")"} {
		if strings.HasPrefix(s, h) {
			return home, true
		}
	}
	return "", false
}
