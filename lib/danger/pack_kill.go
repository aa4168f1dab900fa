package danger

import (
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	killMass = &Rule{ID: "kill.mass", Action: Deny, Radius: High, Instead: "kill the process you mean by its pid"}
	killUser = &Rule{ID: "kill.user", Action: Deny, Radius: High, Instead: "ask the user to manage accounts"}
)

var packKill = pack{name: "kill", title: "mass kills",
	rules: []*Rule{killMass, killUser},
	programs: []program{
		{[]string{"kill", "killall5", "pkill", "killall"}, (*judge).kill}, {[]string{"loginctl"}, (*judge).loginctl},
	},
}

// The option grammars of the programs this file judges: which options take a value.
var (
	killOpts = shell.Opts{Short: "snuUgPtFG", Long: []string{"signal", "user", "uid", "group", "parent", "terminal", "pidfile"}}
)

func (j *judge) kill(c *shell.Cmd) {
	if c.Name == "killall5" {
		j.add(c, killMass, "killall5 signals every process on the machine", "")
		return
	}
	if c.Name == "kill" {
		args := c.Args
		if len(args) == 1 && args[0] == "-1" {
			args = []string{"--", "-1"} // kill -1 alone reads as pid -1
		}
		// The first option is the signal (-9, -KILL, -s KILL, -n 9); the rest are pids.
		if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "--" {
			if args[0] == "-s" || args[0] == "-n" || args[0] == "--signal" {
				args = args[min(2, len(args)):]
			} else {
				args = args[1:]
			}
		}
		for _, a := range args {
			if a == "-1" || a == "1" {
				j.add(c, killMass, "kill "+a+" signals every process you can reach (or init)", "")
				return
			}
		}
		// kill $(ps -e -o pid=), kill $(pgrep .): the pids of every process. A pipeline that
		// narrows the list (ps aux | grep node | awk ...) is the usual way to find one.
		if len(c.ArgsFrom) == 1 && allProcesses(c.ArgsFrom[0]) {
			f := c.ArgsFrom[0]
			j.add(c, killMass, "kill is given the pid of every process ("+f.Name+" lists them all)", "")
		}
		// kill $(pgrep claude), pgrep claude | xargs kill, kill $(pidof bash): every process of
		// a program the sessions run in, as pkill claude.
		for _, f := range c.ArgsFrom {
			if pat := sessionLookup(f); pat != "" {
				j.add(c, killMass, "kill is given the pid of every "+pat+" process ("+f.Name+" finds them): the sessions, and the shell running this one", "")
				return
			}
		}
		return
	}
	p := killOpts.Parse(c.Args)
	pat := at(p.Operands, 0)
	if len(c.Args) >= 2 && c.Args[len(c.Args)-1] == "-1" {
		pat = "-1"
	}
	if pat == "." || pat == ".*" || pat == "-1" || (pat == "" && p.Has("u", "user", "U", "uid")) || c.Name == "pkill" && p.Has("v", "inverse") {
		j.add(c, killMass, c.Name+" matches every process", "name the program you mean to stop")
		return
	}
	if slices.Contains(sessionPrograms, pat) {
		j.add(c, killMass, c.Name+" "+pat+" kills every "+pat+" process: the sessions, and the shell running this one", "")
		return
	}
	for _, h := range []string{"SecurityValidator", "WriteProtector", "SecretGuard", "AuditLog", "PromptContext", "LoadContext", "SessionSummary", "AgentOutputCapture", "/harness/"} {
		if strings.Contains(pat, h) || pat == "harness" || strings.Contains(pat, "harness serve") {
			j.add(c, tamperKillHooks, c.Name+" "+pat+" kills the hooks that guard this session", "")
			return
		}
	}
}

// allProcesses reports a command that lists every process, or every process of a user: ps
// -e/-A/ax/-u, pgrep with a pattern that matches anything.
func allProcesses(c *shell.Cmd) bool {
	switch c.Name {
	case "ps":
		for _, a := range c.Args {
			// -u/-U/x: every process of a user, which includes the session itself.
			if a == "-e" || a == "-A" || a == "ax" || a == "aux" || a == "-ax" || a == "-aux" || a == "x" || a == "ux" ||
				a == "-u" || a == "-U" || a == "--user" || strings.HasPrefix(a, "-e") && !strings.ContainsAny(a[2:], "CpuUgGs") {
				return true
			}
		}
	case "pgrep":
		for _, a := range c.Args {
			if a == "." || a == ".*" || a == "" {
				return true
			}
		}
	}
	return false
}

// sessionLookup is the session program whose every pid a pgrep or pidof prints, "" for another.
func sessionLookup(c *shell.Cmd) string {
	var names []string
	switch c.Name {
	case "pgrep":
		p := killOpts.Parse(c.Args)
		if p.Has("n", "newest", "o", "oldest", "P", "parent", "s", "session", "t", "terminal") {
			return "" // one process, or those of one session or terminal
		}
		names = p.Operands
	case "pidof":
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "-") {
				names = append(names, a)
			}
		}
	}
	for _, n := range names {
		if slices.Contains(sessionPrograms, strings.TrimPrefix(strings.TrimPrefix(n, "^"), "/usr/bin/")) {
			return n
		}
	}
	return ""
}

// loginctl terminate-user, kill-user: every process and session of the user.
func (j *judge) loginctl(c *shell.Cmd) {
	if len(c.Args) > 0 && (c.Args[0] == "terminate-user" || c.Args[0] == "kill-user" || c.Args[0] == "terminate-seat") {
		j.add(c, killMass, "loginctl "+c.Args[0]+" ends every session and process of the user", "")
	}
}

// sessionPrograms are the programs a session runs in: killing them all by name kills the
// sessions, this one's shell and agent included.
var sessionPrograms = []string{"bash", "sh", "zsh", "fish", "dash", "sshd", "systemd", "init", "login", "tmux", "screen", "claude"}
