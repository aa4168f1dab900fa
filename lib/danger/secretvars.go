package danger

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookkit/harness/lib/shell"
)

// secretVars: a credential held in an environment variable put into what a network tool
// sends. Headers, cookies and logins are how tokens are meant to be used and stay silent
// (unless the host only collects requests, or the key only signs; a login to a bare public
// address asks); a request body, a URL or a raw connection carrying one is exfiltration when it
// goes to a raw socket, a public IP, a paste or capture service, or is a key that is never sent
// as such; otherwise the user is asked, since posting a client secret to its OAuth endpoint is
// legitimate. Hosts on this machine or the private network are exempt.
func (j *judge) secretVars(c *shell.Cmd) {
	if dnsTool(c.Name) {
		for _, a := range c.Args {
			for _, v := range shell.Vars(a) {
				if shell.SecretName(v) {
					j.add(c, "exfil.secret-var", Deny, High, c.Name+" puts $"+v+" into a name it looks up: whoever serves that domain receives it", "never send credentials anywhere")
					return
				}
			}
		}
		return
	}
	for _, part := range hostParts(c.Name, c.Args) {
		for _, v := range shell.Vars(part) {
			if shell.SecretName(v) {
				j.add(c, "exfil.secret-var", Deny, High, c.Name+" puts $"+v+" into a host name or login it sends: whoever serves that name receives it", "never send credentials anywhere")
				return
			}
		}
	}
	raw := rawSocket(c.Name)
	if !raw && !httpClient(c.Name) {
		return
	}
	var sent, login []string // secret variable names in what is sent, and in headers and logins
	carry := func(into *[]string, s string) {
		for _, v := range shell.Vars(s) {
			if shell.SecretName(v) && !contains(*into, v) {
				*into = append(*into, v)
			}
		}
	}
	carried := func(s string) { carry(&sent, s) }
	credOpt, bodyOpt := false, false
	stdinSent := raw
	var bodyFrom []*shell.Cmd // what prints the body: -d @<(printf %s "$TOKEN"), -T <(...), --post-file=<(...)
	for i, a := range c.Args {
		if bodyOpt {
			bodyOpt = false
			if i < len(c.FromArg) && substOnly(a) {
				bodyFrom = append(bodyFrom, c.FromArg[i]...)
			}
		}
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") && bodyOption(k) && substOnly(v) && i < len(c.FromArg) {
			bodyFrom = append(bodyFrom, c.FromArg[i]...)
		}
		if v, ok := attachedBody(a); ok && substOnly(v) && i < len(c.FromArg) {
			bodyFrom = append(bodyFrom, c.FromArg[i]...) // -d@<(printf %s "$T"), -sd@<(...)
		}
		if bodyOption(a) {
			bodyOpt = true
		}
		if credOpt {
			credOpt = false
			carry(&login, a)
			continue
		}
		if credentialOption(c.Name, a) {
			credOpt = !strings.Contains(a, "=") && !(strings.HasPrefix(a, "-H") && len(a) > 2) && !(strings.HasPrefix(a, "-u") && len(a) > 2)
			carry(&login, a)
			continue
		}
		if c.Name == "curl" && !strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && len(a) > 2 && (strings.HasSuffix(a, "H") || strings.HasSuffix(a, "u")) &&
			strings.Trim(a[1:len(a)-1], "sSfLkvigN46") == "" {
			credOpt = true // -sH 'Authorization: ...': a cluster whose last option takes the header
			continue
		}
		if strings.HasSuffix(a, "@-") || a == "-" {
			stdinSent = true
		}
		if httpieHeader(c.Name, a) {
			carry(&login, a)
			continue
		}
		if i := strings.Index(a, "://"); i >= 0 {
			// user:$PASS@host logs in; the rest of a URL is sent.
			rest := a[i+3:]
			if at := strings.IndexByte(rest, '@'); at >= 0 && !strings.ContainsAny(rest[:at], "/?#") {
				carry(&login, rest[:at])
				a = a[:i+3] + rest[at+1:]
			}
		}
		carried(a)
	}
	if stdinSent && c.Stdin != nil {
		carried(c.Stdin.Text)
		for _, f := range c.Stdin.From {
			if f.Name == "echo" || f.Name == "printf" || f.Name == "cat" && f.Stdin != nil || f.Name == "jq" {
				for _, a := range f.Args {
					carried(a)
				}
				if f.Stdin != nil {
					carried(f.Stdin.Text)
				}
			}
		}
	}
	for _, f := range bodyFrom {
		switch f.Name {
		case "echo", "printf":
			for _, a := range f.Args {
				carried(a)
			}
		case "printenv":
			for _, a := range f.Args {
				if shell.SecretName(a) && !contains(sent, a) {
					sent = append(sent, a)
				}
			}
		case "cat":
			if f.Stdin != nil {
				carried(f.Stdin.Text)
			}
		}
	}
	host := requestHost(c.Args)
	if raw {
		host = rawHost(c.Name, c.Args)
	}
	if h, ok := elsewhere(c); ok {
		host = h // a second URL, a proxy or a rewritten address: not where the first URL says
	}
	// Headers and logins are how credentials are used, except towards a host that only
	// collects, or for a key that is never sent at all.
	signs := slices.Contains(c.Args, "--aws-sigv4") || slices.ContainsFunc(c.Args, func(a string) bool { return strings.HasPrefix(a, "--aws-sigv4=") })
	if len(login) > 0 && (captureHost(host) || neverSent(login) && !signs) {
		for _, v := range login {
			if !contains(sent, v) {
				sent = append(sent, v)
			}
		}
	}
	if localHost(host) {
		return // a service on this machine or the private network
	}
	if len(sent) == 0 && len(login) > 0 && ipAddress(host) {
		j.add(c, "exfil.secret-var", Ask, Medium, c.Name+" logs in to "+host+" with $"+strings.Join(login, ", $")+": an address, not a service's name", "check that "+host+" is the service the credential belongs to")
		return
	}
	if len(sent) == 0 {
		return
	}
	what := "$" + strings.Join(sent, ", $")
	switch {
	case raw:
		j.add(c, "exfil.secret-var", Deny, High, c.Name+" sends "+what+" over a raw network connection", "never send credentials anywhere; ask the user if something needs them")
	case host == "":
		j.add(c, "exfil.secret-var", Ask, Medium, c.Name+" sends "+what+" to a host not known before it runs", "put the credential in a header or login option of a request to the service it belongs to")
	case captureHost(host) || ipAddress(host) && !contains(login, sent[0]):
		j.add(c, "exfil.secret-var", Deny, High, c.Name+" sends "+what+" to "+host, "never send credentials anywhere; ask the user if something needs them")
	case neverSent(sent) && !signs:
		j.add(c, "exfil.secret-var", Deny, High, c.Name+" sends "+what+" to "+host+"; that key signs requests and is never sent itself", "use the provider's CLI or SDK, which sign requests with it")
	default:
		j.add(c, "exfil.secret-var", Ask, Medium, c.Name+" sends "+what+" in a request to "+host, "check that "+host+" is the service the credential belongs to")
	}
}

