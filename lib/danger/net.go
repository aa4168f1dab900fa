package danger

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookkit/harness/lib/shell"
)

// fetchers read from the network; their output run as code is code from the network.
var fetchers = map[string]bool{"curl": true, "wget": true, "fetch": true, "http": true, "https": true, "xh": true,
	"aria2c": true, "lynx": true, "links": true, "nc": true, "ncat": true, "netcat": true, "socat": true,
	"telnet": true, "openssl": true, "ftp": true, "tftp": true, "scp": true, "sftp": true, "ssh": true, "gh": true}

func isDecode(c *shell.Cmd) bool {
	switch c.Name {
	case "base64", "base32":
		return shell.Opts{}.Parse(c.Args).Has("d", "decode", "D")
	case "xxd":
		return contains(c.Args, "-r")
	case "openssl":
		return contains(c.Args, "-d") || contains(c.Args, "base64")
	case "uudecode", "rev":
		return true
	}
	return false
}

// runsCode reports whether a command executes program text: shells, eval, source, interpreters.
func runsCode(c *shell.Cmd) bool {
	switch c.Name {
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "eval", "source", ".", "at", "batch":
		return true
	}
	return strings.HasPrefix(c.Name, "python") || c.Name == "perl" || c.Name == "ruby" || c.Name == "node" ||
		c.Name == "php" || c.Name == "bun" || c.Name == "deno" || c.Name == "lua" || c.Name == "Rscript" || c.Name == "pwsh"
}

// streams: code from the network or a decoder run by a shell; shells wired to the network.
func (j *judge) streams(c *shell.Cmd) {
	if len(c.Runs) > 0 {
		j.runs(c)
	}
	// A shell whose output is read by a network tool: sh -i | nc host port.
	if fetchers[c.Name] && c.Stdin != nil {
		for _, from := range c.Stdin.From {
			if runsCode(from) && (contains(from.Args, "-i") || len(from.Args) == 0) {
				j.add(c, "rev.shell-pipe", Deny, High, "it pipes a shell's output to "+c.Name+": a reverse shell", "")
				return
			}
		}
	}
	for _, r := range c.Redirs {
		if strings.HasPrefix(r.Target, "/dev/tcp/") || strings.HasPrefix(r.Target, "/dev/udp/") {
			if loopbackTCP(r.Target) && !runsCode(c) {
				return // exec 3<>/dev/tcp/127.0.0.1/6379: talking to a local service
			}
			if runsCode(c) || r.Op != "<" && r.Op != ">" || c.Name == "exec" {
				j.add(c, "rev.dev-tcp", Deny, High, "it connects a shell to "+r.Target+": a reverse shell", "")
			} else {
				j.add(c, "rev.dev-tcp", Ask, Medium, "it opens a raw network connection through "+r.Target, "use curl or nc for network checks")
			}
			return
		}
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "/dev/tcp/") || strings.HasPrefix(a, "/dev/udp/") {
			j.add(c, "rev.dev-tcp", Deny, High, "it opens a raw network connection through "+a, "")
			return
		}
	}
}

// loopbackTCP reports /dev/tcp/HOST/PORT on this machine.
func loopbackTCP(p string) bool {
	rest := strings.TrimPrefix(strings.TrimPrefix(p, "/dev/tcp/"), "/dev/udp/")
	host, _, _ := strings.Cut(rest, "/")
	return host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1"
}

func (j *judge) runs(c *shell.Cmd) {
	var net []*shell.Cmd
	for _, r := range c.Runs {
		switch {
		case isDecode(r):
			j.add(c, "net.decoded-exec", Deny, High, "it runs text decoded by "+r.Name+", which hides what it really runs", "run the decoded command itself, in the open")
			return
		case fetchers[r.Name]:
			net = append(net, r)
		case r.Name == "nc" || r.Name == "ncat":
			net = append(net, r)
		}
	}
	if len(net) == 0 {
		return
	}
	for _, n := range net {
		if n.Name == "nc" || n.Name == "ncat" || n.Name == "netcat" || n.Name == "socat" || n.Name == "telnet" {
			j.add(c, "rev.net-shell", Deny, High, "it runs commands that arrive over a raw network connection ("+n.Name+"): a reverse shell", "")
			return
		}
	}
	hosts := []string{}
	trusted := true
	for _, n := range net {
		u := firstURL(n.Args)
		host, p := hostPath(u)
		hosts = append(hosts, or(host, "an unknown host"))
		trusted = trusted && host != "" && j.trusted(host, p)
	}
	what := "code downloaded from " + strings.Join(hosts, ", ")
	if trusted {
		j.add(c, "net.pipe-installer", Ask, Medium, "it runs "+what+" without a chance to read it first", "download the script, read it, then run it")
		return
	}
	j.add(c, "net.pipe-shell", Deny, High, "it runs "+what+", unreviewed, with your permissions", "download it with curl -o, read it, and run it in a later step only if it is what you expect")
}

