package shell

import (
	"slices"
	"strings"
)

// xargs runs its command with arguments read from stdin: known stdin gives known arguments.
func (a *analyzer) xargs(c *Cmd, args []string, st *state) {
	p := xargsOpts.Parse(args)
	cmdWords := p.Rest
	if len(cmdWords) == 0 {
		cmdWords = []string{"echo"}
	}
	repl, hasRepl := p.Value("I", "replace")
	if p.Has("i") && !hasRepl {
		repl, hasRepl = "{}", true
	}
	items := []string{Dyn}
	var from []*Cmd
	if f, ok := p.Value("a", "arg-file"); ok && f != "" {
		// xargs -a FILE reads the arguments from FILE, as $(cat FILE) would give them; a file
		// the same line wrote gives its words.
		from = []*Cmd{{Name: "cat", Prog: "cat", Args: []string{a.resolve(f, c.Dir)}, Dir: c.Dir, Text: c.Text}}
		if text, ok := a.written[a.resolve(f, c.Dir)]; ok {
			items = splitItems(text, p.Has("0", "null"))
		}
	} else if c.Stdin != nil {
		from = c.Stdin.From
		switch null := p.Has("0", "null"); {
		case c.Stdin.Known && hasRepl && !null:
			// -I takes whole lines, blanks and all: "git clean -ffdx" is one item.
			items = nil
			for _, l := range strings.Split(c.Stdin.Text, "\n") {
				if l = strings.TrimLeft(l, " \t"); l != "" {
					items = append(items, l)
				}
			}
		case c.Stdin.Known:
			items = splitItems(c.Stdin.Text, null)
		default:
			if l := a.listing(from); l != nil {
				items = l
			}
		}
	}
	if len(items) > 64 {
		items = items[:64]
	}
	var runs [][]string
	switch {
	case hasRepl:
		for _, it := range items {
			var w []string
			for _, cw := range cmdWords {
				w = append(w, strings.ReplaceAll(cw, repl, it))
			}
			runs = append(runs, w)
		}
	default:
		runs = [][]string{append(append([]string(nil), cmdWords...), items...)}
	}
	for _, w := range runs {
		sc := &Cmd{Dir: c.Dir, Env: c.Env, Via: with(c.Via, "xargs"), Text: c.Text, Remote: c.Remote, ArgsFrom: from}
		a.simple(sc, w, st.child())
	}
}

// listing is what a pipeline that lists files prints, when it is one, as patterns: find
// prints its start paths (and what it matches under them), ls what is in its directories, git
// ls-files every tracked file under its directory; a filter that passes all but a few names
// on (grep -v, sort, tr) keeps the listing whole.
func (a *analyzer) listing(from []*Cmd) []string {
	if n := len(from); n > 0 && from[n-1].Name == "git" && gitBranchList(from[n-1].Args) {
		// git branch | xargs git branch -D: every local branch, the default one among them
		return []string{"main", "master"}
	}
	from = Unfiltered(from)
	if f := a.findOutput(from); f != nil {
		return f
	}
	if l := a.lsOutput(from); l != nil {
		return l
	}
	if g := gitFiles(from); g != "" {
		return []string{g}
	}
	return nil
}

// lsOutput returns what an ls at the end of a pipeline prints, as patterns: the names of the
// entries of each directory it lists (bare names, so *, which the next command reads relative
// to its own directory), or the paths or globs it was given, as given, with -d.
func (a *analyzer) lsOutput(from []*Cmd) []string {
	from = Unfiltered(from)
	if len(from) == 0 || from[len(from)-1].Name != "ls" {
		return nil
	}
	l := from[len(from)-1]
	p := Opts{Long: []string{"color", "format", "sort", "time-style", "ignore", "hide", "width", "block-size", "indicator-style", "quoting-style"}}.Parse(l.Args)
	ops := p.Operands
	if len(ops) == 0 {
		ops = []string{"."}
	}
	var out []string
	for _, o := range ops {
		if !p.Has("d", "directory") && !strings.ContainsAny(o, "*?[") {
			out = append(out, "*")
			continue
		}
		out = append(out, o)
	}
	return out
}

// findOutput returns what a find at the end of a pipeline prints, when it is one: its start
// paths, or what it matches under them.
func (a *analyzer) findOutput(from []*Cmd) []string {
	if len(from) == 0 || from[len(from)-1].Name != "find" {
		return nil
	}
	f := from[len(from)-1]
	var out []string
	for _, s := range FindStarts(f.Args) {
		out = append(out, findMatches(a.resolve(s, f.Dir), f.Args)...)
	}
	return out
}