// elsewhere finds where a request really goes when it is not (only) its first URL: another
// URL on the line, a proxy (option or environment), an address rewritten by --resolve or
// --connect-to. The host returned is the first that is not local ("" when unknown).
func elsewhere(c *shell.Cmd) (string, bool) {
	found, host := false, ""
	note := func(h string) {
		if !found || host == "" || localHost(host) {
			found, host = true, h
		}
	}
	urls := 0
	for i, a := range c.Args {
		switch {
		case strings.Contains(a, "://") && !strings.HasPrefix(a, "-"):
			if urls++; urls > 1 {
				note(requestHost([]string{a}))
			}
		case a == "-x" || a == "--proxy" || a == "--preproxy" || strings.HasPrefix(a, "--socks"):
			if i+1 < len(c.Args) {
				note(proxyHost(c.Args[i+1]))
			}
		case strings.HasPrefix(a, "--proxy=") || strings.HasPrefix(a, "--preproxy=") || strings.HasPrefix(a, "--socks") && strings.Contains(a, "="):
			_, v, _ := strings.Cut(a, "=")
			note(proxyHost(v))
		case a == "--resolve" || a == "--connect-to" || strings.HasPrefix(a, "--resolve=") || strings.HasPrefix(a, "--connect-to="):
			note("")
		case a == "--url" && i+1 < len(c.Args):
			if urls++; urls > 1 {
				note(requestHost([]string{c.Args[i+1]}))
			}
		}
	}
	for _, e := range c.Env {
		k, v, _ := strings.Cut(e, "=")
		if strings.HasSuffix(strings.ToUpper(k), "_PROXY") && strings.ToUpper(k) != "NO_PROXY" {
			note(proxyHost(v))
		}
	}
	return host, found
}