// downloadThenRun finds a file fetched from the network and run later in the same command
// line (curl -o x.sh URL && bash x.sh, wget -O t URL; chmod +x t; ./t): the same unreviewed
// code as curl | sh, one step removed.
func (j *judge) downloadThenRun() {
	fetched := map[string]*shell.Cmd{}
	for _, c := range j.an.Cmds {
		if fetchers[c.Name] && c.Name != "ssh" && c.Name != "scp" && c.Name != "sftp" {
			for _, t := range c.Writes(j.world.Home) {
				fetched[t.Path] = c
			}
			continue
		}
		var ran string
		switch c.Name {
		case "sh", "bash", "zsh", "dash", "ksh", "source", ".", "python", "python3", "perl", "ruby", "node", "php":
			for _, a := range c.Args {
				if !strings.HasPrefix(a, "-") {
					ran = a
					break
				}
			}
		default:
			ran = c.Prog
		}
		if ran == "" || !strings.Contains(ran, "/") && c.Name != "sh" && c.Name != "bash" && c.Name != "source" && c.Name != "." &&
			c.Name != "zsh" && c.Name != "dash" && c.Name != "ksh" && c.Name != "python" && c.Name != "python3" &&
			c.Name != "perl" && c.Name != "ruby" && c.Name != "node" && c.Name != "php" {
			continue // a bare program name is found on PATH, not in the directory
		}
		f, ok := fetched[j.res(c, ran)]
		if !ok {
			continue
		}
		host, p := hostPath(firstURL(f.Args))
		what := "code it downloaded from " + or(host, "an unknown host")
		switch {
		case host != "" && j.trusted(host, p):
			j.add(c, "net.pipe-installer", Ask, Medium, "it runs "+what+" without a chance to read it first", "download the script, read it, then run it")
		case ran == c.Prog && host != "" && !ipAddress(host) && !scriptName(ran):
			// A downloaded program run directly is usually a release binary (kubectl, a CLI);
			// a script handed to an interpreter is the curl | sh pattern one step removed.
			j.add(c, "net.download-run", Ask, Medium, "it runs a program it just downloaded from "+or(host, "an unknown host"), "check the download (its checksum or signature) before running it")
		default:
			j.add(c, "net.download-run", Deny, High, "it runs "+what+" in the same breath, unreviewed, with your permissions", "download it, read it, and run it in a later step only if it is what you expect")
		}
	}
}

// ipAddress reports a host written as an IP address (an IPv6 one in brackets, or a dotted
// IPv4 one), rather than a name; the net package is left out of the hook for its start-up cost.
func ipAddress(host string) bool {
	if strings.HasPrefix(host, "[") || strings.Count(host, ":") > 1 {
		return true
	}
	return strings.Count(host, ".") == 3 && strings.Trim(host, "0123456789.") == ""
}

