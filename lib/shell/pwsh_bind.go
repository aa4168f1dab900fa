// PowerShell's parameter binding, and the Bash command each cmdlet statement amounts to.

package shell

import (
	"cmp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// psBound is a statement's arguments bound to a cmdlet's parameters: named values,
// switches, and the positional words in order.
type psBound struct {
	named    map[string][]string
	switches map[string]bool
	pos      []string
}

// psBind binds args as PowerShell does: -Name value, -Name:value, a switch -Name (false with
// -Name:$false), and any unambiguous prefix of a name (-Rec for -Recurse). An ambiguous
// prefix takes the first name listed, so that -f still counts as -Force where it would
// fail to bind: the rules lean to the harmful reading.
func psBind(args []string, params, switches []string) psBound {
	b := psBound{named: map[string][]string{}, switches: map[string]bool{}}
	match := func(name string, list []string) string {
		for _, p := range list {
			if p == name {
				return p
			}
		}
		for _, p := range list {
			if strings.HasPrefix(p, name) {
				return p
			}
		}
		return ""
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' || a[1] >= '0' && a[1] <= '9' {
			b.pos = append(b.pos, a)
			continue
		}
		name, val, has := strings.Cut(strings.ToLower(a[1:]), ":")
		if s := match(name, switches); s != "" && match(name, params) != name {
			b.switches[s] = !has || !strings.EqualFold(val, "$false")
			continue
		}
		p := match(name, params)
		if p == "" {
			continue // a common parameter or one the rules do not read
		}
		if !has {
			if i+1 >= len(args) {
				continue
			}
			i++
			val = args[i]
		} else {
			val = a[len(a)-len(val):]
		}
		b.named[p] = append(b.named[p], val)
	}
	return b
}

// get returns a parameter's values, else the positional word n (n < 0: none).
func (b psBound) get(name string, n int) []string {
	if v := b.named[name]; len(v) > 0 {
		return v
	}
	if n >= 0 && n < len(b.pos) {
		return b.pos[n : n+1]
	}
	return nil
}

// one returns a parameter's first value, else the positional word n.
func (b psBound) one(name string, n int) string {
	if v := b.get(name, n); len(v) > 0 {
		return v[0]
	}
	return ""
}

// bashWord quotes s for Bash, leaving its wildcards * and ? to expand as PowerShell's -Path
// expands them.
func bashWord(s string) string {
	url := strings.Contains(s, "://") // its ? and * are no wildcards
	if strings.Contains(strings.ToLower(s), "$env:") && (url || !strings.ContainsAny(s, "*?")) {
		return bashEnvWord(s)
	}
	if url {
		if q, err := syntax.Quote(s, syntax.LangBash); err == nil && !strings.Contains(s, "$") {
			return q
		}
	}
	var b strings.Builder
	for s != "" {
		i := strings.IndexAny(s, "*?")
		if i < 0 {
			i = len(s)
		}
		if i > 0 {
			q, err := syntax.Quote(s[:i], syntax.LangBash)
			if err != nil || strings.Contains(s[:i], "$") {
				q = `"${__pwsh_value}"` // a PowerShell variable: only known at run time
			}
			b.WriteString(q)
		}
		if i < len(s) {
			b.WriteByte(s[i])
			i++
		}
		s = s[i:]
	}
	return b.String()
}

// bashEnvWord writes a word that holds $env:NAME as Bash's "...${NAME}...", so that the
// rules see which variable it sends; any other variable is a run-time value.
func bashEnvWord(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '$' && strings.HasPrefix(strings.ToLower(s[i:]), "$env:"):
			j := i + 5
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			b.WriteString("${" + s[i+5:j] + "}")
			i = j - 1
		case ch == '$':
			b.WriteString("${__pwsh_value}")
			for i+1 < len(s) && (isWordByte(s[i+1]) || s[i+1] == ':') {
				i++
			}
		case ch == '"' || ch == '\\' || ch == '`':
			b.WriteByte('\\')
			b.WriteByte(ch)
		default:
			b.WriteByte(ch)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// bashLine writes words as one Bash command line, each quoted by bashWord but the bashOp ones.
func bashLine(words ...string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if strings.HasPrefix(w, "\x00") { // an operator or option, as it is
			out[i] = w[1:]
			continue
		}
		out[i] = bashWord(w)
	}
	return strings.Join(out, " ")
}

// bashOp marks a word bashLine writes as it is: an option or an operator.
func bashOp(s string) string { return "\x00" + s }

