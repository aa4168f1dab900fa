// What a recorded command does next: builtins that change the shell's state, text it runs.

package shell

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// follow analyses what a recorded command runs in turn: shell strings, stdin scripts,
// interpreter code, and the state changes of builtins.
func (a *analyzer) follow(c *Cmd, st *state) {
	if c.Name == "psql" && c.Stdin == nil {
		// psql -f FILE reads its statements from FILE as it would from stdin: a file the
		// line wrote, or <(echo '...'), is the input the rules read.
		if f, ok := psqlFile.Parse(c.Args).Value("f", "file"); ok {
			if text, ok := a.written[a.resolve(f, c.Dir)]; ok && (!strings.Contains(f, Dyn) || isProc(f)) {
				c.Stdin = &Input{Text: text, Known: true, File: f}
			}
		}
	}
	switch {
	case c.Name == "cd" || c.Name == "pushd":
		dir := a.world.Home
		if len(c.Args) > 0 {
			ops := Opts{}.Parse(c.Args).Operands
			if len(ops) > 0 {
				dir = ops[0]
			}
		}
		if dir == "-" {
			// cd - goes back to where the last cd left: tracked like the shell's OLDPWD.
			dir = Dyn
			if v, ok := st.vars["OLDPWD"]; ok && strings.HasPrefix(v, "/") { // set by a cd in the command, not the hook's own
				dir = v
			}
		}
		if cdpath := envOf(c, st, "CDPATH"); cdpath != "" && !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, ".") && dir != Dyn {
			// CDPATH=/ cd etc: a relative name is looked up in CDPATH first
			for _, base := range strings.Split(cdpath, ":") {
				if base != "" && base != "." {
					dir = strings.TrimSuffix(base, "/") + "/" + dir
					break
				}
			}
		}
		if c.Name == "pushd" {
			st.vars[dirStack] = st.vars[dirStack] + arraySep + st.cwd
		}
		st.vars["OLDPWD"] = st.cwd
		st.cwd = a.resolve(dir, st.cwd)
	case c.Name == "popd":
		// popd returns to the directory the last pushd left
		if stack := st.vars[dirStack]; stack != "" {
			i := strings.LastIndex(stack, arraySep)
			st.vars["OLDPWD"] = st.cwd
			st.cwd, st.vars[dirStack] = stack[i+len(arraySep):], stack[:i]
		}
	case c.Name == "printf" && len(c.Args) >= 3 && c.Args[0] == "-v" && validName(c.Args[1]):
		// printf -v name FORMAT ARGS: the formatted text goes into the variable
		out, ok := printf(c.Args[2], c.Args[3:])
		if !ok {
			out = Dyn
		}
		st.vars[c.Args[1]] = out
	case c.Name == "ln" && len(a.lnLinks(c)) > 0:
		if a.links == nil {
			a.links = map[string]string{}
		}
		maps.Copy(a.links, a.lnLinks(c))
	case c.Name == "export" || c.Name == "declare" || c.Name == "typeset" || c.Name == "local" || c.Name == "readonly":
		if (c.Name == "local" || c.Name == "declare" || c.Name == "typeset") && !slices.Contains(c.Args, "-g") {
			for _, arg := range c.Args {
				name, _, _ := strings.Cut(arg, "=")
				a.saveLocal(name, st)
			}
		}
		for _, arg := range c.Args {
			if isAssignment(arg) {
				k, v, _ := strings.Cut(arg, "=")
				st.vars[k] = v
			}
		}
	case c.Name == "alias":
		for _, arg := range c.Args {
			if k, v, ok := strings.Cut(arg, "="); ok && k != "" && !strings.Contains(v, Dyn) {
				if a.shAlias == nil {
					a.shAlias = map[string]string{}
				}
				a.shAlias[k] = v
			}
		}
	case c.Name == "unalias":
		for _, arg := range c.Args {
			delete(a.shAlias, arg)
		}
	case c.Name == "read":
		// read takes its variables from the commands piped in: they carry that output, as a
		// substitution would (cmd | while read x; do rm "$x"; done). Other input: unknown.
		mark := Dyn
		if c.Stdin != nil && len(c.Stdin.From) > 0 {
			a.substs = append(a.substs, c.Stdin.From)
			mark = substMark + strconv.Itoa(len(a.substs)-1) + Dyn
			if items := a.listing(c.Stdin.From); len(items) == 1 {
				mark = items[0] // ls | while read f: f goes through every name ls prints
			}
		}
		p := Opts{Short: "adinNptu"}.Parse(c.Args)
		names := p.Operands
		arr, isArr := p.Value("a")
		if isArr {
			names = append(names, arr)
		}
		if c.Stdin != nil && c.Stdin.Known && !p.Has("u", "n", "N") && !strings.Contains(c.Stdin.Text, Dyn) {
			// read d <<< /etc, read -a a <<< "rm -rf /": the line it reads, split at IFS
			if d, ok := p.Value("d"); !ok || d != "" {
				text := c.Stdin.Text
				if ok && d[0] != '\n' {
					// read -d ,: up to the delimiter; a newline before it splits as IFS white space
					text, _, _ = strings.Cut(strings.ReplaceAll(text, "\n", " "), d[:1])
				}
				a.readLine(c, st, text, p.Operands, arr, isArr)
				break
			}
		}
		for _, v := range names {
			if validName(v) {
				st.vars[v] = mark
				delete(st.vars, v+"[@]")
			}
		}
	case c.Name == "trap" && len(c.Args) > 1 && c.Args[0] != "-p" && c.Args[0] != "-l":
		// trap 'cmd' EXIT: cmd runs when the shell exits or gets the signal.
		a.nested(c.Args[0], "trap", st, nil, c)
	case c.Name == "shift":
		n, err := 1, error(nil)
		if len(c.Args) > 0 {
			n, err = strconv.Atoi(c.Args[0])
		}
		if all, ok := st.vars["@[@]"]; ok {
			// bash refuses a shift past the end (or a bad count) and keeps the parameters
			if list := strings.Split(all, arraySep); err == nil && n >= 0 && n <= len(list) {
				setPositional(st, list[n:])
			}
		} else if err == nil && n > 0 {
			for _, k := range positional() {
				delete(st.vars, k)
			}
		}
	case c.Name == "set" && slices.Contains(c.Args, "--"):
		setPositional(st, c.Args[slices.Index(c.Args, "--")+1:])
	case c.Name == "mapfile" || c.Name == "readarray":
		p := Opts{Short: "dnOsuCc"}.Parse(c.Args)
		if c.Stdin != nil && c.Stdin.Known && len(p.Operands) <= 1 && len(p.Flags) == boolInt(p.Has("t")) {
			// mapfile -t ds <<< /etc: one element a line (-t drops the newline)
			name := "MAPFILE"
			if len(p.Operands) == 1 {
				name = p.Operands[0]
			}
			if validName(name) {
				lines := strings.SplitAfter(strings.TrimSuffix(c.Stdin.Text, "\n")+"\n", "\n")
				lines = lines[:len(lines)-1]
				if p.Has("t") {
					for i := range lines {
						lines[i] = strings.TrimSuffix(lines[i], "\n")
					}
				}
				a.setArray(st, name, lines, !strings.Contains(c.Stdin.Text, Dyn))
				break
			}
		}
		for _, arg := range c.Args {
			if validName(arg) {
				delete(st.vars, arg+"[@]")
			}
		}
	case c.Name == "unset":
		for _, arg := range c.Args {
			delete(st.vars, arg)
			delete(st.vars, arg+"[@]")
		}
	case c.Name == "sed" || c.Name == "gsed":
		a.sedRuns(c, st)
	case c.Name == "vim" || c.Name == "vi" || c.Name == "nvim" || c.Name == "ex" || c.Name == "view":
		// vim -c '!cmd', +'!cmd': an ex command that runs shell text
		for i, arg := range c.Args {
			cmdText := ""
			if (arg == "-c" || arg == "--cmd") && i+1 < len(c.Args) {
				cmdText = c.Args[i+1]
			} else if strings.HasPrefix(arg, "+") {
				cmdText = arg[1:]
			}
			if t := strings.TrimLeft(cmdText, ": "); strings.HasPrefix(t, "!") {
				a.nested(t[1:], c.Name+" !", st, nil, c)
			}
		}
	case c.Name == "sqlite3" || c.Name == "duckdb":
		// .shell and .system run their arguments as a shell command
		text := strings.Join(c.Args, "\n")
		if c.Stdin != nil && c.Stdin.Known {
			text += "\n" + c.Stdin.Text
		}
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(line)
			for _, dot := range []string{".shell ", ".system "} {
				if cmdText, ok := strings.CutPrefix(line, dot); ok {
					a.nested(cmdText, c.Name+" "+strings.TrimSpace(dot), st, nil, c)
				}
			}
		}
	case c.Name == "just" && justStdin(c.Args) && c.Stdin != nil && c.Stdin.Known:
		for _, r := range justRecipes(c.Stdin.Text) {
			a.nested(r, "just recipe", st, nil, c)
		}
	case (c.Name == "npm" || c.Name == "pnpm" || c.Name == "yarn") && len(c.Args) > 0:
		a.npmScripts(c, st)
	case c.Name == "jq" || c.Name == "gojq":
		// jq '.scripts.x = "TEXT"' package.json > p && mv p package.json: a script set in the line.
		a.jqScripts(c)
	case (c.Name == "make" || c.Name == "gmake") && makeStdin(c.Args) && c.Stdin != nil && c.Stdin.Known:
		// A makefile fed on stdin: its recipes run as shell lines.
		for _, r := range makeRecipes(c.Stdin.Text) {
			a.nested(r, "make recipe", st, nil, c)
		}
	case (c.Name == "gcc" || c.Name == "cc" || c.Name == "clang" || c.Name == "g++" || c.Name == "c++" || c.Name == "rustc" || c.Name == "tcc") && len(c.Args) > 0:
		// A source file the same line wrote, compiled: what its program does is read from its
		// code, as if it ran (it is built to be run).
		for _, f := range c.Args {
			if text, ok := a.written[a.resolve(f, c.Dir)]; ok && (strings.HasSuffix(f, ".c") || strings.HasSuffix(f, ".cc") || strings.HasSuffix(f, ".cpp") || strings.HasSuffix(f, ".rs")) {
				prog := &Cmd{Name: c.Name, Prog: c.Prog, Code: text, Dir: c.Dir, Via: c.Via, Text: c.Text, Remote: c.Remote, Mounts: c.Mounts, Fresh: c.Fresh}
				a.code(prog, st)
			}
		}
	case c.Name == "cmake" && cmakeScript(c.Args) != "":
		// cmake -P FILE: a CMake script, from a file the line wrote or from stdin
		f := cmakeScript(c.Args)
		text, ok := a.written[a.resolve(f, c.Dir)]
		if (f == "/dev/stdin" || f == "-") && c.Stdin != nil && c.Stdin.Known {
			text, ok = c.Stdin.Text, true
		}
		if ok {
			a.cmakeCommands(c, text, st)
		}
	case c.Name == "go" && len(c.Args) > 1 && c.Args[0] == "run":
		// go run of a file the same line wrote: its code, read for what it runs and deletes.
		for _, f := range c.Args[1:] {
			if text, ok := a.written[a.resolve(f, c.Dir)]; ok && (strings.HasSuffix(f, ".go") || isProc(f)) {
				prog := &Cmd{Name: "go", Prog: "go", Code: text, Dir: c.Dir, Via: c.Via, Text: c.Text, Remote: c.Remote, Mounts: c.Mounts, Fresh: c.Fresh}
				a.code(prog, st)
			}
		}
	case c.Name == "gradle" || c.Name == "gradlew":
		// The commands of a build file the same line wrote (an Exec task's commandLine).
		for _, r := range a.gradleCommands(c) {
			a.nested(r, c.Name+" task", st, nil, c)
		}
	case c.Name == "make" || c.Name == "gmake" || c.Name == "just" || c.Name == "task" || c.Name == "go-task":
		// Recipes given on the command line (make --eval), or in a file the same line wrote.
		for _, r := range a.inlineRecipes(c) {
			a.nested(r, c.Name+" recipe", st, nil, c)
		}
	case c.Name == "eval":
		a.nested(strings.Join(c.Args, " "), "eval", st, c.Stdin, c)
	case c.Name == "source" || c.Name == ".":
		if len(c.Args) > 0 && (c.Args[0] == "/dev/stdin" || c.Args[0] == "-") {
			a.stdinScript(c, st)
		} else if len(c.Args) == 0 {
			break
		} else if text, ok := a.written[a.resolve(c.Args[0], c.Dir)]; ok && (!strings.Contains(c.Args[0], Dyn) || isProc(c.Args[0])) {
			// source <(echo '...'), . ./env.sh the line wrote: the text runs in this shell
			a.nested(text, c.Name+" "+scriptLabel(c.Args[0]), st, nil, c)
		}
	case shells[c.Name]:
		a.shell(c, st)
	default:
		if c.Name == "bun" && len(c.Args) > 0 {
			a.npmScripts(c, st)
		}
		if interpreterCode(c) {
			a.code(c, st)
		} else if text, ok := a.written[a.resolve(scriptOperand(c), c.Dir)]; ok && scriptOperand(c) != "" {
			c.Code = text // cat > t.py <<EOF ... EOF; python3 t.py: the code the line wrote
			a.code(c, st)
		} else if text, ok := a.written[a.resolve(c.Prog, c.Dir)]; ok && strings.Contains(c.Prog, "/") {
			a.nested(text, "script "+c.Prog, st, nil, c) // printf ... > x.sh; ./x.sh
		}
	}
	a.commandVars(c, st)
}