// scriptName reports a file named as a script (run directly it is still a script).
func scriptName(p string) bool {
	for _, ext := range []string{".sh", ".bash", ".zsh", ".py", ".pl", ".rb", ".js", ".php", ".ps1"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

func firstURL(args []string) string {
	for _, a := range args {
		if strings.Contains(a, "://") {
			return a
		}
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && strings.Contains(a, ".") && !strings.Contains(a, shell.Dyn) {
			return "https://" + a
		}
	}
	return ""
}

// hostPath splits a URL into its host (lower case, no port or credentials) and path. It is
// written out rather than net/url, which costs every hook start an init of net/netip.
func hostPath(u string) (string, string) {
	if strings.Contains(u, shell.Dyn) {
		return "", ""
	}
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return "", ""
	}
	hostport, p, _ := strings.Cut(rest, "/")
	hostport, _, _ = strings.Cut(hostport, "?")
	hostport, _, _ = strings.Cut(hostport, "#")
	if i := strings.LastIndexByte(hostport, '@'); i >= 0 {
		hostport = hostport[i+1:]
	}
	host := hostport
	if strings.HasPrefix(host, "[") {
		host, _, _ = strings.Cut(host[1:], "]")
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	return strings.ToLower(host), "/" + p
}

// trusted reports whether a host (and path) is one of the policy's known installer sources.
func (j *judge) trusted(host, p string) bool {
	for _, t := range j.pol.TrustedHosts {
		th, tp, _ := strings.Cut(t, "/")
		if host != th {
			continue
		}
		if tp == "" || strings.HasPrefix(strings.TrimPrefix(p, "/"), tp) {
			return true
		}
	}
	return false
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (j *judge) netcat(c *shell.Cmd) {
	for _, a := range c.Args {
		if a == "-e" || a == "-c" || a == "--exec" || a == "--sh-exec" || a == "--lua-exec" || strings.HasPrefix(a, "-e/") || strings.HasPrefix(a, "--exec=") || strings.HasPrefix(a, "--sh-exec=") {
			j.add(c, "rev.nc-exec", Deny, High, c.Name+" "+a+" hands a shell to whoever connects: a reverse or bind shell", "")
			return
		}
	}
}

func (j *judge) socat(c *shell.Cmd) {
	for _, a := range c.Args {
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "exec:") || strings.HasPrefix(l, "system:") || strings.Contains(l, ",exec:") {
			j.add(c, "rev.socat-exec", Deny, High, "socat "+a+" connects a program to the network: a reverse or bind shell", "")
			return
		}
	}
}

// Interpreter code: a socket and a shell in one program, downloads evaluated, fork loops, credentials
// posted, guarded files rewritten. The shell commands and deletes inside the code are already
// separate commands (lib/shell); these are what only the code itself shows.
var codePatterns = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"rev":     regexp.MustCompile(`(?is)(socket|require\(\s*['"]net['"]\s*\)|net\.connect|createConnection|TCPSocket|fsockopen|IO::Socket|Socket\.new|new\s+Socket|Net::Telnet).{0,500}(subprocess|pty\.spawn|os\.dup2|/bin/(ba)?sh|\bexec|\bspawn|popen|system\s*\(|child_process|cmd\.exe)`),
		"eval":    regexp.MustCompile(`(?is)\b(exec|eval)\b[\s(]*[^;\n]{0,120}?(urlopen|requests\.get|LWP::Simple|\bget\s*\(|Net::HTTP|open-uri|URI\.open|fetch\s*\(|https?\.get|curl|wget|file_get_contents\s*\(\s*['"]https?:)|\bfetch\s*\([^;\n]{0,200}?\.then\s*\(\s*(\(?\w*\)?\s*=>\s*)?(eval|new\s+Function|Function)\b`),
		"fork":    regexp.MustCompile(`(?is)fork\s+while\s+(fork|1|true)\b|fork\s+until\s+0\b|while\s*(\(\s*)?(True|1|true)\s*\)?\s*[:{]?\s*[^\n]{0,40}\bfork\s*\(|for\s*\(\s*;\s*;\s*\)\s*\{?\s*[^\n]{0,20}fork\s*\(|loop\s*\{\s*fork|fork\s*\(\s*\)[^\n]{0,20}\bfor\s+\w+\s+in\s+(iter\s*\(|itertools\.(count|repeat|cycle)\b)`),
		"net":     regexp.MustCompile(`(?i)requests\.(post|put|patch|get)|(file_get_contents|fopen)\s*\(\s*['"]https?:|urlopen|urllib|http\.client|httpx|aiohttp|fetch\s*\(|https?\.request|axios|XMLHttpRequest|Net::HTTP|LWP|HTTP::Tiny|curl_exec|socket\.|\bsmtplib`),
		"write":   regexp.MustCompile(`(?i)writeFile|open\s*\([^)]*['"][wa]\+?b?['"]|json\.dump\s*\(|\.write\s*\(|File\.write|file_put_contents|IO\.write|>\s*\$|truncate`),
		"env":     regexp.MustCompile(`(?i)os\.environ\b(\s*\)|\s*[,;]|\.copy|\.items)|dict\(os\.environ|process\.env\s*[,)]|JSON\.stringify\(\s*process\.env|ENV\.to_h|%ENV\b|getenv\(\s*\)`),
		"sdk":     regexp.MustCompile(`\.(objects|buckets|instances|object_versions|volumes|snapshots|tables)\.all\(\)\s*\.(delete|terminate)\(|\.(objects|object_versions)\.delete\(|(?s)\.(delete|terminate)\(\)\s+for\s+\w+\s+in\s+[^\]\n]{0,120}\.(buckets|instances|volumes|snapshots|tables)\.all\(\)|for\s+\w+\s+in\s+[^:\n]{0,120}\.(buckets|instances|volumes|snapshots|tables)\.all\(\)\s*:[^\n]{0,120}\.(delete|terminate)\(`),
		"literal": regexp.MustCompile("['\"`]([^'\"`\\s]{2,200})['\"`]"),
	}
})

