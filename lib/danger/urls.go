package danger

import (
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The option grammars of the programs this file judges: which options take a value.
var (
	netcatOpts = shell.Opts{Short: "spwiqxXecTIOVLm", Long: []string{"source", "source-port", "proxy", "proxy-type", "wait", "exec", "sh-exec"}}
)

// ipAddress reports a host written as an IP address (an IPv6 one in brackets, or a dotted
// IPv4 one), rather than a name; the net package is left out of the hook for its start-up cost.
func ipAddress(host string) bool {
	if strings.HasPrefix(host, "[") || strings.Count(host, ":") > 1 {
		return true
	}
	return strings.Count(host, ".") == 3 && strings.Trim(host, "0123456789.") == ""
}

func firstURL(args []string) string {
	for _, a := range args {
		if strings.Contains(a, "://") {
			return a
		}
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && strings.Contains(a, ".") && shell.Known(a) {
			return "https://" + a
		}
	}
	return ""
}

// hostPath splits a URL into its host (lower case, no port or credentials) and path. It is
// written out rather than net/url, which costs every hook start an init of net/netip.
func hostPath(u string) (string, string) {
	if !shell.Known(u) {
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
		args = netcatOpts.Parse(args).Operands
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
		if !strings.HasPrefix(a, "-") && a != "" && strings.Trim(a, "0123456789") != "" && shell.Known(a) {
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
	return !strings.ContainsAny(name, "=/ ") && shell.Known(name)
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
	if !shell.Known(rest) {
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
