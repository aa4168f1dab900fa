// PowerShell scripts read statement by statement: the commands they run, the files those
// read and write, and the code they hand on to run (script blocks, strings, other hosts).

package shell

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// PowerShell is read statement by statement: statements are split on ; newlines, pipes, &&
// and || (a backtick at a line's end continues it); words are unquoted; aliases (gc, cat,
// type, rm, del, cp, iwr, ...) become their cmdlets; $HOME, $env:USERPROFILE and ~ become
// home, and the values the script gives its variables are followed (pwsh_values.go);
// Set-Location and cd move the directory. PSBash (pwsh_bind.go) says which Bash command a
// statement amounts to, for the rules that judge Bash.

// psCmdlet maps a PowerShell command word, or one of its built-in aliases, to its cmdlet.
func psCmdlet(w string) string {
	switch strings.ToLower(w) {
	case "gc", "cat", "type", "get-content":
		return "Get-Content"
	case "sc", "set-content":
		return "Set-Content"
	case "ac", "add-content":
		return "Add-Content"
	case "out-file":
		return "Out-File"
	case "tee", "tee-object":
		return "Tee-Object"
	case "rm", "ri", "del", "erase", "rd", "rmdir", "remove-item":
		return "Remove-Item"
	case "cp", "cpi", "copy", "copy-item":
		return "Copy-Item"
	case "mv", "mi", "move", "move-item":
		return "Move-Item"
	case "ni", "new-item", "mkdir", "md":
		return "New-Item"
	case "sls", "select-string":
		return "Select-String"
	case "cd", "sl", "chdir", "set-location":
		return "Set-Location"
	case "compress-archive":
		return "Compress-Archive"
	case "format-hex", "fhx":
		return "Format-Hex"
	case "import-csv", "import-clixml", "export-csv", "export-clixml", "clear-content", "rename-item", "get-filehash":
		return map[string]string{"import-csv": "Import-Csv", "import-clixml": "Import-Clixml", "export-csv": "Export-Csv",
			"export-clixml": "Export-Clixml", "clear-content": "Clear-Content", "rename-item": "Rename-Item", "get-filehash": "Get-FileHash"}[strings.ToLower(w)]
	case "iwr", "invoke-webrequest", "irm", "invoke-restmethod":
		return "Invoke-WebRequest"
	case "iex", "invoke-expression":
		return "Invoke-Expression"
	case "start", "saps", "start-process":
		return "Start-Process"
	case "spps", "kill", "stop-process":
		return "Stop-Process"
	case "gci", "ls", "dir", "get-childitem":
		return "Get-ChildItem"
	case "gps", "ps", "get-process":
		return "Get-Process"
	case "ipmo", "import-module":
		return "Import-Module"
	case "foreach-object", "%", "foreach":
		return "ForEach-Object"
	}
	return psCanon(w)
}

// psCanon writes a cmdlet the rules read in its canonical case: PowerShell folds the case
// of command names.
func psCanon(w string) string {
	for _, c := range [...]string{"Clear-EventLog", "Remove-EventLog", "Register-ScheduledTask", "New-ScheduledTask", "Set-ScheduledTask",
		"Unregister-ScheduledTask", "New-Service", "Remove-Partition", "Resize-Partition", "Set-PSReadLineOption", "New-ItemProperty",
		"Set-ItemProperty", "Set-Item", "Invoke-Sqlcmd", "Send-MailMessage", "Clear-History", "Add-Type", "Invoke-Command",
		"Remove-ComputerRestorePoint", "Disable-ComputerRestore", "Get-Item", "Write-Output", "Write-Host", "Stop-Service",
		"Set-Service", "Suspend-Service", "Start-BitsTransfer", "Set-Acl"} {
		if strings.EqualFold(w, c) {
			return c
		}
	}
	return w
}