// PSBash returns the Bash command a PowerShell statement amounts to, for the rules that
// judge Bash: Remove-Item -Recurse is rm -r, Copy-Item cp, Set-Content a > redirection,
// Invoke-WebRequest curl, Stop-Process kill, Invoke-Sqlcmd sqlcmd. What the previous
// stage of its pipeline hands on (PSIn) stands for a missing path or process. It returns ""
// for a statement with no such counterpart, or one told only to show what it would do
// (-WhatIf).
func PSBash(c *Cmd) string {
	if !c.PS {
		return ""
	}
	switch c.Name {
	case "Remove-Item":
		b := psBind(c.Args, []string{"path", "literalpath", "filter", "include", "exclude", "credential", "stream"}, []string{"recurse", "force", "whatif", "confirm"})
		if b.switches["whatif"] {
			return ""
		}
		paths := append(b.get("path", -1), b.get("literalpath", -1)...)
		paths = append(paths, b.pos...)
		rec := b.switches["recurse"]
		if len(paths) == 0 {
			in, inRec := psInput(c.PSIn)
			if in == "" || strings.HasPrefix(in, "process:") {
				return ""
			}
			paths, rec = []string{in}, rec || inRec
		}
		// -Filter and -Include narrow what is deleted to the names they match.
		f := b.one("filter", -1)
		if f == "" {
			f = b.one("include", -1)
		}
		if f != "" && rec {
			for i, p := range paths {
				if t := strings.TrimSuffix(p, "/*"); t != "" {
					paths[i] = t // find searches the folder's contents
				}
			}
			return bashLine(append(append([]string{"find"}, paths...), bashOp("-name"), f, bashOp("-delete"))...)
		}
		if f != "" {
			for i, p := range paths {
				paths[i] = strings.TrimSuffix(strings.TrimSuffix(p, "*"), "/") + "/" + f
			}
		}
		w := []string{"rm", bashOp("-f")}
		if rec {
			w = append(w, bashOp("-r"))
		}
		return bashLine(append(append(w, bashOp("--")), paths...)...)
	case "Copy-Item", "Move-Item":
		b := psBind(c.Args, []string{"path", "literalpath", "destination", "filter", "include", "exclude", "credential"}, []string{"recurse", "force", "container", "passthru", "whatif", "confirm"})
		src, dst := b.one("path", 0), b.one("destination", 1)
		if l := b.one("literalpath", -1); l != "" {
			src, dst = l, b.one("destination", 0)
		}
		if b.switches["whatif"] || src == "" || dst == "" {
			return ""
		}
		if host, rest, ok := strings.Cut(strings.TrimPrefix(dst, "//"), "/"); strings.HasPrefix(dst, "//") && ok && host != "" {
			return bashLine("scp", bashOp("-r"), src, host+":"+rest) // \\host\share: a copy to another machine
		}
		if c.Name == "Move-Item" {
			return bashLine("mv", bashOp("-f"), bashOp("--"), src, dst)
		}
		if b.switches["recurse"] {
			return bashLine("cp", bashOp("-rf"), bashOp("--"), src, dst)
		}
		return bashLine("cp", bashOp("-f"), bashOp("--"), src, dst)
	case "Set-Content", "Add-Content", "Out-File", "Tee-Object", "Clear-Content":
		b := psBind(c.Args, []string{"path", "literalpath", "filepath", "value", "encoding", "inputobject", "stream", "width"}, []string{"append", "force", "nonewline", "noclobber", "passthru", "whatif", "confirm"})
		p := b.one("path", 0)
		if l := b.one("literalpath", -1); l != "" {
			p = l
		}
		if fp := b.one("filepath", -1); fp != "" {
			p = fp
		}
		if b.switches["whatif"] || p == "" {
			return ""
		}
		redir := ">"
		if c.Name == "Add-Content" || b.switches["append"] {
			redir = ">>"
		}
		val := strings.Join(b.get("value", 1), " ")
		if v := b.one("inputobject", -1); v != "" {
			val = v
		}
		if t, ok := strings.CutPrefix(c.PSIn, PSText); ok && val == "" {
			val = t // 'text' | Out-File FILE writes the text piped in
		}
		if c.Name == "Clear-Content" {
			val = ""
		}
		return bashLine("echo", val, bashOp(redir), p)
	case "New-Item":
		b := psBind(c.Args, []string{"path", "name", "itemtype", "value", "target", "credential"}, []string{"force", "whatif", "confirm"})
		p := b.one("path", 0)
		if n := b.one("name", -1); n != "" {
			p = strings.TrimSuffix(p, "/") + "/" + n
			if b.one("path", 0) == "" {
				p = n
			}
		}
		if b.switches["whatif"] || p == "" || psRegistry(p) {
			return ""
		}
		switch t := strings.ToLower(b.one("itemtype", -1)); t {
		case "directory", "d", "dir":
			return bashLine("mkdir", bashOp("-p"), bashOp("--"), p)
		case "symboliclink", "junction", "hardlink":
			target := b.one("target", -1)
			if target == "" {
				target = b.one("value", -1)
			}
			return bashLine("ln", bashOp("-sf"), bashOp("--"), target, p)
		}
		return bashLine("echo", b.one("value", 1), bashOp(">"), p)
	case "Invoke-WebRequest":
		b := psBind(c.Args, []string{"uri", "outfile", "infile", "method", "body", "headers", "contenttype", "form", "credential", "useragent", "proxy", "timeoutsec"}, []string{"usebasicparsing", "passthru", "usedefaultcredentials", "skipcertificatecheck"})
		u := b.one("uri", 0)
		if u == "" {
			return ""
		}
		w := []string{"curl", bashOp("-sL")}
		if m := b.one("method", -1); m != "" {
			w = append(w, bashOp("-X"), strings.ToUpper(m))
		}
		if o := b.one("outfile", -1); o != "" {
			w = append(w, bashOp("-o"), o)
		}
		if in := b.one("infile", -1); in != "" {
			w = append(w, bashOp("-T"), in)
		}
		for _, body := range append(b.get("body", -1), b.get("form", -1)...) {
			if psCmdlet(body) == "Get-Content" {
				continue // -Body (Get-Content FILE): below
			}
			if f, ok := strings.CutPrefix(body, psFileValue); ok {
				w = append(w, bashOp("--data-binary"), "@"+f)
			} else {
				w = append(w, bashOp("--data-binary"), body)
			}
		}
		for _, f := range psReadArgs(c.Args) {
			w = append(w, bashOp("--data-binary"), "@"+f)
		}
		if f, ok := strings.CutPrefix(c.PSIn, psFileValue); ok { // Get-Content FILE | irm -Method Post
			w = append(w, bashOp("--data-binary"), "@"+f)
		}
		return bashLine(append(w, u)...)
	case "Send-MailMessage":
		b := psBind(c.Args, []string{"to", "from", "subject", "body", "attachments", "smtpserver", "cc", "bcc", "port", "credential", "encoding", "priority"}, []string{"usessl", "bodyashtml"})
		server := b.one("smtpserver", -1)
		if server == "" {
			server = "smtp.invalid"
		}
		w := []string{"curl", "smtp://" + server}
		for _, a := range b.get("attachments", -1) {
			w = append(w, bashOp("-T"), a)
		}
		for _, body := range b.get("body", 2) {
			if f, ok := strings.CutPrefix(body, psFileValue); ok {
				w = append(w, bashOp("-T"), f)
			}
		}
		for _, f := range psReadArgs(c.Args) {
			w = append(w, bashOp("-T"), f)
		}
		if len(w) == 2 {
			return ""
		}
		return bashLine(w...)
	case "Compress-Archive":
		b := psBind(c.Args, []string{"path", "literalpath", "destinationpath", "compressionlevel"}, []string{"update", "force", "passthru"})
		dst := b.one("destinationpath", 1)
		srcs := append(b.get("path", 0), b.get("literalpath", -1)...)
		if dst == "" || len(srcs) == 0 {
			return ""
		}
		return bashLine(append([]string{"zip", bashOp("-qr"), dst}, srcs...)...)
	case "Stop-Process":
		b := psBind(c.Args, []string{"name", "id", "inputobject"}, []string{"force", "passthru", "whatif", "confirm"})
		if b.switches["whatif"] {
			return ""
		}
		names := b.get("name", -1)
		ids := append(b.get("id", -1), b.pos...)
		if len(names) == 0 && len(ids) == 0 {
			in, _ := psInput(c.PSIn)
			n, ok := strings.CutPrefix(in, "process:")
			if !ok {
				return ""
			}
			names = []string{n}
		}
		for _, n := range names {
			if n == "*" || n == "" {
				return bashLine("kill", bashOp("-9"), bashOp("-1"))
			}
		}
		if len(names) > 0 {
			return bashLine(append([]string{"pkill", bashOp("-9"), bashOp("-x")}, names...)...)
		}
		return bashLine(append([]string{"kill", bashOp("-9")}, ids...)...)
	case "Invoke-Sqlcmd":
		b := psBind(c.Args, []string{"query", "serverinstance", "database", "inputfile", "username", "password", "hostname", "connectionstring"}, []string{"trustservercertificate", "encryptconnection"})
		w := []string{"sqlcmd"}
		if s := b.one("serverinstance", -1); s != "" {
			w = append(w, bashOp("-S"), s)
		}
		if d := b.one("database", -1); d != "" {
			w = append(w, bashOp("-d"), d)
		}
		if q := b.one("query", 0); q != "" {
			w = append(w, bashOp("-Q"), q)
		}
		if f := b.one("inputfile", -1); f != "" {
			w = append(w, bashOp("-i"), f)
		}
		return bashLine(w...)
	case "msiexec", "msiexec.exe":
		// msiexec /i PACKAGE runs the installer code a package carries.
		for i, a := range c.Args {
			if l := strings.ToLower(a); (l == "/i" || l == "/package" || l == "-i" || l == "/a" || l == "/update") && i+1 < len(c.Args) {
				return bashLine(".", c.Args[i+1])
			}
		}
	case "powershell", "pwsh", "powershell.exe", "pwsh.exe":
		// -File SCRIPT runs the script.
		for i, a := range c.Args {
			if l := strings.ToLower(strings.TrimLeft(a, "-/")); (l == "file" || l == "f") && i+1 < len(c.Args) {
				return bashLine(".", c.Args[i+1])
			}
		}
	case "Start-BitsTransfer":
		b := psBind(c.Args, []string{"source", "destination", "transfertype", "displayname", "credential"}, []string{"asynchronous", "suspended"})
		if src, dst := b.one("source", 0), b.one("destination", 1); src != "" {
			if strings.EqualFold(b.one("transfertype", -1), "upload") {
				return bashLine("curl", bashOp("-T"), src, dst)
			}
			if dst == "" {
				dst = "."
			}
			return bashLine("curl", bashOp("-sLo"), dst, src)
		}
	case "certutil", "certutil.exe":
		// certutil -urlcache -f URL FILE downloads.
		var ops []string
		cache := false
		for _, a := range c.Args {
			l := strings.ToLower(strings.TrimLeft(a, "-/"))
			switch {
			case l == "urlcache" || l == "verifyctl":
				cache = true
			case !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "/"):
				ops = append(ops, a)
			}
		}
		if cache && len(ops) >= 2 {
			return bashLine("curl", bashOp("-sLo"), ops[1], ops[0])
		}
	case "bitsadmin", "bitsadmin.exe":
		for i, a := range c.Args {
			if strings.EqualFold(a, "/transfer") && i+3 < len(c.Args) {
				return bashLine("curl", bashOp("-sLo"), c.Args[len(c.Args)-1], c.Args[len(c.Args)-2])
			}
		}
	case "Clear-History":
		// Only the session's list: PSReadLine's saved history file stays (Bash's history -c
		// loses the file at exit, which this does not).
		return ""
	case "Import-Module":
		b := psBind(c.Args, []string{"name", "prefix", "minimumversion", "requiredversion", "scope", "function", "cmdlet", "alias", "variable"}, []string{"force", "global", "passthru"})
		m := b.one("name", 0)
		if strings.ContainsAny(m, "/") || psScriptFile(m) {
			return bashLine(".", m)
		}
	}
	return ""
}