func proxyHost(v string) string {
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	return requestHost([]string{v})
}

// localHost reports loopback and private addresses: a service on this machine or network.
func localHost(host string) bool {
	switch {
	case host == "localhost" || strings.HasSuffix(host, ".localhost") || host == "::1" || host == "0.0.0.0" || host == "host.docker.internal" ||
		strings.HasSuffix(host, ".svc.cluster.local") || strings.HasSuffix(host, ".internal") || strings.HasSuffix(host, ".local"):
		return true
	case strings.HasPrefix(host, "fd") && strings.Contains(host, ":") || strings.HasPrefix(host, "fe80:"):
		return true // IPv6 unique-local and link-local
	case strings.HasPrefix(host, "100.") && ipAddress(host):
		return secondOctet(host) >= 64 && secondOctet(host) <= 127 // carrier-grade NAT: Tailscale and the like
	case strings.HasPrefix(host, "127.") || strings.HasPrefix(host, "10.") || strings.HasPrefix(host, "192.168."):
		return ipAddress(host)
	case strings.HasPrefix(host, "172."):
		return ipAddress(host) && secondOctet(host) >= 16 && secondOctet(host) <= 31
	}
	return false
}

// secondOctet reads the second number of a dotted IPv4 address (checked by ipAddress).
func secondOctet(host string) int {
	n := 0
	for _, c := range strings.SplitN(host, ".", 3)[1] {
		n = n*10 + int(c-'0')
	}
	return n
}

// rawHost is the host a raw socket tool connects to: its first operand that is not an option
// (nc HOST PORT, socat - TCP:HOST:PORT, telnet HOST).
func rawHost(prog string, args []string) string {
	if prog == "nc" || prog == "ncat" || prog == "netcat" {
		args = shell.Opts{Short: "spwiqxXecTIOVLm", Long: []string{"source", "source-port", "proxy", "proxy-type", "wait", "exec", "sh-exec"}}.Parse(args).Operands
	}
	host := ""
	for _, a := range args {
		if up := strings.ToUpper(a); strings.HasPrefix(up, "TCP:") || strings.HasPrefix(up, "TCP4:") || strings.HasPrefix(up, "UDP:") || strings.HasPrefix(up, "OPENSSL:") {
			h, _, _ := strings.Cut(a[strings.IndexByte(a, ':')+1:], ":")
			if host == "" || localHost(host) {
				host = strings.ToLower(h) // socat TCP:127.0.0.1:9 TCP:evil:80: the far end counts
			}
		}
	}
	if host != "" {
		return host
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && a != "" && strings.Trim(a, "0123456789") != "" && !strings.Contains(a, shell.Dyn) {
			return strings.ToLower(a)
		}
	}
	return ""
}

func rawSocket(name string) bool {
	switch name {
	case "nc", "ncat", "netcat", "socat", "telnet":
		return true
	}
	return false
}

func httpClient(name string) bool {
	switch name {
	case "curl", "wget", "http", "https", "xh", "xhs", "aria2c":
		return true
	}
	return false
}

