package shell

import (
	"fmt"
	"strings"
)

// PowerShell is read well enough to find the files a script reads and writes: statements are
// split on ; newlines, pipes, && and ||; words are unquoted; aliases (gc, cat, type, rm, del,
// cp, iwr, ...) become their cmdlets; $HOME, $env:HOME, $env:USERPROFILE and ~ become home;
// Set-Location and cd move the directory. The danger rules read the script text itself.

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
// Code, whose path literals count as reads.
func AnalyzePowerShell(src string, w World, l Limits) (*Analysis, error) {
	l = l.withDefaults()
	if len(src) > l.MaxBytes {
		return nil, &LimitError{fmt.Sprintf("the command is %d bytes, over the %d-byte limit", len(src), l.MaxBytes)}
	}
	dir := w.Cwd
	if dir == "" {
		dir = "/"
	}
	an := &Analysis{}
	for _, stmt := range psStatements(src) {
		if len(an.Cmds) >= l.MaxCmds {
			return nil, &LimitError{fmt.Sprintf("the script runs over %d commands", l.MaxCmds)}
		}
		words, redirs := psWords(stmt, w.Home)
		// $x = Get-Content ...: the command after the assignment.
		if len(words) > 2 && strings.HasPrefix(words[0], "$") && words[1] == "=" {
			words = words[2:]
		}
		for len(words) > 0 && (words[0] == "&" || words[0] == ".") {
			words = words[1:]
		}
		c := &Cmd{Dir: dir, Text: stmt, Via: []string{"PowerShell"}}
		for _, r := range redirs {
			c.Redirs = append(c.Redirs, Redir{Op: r[0], Target: Resolve(r[1], dir, w.Home)})
		}
		if len(words) == 0 || strings.ContainsAny(words[0], "[]$(){}") || strings.Contains(stmt, "::") {
			c.Name, c.Code = "PowerShell", psHome(stmt, w.Home) // an expression: its path literals are read
			an.Cmds = append(an.Cmds, c)
			continue
		}
		c.Name, c.Prog, c.Args = psCmdlet(words[0]), words[0], words[1:]
		if c.Name == "Set-Location" && len(c.Args) > 0 {
			if p := psArg(c.Args, 0, "path", "literalpath"); p != "" {
				dir = Resolve(p, dir, w.Home)
			}
		}
		an.Cmds = append(an.Cmds, c)
	}
	return an, nil
}

// psStatements splits a script into statements and pipeline stages, outside quotes.
func psStatements(src string) []string {
	var out []string
	var b strings.Builder
	var quote byte
	depth := 0
	flush := func() {
		if s := strings.TrimSpace(b.String()); s != "" {
			out = append(out, s)
		}
		b.Reset()
	}
	for i := 0; i < len(src); i++ {
		ch := src[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '`' && i+1 < len(src):
			b.WriteByte(ch)
			i++
			ch = src[i]
		case ch == '(' || ch == '{':
			depth++
		case ch == ')' || ch == '}':
			depth--
		case depth <= 0 && (ch == ';' || ch == '\n' || ch == '|'):
			flush()
			if ch == '|' && i+1 < len(src) && src[i+1] == '|' {
				i++
			}
			continue
		case depth <= 0 && ch == '&' && i+1 < len(src) && src[i+1] == '&':
			flush()
			i++
			continue
		}
		b.WriteByte(ch)
	}
	flush()
	return out
}

// psWords splits a statement into words, unquoted, with home expanded and \ made /; the
// redirections (> >> 2> *>) are returned apart as operator and target.
func psWords(stmt, home string) (words []string, redirs [][2]string) {
	var cur strings.Builder
	in := false
	var quote byte
	expand := func(s string, literal bool) string {
		if literal {
			return s
		}
		return psHome(s, home)
	}
	flush := func() {
		if in {
			w := strings.ReplaceAll(cur.String(), `\`, "/")
			words = append(words, w)
		}
		cur.Reset()
		in = false
	}
	for i := 0; i < len(stmt); i++ {
		ch := stmt[i]
		switch {
		case quote != 0:
			j := strings.IndexByte(stmt[i:], quote)
			if j < 0 {
				j = len(stmt) - i
			}
			cur.WriteString(expand(stmt[i:i+j], quote == '\''))
			i += j
			quote = 0
		case ch == '\'' || ch == '"':
			quote, in = ch, true
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == ',':
			flush()
		case ch == '(' || ch == ')':
			flush()
		default:
			j := i
			for j < len(stmt) && strings.IndexByte(" \t\r,'\"()", stmt[j]) < 0 {
				j++
			}
			cur.WriteString(expand(stmt[i:j], false))
			in = true
			i = j - 1
		}
	}
	flush()
	// Redirections and the ~ of home.
	var keep []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		op := strings.TrimLeft(w, "*0123456789")
		if op == ">" || op == ">>" {
			if i+1 < len(words) {
				redirs = append(redirs, [2]string{op, words[i+1]})
				i++
			}
			continue
		}
		if strings.HasPrefix(op, ">") && len(op) > 1 && op != ">>" && !strings.HasPrefix(op, ">&") {
			redirs = append(redirs, [2]string{">", strings.TrimLeft(op, ">")})
			continue
		}
		keep = append(keep, w)
	}
	return keep, redirs
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
	}
	var out []Target
	for _, p := range ps {
		if p != "" && !strings.HasPrefix(p, "$") {
			out = append(out, Target{Path: res(p), How: c.Name})
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
	for _, v := range []string{"${env:USERPROFILE}", "${env:HOME}", "$env:USERPROFILE", "$env:HOME", "${HOME}", "$HOME"} {
		s = strings.ReplaceAll(s, v, home)
		s = strings.ReplaceAll(s, strings.ToLower(v), home)
	}
	return s
}
