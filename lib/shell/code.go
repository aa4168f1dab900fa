package shell

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// interpreters run program text given inline (-c, -e, ...) or on stdin.
var interpreters = map[string]bool{"perl": true, "ruby": true, "node": true, "nodejs": true, "bun": true,
	"deno": true, "php": true, "awk": true, "gawk": true, "mawk": true, "nawk": true, "lua": true,
	"luajit": true, "Rscript": true, "osascript": true, "pwsh": true, "powershell": true, "tclsh": true, "irb": true,
	"julia": true, "wish": true, "R": true, "rake": true}

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
			for _, a := range args[1:] { // deno eval [--unstable ...] CODE
				if !strings.HasPrefix(a, "-") {
					code = append(code, a)
					break
				}
			}
		}
		// deno run [options] -: the program is read from stdin
		script = len(code) == 0 && !(len(args) > 0 && args[0] == "run" && len(args) > 1 && args[len(args)-1] == "-")
	case name == "pwsh" || name == "powershell":
		// PowerShell's own options: -Command takes the rest of the line, -EncodedCommand is
		// decoded; what cannot be decoded is marked for the guard.
		text, unread := psHostCode(name, args)
		if unread != "" {
			c.Unparsed, c.Unread = true, unread
		}
		if text != "" {
			code = append(code, text)
		}
		script = len(args) > 0 && text == "" && unread == "" && args[len(args)-1] != "-"
	case strings.HasSuffix(name, "awk"):
		// -v NAME=VALUE: the program reads NAME as that string
		for i, arg := range args {
			kv := ""
			switch {
			case (arg == "-v" || arg == "--assign") && i+1 < len(args):
				kv = args[i+1]
			case strings.HasPrefix(arg, "-v") && len(arg) > 2:
				kv = arg[2:]
			case strings.HasPrefix(arg, "--assign="):
				kv = arg[len("--assign="):]
			}
			if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
				// awk reads escapes in a -v value as in a string literal: keep them for it
				code = append(code, k+` = "`+strings.ReplaceAll(strings.ReplaceAll(v, `"`, `\"`), "\n", `\n`)+`"`)
			}
		}
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
			if name == "osascript" && (arg == "-l" || arg == "-s") {
				i++ // -l JavaScript names the language, -s the output style: not a script file
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
			if name == "perl" && !strings.HasPrefix(arg, "--") {
				arg = strings.Replace(arg, "E", "e", 1) // -E is -e with the newer features on
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

// Calls in interpreter code that run shell text or a program with arguments.
var execCalls = []string{"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput", "commands.getoutput",
	"shell_exec", "passthru", "proc_open", "popen", "system", "execSync", "exec", "os.execute", "IO.popen", "Open3.capture2",
	"Open3.capture3", "Open3.popen3", "spawnSync", "spawn", "execFileSync", "execFile", "subprocess.run", "subprocess.call",
	"subprocess.check_call", "subprocess.check_output", "subprocess.Popen", "pty.spawn", "os.execv", "os.execvp", "os.execl",
	"os.execlp", "os.spawnv", "os.spawnl", "Deno.run", "Deno.Command", "Bun.spawn", "Bun.spawnSync", "doShellScript", "doScript",
	"exec.Command", "exec.CommandContext"}

// Calls in interpreter code that delete files.
var deleteCalls = []string{"shutil.rmtree", "os.removedirs", "rmSync", "rmdirSync", "unlinkSync", "fs.rm", "fs.rmdir",
	"promises.rm", ").rm", "FileUtils.rm_rf", "FileUtils.rm_r", "FileUtils.remove_dir", "FileUtils.remove_entry", "FileUtils.rmtree",
	"rmtree", "remove_tree", "Deno.remove", "Deno.removeSync", "Dir.rmdir", "File.delete", "os.remove", "os.unlink", "os.rmdir",
	"unlink", "rmdir", "os.RemoveAll", "remove_dir_all", "fs::remove_dir_all", "std::fs::remove_dir_all"}

// awkPipes analyses awk's pipes, which run shell commands: print "TEXT" | "CMD" runs CMD with
// TEXT as its input (TEXT is code when CMD is a shell), "CMD" | getline runs CMD.
func (a *analyzer) awkPipes(code, via string, st *state) {
	for from, n := 0, 0; n < 32; n++ {
		i := strings.IndexByte(code[from:], '|')
		if i < 0 {
			return
		}
		i += from
		from = i + 1
		if i+1 < len(code) && code[i+1] == '|' || i > 0 && code[i-1] == '|' {
			continue // ||
		}
		before := strings.TrimRight(code[:i], " \t")
		after := strings.TrimLeft(code[i+1:], " \t")
		if strings.HasPrefix(after, "getline") {
			if cmd, ok := lastLiteral(before); ok {
				a.nested(cmd, via, st, nil, nil)
			}
			continue
		}
		cmd, ok := stringLiteral(after)
		if !ok {
			continue
		}
		a.nested(cmd, via, st, nil, nil)
		if words := strings.Fields(cmd); len(words) > 0 && shells[progName(words[0])] {
			if text, ok := lastLiteral(before); ok {
				a.nested(text, via, st, nil, nil)
			}
		}
	}
}

// lastLiteral returns the double-quoted string literal that s ends with.
func lastLiteral(s string) (string, bool) {
	if !strings.HasSuffix(s, `"`) {
		return "", false
	}
	for j := len(s) - 2; j >= 0; j-- {
		if s[j] == '"' && (j == 0 || s[j-1] != '\\') {
			return stringLiteral(s[j:])
		}
	}
	return "", false
}

// backticks finds `...`, qx(...) (with any of its delimiter pairs, so a / inside qx{...} is
// text) and %x(...): command text inside perl, ruby and php code.
var backticks = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("`([^`]*)`|\\bqx\\s*(?:\\{([^}]*)\\}|\\(([^)]*)\\)|\\[([^\\]]*)\\]|/([^/]*)/)|%x\\(([^)]*)\\)")
})