func (j *judge) code(c *shell.Cmd) {
	pats := codePatterns()
	code := c.Code
	lower := strings.ToLower(code)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(lower, s) {
				return true
			}
		}
		return false
	}
	if (has(".claude/settings.json", ".claude/settings.local.json") || has("'.claude'", "\".claude\"") && has("settings.json", "settings.local.json")) && (pats["write"].MatchString(code) || has("write_text", "writefile", "fs.write", "sed -i")) &&
		has("hooks", "disableallhooks") {
		j.add(c, "tamper.user-settings", Deny, High, c.Name+" code that rewrites Claude Code's settings, where the hooks that guard this session are configured", "ask the user to change their settings themselves")
	}
	if has("os.kill", "process.kill", "posix.kill") && has("/proc") && has("listdir", "readdir", "glob") {
		j.add(c, "kill.mass", Deny, High, c.Name+" code that signals every process it finds in /proc", "kill the process you mean by its pid")
	}
	sockets := has("/inet/tcp", "/inet/udp", "socket", "fsockopen", "require('net')", `require("net")`, "net.connect", "createconnection", "tcpsocket", "io::socket", "net::telnet", "socket.new")
	shells := has("/inet/tcp", "/inet/udp", "subprocess", "pty.spawn", "os.dup2", "/bin/sh", "/bin/bash", "exec", "spawn", "popen", "system", "child_process", "cmd.exe")
	downloads := has("urlopen", "requests.get", "lwp", "get(", "net::http", "open-uri", "uri.open", "fetch(", "http.get", "https.get", "curl", "wget", "file_get_contents")
	switch {
	case sockets && shells:
		j.add(c, "rev.interpreter", Deny, High, c.Name+" code that connects a socket to a shell or subprocess: a reverse shell", "")
	case downloads && has("exec", "eval") && pats["eval"].MatchString(code):
		j.add(c, "net.interpreter-eval", Deny, High, c.Name+" code that downloads code and evaluates it, unreviewed", "download it, read it, and run it only if it is what you expect")
	case has("fork") && pats["fork"].MatchString(code):
		j.add(c, "fork.bomb", Deny, High, c.Name+" code that forks in an endless loop: a fork bomb that freezes the machine", "write a bounded loop instead")
	}
	if has("delete", "terminate") && has("boto3", "google.cloud", "aws-sdk", "@aws-sdk", "azure") && pats["sdk"].MatchString(code) {
		j.add(c, "cloud.sdk-wholesale", Deny, High, c.Name+" code that deletes every object, bucket or instance a cloud SDK lists", "delete the resources you mean by name, and ask the user first")
	}
	sends := has("http", "url", "fetch", "socket", "request", "axios", "lwp", "smtp", "curl") && pats["net"].MatchString(code)
	writes := has("write", "dump", "open", "put", "truncate", "io.") && pats["write"].MatchString(code)
	if sends && has("environ", "env") && pats["env"].MatchString(code) {
		j.add(c, "exfil.secret", Deny, High, c.Name+" code that sends the environment (API keys and tokens live there) over the network", "never send credentials anywhere")
	}
	if sends {
		j.codeSecretVars(c, code)
	}
	if !sends && !writes {
		return
	}
	var named []string
	for _, m := range pats["literal"].FindAllStringSubmatch(code, 64) {
		named = append(named, m[1])
	}
	for _, lit := range append(named, shell.CodePaths(code, j.world.Home, c.Dir)...) {
		if !strings.Contains(lit, "/") && !strings.HasPrefix(lit, ".") {
			continue
		}
		t := j.res(c, lit)
		if sends && j.isSecretFile(j.resRead(c, lit)) {
			j.add(c, "exfil.secret", Deny, High, c.Name+" code that reads "+lit+" and talks to the network", "never send credentials anywhere")
		}
		if writes {
			j.tamper(c, t, "rewrite")
		}
	}
}

