package danger

import (
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of the analysis itself: what cannot be read is not let through.
var (
	limitsAnalysis = &Rule{ID: "limits.analysis", Action: Deny, Radius: Medium, Instead: "split it into smaller commands"}
	limitsParse    = &Rule{ID: "limits.parse", Action: Deny, Radius: Medium, Instead: "fix the syntax and run it again"}
	limitsUnread   = &Rule{ID: "limits.unread", Action: Ask, Radius: Medium, Instead: "run the commands themselves, written out"}
	limitsWrapped  = &Rule{ID: "limits.wrapped", Action: Ask, Radius: Medium, Instead: "run the command itself, or check what the program does with its arguments"}
)

var packLimits = pack{name: "limits", title: "limits", rules: []*Rule{limitsAnalysis, limitsParse, limitsUnread, limitsWrapped}}

// wrapped: a program the guard does not know, whose arguments hold a command it would stop
// (retry -- rm -rf ~, with-lock FILE git reset --hard). Whether the program runs them cannot be
// told: at most an ask. Words that are one argument (an option's value, a quoted title) are not
// a command, and programs that print or search their arguments are left alone.
func (j *judge) wrapped(c *shell.Cmd) {
	if c.PS || c.Dynamic() || !frameworkRunner(c.Name) || printsArgs(c.Name) || runsCode(c) {
		return // shells and interpreters: lib/shell reads what they run
	}
	for k := 0; k < len(c.Args); k++ {
		name := c.Args[k]
		if strings.ContainsAny(name, " /=") || j.program(name) == nil || k+1 == len(c.Args) && flagValue(c.Args, k) {
			continue
		}
		if k == 0 && len(c.Args) == 1 {
			continue // a subcommand that shares a program's name: last reboot, vagrant halt
		}
		sub := &shell.Cmd{Name: name, Prog: name, Args: c.Args[k+1:], Dir: c.Dir, Env: c.Env, Via: append(slices.Clone(c.Via), c.Name), Text: c.Text, Remote: c.Remote, Mounts: c.Mounts}
		saved := len(j.findings)
		j.program(name)(j, sub)
		found := j.findings[saved:]
		j.findings = j.findings[:saved]
		if len(found) > 0 && found[0].Action > Allow {
			j.add(c, limitsWrapped, c.Name+" is given `"+display(sub)+"`, which is stopped on its own ("+found[0].Rule+")", "")
			return
		}
	}
	if j.nested {
		return
	}
	// One quoted argument that is a whole command line (runner exec 'rm -rf ~'): judged as one.
	for k, a := range c.Args {
		if !strings.Contains(a, " ") || strings.HasPrefix(a, "-") || k > 0 && strings.HasPrefix(c.Args[k-1], "-") && c.Args[k-1] != "--" {
			continue
		}
		sub := &judge{world: j.world, owner: j.owner, pol: j.pol, packs: j.packs, harness: j.harness, system: j.system, nested: true}
		an, err := shell.Analyze(a, j.world, shell.Limits{})
		if err != nil {
			continue // prose, not a command
		}
		sub.an = an
		sub.run()
		for _, f := range sub.findings {
			if f.Action == Deny && !strings.HasPrefix(f.Rule, "limits.") {
				j.add(c, limitsWrapped, c.Name+" is given `"+shell.Show(a)+"` as one argument, a command stopped on its own ("+f.Rule+")", "")
				return
			}
		}
	}
}

// flagValue reports whether args[k] may be the value of the option before it (--title
// reboot). Whether an option takes a value is not known for a program the guard does not know:
// -f, -r, -q are as often switches (strace -f rm ..., retry -q rm ...), so a word followed by
// arguments is still read as a command; only a last word is left to the option.
func flagValue(args []string, k int) bool {
	return k > 0 && strings.HasPrefix(args[k-1], "-") && args[k-1] != "--" && !strings.Contains(args[k-1], "=")
}

// printsArgs reports programs that print, log or search their arguments rather than run them.
func printsArgs(name string) bool {
	switch name {
	case "echo", "printf", "print", "logger", "notify-send", "say", "cowsay", "figlet", "toilet", "banner", "wall", "write",
		"which", "whereis", "type", "apropos", "whatis", "help", "info", "tldr", "command-not-found", "alias", "unalias", "complete",
		"test", "[", "[[", "expr", "basename", "dirname", "realpath", "readlink", "hash", "history", "fc", "read", "export", "declare",
		"local", "set", "unset", "shift", "return", "exit", "true", "false", "time", "jobs", "wait", "kill", "trap":
		return true
	}
	return false
}
