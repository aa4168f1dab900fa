package danger

import (
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// fetchers read from the network; their output run as code is code from the network.
var fetchers = map[string]bool{"curl": true, "wget": true, "fetch": true, "http": true, "https": true, "xh": true,
	"aria2c": true, "lynx": true, "links": true, "nc": true, "ncat": true, "netcat": true, "socat": true,
	"telnet": true, "openssl": true, "ftp": true, "tftp": true, "scp": true, "sftp": true, "ssh": true, "gh": true}

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

// scriptName reports a file named as a script (run directly it is still a script).
func scriptName(p string) bool {
	for _, ext := range []string{".sh", ".bash", ".zsh", ".py", ".pl", ".rb", ".js", ".php", ".ps1"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
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