// readLine sets read's variables from the first line of known input: split at IFS (IFS=
// before read counts), the last name taking the rest of the line; -a fills an array instead.
func (a *analyzer) readLine(c *Cmd, st *state, text string, names []string, arr string, isArr bool) {
	line, _, _ := strings.Cut(text, "\n")
	ifs := " \t\n"
	if v, ok := st.vars["IFS"]; ok && !strings.Contains(v, Dyn) {
		ifs = v
	}
	if v := envOf(c, st, "IFS"); slices.ContainsFunc(c.Env, func(e string) bool { return strings.HasPrefix(e, "IFS=") }) {
		ifs = v // IFS= read -r d: this read only
	}
	split := func(s string, n int) []string {
		if ifs == "" {
			return []string{s}
		}
		var out []string
		for len(out) < n-1 || n < 0 {
			s = strings.TrimLeft(s, ifs)
			i := strings.IndexAny(s, ifs)
			if i < 0 {
				break
			}
			out = append(out, s[:i])
			s = s[i+1:]
		}
		if s = strings.Trim(s, ifs); s != "" || len(out) == 0 {
			out = append(out, s)
		}
		return out
	}
	if isArr {
		if validName(arr) {
			a.setArray(st, arr, split(line, -1), true)
		}
		return
	}
	if len(names) == 0 {
		names = []string{"REPLY"}
	}
	vals := split(line, len(names))
	for i, v := range names {
		if !validName(v) {
			continue
		}
		delete(st.vars, v+"[@]")
		st.vars[v] = ""
		if i < len(vals) {
			st.vars[v] = vals[i]
		}
	}
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// psqlFile is psql's option grammar, for its -f FILE.
var psqlFile = Opts{Short: "cdfhLopPTUv", Long: []string{"command", "dbname", "file", "host", "log-file", "output", "port", "pset", "table-attr", "username", "set", "variable"}}

// dirStack holds pushd's stack in the state, directories joined by arraySep.
const dirStack = "\x00dirs"

// scriptOperand is the script file an interpreter is given (python3 -u t.py, deno run -A x.ts,
// bun x.ts), "" when it runs none.
func scriptOperand(c *Cmd) string {
	if !interpreters[c.Name] && !isPython(c.Name) {
		return ""
	}
	for i, a := range c.Args {
		if i == 0 && a == "run" && (c.Name == "deno" || c.Name == "bun") {
			continue
		}
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// cmakeScript is the script of cmake -P FILE, "" for any other cmake run.
func cmakeScript(args []string) string {
	for i, a := range args {
		if a == "-P" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// cmakeCommands reads what a CMake script deletes and runs: file(REMOVE_RECURSE PATHS) and
// file(REMOVE PATHS) are rm -rf and rm, execute_process(COMMAND PROG ARGS) runs PROG.
func (a *analyzer) cmakeCommands(c *Cmd, text string, st *state) {
	sub := func() *Cmd {
		return &Cmd{Dir: c.Dir, Via: with(c.Via, "cmake -P"), Text: c.Text, Remote: c.Remote, Mounts: c.Mounts, Fresh: c.Fresh}
	}
	for n, rest := 0, text; n < 64; n++ {
		i := strings.IndexByte(rest, '(')
		if i < 0 {
			return
		}
		name := strings.ToLower(strings.TrimSpace(rest[max(0, strings.LastIndexAny(rest[:i], " \t\n;")+1):i]))
		end := strings.IndexByte(rest[i:], ')')
		if end < 0 {
			return
		}
		words := strings.Fields(interpolateHome(rest[i+1:i+end], a.world.Home, st.cwd))
		for k, w := range words {
			words[k] = strings.Trim(w, `"`)
		}
		rest = rest[i+end+1:]
		switch {
		case name == "file" && len(words) > 1 && (words[0] == "REMOVE_RECURSE" || words[0] == "REMOVE"):
			args := words[1:]
			if words[0] == "REMOVE_RECURSE" {
				args = append([]string{"-rf"}, args...)
			}
			a.record(sub(), append([]string{"rm"}, args...))
		case name == "execute_process" && len(words) > 1 && words[0] == "COMMAND":
			var argv []string
			for _, w := range words[1:] {
				if w == "COMMAND" || w == "WORKING_DIRECTORY" || w == "RESULT_VARIABLE" || w == "OUTPUT_VARIABLE" || w == "TIMEOUT" {
					break
				}
				argv = append(argv, w)
			}
			if len(argv) > 0 {
				a.simple(sub(), argv, st.child())
			}
		}
	}
}