// exfil: credentials or the environment sent over the network.
func (j *judge) exfil(c *shell.Cmd) {
	if !fetchers[c.Name] && !dnsTool(c.Name) && c.Name != "rsync" && c.Name != "aws" && c.Name != "gsutil" && c.Name != "rclone" {
		return
	}
	secret := ""
	note := func(what string) {
		if secret == "" {
			secret = what
		}
	}
	check := func(v string) {
		v = strings.TrimSuffix(strings.SplitN(v, ";", 2)[0], ",")
		if v != "" && !strings.Contains(v, "://") && !strings.Contains(v, shell.Dyn) && j.isSecretFile(j.resRead(c, v)) {
			note(v)
		}
	}
	// ssh -i KEY uses the key to log in: what ssh sends is its stdin, checked below.
	if c.Name != "ssh" {
		uploadValue, identity := false, false
		for _, a := range c.Args {
			if identity {
				identity = false
				continue
			}
			sshFamily := c.Name == "scp" || c.Name == "sftp" || c.Name == "rsync"
			if c.Name == "rsync" && (a == "--exclude" || a == "--include" || a == "--filter" || a == "-f") {
				identity = true // a pattern of what to leave out or take, not a file sent
				continue
			}
			if c.Name == "rsync" && (strings.HasPrefix(a, "--exclude=") || strings.HasPrefix(a, "--include=") || strings.HasPrefix(a, "--filter=")) {
				continue
			}
			if sshFamily && (a == "-i" || a == "-F") {
				identity = true // the key or config used to log in, not a file sent
				continue
			}
			if sshFamily && strings.HasPrefix(a, "-i") && len(a) > 2 || strings.HasPrefix(a, "IdentityFile=") {
				continue
			}
			if uploadValue {
				check(strings.TrimPrefix(a, "@"))
				uploadValue = false
				continue
			}
			switch {
			case a == "-T" || a == "--upload-file" || a == "--post-file" || a == "--body-file":
				uploadValue = true
			case strings.HasPrefix(a, "--") && strings.Contains(a, "="):
				_, v, _ := strings.Cut(a, "=")
				check(strings.TrimPrefix(v, "@"))
			case strings.Contains(a, "@"):
				// curl -d @file, -F name=@file; httpie name@file
				check(a[strings.LastIndex(a, "@")+1:])
			case strings.HasPrefix(strings.ToUpper(a), "FILE:") || strings.HasPrefix(strings.ToUpper(a), "OPEN:") || strings.HasPrefix(strings.ToUpper(a), "GOPEN:"):
				_, v, _ := strings.Cut(a, ":")
				check(strings.SplitN(v, ",", 2)[0])
			case !strings.HasPrefix(a, "-"):
				check(a)
			}
		}
	}
	if c.Stdin != nil {
		if c.Stdin.File != "" && j.isSecretFile(j.resRead(c, c.Stdin.File)) {
			note(c.Stdin.File)
		}
		for _, f := range c.Stdin.From {
			if what := j.readsSecret(f); what != "" {
				note(what)
			} else if what := printedVar(f); what != "" && f.Name == "printenv" && (rawSocket(c.Name) || httpClient(c.Name)) {
				note(what)
			} else if what := printsToken(f); what != "" && !(strings.Contains(strings.Join(c.Args, " "), "--password-stdin") && strings.Contains(strings.Join(c.Args, " "), "login")) {
				note(what) // (aws ecr get-login-password | ssh host docker login --password-stdin is how it is used)
			}
		}
	}
	for _, f := range c.ArgsFrom {
		if what := j.readsSecret(f); what != "" {
			note(what)
		} else if what := printedVar(f); what != "" && dnsTool(c.Name) {
			note(what)
		} else if what := printsToken(f); what != "" && !secretStore(f) && (dnsTool(c.Name) || !tokenHome(f, requestHost(c.Args))) {
			// A token substituted into a request to its own service is how it is used; to
			// any other host, or into a DNS name, it is sent away.
			note(what)
		}
	}
	if secret == "" {
		return
	}
	if (c.Name == "scp" || c.Name == "rsync" || c.Name == "sftp") && !anyRemote(c.Args) {
		return
	}
	j.add(c, "exfil.secret", Deny, High, c.Name+" sends "+secret+" over the network", "never send credentials anywhere; ask the user if something needs them")
}