// psReadArgs returns the files read by a (Get-Content FILE) among a statement's words,
// which psWordsQ writes out flat: the word after Get-Content or one of its aliases.
func psReadArgs(args []string) []string {
	var out []string
	for i := 0; i+1 < len(args); i++ {
		if psCmdlet(args[i]) == "Get-Content" && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, args[i+1])
		}
	}
	return out
}

// psFileValue marks a value that is a file's content (Get-Content PATH): the text after it
// is the path.
const psFileValue = "\x00file:"

// psScriptFile reports a file PowerShell runs as code: a script, a module or a library.
func psScriptFile(p string) bool {
	p = strings.ToLower(p)
	for _, ext := range []string{".ps1", ".psm1", ".dll", ".exe", ".bat", ".cmd", ".psd1"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

// psInput reads what a previous pipeline stage hands on (a PSIn): a path pattern, whether
// it reaches into subfolders, or process:NAME.
func psInput(in string) (string, bool) {
	if strings.HasPrefix(in, psFileValue) || strings.HasPrefix(in, PSText) {
		return "", false // a file's lines, not paths
	}
	if p, ok := strings.CutPrefix(in, "tree:"); ok {
		return p, true
	}
	return in, false
}

// psRegistry reports a path into the registry (HKLM:\..., Registry::...).
func psRegistry(p string) bool {
	l := strings.ToLower(p)
	for _, h := range []string{"hklm:", "hkcu:", "hkcr:", "hku:", "hkcc:", "registry::", "microsoft.powershell.core/registry::"} {
		if strings.HasPrefix(l, h) {
			return true
		}
	}
	return false
}

// PSRegistryDelete returns the registry key a Remove-Item statement deletes with its
// subkeys (Remove-Item -Recurse HKLM:\SOFTWARE\...), "" for any other statement.
func PSRegistryDelete(c *Cmd) string {
	if !c.PS || c.Name != "Remove-Item" {
		return ""
	}
	b := psBind(c.Args, []string{"path", "literalpath", "filter", "include", "exclude", "credential", "stream"}, []string{"recurse", "force", "whatif", "confirm"})
	if !b.switches["recurse"] || b.switches["whatif"] {
		return ""
	}
	for _, p := range append(append(b.get("path", -1), b.get("literalpath", -1)...), b.pos...) {
		if psRegistry(p) {
			return p
		}
	}
	return ""
}

// PSNameSearch is the start folder and the name pattern of a recursive Get-ChildItem with a
// -Filter or -Include (Get-ChildItem -Path ~ -Recurse -Filter *.pem): a search for files by
// name, as find -name is; "" when c is none.
func PSNameSearch(c *Cmd) (start, names string) {
	if c == nil || !c.PS {
		return "", ""
	}
	switch strings.ToLower(c.Name) {
	case "get-childitem", "gci", "ls", "dir":
	default:
		return "", ""
	}
	b := psBind(c.Args, []string{"path", "literalpath", "filter", "include", "exclude", "depth", "attributes"}, []string{"recurse", "force", "file", "directory", "hidden", "name"})
	if !b.switches["recurse"] {
		return "", ""
	}
	names = b.one("filter", -1)
	if names == "" && len(b.named["include"]) > 0 {
		names = b.named["include"][0]
	}
	if names == "" {
		return "", ""
	}
	start = b.one("path", 0)
	if l := b.one("literalpath", -1); l != "" {
		start = l
	}
	return cmp.Or(start, "."), strings.ToLower(names)
}

// psProducer returns what a pipeline stage hands on to the next, as PSIn: the items
// Get-ChildItem lists (PATH/*, tree:PATH/* with -Recurse), the processes Get-Process
// lists (process:NAME, process:* for all); "" when unknown.
func psProducer(c *Cmd) string {
	if c == nil || !c.PS {
		return ""
	}
	switch strings.ToLower(c.Name) {
	case "get-childitem", "gci", "ls", "dir", "get-item", "gi":
		b := psBind(c.Args, []string{"path", "literalpath", "filter", "include", "exclude", "depth", "attributes"}, []string{"recurse", "force", "file", "directory", "hidden", "name"})
		p := b.one("path", 0)
		if l := b.one("literalpath", -1); l != "" {
			p = l
		}
		if p == "" {
			p = "."
		}
		if strings.EqualFold(c.Name, "get-item") || strings.EqualFold(c.Name, "gi") {
			return p
		}
		if f := b.one("filter", -1); f != "" && !b.switches["recurse"] {
			return strings.TrimSuffix(p, "/") + "/" + f
		}
		if b.switches["recurse"] || b.one("filter", -1) != "" || len(b.named["include"]) > 0 {
			if f := b.one("filter", -1); f != "" || len(b.named["include"]) > 0 {
				return "" // a filtered tree: narrower than a folder's contents
			}
			return "tree:" + strings.TrimSuffix(p, "/") + "/*"
		}
		return strings.TrimSuffix(p, "/") + "/*"
	case "get-content", "gc", "cat", "type":
		if p := psArg(c.Args, 0, "path", "literalpath"); p != "" {
			return psFileValue + p
		}
	case "get-process", "gps", "ps":
		b := psBind(c.Args, []string{"name", "id", "computername"}, []string{"includeusername", "module", "fileversioninfo"})
		if len(b.get("id", -1)) > 0 {
			return ""
		}
		n := b.one("name", 0)
		if n == "" {
			n = "*"
		}
		return "process:" + n
	}
	return ""
}