// psValueParams are the parameters that take a value; every other -Name is a switch.
func psValueParam(p string) bool {
	switch strings.ToLower(p) {
	case "path", "literalpath", "destination", "filepath", "value", "encoding", "itemtype", "type", "name", "newname", "filter",
		"include", "exclude", "pattern", "destinationpath", "infile", "outfile", "uri", "scope", "executionpolicy", "tail",
		"totalcount", "head", "first", "last", "delimiter", "credential", "attachments", "stream", "method", "body", "headers",
		"inputobject", "width", "propertytype", "pspath", "p", "d", "lp", "fp", "n":
		return true
	}
	return false
}

// AnalyzePowerShell finds the commands a PowerShell script runs, as Cmds with the cmdlet as
// Name and the unquoted, home-expanded words as Args; statements that are not a command call
// (assignments' right sides aside, .NET calls such as [IO.File]::ReadAllText(...)) are kept as
// Code, whose path literals count as reads. It reads what a statement hands on to run: the
// bodies of script blocks ({ ... }), the string literal given to Invoke-Expression, the script
// of a nested pwsh -Command or -EncodedCommand; a native program (bash -c, sudo, git, ...,
// also as Start-Process starts it) is analysed as Bash. A statement whose code it cannot read
// (iex of a variable, a block that does not parse, an -EncodedCommand that does not decode)
// carries the reason in Unread: a guard must not read it as harmless.
func AnalyzePowerShell(src string, w World, l Limits) (*Analysis, error) {
	l = l.withDefaults()
	if len(src) > l.MaxBytes {
		return nil, &LimitError{fmt.Sprintf("the command is %d bytes, over the %d-byte limit", len(src), l.MaxBytes)}
	}
	if w.Cwd == "" {
		w.Cwd = "/"
	}
	src = PSNormalize(src)
	p := &psAnalyzer{world: w, limits: l, an: &Analysis{}}
	if err := p.script(src, w.Cwd, []string{"PowerShell"}, 0); err != nil {
		return nil, err
	}
	return p.an, nil
}

type psAnalyzer struct {
	world  World
	limits Limits
	an     *Analysis
	vars   map[string]string   // variables whose value is literal text (or psFileValue+path)
	splats map[string][]string // hash tables and arrays, as the arguments splatting passes
}