func anyRemote(args []string) bool {
	for _, a := range args {
		if i := strings.IndexByte(a, ':'); i > 0 && !strings.HasPrefix(a, "-") && !strings.Contains(a[:i], "/") {
			return true
		}
	}
	return false
}

// dnsTool: programs that resolve names: a secret substituted into the name is sent to whoever serves the
// domain (DNS exfiltration).
// (Switches, not maps: a package-level map is built at every hook start.)
func dnsTool(name string) bool {
	switch name {
	case "dig", "nslookup", "host", "drill", "resolvectl", "getent":
		return true
	}
	return false
}

// printedVar names the credential variable an echo, printf or printenv prints ("" if none).
func printedVar(c *shell.Cmd) string {
	switch c.Name {
	case "printenv":
		for _, a := range c.Args {
			if shell.SecretName(a) {
				return "$" + a
			}
		}
	case "echo", "printf":
		for _, a := range c.Args {
			for _, v := range shell.Vars(a) {
				if shell.SecretName(v) {
					return "$" + v
				}
			}
		}
	}
	return ""
}

// secretStore reports a read from a secret store (a value with no one service it belongs to):
// substituted into a request it is being used; only piping it whole to the network is sending it.
func secretStore(c *shell.Cmd) bool {
	s := c.Name + " " + strings.Join(c.Args, " ")
	for _, w := range []string{"secretsmanager get-secret-value", "ssm get-parameter", "vault ", "keyvault secret show", "secrets versions access", "kubectl get secret", "oc get secret"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// tokenHome reports whether host is the service the token printed by c belongs to.
func tokenHome(c *shell.Cmd, host string) bool {
	switch c.Name {
	case "gh":
		return strings.Contains(host, "github") || host == "ghcr.io"
	case "aws":
		return strings.HasSuffix(host, ".amazonaws.com")
	case "gcloud":
		if slices.Contains(c.Args, "print-identity-token") {
			return true // an identity token is made for the caller's own services, wherever they live
		}
		return strings.HasSuffix(host, ".googleapis.com") || strings.HasSuffix(host, ".run.app") || strings.HasSuffix(host, ".pkg.dev") || host == "gcr.io" ||
			strings.HasSuffix(host, ".cloudfunctions.net") || strings.HasSuffix(host, ".firebaseio.com") || strings.HasSuffix(host, ".appspot.com")
	case "az":
		return strings.HasSuffix(host, ".azure.com") || strings.HasSuffix(host, ".azure.net") || strings.HasSuffix(host, ".microsoft.com") || strings.HasSuffix(host, ".windows.net") || strings.HasSuffix(host, ".azurecr.io")
	}
	return host != "" // a secret store's value (vault, secretsmanager) has no one home: judged elsewhere
}

// printsToken says which credential a command prints (gh auth token, aws configure
// export-credentials, ...). Piped whole into a network tool it is exfiltration; substituted
// into an argument ($(gh auth token) in an Authorization header) it is how these tokens are
// meant to be used, so only the pipe counts.
func printsToken(c *shell.Cmd) string {
	switch c.Name {
	case "gh":
		if len(c.Args) > 1 && c.Args[0] == "auth" && c.Args[1] == "token" {
			return "the GitHub token (gh auth token)"
		}
	case "aws":
		if len(c.Args) > 1 && c.Args[0] == "configure" && (c.Args[1] == "export-credentials" || c.Args[1] == "get") {
			return "AWS credentials (aws configure " + c.Args[1] + ")"
		}
	case "gcloud":
		if slices.Contains(c.Args, "print-access-token") || slices.Contains(c.Args, "print-identity-token") {
			return "a Google Cloud access token"
		}
	case "az":
		if len(c.Args) > 1 && c.Args[0] == "account" && c.Args[1] == "get-access-token" {
			return "an Azure access token"
		}
		if len(c.Args) > 2 && c.Args[0] == "keyvault" && c.Args[1] == "secret" && c.Args[2] == "show" {
			return "a Key Vault secret"
		}
	case "kubectl", "oc":
		ops := shell.Opts{Short: "nol", Long: []string{"namespace", "output", "selector", "context"}}.Parse(c.Args).Operands
		if len(ops) > 1 && ops[0] == "get" && (ops[1] == "secret" || ops[1] == "secrets" || strings.HasPrefix(ops[1], "secret/")) {
			return "Kubernetes secrets (kubectl get secrets)"
		}
	case "gpg", "gpg2":
		if slices.Contains(c.Args, "--export-secret-keys") || slices.Contains(c.Args, "--export-secret-subkeys") {
			return "GPG secret keys (gpg --export-secret-keys)"
		}
	case "vault":
		if len(c.Args) > 0 && (c.Args[0] == "read" || len(c.Args) > 1 && c.Args[0] == "kv" && c.Args[1] == "get") {
			return "a Vault secret"
		}
	case "curl", "wget":
		for _, a := range c.Args {
			if strings.Contains(a, "169.254.169.254") && strings.Contains(a, "credentials") || strings.Contains(a, "metadata.google.internal") && strings.Contains(a, "token") {
				return "the instance's cloud credentials (metadata service)"
			}
		}
	}
	if c.Name == "aws" && len(c.Args) > 1 {
		switch c.Args[0] + " " + c.Args[1] {
		case "secretsmanager get-secret-value", "ssm get-parameter", "ssm get-parameters", "ssm get-parameters-by-path", "sts get-session-token", "sts assume-role", "ecr get-login-password":
			return "a secret from AWS (aws " + c.Args[0] + " " + c.Args[1] + ")"
		}
	}
	if c.Name == "gcloud" && slices.Contains(c.Args, "secrets") && slices.Contains(c.Args, "access") {
		return "a Google Cloud secret"
	}
	return ""
}

// readsSecret says which secret a command prints: a credential file, or the environment.
func (j *judge) readsSecret(c *shell.Cmd) string {
	if c.Name == "jq" || c.Name == "gojq" || c.Name == "jaq" {
		// jq -n env, jq -n '$ENV': the whole environment as JSON.
		p := shell.Opts{Long: []string{"arg", "argjson", "slurpfile", "rawfile", "indent"}}.Parse(c.Args)
		if len(p.Operands) > 0 {
			if f := strings.TrimSpace(p.Operands[0]); f == "env" || f == "$ENV" || f == "{env: env}" || f == "{env: $ENV}" {
				return "the environment (API keys and tokens live there)"
			}
		}
	}
	switch c.Name {
	case "env", "printenv":
		if len(c.Args) == 0 || c.Name == "env" && len(shell.Opts{}.Parse(c.Args).Operands) == 0 {
			return "the environment (API keys and tokens live there)"
		}
	case "set", "export", "declare":
		if len(c.Args) == 0 || len(c.Args) == 1 && (c.Args[0] == "-p" || c.Args[0] == "-x") {
			return "the environment (API keys and tokens live there)"
		}
	case "cat", "tac", "nl", "base64", "base32", "gzip", "bzip2", "xz", "zstd", "tar", "zip", "head", "tail", "xxd", "od",
		"hexdump", "strings", "gpg", "openssl", "less", "more", "grep", "egrep", "fgrep", "rg", "ag", "sed", "awk", "gawk",
		"mawk", "jq", "yq", "cut", "sort", "uniq", "paste", "column", "fold", "iconv", "cp", "install", "dd", "xargs":
		// Readers and copiers: an operand (or if=FILE, -a FILE) that is a credential file. A
		// copy passes it on: its destination becomes a secret file for the commands after it.
		for i, a := range c.Args {
			v := a
			switch {
			case c.Name == "dd" && strings.HasPrefix(a, "if="):
				v = a[3:]
			case c.Name == "xargs" && (a == "-a" || a == "--arg-file") && i+1 < len(c.Args):
				v = c.Args[i+1]
			case c.Name == "xargs" && strings.HasPrefix(a, "--arg-file="):
				v = strings.TrimPrefix(a, "--arg-file=")
			case strings.HasPrefix(a, "-"):
				continue
			}
			if j.isSecretFile(j.resRead(c, v)) {
				return v
			}
		}
	}
	if c.Stdin != nil && c.Stdin.File != "" && j.isSecretFile(j.resRead(c, c.Stdin.File)) {
		return c.Stdin.File
	}
	return ""
}
