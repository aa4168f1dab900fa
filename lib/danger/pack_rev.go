package danger

import (
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	revDevTcp      = &Rule{ID: "rev.dev-tcp", Action: Deny, Radius: High, Instead: "use curl or nc for network checks"}
	revDevTcpOpen  = &Rule{ID: "rev.dev-tcp-open", Action: Ask, Radius: Medium, Instead: "use curl or nc for network checks"}
	revInterpreter = &Rule{ID: "rev.interpreter", Action: Deny, Radius: High, Instead: "use curl or nc for network checks"}
	revNcExec      = &Rule{ID: "rev.nc-exec", Action: Deny, Radius: High, Instead: "use curl or nc for network checks"}
	revNetShell    = &Rule{ID: "rev.net-shell", Action: Deny, Radius: High, Instead: "use curl or nc for network checks"}
	revShellPipe   = &Rule{ID: "rev.shell-pipe", Action: Deny, Radius: High, Instead: "use curl or nc for network checks"}
	revSocatExec   = &Rule{ID: "rev.socat-exec", Action: Deny, Radius: High, Instead: "use curl or nc for network checks"}
)

var packRev = pack{name: "rev", title: "reverse shells",
	rules: []*Rule{revDevTcp, revDevTcpOpen, revInterpreter, revNcExec, revNetShell, revShellPipe, revSocatExec},
	programs: []program{
		{[]string{"nc", "ncat", "netcat"}, (*judge).netcat}, {[]string{"socat"}, (*judge).socat}, {[]string{"ztcp"}, (*judge).ztcp},
	},
	each: []func(*judge, *shell.Cmd){(*judge).streams},
}

// ztcp (zsh's TCP module) connecting out: with the shell's streams on it, a reverse shell.
func (j *judge) ztcp(c *shell.Cmd) {
	if ops := (shell.Opts{}).Parse(c.Args).Operands; len(ops) >= 2 && !slices.Contains(c.Args, "-l") && !slices.Contains(c.Args, "-c") {
		j.add(c, revNetShell, "ztcp opens a raw connection from zsh to "+ops[0]+", the way zsh reverse shells start", "use curl or nc for network checks")
	}
}

// streams: code from the network or a decoder run by a shell; shells wired to the network.
func (j *judge) streams(c *shell.Cmd) {
	if len(c.Runs) > 0 {
		j.runs(c)
	}
	// A shell whose output is read by a network tool: sh -i | nc host port.
	if fetcher(c.Name) && c.Stdin != nil {
		for _, from := range c.Stdin.From {
			if runsCode(from) && (slices.Contains(from.Args, "-i") || len(from.Args) == 0) {
				j.add(c, revShellPipe, "it pipes a shell's output to "+c.Name+": a reverse shell", "")
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
				j.add(c, revDevTcp, "it connects a shell to "+r.Target+": a reverse shell", "")
			} else {
				j.add(c, revDevTcpOpen, "it opens a raw network connection through "+r.Target, "")
			}
			return
		}
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "/dev/tcp/") || strings.HasPrefix(a, "/dev/udp/") {
			j.add(c, revDevTcp, "it opens a raw network connection through "+a, "")
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

func (j *judge) netcat(c *shell.Cmd) {
	for _, a := range c.Args {
		if a == "-e" || a == "-c" || a == "--exec" || a == "--sh-exec" || a == "--lua-exec" || strings.HasPrefix(a, "-e/") || strings.HasPrefix(a, "--exec=") || strings.HasPrefix(a, "--sh-exec=") {
			j.add(c, revNcExec, c.Name+" "+a+" hands a shell to whoever connects: a reverse or bind shell", "")
			return
		}
	}
}

func (j *judge) socat(c *shell.Cmd) {
	for _, a := range c.Args {
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "exec:") || strings.HasPrefix(l, "system:") || strings.Contains(l, ",exec:") {
			j.add(c, revSocatExec, "socat "+a+" connects a program to the network: a reverse or bind shell", "")
			return
		}
	}
}