// findCalls finds calls of the named functions: the name, not inside a longer identifier,
// then optional spaces and "(" (or a space, for perl and ruby). It returns the call text and
// the text after it, longest name first at each position.
func findCalls(code string, names []string) [][2]string {
	var out [][2]string
	seen := map[int]bool{}
	for _, n := range names {
		eachIndex(code, n, func(i int) bool {
			end := i + len(n)
			if i > 0 && isIdent(code[i-1]) && n[0] != ')' || end < len(code) && isIdent(code[end]) || seen[end] {
				return true
			}
			j := end
			for j < len(code) && (code[j] == ' ' || code[j] == '\t') {
				j++
			}
			if j < len(code) && code[j] == '(' {
				j++
			} else if j == end {
				return true
			}
			seen[end] = true
			out = append(out, [2]string{code[i:end], code[j:]})
			return len(out) < 32
		})
	}
	return out
}

// eachIndex hands each index of word in s to each, in order, until each returns false.
func eachIndex(s, word string, each func(i int) bool) {
	for from := 0; from <= len(s); {
		i := strings.Index(s[from:], word)
		if i < 0 || !each(from+i) {
			return
		}
		from += i + max(1, len(word))
	}
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// code analyses interpreter code: shell text and argument lists it executes become nested
// commands, and deleting calls become the rm they amount to.
func (a *analyzer) code(c *Cmd, st *state) {
	code := c.Code
	if len(code) > 64<<10 {
		code = code[:64<<10]
	}
	if strings.HasPrefix(c.Name, "lua") {
		code = luaEscapes(code)
	}
	via := c.Name + " code"
	// What the code runs or deletes runs where the code does: the same container and mounts.
	sub := func() *Cmd {
		return &Cmd{Dir: st.cwd, Via: []string{via}, Text: c.Text, Remote: c.Remote, Mounts: c.Mounts, Fresh: c.Fresh}
	}
	// each exec call, and again once per element when its argument is a loop variable over a
	// literal list (for my $d (...) { system("rm", "-rf", $d) })
	execCall := func(call, rest string) {
		if v, ok := assignedLiteral(code, rest, a.world.Home, st.cwd); ok {
			rest = v // system(cmd) after cmd = "...": the literal it was given
		}
		home := func(words []string) []string { // "$ENV{HOME}", "#{Dir.home}": interpolated by the interpreter
			for i, w := range words {
				words[i] = interpolateHome(w, a.world.Home, st.cwd)
			}
			return words
		}
		if list, ok := argvList(rest, code, a.world.Home, st.cwd); ok {
			a.simple(sub(), home(list), st.child())
			return
		}
		s, ok := concatLiteral(rest)
		if v, isExpr := pathValue(rest, a.world.Home, st.cwd); isExpr {
			s, ok = v, true // "rm -rf " ENVIRON["HOME"], b64decode('...').decode(): the text it comes to
		}
		if ok && jsTemplate(c.Name, rest) {
			s = templateHoles(s) // execSync(`git checkout ${branch}`): the holes are run-time values
		}
		if ok {
			if argv := argvLiteral(rest, code, a.world.Home, st.cwd); len(argv) > 1 && !strings.Contains(call, "popen") && call != "os.system" && (!strings.Contains(call, "Command") || call == "exec.Command") {
				// system("git", "reset", "--hard"): a program and its arguments, no shell
				a.simple(sub(), home(argv), st.child())
				return
			}
			s = interpolateHome(s, a.world.Home, st.cwd)
			if strings.Contains(call, "spawn") || strings.Contains(call, "execFile") || strings.Contains(call, "os.exec") || strings.Contains(call, "Command") {
				if words := strings.Fields(s); len(words) > 0 && !strings.Contains(rest, "shell") {
					args, _ := argvList(afterFirstArg(rest), code, a.world.Home, st.cwd)
					if i := strings.Index(callArgs(rest), "args:"); i >= 0 && len(args) == 0 {
						args, _ = argvList(callArgs(rest)[i+5:], code, a.world.Home, st.cwd) // new Deno.Command("sh", { args: [...] })
					}
					a.simple(sub(), append(words, args...), st.child())
					return
				}
			}
			a.nested(s, via, st, nil, c)
		}
	}
	// A download to a file (urlretrieve(URL, PATH), wget.download(URL, PATH)) comes first: what
	// the code runs next may be that file.
	for _, m := range findCalls(code, []string{"urlretrieve", "wget.download"}) {
		parts := splitArgs(callArgs(m[1]))
		if len(parts) < 2 {
			continue
		}
		u, ok1 := stringLiteral(strings.TrimSpace(parts[0]))
		dst, ok2 := pathValue(strings.TrimSpace(parts[1]), a.world.Home, st.cwd)
		if ok1 && ok2 {
			a.record(sub(), []string{"curl", "-o", dst, u})
		}
	}
	for _, m := range findCalls(code, execCalls) {
		call, rest := m[0], m[1]
		if vs := loopVariants(code, rest, a.world.Home, st.cwd); len(vs) > 0 {
			for _, v := range vs {
				execCall(call, v)
			}
			continue
		}
		execCall(call, rest)
	}
	if c.Name == "osascript" {
		// do shell script runs its text with sh; Terminal's do script types it into a shell.
		for _, verb := range []string{"do shell script", "do script"} {
			for from := 0; ; {
				i := strings.Index(code[from:], verb)
				if i < 0 {
					break
				}
				from += i + len(verb)
				if s, ok := stringLiteral(code[from:]); ok {
					a.nested(s, via, st, nil, c)
				}
			}
		}
	}
	for _, m := range findCalls(code, deleteCalls) {
		call, rest := m[0], m[1]
		if list, isLoop := loopList(code, rest, a.world.Home, st.cwd); isLoop {
			// rmtree(p) for p in [...]: each element of a literal list; a computed list
			// leaves the target a run-time value.
			for _, t := range list {
				args := []string{t}
				if recursiveDelete(call, rest) {
					args = []string{"-rf", t}
				}
				a.record(sub(), append([]string{"rm"}, args...))
			}
			continue
		}
		target, ok := pathValue(rest, a.world.Home, st.cwd)
		if !ok {
			if v, isVar := assignedLiteral(code, rest, a.world.Home, st.cwd); isVar {
				target, ok = stringLiteral(v) // h, _ := os.UserHomeDir(); os.RemoveAll(h)
			}
		}
		if !ok {
			// Path.home() / sys.argv[1], os.homedir() + name: somewhere under home, unknown
			if target, ok = pathHead(rest, a.world.Home, st.cwd); !ok {
				continue
			}
		}
		args := []string{target}
		if recursiveDelete(call, rest) {
			args = []string{"-rf", target}
		}
		a.record(sub(), append([]string{"rm"}, args...))
	}
	a.langCalls(c, code, st, sub)
	a.codeWrites(c, code, st, sub)
	a.codeSQL(code, st, sub)
	if strings.HasSuffix(c.Name, "awk") {
		a.awkPipes(code, via, st)
	}
	if c.Name == "node" || c.Name == "nodejs" || c.Name == "bun" || c.Name == "deno" {
		a.shellTemplates(code, via, st, c)
	}
	if c.Name != "perl" && c.Name != "ruby" && c.Name != "irb" && c.Name != "php" ||
		!strings.Contains(code, "`") && !strings.Contains(code, "qx") && !strings.Contains(code, "%x(") {
		return // backticks run shell text in perl, ruby and php; in JavaScript they are templates
	}
	for _, m := range backticks().FindAllStringSubmatch(code, 16) {
		for _, s := range m[1:] {
			if s != "" {
				a.nested(s, via, st, nil, c)
			}
		}
	}
}

// shellTemplates finds JavaScript's tagged shell templates, $`cmd` (Bun.$, zx, dax, execa's
// $): the template is shell text, its holes are run-time values but for the home directory.
func (a *analyzer) shellTemplates(code, via string, st *state, c *Cmd) {
	for from, n := 0, 0; n < 16; n++ {
		i := strings.Index(code[from:], "$`")
		if i < 0 {
			return
		}
		i += from + 2
		end := strings.IndexByte(code[i:], '`')
		if end < 0 {
			return
		}
		text := interpolateHome(code[i:i+end], a.world.Home, st.cwd)
		a.nested(templateHoles(text), via, st, nil, c)
		from = i + end + 1
	}
}

// argvLiteral reads a call's arguments when they start with two string literals: the rest are
// literals, paths it can evaluate (system("rm", "-rf", $ENV{HOME})), variables the code
// assigned one of those, or run-time values.
func argvLiteral(rest, code, home, cwd string) []string {
	var out []string
	for _, arg := range splitArgs(callArgs(strings.TrimLeft(rest, " \t("))) {
		if v, ok := stringLiteral(arg); ok && strings.TrimSpace(skipLiteral(arg)) == "" {
			out = append(out, v)
		} else if v, ok := pathValue(arg, home, cwd); ok && len(out) > 1 {
			out = append(out, v) // system("rm", "-rf", $ENV{HOME})
		} else if lit, ok := assignedLiteral(code, strings.TrimSpace(arg)+")", home, cwd); ok && len(out) > 1 {
			v, _ := stringLiteral(lit) // h, _ := os.UserHomeDir(); exec.Command("rm", "-rf", h)
			out = append(out, v)
		} else if len(out) > 1 {
			out = append(out, Dyn)
		} else {
			return nil
		}
	}
	return out
}

// assignedLiteral resolves a call whose argument is a bare variable (system(cmd),
// os.system(c)) to the text of the last string literal or expression it reads (sprintf, a
// path) assigned to it in the code (cmd = "...", $cmd = '...', cmd = sprintf(...)), so that it
// reads as if that text were written in the call.
func assignedLiteral(code, rest, home, cwd string) (string, bool) {
	arg := strings.TrimLeft(rest, " \t(")
	n := 0
	for n < len(arg) && (isIdent(arg[n]) || n == 0 && arg[n] == '$') {
		n++
	}
	name := arg[:n]
	after := strings.TrimLeft(arg[n:], " \t")
	if name == "" || name == "$" || !strings.HasPrefix(after, ")") && !strings.HasPrefix(after, ",") {
		return "", false
	}
	found, ok := "", false
	for from := 0; ; {
		i := strings.Index(code[from:], name)
		if i < 0 {
			break
		}
		i += from
		from = i + len(name)
		if i > 0 && isIdent(code[i-1]) || from < len(code) && isIdent(code[from]) {
			continue
		}
		rhs := strings.TrimLeft(code[from:], " \t")
		if strings.HasPrefix(rhs, ",") {
			// h, _ := os.UserHomeDir(), h, err = ...: the first of a tuple
			k := 1
			for k < len(rhs) && (isIdent(rhs[k]) || rhs[k] == ' ' || rhs[k] == ',') {
				k++
			}
			rhs = rhs[k:]
		}
		rhs = strings.TrimPrefix(rhs, ":") // Go's :=
		if !strings.HasPrefix(rhs, "=") || strings.HasPrefix(rhs, "==") {
			continue
		}
		rhs = strings.TrimLeft(rhs[1:], " \t")
		if v, isExpr := pathValue(rhs, home, cwd); isExpr && !strings.HasPrefix(rhs, `"`) && !strings.HasPrefix(rhs, "'") {
			found, ok = v, true // cmd = sprintf(...): the text it comes to
		} else if lit, isLit := concatLiteral(rhs); isLit {
			found, ok = lit, true
		}
	}
	if !ok {
		return "", false
	}
	return strconvQuote(found), true
}

// strconvQuote writes s back as a double-quoted literal that stringLiteral reads as s.
func strconvQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

func recursiveDelete(call, rest string) bool {
	if strings.Contains(call, "rmtree") || strings.Contains(call, "rm_r") || strings.Contains(call, "remove_dir") || strings.Contains(call, "RemoveAll") || strings.Contains(call, "remove_dir_all") ||
		strings.Contains(call, "remove_tree") || strings.Contains(call, "removedirs") || strings.Contains(call, "remove_entry") {
		return true
	}
	return strings.Contains(callArgs(rest), "recursive")
}

// callArgs is the argument list at the start of s (just after the call's opening
// parenthesis), up to its closing one: nested calls (require('os').homedir()) do not end it.
func callArgs(s string) string {
	s = s[:min(len(s), 8<<10)] // an argument list longer than this is not read (nor rescanned per call)
	return s[:closing(s, ')')]
}

// closing is the index of the bracket that closes the one s follows (len(s) if none does).
func closing(s string, bracket byte) int {
	end := len(s)
	outsideQuotes(s, func(i, depth int) bool {
		if s[i] == bracket && depth < 0 {
			end = i
			return false
		}
		return true
	})
	return end
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
			switch e := s[i]; {
			case e == 'n':
				b.WriteByte('\n')
			case e == 't':
				b.WriteByte('\t')
			case strings.IndexByte("xuU01234567", e) >= 0:
				v, _, end, ok := numEscape(s, i, true)
				if !ok {
					b.WriteByte(e)
					continue
				}
				b.WriteRune(v)
				i = end
			default:
				b.WriteByte(e)
			}
		case c == q:
			return b.String(), true
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// luaEscapes rewrites Lua's decimal escapes (\114 is "r") as the octal ones stringLiteral reads.
func luaEscapes(code string) string {
	var b strings.Builder
	for i := 0; i < len(code); i++ {
		if code[i] != '\\' || i+1 >= len(code) || code[i+1] < '0' || code[i+1] > '9' {
			b.WriteByte(code[i])
			if code[i] == '\\' && i+1 < len(code) {
				i++
				b.WriteByte(code[i]) // \\ and \": not the start of another escape
			}
			continue
		}
		v, n := 0, 0
		for ; n < 3 && i+1+n < len(code) && code[i+1+n] >= '0' && code[i+1+n] <= '9'; n++ {
			v = v*10 + int(code[i+1+n]-'0')
		}
		fmt.Fprintf(&b, "\\%03o", v&0xff)
		i += n
	}
	return b.String()
}

// concatLiteral reads a string literal and the literals joined to it: side by side (awk,
// Python), with + (Python, JavaScript, Ruby), . (Perl, PHP) or .. (Lua).
func concatLiteral(s string) (string, bool) {
	lit, ok := stringLiteral(s)
	if !ok {
		return "", false
	}
	rest := skipLiteral(strings.TrimLeft(s, " \t\n("))
	for i := 0; i < 16; i++ {
		r := strings.TrimLeft(rest, " \t")
		for _, op := range []string{"..", "+", "."} {
			if after, cut := strings.CutPrefix(r, op); cut {
				r = strings.TrimLeft(after, " \t")
				break
			}
		}
		if q, after, ok := quotedArg(r); ok {
			lit += q // escapeshellarg('x'): the literal, quoted for the shell
			rest = after
			continue
		}
		next, more := stringLiteral(r)
		if !more || r == "" || r[0] == '(' {
			break
		}
		lit += next
		rest = skipLiteral(r)
	}
	return lit, true
}

// quotedArg reads a call that quotes a literal for the shell (PHP's escapeshellarg, Python's
// shlex.quote, Ruby's Shellwords.escape): the literal in single quotes, and what follows.
func quotedArg(s string) (string, string, bool) {
	for _, f := range []string{"escapeshellarg(", "shlex.quote(", "Shellwords.escape("} {
		inner, ok := strings.CutPrefix(s, f)
		if !ok {
			continue
		}
		lit, ok := stringLiteral(inner)
		after := strings.TrimLeft(skipLiteral(inner), " \t")
		if !ok || !strings.HasPrefix(after, ")") || strings.Contains(lit, "'") {
			return "", "", false
		}
		return "'" + lit + "'", after[1:], true
	}
	return "", "", false
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

// argvList reads a list of arguments at the start of s (["rm", "-rf", os.path.expanduser("~")]):
// literals, paths it can evaluate, and run-time values for the rest.
func argvList(s, code, home, cwd string) ([]string, bool) {
	s = strings.TrimLeft(s, " \t\n(")
	if !strings.HasPrefix(s, "[") {
		return nil, false
	}
	inner := s[1:]
	end := closing(inner, ']')
	var out []string
	for _, e := range splitArgs(inner[:end]) {
		if v, ok := stringLiteral(e); ok && strings.TrimSpace(skipLiteral(e)) == "" {
			out = append(out, v)
		} else if v, ok := pathValue(e, home, cwd); ok {
			out = append(out, v)
		} else if lit, ok := assignedLiteral(code, strings.TrimSpace(e)+")", home, cwd); ok && len(out) > 0 {
			v, _ := stringLiteral(lit) // d = os.path.expanduser("~"); run(["rm", "-rf", d])
			out = append(out, v)
		} else {
			out = append(out, Dyn)
		}
	}
	if len(out) == 0 || out[0] == Dyn {
		return nil, false
	}
	return out, true
}

// jsTemplate reports a JavaScript template literal at the start of a call's arguments.
func jsTemplate(interp, rest string) bool {
	switch interp {
	case "node", "nodejs", "deno", "bun":
		return strings.HasPrefix(strings.TrimLeft(rest, " \t\n("), "`")
	}
	return false
}

// templateHoles replaces a template literal's ${...} holes with a run-time value, so that the
// shell text around them parses (${opts.branch} is no shell expansion).
func templateHoles(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		end := closing(s[i+2:], '}')
		if end == len(s[i+2:]) {
			break // unclosed: left as it is
		}
		b.WriteString(s[:i] + dynWord)
		s = s[i+2+end+1:]
	}
	return b.String() + s
}