// script analyses PowerShell text run at nesting depth depth, starting in dir.
func (p *psAnalyzer) script(src, dir string, via []string, depth int) error {
	if depth >= p.limits.MaxDepth {
		return &LimitError{fmt.Sprintf("PowerShell code nests deeper than %d levels (script blocks, Invoke-Expression, -EncodedCommand)", p.limits.MaxDepth)}
	}
	if p.vars == nil {
		p.psSeed()
	}
	home := p.world.Home
	stmts, piped := psStatements(src)
	var prev *Cmd
	for i, stmt := range stmts {
		if len(p.an.Cmds) >= p.limits.MaxCmds {
			return &LimitError{fmt.Sprintf("the script runs over %d commands", p.limits.MaxCmds)}
		}
		in := ""
		if piped[i] {
			in = psProducer(prev)
			if in == "" && prev != nil && psPassesAll(prev) {
				in = prev.PSIn // Sort-Object, or a filter that only leaves some out
			}
			if in == "" && i > 0 {
				if text, ok := psReduceList(stmts[i-1], p.vars); ok {
					in = PSText + text // 'select disk 0', 'clean' | diskpart
				}
			}
		}
		// & ('Remove'+'-Item') ...: a command named by a value that reduces to text.
		if callee, rest, ok := psCallee(stmt); ok {
			if name, ok := psReduce(callee, p.vars); ok {
				stmt = name + " " + rest
			} else if callee[0] == '(' && !strings.Contains(callee, "::") && !strings.Contains(callee, "{") {
				c := &Cmd{Dir: dir, Text: stmt, Via: via, PS: true, Name: "PowerShell", Code: stmt, Unread: "a command named by a value only known when it runs"}
				p.an.Cmds = append(p.an.Cmds, c)
				prev = c
				continue
			}
		}
		stmt = p.inline(stmt)
		words, quoted, redirs := psWordsQ(stmt, home)
		// $x = Get-Content ...: the command after the assignment; the value is kept.
		head := strings.TrimSpace(stmt) // where the command or expression starts
		if len(words) > 2 && strings.HasPrefix(words[0], "$") && words[1] == "=" {
			if _, rhs, ok := strings.Cut(stmt, "="); ok {
				p.assign(words[0], rhs, dir)
				head = strings.TrimSpace(rhs)
			}
			words, quoted = words[2:], quoted[2:]
		}
		words = p.substitute(words, quoted, dir)
		for len(quoted) < len(words) {
			quoted = append(quoted, false) // splatted arguments
		}
		called := false
		for len(words) > 0 && (words[0] == "&" || words[0] == ".") {
			words, quoted, called = words[1:], quoted[1:], true
		}
		c := &Cmd{Dir: dir, Text: stmt, Via: via, PS: true, PSIn: in}
		for _, r := range redirs {
			c.Redirs = append(c.Redirs, Redir{Op: r[0], Target: Resolve(r[1], dir, home)})
		}
		p.an.Cmds = append(p.an.Cmds, c)
		prev = c
		// .NET file calls: [IO.Directory]::Delete(...) is Remove-Item, and so on; Add-Type
		// compiles C# that may make the same calls.
		csharp := len(words) > 0 && strings.EqualFold(words[0], "Add-Type")
		if csharp || strings.Contains(stmt, "::") || strings.Contains(strings.ToLower(stmt), ".downloadfile(") {
			for _, call := range psDotNet(stmt, csharp, p.vars) {
				args := make([]string, len(call)-1)
				for i, a := range call[1:] {
					args[i] = strings.ReplaceAll(psHome(a, home), `\`, "/")
				}
				p.an.Cmds = append(p.an.Cmds, &Cmd{Dir: dir, Text: stmt, Via: via, PS: true, Name: call[0], Prog: call[0], Args: args})
			}
		}
		// Script blocks run where they are given: & { }, Invoke-Command { }, ForEach-Object
		// { }, if/foreach/try bodies. Each body is read as a script of its own; in a
		// ForEach-Object body $_ is each item the pipeline hands on.
		bodies, ok := psBlocks(stmt)
		if !ok {
			c.Unread = "a script block that does not parse"
		}
		if item, _ := psInput(in); item != "" && !strings.HasPrefix(item, "process:") && len(words) > 0 && psForEach(words[0]) {
			p.vars["_"], p.vars["psitem"] = item, item
		}
		loopVar, items := p.foreachList(stmt)
		for _, b := range bodies {
			if loopVar == "" {
				if err := p.script(b, dir, via, depth+1); err != nil {
					return err
				}
				continue
			}
			// foreach ($p in a list of known values): the body once per value.
			for _, it := range items {
				p.vars[loopVar] = it
				if err := p.script(b, dir, via, depth+1); err != nil {
					return err
				}
			}
			delete(p.vars, loopVar)
		}
		for _, b := range psSubexprs(stmt) {
			if strings.ContainsAny(b, " \t") && !strings.HasPrefix(strings.TrimSpace(b), "$") { // a command, not a value
				if err := p.script(b, dir, via, depth+1); err != nil {
					return err
				}
			}
		}
		delete(p.vars, "_")
		delete(p.vars, "psitem")
		// A statement that opens with a string outputs it, unless & or . calls it.
		str := len(words) > 0 && quoted[0] && !called && head != "" && strings.IndexByte(`'"@`, head[0]) >= 0
		if len(words) == 0 || str || strings.ContainsAny(words[0], "[]$(){}") || strings.Contains(stmt, "::") && psCmdlet(words[0]) != "Invoke-Expression" {
			c.Name, c.Code = "PowerShell", psHome(stmt, home) // an expression: its path literals are read
			// [scriptblock]::Create('...') makes code of a string: read it as code.
			if code, ok := psCreateArg(stmt, p.vars); ok {
				if err := p.script(code, dir, append(with(via), "ScriptBlock"), depth+1); err != nil {
					return err
				}
			} else if strings.Contains(strings.ToLower(stmt), "[scriptblock]::create(") {
				c.Unread = "a script block made from a value only known when it runs"
			}
			continue
		}
		c.Name, c.Prog, c.Args = psCmdlet(words[0]), words[0], words[1:]
		switch c.Name {
		case "Set-Location":
			if a := psArg(c.Args, 0, "path", "literalpath"); a != "" {
				dir = Resolve(a, dir, home)
			}
		case "Invoke-Expression":
			code, ok := psLiteralArg(stmt)
			if !ok {
				code, ok = psIexArg(stmt, p.vars)
			}
			if !ok && piped[i] && i > 0 && len(words) == 1 {
				code, ok = psReduce(stmts[i-1], p.vars) // '...' | iex
			}
			if !ok {
				c.Unread = "Invoke-Expression of a value only known when it runs"
				continue
			}
			if err := p.script(code, dir, append(with(via), "Invoke-Expression"), depth+1); err != nil {
				return err
			}
		case "Start-Process":
			prog, args := psStartProcess(c.Args, quoted[1:])
			if prog == "" {
				continue
			}
			raw := len(args) == 1 && strings.ContainsAny(args[0], " \t")
			if err := p.native(c, prog, args, raw, append(with(via), "Start-Process"), depth); err != nil {
				return err
			}
		default:
			if psNative(c.Name) {
				if err := p.native(c, c.Prog, c.Args, false, via, depth); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// psPassesAll reports a pipeline stage that hands on all it is given, or all but the few a
// negative filter names: Sort-Object, Where-Object { $_.Name -ne 'x' }.
func psPassesAll(c *Cmd) bool {
	switch strings.ToLower(c.Prog) {
	case "sort-object", "sort":
		return true
	case "where-object", "where", "?":
		l := strings.ToLower(c.Text)
		for _, o := range []string{"-ne ", "-notlike ", "-notmatch ", "-notin ", "-notcontains "} {
			if strings.Contains(l, o) {
				return !strings.Contains(l, " -and ") && !strings.Contains(l, "-eq ") && !strings.Contains(l, "-like ") && !strings.Contains(l, "-match ")
			}
		}
	}
	return false
}

// psForEach reports a command that runs its script block once per pipeline item.
func psForEach(w string) bool {
	switch strings.ToLower(w) {
	case "foreach-object", "%", "foreach", "where-object", "?", "where":
		return true
	}
	return false
}

// psCallee splits a statement that calls a command through & or . by a value, not a
// name: & ('Remove'+'-Item') -Recurse x, & 'Remove-Item' x, & $cmd x.
func psCallee(stmt string) (callee, rest string, ok bool) {
	s := strings.TrimSpace(stmt)
	if len(s) < 3 || s[0] != '&' && s[0] != '.' || s[1] != ' ' && s[1] != '\t' && s[1] != '(' && s[1] != '\'' && s[1] != '"' {
		return "", "", false
	}
	s = strings.TrimSpace(s[1:])
	if s == "" || strings.IndexByte("('\"$", s[0]) < 0 {
		return "", "", false
	}
	term, rest, ok := psTerm(s)
	if !ok || term[0] == '$' && strings.ContainsAny(rest, ".") && strings.HasPrefix(rest, ".") {
		return "", "", false
	}
	return term, strings.TrimSpace(rest), true
}

// psIexArg returns the code Invoke-Expression runs when its argument (or -Command's) is an
// expression that reduces to text.
func psIexArg(stmt string, vars map[string]string) (string, bool) {
	s := strings.TrimSpace(stmt)
	if lhs, rhs, ok := strings.Cut(s, "="); ok && strings.HasPrefix(s, "$") && !strings.ContainsAny(strings.TrimSpace(lhs), " \t'\"") {
		s = strings.TrimSpace(rhs)
	}
	s = strings.TrimLeft(s, "&. ")
	_, s, _ = strings.Cut(s, " ")
	s = strings.TrimSpace(s)
	if len(s) > 1 && s[0] == '-' {
		if name, rest, _ := strings.Cut(s[1:], " "); strings.HasPrefix("command", strings.ToLower(strings.TrimSuffix(name, ":"))) {
			s = strings.TrimSpace(rest)
		}
	}
	return psReduce(s, vars)
}

// native follows a program run from PowerShell: pwsh and powershell run PowerShell (their
// -Command or -EncodedCommand); every other program is analysed as Bash analyses it, so its
// wrappers (bash -c, sudo, env, ...) and rules apply.
//
// raw says args is one string that Start-Process hands on as a command line, split as the
// program starts.
func (p *psAnalyzer) native(c *Cmd, prog string, args []string, raw bool, via []string, depth int) error {
	switch name := strings.TrimSuffix(strings.ToLower(path.Base(strings.ReplaceAll(prog, `\`, "/"))), ".exe"); name {
	case "pwsh", "powershell":
		if raw && len(args) == 1 {
			args = strings.Fields(args[0]) // Start-Process's one argument string, split as the host does
		}
		code, unread := psHostCode(name, args)
		if unread != "" {
			c.Unread = unread
			return nil
		}
		if code == "" {
			return nil
		}
		return p.script(code, c.Dir, append(with(via), name), depth+1)
	}
	w := World{Cwd: c.Dir, Home: p.world.Home, Project: p.world.Project, OS: p.world.OS}
	an, err := Analyze(psBash(prog, args, raw), w, p.limits)
	if _, limit := err.(*LimitError); err != nil && raw && !limit {
		an, err = Analyze(psBash(prog, args, false), w, p.limits) // the string is no command line
	}
	if err != nil {
		return err
	}
	for _, sub := range an.Cmds {
		sub.Via = append(with(via), sub.Via...)
		sub.Text = c.Text
	}
	p.an.Cmds = append(p.an.Cmds, an.Cmds...)
	return nil
}

// psBash writes a program run from PowerShell as a Bash command: each word quoted (a word
// with a PowerShell variable becomes a run-time value), or with raw the one argument string
// as it is.
func psBash(prog string, args []string, raw bool) string {
	var b strings.Builder
	for i, w := range append([]string{prog}, args...) {
		if i > 0 {
			b.WriteByte(' ')
		}
		if raw && i == 1 {
			b.WriteString(w)
			continue
		}
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil || strings.Contains(w, "$") {
			q = `"${__pwsh_value}"` // a PowerShell variable: only known at run time
		}
		b.WriteString(q)
	}
	return b.String()
}

// psNative reports a command word that names a program rather than a cmdlet, an alias or a
// keyword of the language.
func psNative(name string) bool {
	if name == "" || strings.Contains(name, "-") && !strings.ContainsAny(name, "/\\.") || psCmdlet(name) != name {
		return false
	}
	switch strings.ToLower(name) {
	case "if", "elseif", "else", "foreach", "for", "while", "do", "until", "switch", "try", "catch", "finally", "trap",
		"function", "filter", "param", "begin", "process", "end", "return", "throw", "break", "continue", "exit", "class",
		"enum", "using", "data", "dynamicparam", "in",
		// aliases of cmdlets that read or write nothing
		"echo", "write", "ls", "dir", "gci", "pwd", "gl", "where", "%", "?", "select", "sort", "measure", "cls", "clear",
		"man", "help", "sleep", "ps", "gps", "gm", "ft", "fl", "gcm", "gal", "gv", "history", "h", "r", "icm":
		return false
	}
	return true
}

// psLiteralArg returns the code an Invoke-Expression statement runs when it is a string
// literal: '...' (a quote inside doubled), "..." without $ or ` (nothing expands in it), or a
// here-string of either kind.
func psLiteralArg(stmt string) (string, bool) {
	s := strings.TrimSpace(stmt)
	if lhs, rhs, ok := strings.Cut(s, "="); ok && strings.HasPrefix(s, "$") && !strings.ContainsAny(strings.TrimSpace(lhs), " \t'\"") {
		s = strings.TrimSpace(rhs) // $x = iex '...'
	}
	s = strings.TrimLeft(s, "&. ")
	_, s, _ = strings.Cut(s, " ") // the command word
	s = strings.TrimSpace(s)
	if len(s) > 1 && s[0] == '-' {
		if name, rest, _ := strings.Cut(s[1:], " "); strings.HasPrefix("command", strings.ToLower(strings.TrimSuffix(name, ":"))) {
			s = strings.TrimSpace(rest)
		}
	}
	here := strings.HasPrefix(s, "@'") && strings.HasSuffix(s, "'@") || strings.HasPrefix(s, "@\"") && strings.HasSuffix(s, "\"@")
	if here && len(s) >= 4 {
		body := s[2 : len(s)-2]
		return body, s[1] == '\'' || !strings.ContainsAny(body, "$`")
	}
	if len(s) < 2 || s[0] != s[len(s)-1] {
		return "", false
	}
	body := s[1 : len(s)-1]
	switch s[0] {
	case '\'':
		if strings.Contains(strings.ReplaceAll(body, "''", ""), "'") {
			return "", false // more than one literal
		}
		return strings.ReplaceAll(body, "''", "'"), true
	case '"':
		return body, !strings.ContainsAny(body, "$`\"")
	}
	return "", false
}

// psArg returns a cmdlet's argument: the value of one of the named parameters (abbreviations
// and -Name:value included), else the n-th positional word.
func psArg(args []string, n int, names ...string) string {
	pos := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			name, val, has := strings.Cut(a[1:], ":")
			for _, want := range names {
				if strings.EqualFold(name, want) || len(name) >= 2 && strings.HasPrefix(want, strings.ToLower(name)) {
					if has {
						return val
					}
					if i+1 < len(args) {
						return args[i+1]
					}
				}
			}
			if !has && psValueParam(name) {
				i++
			}
			continue
		}
		if pos == n {
			return a
		}
		pos++
	}
	return ""
}

// psReads are the files a cmdlet reads.
func (c *Cmd) psReads(home string) []Source {
	res := func(p string) string { return Resolve(p, c.Dir, home) }
	var p string
	tree := false
	switch c.Name {
	case "Get-Content", "Import-Csv", "Import-Clixml", "Format-Hex":
		p = psArg(c.Args, 0, "path", "literalpath")
	case "Select-String":
		p = psArg(c.Args, 1, "path", "literalpath")
		if t, ok := strings.CutPrefix(c.PSIn, "tree:"); ok && p == "" {
			// Get-ChildItem -Recurse DIR | Select-String: a search of everything under DIR
			return []Source{{Path: res(strings.TrimSuffix(t, "/*")), How: c.Name, Tree: true}}
		}
	case "Copy-Item", "Move-Item", "Compress-Archive":
		p = psArg(c.Args, 0, "path", "literalpath")
		tree = true
	case "Invoke-WebRequest":
		p = psArg(c.Args, -1, "infile")
	}
	if p == "" || strings.Contains(p, "://") {
		return nil
	}
	return []Source{{Path: res(p), How: c.Name, Tree: tree}}
}

// psWrites are the files a cmdlet writes or deletes.
func (c *Cmd) psWrites(home string) []Target {
	res := func(p string) string { return Resolve(p, c.Dir, home) }
	var ps []string
	switch c.Name {
	case "Set-Content", "Add-Content", "Clear-Content", "Remove-Item", "New-Item", "Rename-Item", "Export-Csv", "Export-Clixml":
		ps = append(ps, psArg(c.Args, 0, "path", "literalpath"))
	case "Out-File", "Tee-Object":
		ps = append(ps, psArg(c.Args, 0, "filepath", "literalpath"))
	case "Copy-Item", "Move-Item":
		ps = append(ps, psArg(c.Args, 1, "destination"))
		if c.Name == "Move-Item" {
			ps = append(ps, psArg(c.Args, 0, "path", "literalpath"))
		}
	case "Compress-Archive":
		ps = append(ps, psArg(c.Args, 1, "destinationpath"))
	case "Invoke-WebRequest":
		ps = append(ps, psArg(c.Args, -1, "outfile"))
	case "Expand-Archive":
		// the files of the archive go into -DestinationPath, or the current folder
		d := psArg(c.Args, 1, "destinationpath")
		if d == "" {
			d = "."
		}
		ps = append(ps, d)
	}
	var out []Target
	for _, p := range ps {
		if p != "" && !strings.HasPrefix(p, "$") {
			out = append(out, Target{Path: res(p), How: c.Name, Into: c.Name == "Expand-Archive"})
		}
	}
	return out
}

// psNested analyses the PowerShell a Bash command hands to pwsh -c or powershell -Command.
func (c *Cmd) psNested(home string) []*Cmd {
	if c.Name != "pwsh" && c.Name != "powershell" || c.Code == "" {
		return nil
	}
	an, err := AnalyzePowerShell(c.Code, World{Cwd: c.Dir, Home: home}, Limits{})
	if err != nil {
		return nil
	}
	return an.Cmds
}

// psHome replaces PowerShell's names for the home directory with it.
func psHome(s, home string) string {
	if strings.IndexByte(s, '$') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' {
			rest := strings.ToLower(s[i:])
			matched := false
			for _, v := range []string{"${env:userprofile}", "${env:home}", "${home}", "$env:userprofile", "$env:home", "$home"} {
				// The whole name: $HOMEPATH and $env:HOMEDRIVE are other variables.
				if strings.HasPrefix(rest, v) && (v[1] == '{' || len(rest) == len(v) || !isWordByte(rest[len(v)]) && rest[len(v)] != ':') {
					b.WriteString(home)
					i += len(v) - 1
					matched = true
					break
				}
			}
			if matched {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// psCreateArg returns the literal string given to [scriptblock]::Create in stmt.
func psCreateArg(stmt string, vars map[string]string) (string, bool) {
	i := strings.Index(strings.ToLower(stmt), "[scriptblock]::create(")
	if i < 0 {
		return "", false
	}
	rest := stmt[i+len("[scriptblock]::create("):]
	depth, quote := 0, byte(0)
	for j := 0; j < len(rest); j++ {
		switch ch := rest[j]; {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '(':
			depth++
		case ch == ')' && depth > 0:
			depth--
		case ch == ')':
			arg := strings.TrimSpace(rest[:j])
			if code, ok := psLiteralArg("Create " + arg); ok { // as the argument of a command
				return code, true
			}
			return psReduce(arg, vars)
		}
	}
	return "", false
}

// foreachList reads a foreach statement over a list whose values are known: foreach ($p in
// $paths) with $paths an array of literals, or a literal list written in place. It returns the
// loop variable and at most 16 values, or "" when the list is not known.
func (p *psAnalyzer) foreachList(stmt string) (string, []string) {
	s := strings.TrimSpace(stmt)
	if len(s) < 8 || !strings.EqualFold(s[:7], "foreach") {
		return "", nil
	}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return "", nil
	}
	end := psClose(s[open:])
	if end <= 0 {
		return "", nil
	}
	header := strings.TrimSpace(s[open+1 : open+end-1])
	v, list, ok := strings.Cut(header, " in ")
	v = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(v), "$"))
	list = strings.TrimSpace(list)
	if !ok || v == "" {
		return "", nil
	}
	var items []string
	if vals, known := p.splats[strings.ToLower(strings.TrimPrefix(list, "$"))]; known && strings.HasPrefix(list, "$") {
		items = vals
	} else {
		list = strings.TrimSuffix(strings.TrimPrefix(list, "@("), ")")
		for _, e := range psSplitArgs(list) {
			val, lit := psReduce(e, p.vars)
			if !lit {
				return "", nil
			}
			items = append(items, val)
		}
	}
	if len(items) == 0 || len(items) > 16 {
		return "", nil
	}
	return v, items
}
