// Recording a command found: its program, its arguments and the text it writes to files.

package shell

import (
	"path"
	"slices"
	"strings"
)

// addCmds appends the commands not already in list.
func addCmds(list []*Cmd, more ...*Cmd) []*Cmd {
	for _, m := range more {
		seen := false
		for _, l := range list {
			seen = seen || l == m
		}
		if !seen {
			list = append(list, m)
		}
	}
	return list
}

// record adds the command with its program and arguments; Via is the analyzer's nesting plus
// the wrappers the command was found through.
func (a *analyzer) record(c *Cmd, words []string) {
	c.Prog = words[0]
	if strings.Contains(c.Prog, dynWord) {
		c.Prog = Dyn
	}
	c.Name = progName(c.Prog)
	c.Args = expandLong(c.Name, words[1:])
	if len(a.links) > 0 && c.Name != "ln" {
		args, whole := make([]string, len(c.Args)), !onLink(c)
		for i, arg := range c.Args {
			args[i] = a.throughLinks(arg, c.Dir, whole)
		}
		c.Args = args
	}
	if strings.ContainsAny(c.Name, "*?[") {
		c.Name = globProgram(c.Name) // /bin/r? -rf ~: the program the pattern can run
	}
	for i, arg := range c.Args {
		if !strings.Contains(arg, Dyn) {
			continue
		}
		if c.FromArg == nil {
			c.FromArg = make([][]*Cmd, len(c.Args))
		}
		c.FromArg[i] = a.marked(arg)
		c.ArgsFrom = append(c.ArgsFrom, c.FromArg[i]...)
	}
	c.Via = append(append([]string(nil), a.via...), c.Via...)
	if a.inRemote > 0 {
		c.Remote = true
		c.Mounts = append(c.Mounts, a.mounts...)
		c.Fresh = c.Fresh || a.fresh
	}
	c.Runs = addCmds(c.Runs, a.markedArgs(c)...)
	a.cmds = append(a.cmds, c)
	a.noteWritten(c)
}

// noteWritten remembers the text a command writes to a file when it is known: echo or printf
// redirected with >, or a here-document given to cat; a script run later in the line is then
// read from it.
func (a *analyzer) noteWritten(c *Cmd) {
	text, ok := printed(c)
	if !ok || len(a.written) > 16 {
		return
	}
	for _, r := range c.Redirs {
		if (r.Op == ">" || r.Op == ">>" || r.Op == ">|") && !strings.Contains(r.Target, Dyn) {
			if r.Op == ">>" {
				text = a.written[r.Target] + text
			}
			if a.written == nil {
				a.written = map[string]string{}
			}
			a.written[r.Target] = text
		}
	}
}

// printed is the text a command prints when it is known: echo, printf of literals, or cat of
// a here-document.
func printed(c *Cmd) (string, bool) {
	var text string
	switch {
	case c.Name == "echo" && !slices.Contains(c.Args, "-e"):
		text = strings.Join(c.Args, " ") + "\n"
	case c.Name == "printf" && len(c.Args) > 0 && c.Args[0] != "-v":
		out, ok := printf(c.Args[0], c.Args[1:])
		if !ok {
			return "", false
		}
		text = out
	case c.Name == "cat" && len(c.Args) == 0 && c.Stdin != nil && c.Stdin.Known:
		text = c.Stdin.Text
	default:
		return "", false
	}
	return text, !strings.Contains(text, Dyn)
}

// markedArgs are the substitutions in a command's arguments whose output becomes code: the
// argument of eval, sh -c, python -c and source, or <(...) given to a shell.
func (a *analyzer) markedArgs(c *Cmd) []*Cmd {
	var out []*Cmd
	switch {
	case c.Name == "eval", c.Name == "source", c.Name == ".":
		for _, arg := range c.Args {
			out = append(out, a.marked(arg)...)
		}
	case shells[c.Name] || interpreters[c.Name] || isPython(c.Name):
		for _, arg := range c.Args {
			if !strings.HasPrefix(arg, "-") {
				out = append(out, a.marked(arg)...)
			}
		}
	}
	return out
}

// globPrograms are the programs a glob in a command's name is matched against, the ones the
// rules care most about first.
var globPrograms = []string{"rm", "dd", "shred", "mkfs", "wipefs", "chmod", "chown", "mv", "truncate", "kill", "pkill", "killall",
	"shutdown", "reboot", "halt", "poweroff", "curl", "wget", "nc", "ncat", "socat", "bash", "sh", "zsh", "dash", "python", "python3",
	"perl", "ruby", "node", "git", "find", "xargs", "crontab", "tee", "cp", "rsync", "scp", "ssh", "docker", "kubectl", "psql",
	"mysql", "redis-cli", "iptables", "userdel", "passwd", "sudo", "eval", "history"}

// globProgram is the first of globPrograms a command name written as a pattern matches (the
// pattern itself when none does).
func globProgram(name string) string {
	for _, p := range globPrograms {
		if ok, err := path.Match(name, p); err == nil && ok {
			return p
		}
	}
	return name
}