// credentialOption reports an option whose value is a header or a login: curl -H/-u/
// --oauth2-bearer, wget --header/--user/--password, httpie -a, in joined and separate forms.
func credentialOption(prog, a string) bool {
	name, _, _ := strings.Cut(a, "=")
	switch name {
	case "-H", "--header", "--proxy-header", "-b", "--cookie", "-u", "--user", "-U", "--proxy-user", "--oauth2-bearer",
		"--password", "--http-password", "--ftp-password", "--proxy-password", "--http-user", "--auth":
		return true
	case "-a":
		return prog != "curl" // httpie's --auth; curl's -a is --append
	}
	return strings.HasPrefix(a, "-H") && len(a) > 2 && !strings.HasPrefix(a, "--") || strings.HasPrefix(a, "-u") && len(a) > 2 && !strings.HasPrefix(a, "--")
}

// httpieHeader reports an httpie/xh request item that is a header (Name:value), not data
// (name=value, name:=json) or a query (name==value).
func httpieHeader(prog, a string) bool {
	if prog != "http" && prog != "https" && prog != "xh" && prog != "xhs" {
		return false
	}
	i := strings.IndexByte(a, ':')
	if i <= 0 || strings.HasPrefix(a[i:], ":=") || strings.HasPrefix(a[i:], "://") {
		return false
	}
	name := a[:i]
	return !strings.ContainsAny(name, "=/ ") && !strings.Contains(name, shell.Dyn)
}

// requestHost is the host of the first URL among the arguments ("" when it is not literal).
func requestHost(args []string) string {
	u := firstURL(args)
	if u == "" {
		for _, a := range args {
			if !strings.HasPrefix(a, "-") && strings.Contains(a, ".") {
				u = "https://" + a
				break
			}
		}
	}
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if strings.Contains(rest, shell.Dyn) {
		return ""
	}
	host, _ := hostPath("https://" + rest)
	return host
}