// gitFiles returns the directory under which a git ls-files at the end of a pipeline lists
// every tracked file, when it is given no pathspec; "" otherwise.
func gitFiles(from []*Cmd) string {
	if len(from) == 0 {
		return ""
	}
	g := from[len(from)-1]
	if g.Name != "git" || len(g.Args) == 0 || g.Args[0] != "ls-files" {
		return ""
	}
	for _, arg := range g.Args[1:] {
		switch arg {
		case "-z", "-c", "--cached", "--full-name", "-s", "--stage", "--recurse-submodules", "--exclude-standard":
		default:
			return "" // a pathspec, or a selection (--modified, --others, ...) narrows it
		}
	}
	return g.Dir
}

func splitItems(text string, null bool) []string {
	if null {
		var out []string
		for _, s := range strings.Split(text, "\x00") {
			if s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return strings.Fields(text)
}

// parallel runs its command once per argument after :::, or per line of stdin.
func (a *analyzer) parallel(c *Cmd, args []string, st *state) {
	var cmdWords, items []string
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		switch args[i] {
		case "--dry-run", "--dryrun":
			return // prints the commands it would run, and runs none
		case "-j", "--jobs", "-S", "--sshlogin", "--delay", "--timeout", "--retries", "--load", "--memfree", "--results",
			"--joblog", "-N", "-n", "--max-args", "--colsep", "-C", "--tag-string", "--workdir", "--env", "-I", "--halt":
			i++ // takes a value
		}
		i++
	}
	for ; i < len(args) && args[i] != ":::" && args[i] != "::::"; i++ {
		cmdWords = append(cmdWords, args[i])
	}
	if i < len(args) {
		items = args[i+1:]
	} else if c.Stdin != nil && c.Stdin.Known {
		items = strings.Split(strings.TrimSpace(c.Stdin.Text), "\n")
	} else if l := a.listing(stdinFrom(c)); l != nil {
		items = l // find /etc -maxdepth 0 | parallel rm -rf: what the listing prints, as with xargs
	} else {
		items = []string{Dyn}
	}
	if len(cmdWords) == 0 || len(items) > 64 {
		items = items[:min(len(items), 64)]
	}
	for _, it := range items {
		if len(cmdWords) == 0 {
			// parallel ::: 'cmd one' 'cmd two': each argument is a command line, run by a shell.
			a.nested(it, "parallel", st, nil, nil)
			continue
		}
		var w []string
		replaced := false
		for _, cw := range cmdWords {
			if strings.Contains(cw, "{}") {
				replaced = true
			}
			w = append(w, strings.ReplaceAll(cw, "{}", it))
		}
		if !replaced {
			w = append(w, it)
		}
		if len(cmdWords) == 1 && strings.Contains(cmdWords[0], " ") {
			sc := &Cmd{Dir: c.Dir, Via: with(c.Via, "parallel"), Text: c.Text}
			a.record(sc, []string{"parallel"})
			a.nested(strings.Join(w, " "), "parallel", st, nil, nil)
			continue
		}
		sc := &Cmd{Dir: c.Dir, Env: c.Env, Via: with(c.Via, "parallel"), Text: c.Text, Remote: c.Remote}
		a.simple(sc, w, st.child())
	}
}

// findFilters are the find predicates that narrow what it matches to named things. Time, size
// and type tests do not: find ~ -mtime +30 -delete still empties the home directory of
// everything old.
var findFilters = map[string]bool{"-name": true, "-iname": true, "-path": true, "-ipath": true,
	"-wholename": true, "-iwholename": true, "-regex": true, "-iregex": true, "-lname": true, "-ilname": true,
	"-inum": true, "-samefile": true}

// findNarrower: tests that pick by age, size, owner or mode: fewer files, but not a chosen few (find ~
// -mtime +30 is most of a home directory).
func findNarrower(arg string) bool {
	switch arg {
	case "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-newermt", "-anewer", "-cnewer",
		"-user", "-group", "-uid", "-gid", "-nouser", "-nogroup", "-perm", "-empty", "-links":
		return true
	}
	return false
}

// FindStarts returns the start paths of a find command (the operands before its expression).
func FindStarts(args []string) []string {
	var starts []string
	for _, arg := range args {
		if arg == "-H" || arg == "-L" || arg == "-P" || strings.HasPrefix(arg, "-O") || strings.HasPrefix(arg, "-D") {
			continue
		}
		if strings.HasPrefix(arg, "-") || arg == "(" || arg == "!" || arg == "," {
			break
		}
		starts = append(starts, arg)
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	return starts
}

// FindFiltered reports whether a find expression narrows its matches by name, path, inode...;
// a negated test (! -name .git) only leaves some out, so it does not count.
func FindFiltered(args []string) bool {
	for i, arg := range args {
		if findFilters[arg] && !(i > 0 && (args[i-1] == "!" || args[i-1] == "-not")) {
			return true
		}
	}
	return false
}

// FindNarrowed reports a find expression that picks by age, size, owner or mode.
func FindNarrowed(args []string) bool {
	for i, arg := range args {
		if findNarrower(arg) && !(i > 0 && (args[i-1] == "!" || args[i-1] == "-not")) {
			return true
		}
	}
	return false
}

// findMatches are what {} stands for under a start path: the start path itself when no name
// or path test narrows the matches (age, size and owner tests can match everything); else
// Match under it, and also start/NAME when the only test is a literal -name (find . -name
// .git: the repository at the top, and wherever else it is).
func findMatches(start string, args []string) []string {
	if !FindFiltered(args) {
		return []string{start}
	}
	name, tests := "", 0
	for i, arg := range args {
		if findFilters[arg] && !(i > 0 && (args[i-1] == "!" || args[i-1] == "-not")) {
			tests++
			if arg == "-name" && i+1 < len(args) && !strings.ContainsAny(args[i+1], "*?[\\/") && !strings.Contains(args[i+1], Dyn) {
				name = args[i+1]
			}
		}
	}
	under := strings.TrimSuffix(start, "/") + "/" + Match
	if tests == 1 && name != "" && name != "." && name != ".." {
		return []string{under, strings.TrimSuffix(start, "/") + "/" + name}
	}
	return []string{under}
}

// find records find itself (its -delete matters) and every command it executes on matches:
// {} stands for the start path when nothing narrows the matches, else for something under it.
func (a *analyzer) find(c *Cmd, words []string, st *state) {
	wrappers := with(c.Via)
	a.record(c, words)
	args := words[1:]
	starts := FindStarts(args)
	for i := 0; i < len(args); i++ {
		action := args[i]
		if action != "-exec" && action != "-execdir" && action != "-ok" && action != "-okdir" {
			continue
		}
		j := i + 1
		for j < len(args) && args[j] != ";" && args[j] != "+" {
			j++
		}
		cmdWords := args[i+1 : j]
		i = j
		if len(cmdWords) == 0 {
			continue
		}
		for _, start := range starts {
			for _, match := range findMatches(a.resolve(start, c.Dir), args) {
				var w []string
				for _, cw := range cmdWords {
					w = append(w, strings.ReplaceAll(cw, "{}", match))
				}
				sc := &Cmd{Dir: c.Dir, Env: c.Env, Via: with(wrappers, "find "+action), Text: c.Text, Remote: c.Remote}
				a.simple(sc, w, st.child())
			}
		}
	}
}

// fdOpts are fd's options that take a value.
var fdOpts = Opts{Short: "edtESjcxX", Long: []string{"extension", "max-depth", "min-depth", "exact-depth", "type", "exclude", "size",
	"changed-within", "changed-before", "owner", "search-path", "base-directory", "path-separator", "threads", "color",
	"max-results", "ignore-file", "format", "batch-size", "and", "max-buffer-time", "strip-cwd-prefix", "hyperlink"}}

// fd records fd (fd-find) and the command its -x/--exec or -X/--exec-batch runs on the matches,
// which are things under each search path: fd PATTERN PATH... -x CMD [;].
func (a *analyzer) fd(c *Cmd, words []string, st *state) {
	a.record(c, words)
	args := words[1:]
	var cmdWords, opts []string
	for i, w := range args {
		if w == "-x" || w == "--exec" || w == "-X" || w == "--exec-batch" {
			cmdWords, opts = args[i+1:], args[:i]
			if j := slices.Index(cmdWords, ";"); j >= 0 {
				opts = append(opts, cmdWords[j+1:]...)
				cmdWords = cmdWords[:j]
			}
			break
		}
	}
	if len(cmdWords) == 0 {
		return // fd alone lists names, as find does
	}
	p := fdOpts.Parse(opts)
	starts := p.Operands
	if len(starts) > 0 {
		starts = starts[1:] // the pattern
	}
	starts = append(starts, fdOpts.Values(opts, "search-path")...)
	if len(starts) == 0 {
		starts = []string{"."}
	}
	for _, start := range starts {
		match := strings.TrimSuffix(a.resolve(start, c.Dir), "/") + "/" + Match
		var w []string
		placed := false
		for _, cw := range cmdWords {
			for _, ph := range []string{"{//}", "{/.}", "{/}", "{.}", "{}"} {
				if strings.Contains(cw, ph) {
					cw, placed = strings.ReplaceAll(cw, ph, match), true
				}
			}
			w = append(w, cw)
		}
		if !placed {
			w = append(w, match)
		}
		sc := &Cmd{Dir: c.Dir, Env: c.Env, Via: with(c.Via, "fd -x"), Text: c.Text, Remote: c.Remote}
		a.simple(sc, w, st.child())
	}
}

// with returns a copy of via with more appended, never sharing its backing array.
func with(via []string, more ...string) []string {
	return append(append(make([]string, 0, len(via)+len(more)), via...), more...)
}

// Unfiltered drops the end of a pipeline that passes its input on all but unchanged: grep -v
// (every line but the few it names), sort, uniq, tac, cat. ls -A | grep -v '^.git$' still
// lists everything else.
func Unfiltered(from []*Cmd) []*Cmd {
	for len(from) > 1 {
		c := from[len(from)-1]
		if len(c.Redirs) > 0 {
			return from
		}
		switch c.Name {
		case "sort", "uniq", "tac", "cat":
			if len(Opts{}.Parse(c.Args).Operands) > 0 {
				return from
			}
		case "grep", "egrep", "fgrep", "rg", "ag":
			p := Opts{Short: "efmABC", Long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context"}}.Parse(c.Args)
			if !p.Has("v", "invert-match") || len(p.Operands) > 1 || p.Has("f", "file", "m", "max-count") {
				return from
			}
		case "tr":
			// tr '\n' '\0': the same names, separated differently
			if len(c.Args) != 2 || strings.HasPrefix(c.Args[0], "-") {
				return from
			}
		case "sed":
			// sed '/re/d': every name but those matched
			sp, scripts := sedOpts.Parse(c.Args), sedScripts(c.Args)
			files := len(sp.Operands)
			if !sp.Has("e", "expression") {
				files-- // the first operand is the program
			}
			if len(scripts) == 0 || files > 0 || sp.Has("n", "i", "in-place", "f", "file") {
				return from
			}
			for _, sc := range scripts {
				if !onlyDeletes(sc) {
					return from
				}
			}
		case "awk", "gawk", "mawk":
			// awk '!/re/': every name but those matched
			ops := Opts{Short: "Fv"}.Parse(c.Args).Operands
			if len(ops) != 1 || !negatedMatch(ops[0]) {
				return from
			}
		default:
			return from
		}
		from = from[:len(from)-1]
	}
	return from
}

// onlyDeletes reports a sed program made of /re/d commands alone.
func onlyDeletes(script string) bool {
	for _, part := range strings.FieldsFunc(script, func(r rune) bool { return r == ';' || r == '\n' }) {
		part = strings.TrimSpace(part)
		if len(part) < 4 || part[0] != '/' || !strings.HasSuffix(part, "/d") || strings.Count(part, "/") != 2 {
			return false
		}
	}
	return script != ""
}

// negatedMatch reports an awk program that prints the lines matching none of its patterns:
// !/a/ or !/a/ && !/b/.
func negatedMatch(prog string) bool {
	for _, part := range strings.Split(prog, "&&") {
		part = strings.TrimSpace(part)
		if len(part) < 4 || !strings.HasPrefix(part, "!/") || !strings.HasSuffix(part, "/") || strings.Count(part, "/") != 2 {
			return false
		}
	}
	return true
}

// gitBranchList reports git branch listing every local branch (no pattern, no --merged or
// --contains narrowing it).
func gitBranchList(args []string) bool {
	if len(args) == 0 || args[0] != "branch" {
		return false
	}
	for _, a := range args[1:] {
		switch {
		case a == "--list" || a == "-l" || a == "--no-color" || a == "--color=never" || strings.HasPrefix(a, "--format") || strings.HasPrefix(a, "--sort"):
		case strings.HasPrefix(a, "-"):
			return false // -r, -a, --merged, --contains, ...: another or a narrower set
		default:
			return false // a pattern
		}
	}
	return true
}