// captureHost reports services that exist to receive, capture or publish arbitrary requests.
func captureHost(host string) bool {
	for _, h := range []string{"webhook.site", "requestbin.com", "requestbin.net", "pipedream.net", "ngrok.io", "ngrok-free.app",
		"ngrok.app", "pastebin.com", "paste.ee", "hastebin.com", "transfer.sh", "0x0.st", "termbin.com", "interact.sh",
		"oast.fun", "oast.pro", "oast.live", "burpcollaborator.net", "beeceptor.com", "trycloudflare.com", "ix.io", "file.io"} {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

// neverSent: keys that sign requests and are never sent themselves.
func neverSent(names []string) bool {
	for _, n := range names {
		switch strings.ToUpper(n) {
		case "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECRET_KEY", "AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET":
			return true
		}
	}
	return false
}

// hostParts: the arguments of a program that looks up (and contacts) a host, cut down to what
// names that host or the login it sends; key files, ports and remote commands are left out.
func hostParts(name string, args []string) []string {
	var out []string
	sshOpt := func(v string) { // -o User=x, -o HostName=x, -o ProxyJump=x
		k, val, ok := strings.Cut(v, "=")
		if !ok {
			k, val, _ = strings.Cut(v, " ")
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "user", "hostname", "proxyjump":
			out = append(out, val)
		}
	}
	remote := func(a string) { // [user@]host:path names a host; a local path does not
		if strings.Contains(a, "://") {
			out = append(out, urlAuthority(a)) // rsync://user@host/mod, scp://user@host/f
		} else if i := strings.IndexByte(a, ':'); i > 0 && !strings.Contains(a[:i], "/") {
			out = append(out, a[:i])
		} else if name == "sftp" && !strings.Contains(a, "/") {
			out = append(out, a) // sftp [user@]host
		}
	}
	switch name {
	case "ssh", "mosh", "autossh", "scp", "sftp", "rsync":
		values := "BbcDEeFIiJLlmOoPpQRSWwX" // options that take a value
		if name == "rsync" {
			values = "eBfMT"
		}
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a == "--" {
				continue
			}
			if strings.HasPrefix(a, "--") {
				continue // rsync's long options: --rsh and --rsync-path are commands, not hosts
			}
			if len(a) > 1 && a[0] == '-' {
				for k := 1; k < len(a); k++ {
					if !strings.ContainsRune(values, rune(a[k])) {
						continue
					}
					v := a[k+1:]
					if v == "" && i+1 < len(args) {
						i++
						v = args[i]
					}
					switch a[k] {
					case 'l':
						if name != "scp" && name != "rsync" { // scp -l is a bandwidth limit
							out = append(out, v)
						}
					case 'J':
						out = append(out, v)
					case 'L', 'R', 'W', 'D':
						if name != "rsync" { // -L 8080:host:80, -W host:22: a host the far side contacts
							out = append(out, v)
						}
					case 'o':
						sshOpt(v)
					}
					break
				}
				continue
			}
			if name == "ssh" || name == "mosh" || name == "autossh" {
				return append(out, urlAuthority(a)) // the rest is the remote command
			}
			remote(a)
		}
	case "ping", "ping6", "traceroute", "traceroute6", "tracepath", "mtr", "telnet", "nc", "ncat", "netcat",
		"arping", "whois", "ftp", "nmap", "host", "fping", "hping3":
		for i := 0; i < len(args); i++ {
			a := args[i]
			if strings.HasPrefix(a, "-") {
				if (name == "nc" || name == "ncat" || name == "netcat") && (a == "-e" || a == "-c" || a == "--exec" || a == "--sh-exec") {
					i++ // the command it runs
				}
				continue
			}
			out = append(out, a)
		}
	case "socat":
		for _, a := range args {
			typ, addr, ok := strings.Cut(a, ":")
			if !ok || strings.HasPrefix(a, "-") {
				continue
			}
			switch t := strings.ToUpper(typ); {
			case strings.HasPrefix(t, "TCP"), strings.HasPrefix(t, "UDP"), strings.HasPrefix(t, "SCTP"), strings.HasPrefix(t, "OPENSSL"),
				strings.HasPrefix(t, "PROXY"), strings.HasPrefix(t, "SOCKS"):
				if i := strings.IndexByte(addr, ','); i >= 0 {
					addr = addr[:i]
				}
				out = append(out, addr)
			}
		}
	case "openssl":
		for i, a := range args {
			k, v, eq := strings.Cut(a, "=")
			switch k {
			case "-connect", "-servername", "-proxy":
				if eq {
					out = append(out, v)
				} else if i+1 < len(args) {
					out = append(out, args[i+1])
				}
			}
		}
	}
	return out
}

// urlAuthority is the user@host:port of ssh://user@host:port/path, or a plain operand unchanged.
func urlAuthority(a string) string {
	if _, rest, ok := strings.Cut(a, "://"); ok {
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			rest = rest[:i]
		}
		return rest
	}
	return a
}

// envRef finds interpreter code reading one environment variable by name.
var envRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:os\.environ(?:\.get)?\s*[\[(]|os\.getenv\(|process\.env\.|process\.env\[|ENV\[|ENV\.fetch\(|\$ENV\{|getenv\(|Deno\.env\.get\(|Bun\.env\.|Sys\.getenv\(|\$env:)\s*['"]?([A-Za-z_][A-Za-z0-9_]*)`)
})

// codeSecretVars is secretVars for interpreter code that talks to the network: a credential
// read from the environment into a header is how it is used; into a body, a query or a URL it
// is sent, judged by where the code's first URL points.
func (j *judge) codeSecretVars(c *shell.Cmd, code string) {
	var sent, login []string
	for _, m := range envRef().FindAllStringSubmatchIndex(code, 32) {
		v := code[m[2]:m[3]]
		if !shell.SecretName(v) || contains(sent, v) || contains(login, v) {
			continue
		}
		before := strings.ToLower(code[max(0, m[0]-200):m[0]])
		header, body := -1, -1
		for _, k := range []string{"authorization", "headers", "bearer", "auth=", "auth:", "auth(", "x-api-key", "private-token",
			"secret_access_key=", "aws_session_token=", "credentials(", "api_key=", "token=", "key="} {
			header = max(header, strings.LastIndex(before, k))
		}
		for _, k := range []string{"data=", "json=", "body", "params=", "data:", "json:", "?", "&", "send(", "write("} {
			body = max(body, strings.LastIndex(before, k))
		}
		if header > body {
			login = append(login, v)
		} else {
			sent = append(sent, v)
		}
	}
	if len(sent) == 0 && len(login) == 0 {
		return
	}
	// The code's URLs: the worst of them decides (a decoy localhost first must not hide a post
	// to an address).
	host := ""
	for from, n := 0, 0; n < 16; n++ {
		i := strings.Index(code[from:], "://")
		if i < 0 {
			break
		}
		i += from
		start := strings.LastIndexAny(code[:i], "'\"` (") + 1
		end := i + 3 + strings.IndexAny(code[i+3:]+"'", "'\"` )")
		from = end
		h, _ := hostPath(code[start:end])
		if host == "" || localHost(host) || !captureHost(host) && (captureHost(h) || ipAddress(h) && !localHost(h)) {
			host = h
		}
	}
	switch {
	case localHost(host):
	case captureHost(host):
		j.add(c, "exfil.secret-var", Deny, High, c.Name+" code sends $"+strings.Join(append(sent, login...), ", $")+" to "+host, "never send credentials anywhere; ask the user if something needs them")
	case len(sent) == 0:
		if ipAddress(host) {
			j.add(c, "exfil.secret-var", Ask, Medium, c.Name+" code logs in to "+host+" with $"+strings.Join(login, ", $")+": an address, not a service's name", "check that "+host+" is the service the credential belongs to")
		}
	case ipAddress(host):
		j.add(c, "exfil.secret-var", Deny, High, c.Name+" code sends $"+strings.Join(sent, ", $")+" to "+host, "never send credentials anywhere; ask the user if something needs them")
	case neverSent(sent):
		j.add(c, "exfil.secret-var", Deny, High, c.Name+" code sends $"+strings.Join(sent, ", $")+"; that key signs requests and is never sent itself", "use the provider's SDK, which signs requests with it")
	case host == "":
		j.add(c, "exfil.secret-var", Ask, Medium, c.Name+" code sends $"+strings.Join(sent, ", $")+" to a host not known before it runs", "put the credential in a header of a request to the service it belongs to")
	default:
		j.add(c, "exfil.secret-var", Ask, Medium, c.Name+" code sends $"+strings.Join(sent, ", $")+" in a request to "+host, "check that "+host+" is the service the credential belongs to")
	}
}

// bodyOption: an HTTP client's option whose value is (or names the file holding) the body.
func bodyOption(a string) bool {
	switch a {
	case "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "--json", "-T", "--upload-file",
		"--post-file", "--body-file", "-F", "--form":
		return true
	}
	// -sT, -fsSd: a cluster of curl's flags whose last option takes the body
	return len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte("dTF", a[len(a)-1]) >= 0 && strings.Trim(a[1:len(a)-1], "sSfLkvigN46") == ""
}

// substOnly reports a value that is only a substitution: @<(...), <(...), name=@<(...).
func substOnly(v string) bool {
	if i := strings.LastIndexByte(v, '@'); i >= 0 {
		v = v[i+1:]
	}
	return shell.Plain(v) == shell.Dyn
}

// attachedBody reads curl's short body options written with their value: -d@file, -sd@file.
func attachedBody(a string) (string, bool) {
	if len(a) < 3 || a[0] != '-' || a[1] == '-' {
		return "", false
	}
	for k := 1; k < len(a); k++ {
		switch {
		case strings.IndexByte("dTF", a[k]) >= 0:
			return a[k+1:], k+1 < len(a)
		case strings.IndexByte("sSfLkvigN46", a[k]) < 0:
			return "", false
		}
	}
	return "", false
}
