// Shell text nested in a command: sh -c, scripts on stdin, eval, remote and function calls.

package shell

import (
	"slices"
	"strings"
)

// shells read a script from -c, a file operand, or stdin.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "ash": true,
	"mksh": true, "rbash": true, "fish": true, "yash": true, "posh": true, "csh": true, "tcsh": true}

// commandVar reports an environment variable whose value is a command the program runs. A
// switch rather than a map: a package-level map is built at every hook start.
func commandVar(name string) bool {
	switch name {
	case "GIT_SSH_COMMAND", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EXTERNAL_DIFF",
		"GIT_PROXY_COMMAND", "EDITOR", "VISUAL", "PAGER", "MANPAGER", "PROMPT_COMMAND", "SUDO_ASKPASS", "LESSOPEN", "LESSCLOSE":
		return true
	}
	return false
}

// commandVars analyses the commands a program is told to run through its environment
// (GIT_SSH_COMMAND=..., PROMPT_COMMAND=... bash -i) or through ssh's -o ProxyCommand and
// LocalCommand, which run on this machine.
func (a *analyzer) commandVars(c *Cmd, st *state) {
	for _, e := range c.Env {
		if k, v, ok := strings.Cut(e, "="); ok && commandVar(k) && v != "" {
			a.nested(strings.TrimPrefix(strings.TrimPrefix(v, "|"), "!"), k, st, nil, c)
		}
	}
	if c.Name != "ssh" && c.Name != "scp" && c.Name != "sftp" && c.Name != "rsync" && c.Name != "sshfs" {
		return
	}
	for i, arg := range c.Args {
		opt := ""
		if arg == "-o" && i+1 < len(c.Args) {
			opt = c.Args[i+1]
		} else if strings.HasPrefix(arg, "-o") {
			opt = arg[2:]
		}
		k, v, ok := strings.Cut(opt, "=")
		if !ok {
			k, v, _ = strings.Cut(opt, " ")
		}
		if k = strings.ToLower(strings.TrimSpace(k)); (k == "proxycommand" || k == "localcommand") && v != "" && v != "none" {
			a.nested(v, "ssh -o "+k, st, nil, c)
		}
	}
}

// shell follows sh/bash/...: -c STRING, a script operand, or a script on stdin.
func (a *analyzer) shell(c *Cmd, st *state) {
	p := shellOpts.Parse(c.Args)
	if p.Has("n") || slices.Contains(shellOpts.Values(c.Args, "o"), "noexec") {
		return // -n reads the script for its syntax and runs none of it
	}
	if p.Has("c") && len(p.Rest) > 0 {
		// sh -c TEXT NAME ARGS...: NAME is $0, ARGS are $1... and "$@" of the text.
		a.nestedArgs(p.Rest[0], c.Name+" -c", st, nil, c, p.Rest[1:])
		return
	}
	if p.Has("s") && c.Stdin != nil && c.Stdin.Known {
		// sh -s ARGS... <<< TEXT: the script is stdin, ARGS its $1... ("--" ends the options)
		args := p.Rest
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		c.Runs = append(c.Runs, stdinFrom(c)...)
		a.nestedArgs(c.Stdin.Text, c.Name+" stdin", st, nil, c, append([]string{c.Name}, args...))
		return
	}
	if len(p.Rest) > 0 && !p.Has("s") { // with -s the operands are arguments; the script is stdin
		script := p.Rest[0]
		if text, ok := a.written[a.resolve(script, c.Dir)]; ok && (!strings.Contains(script, Dyn) || isProc(script)) {
			// a script this command line wrote itself (echo '...' > x.sh && bash x.sh), or
			// the known text of a process substitution (bash <(echo '...'))
			a.nested(text, c.Name+" "+scriptLabel(script), st, nil, c)
			return
		}
		if script != "-" && script != "/dev/stdin" {
			return // a script file, or <(...) whose commands are already in Runs
		}
	}
	a.stdinScript(c, st)
}

// stdinScript follows a shell that reads its script from stdin.
func (a *analyzer) stdinScript(c *Cmd, st *state) {
	c.Runs = append(c.Runs, stdinFrom(c)...)
	if c.Stdin != nil && c.Stdin.Known {
		a.nested(c.Stdin.Text, c.Name+" stdin", st, nil, c)
	}
}

func stdinFrom(c *Cmd) []*Cmd {
	if c.Stdin == nil {
		return nil
	}
	return c.Stdin.From
}

// nested analyses shell text that a command runs (bash -c, eval, su -c, watch, ...).
func (a *analyzer) nested(text, via string, st *state, in *Input, owner *Cmd) {
	a.nestedArgs(text, via, st, in, owner, nil)
}

// nestedArgs is nested for a new shell given its own arguments: $0 and the text's positional
// parameters after it (none: an empty list); nil keeps the caller's (eval, trap, ...).
func (a *analyzer) nestedArgs(text, via string, st *state, in *Input, owner *Cmd, args []string) {
	if owner != nil {
		owner.Runs = addCmds(owner.Runs, a.marked(text)...)
		// The owner's wrappers (sudo, kubectl exec, ...) wrap what it runs too.
		if len(owner.Via) > len(a.via) {
			saved := a.via
			a.via = with(owner.Via)
			defer func() { a.via = saved }()
		}
		if owner.Remote && a.inRemote == 0 {
			a.inRemote++
			defer func() { a.inRemote-- }()
		}
		if len(owner.Mounts) > 0 || owner.Fresh {
			saved, savedFresh := a.mounts, a.fresh
			a.mounts, a.fresh = owner.Mounts, owner.Fresh
			defer func() { a.mounts, a.fresh = saved, savedFresh }()
		}
	}
	nst := st.child()
	if args != nil {
		setPositional(nst, args[min(1, len(args)):])
		if len(args) > 0 {
			nst.vars["0"] = args[0]
		}
	}
	if owner != nil && owner.Dir != "" && !strings.HasPrefix(via, "ssh ") && !strings.HasPrefix(via, "ansible ") {
		nst.cwd = owner.Dir // sudo -D, env -C, docker run -w: the text runs there
	}
	if err := a.script(stripMarks(text), nst, in, via); err != nil {
		if _, isLimit := err.(*LimitError); isLimit {
			a.fail(err)
			return
		}
		// Bash still runs such text line by line up to the error: the owner is marked, and
		// the guard denies it (lib/danger).
		a.note("%s text does not parse as shell: %v", via, err)
		if owner != nil {
			owner.Unparsed = true
		}
	}
}

// call1 counts one more call of an alias or function defined in the command. Past the caps
// (256 calls, 8 deep) the analysis fails, and the guard denies: a skipped call could be the
// one that does harm.
func (a *analyzer) call1() bool {
	a.calls++
	if a.calls > 256 || len(a.calling) >= 8 {
		a.fail(&LimitError{"the command calls the functions and aliases it defines more often, or more deeply, than the analysis follows"})
		return false
	}
	return true
}

// quoteWords joins expanded words back into shell text, each single-quoted unless plain.
func quoteWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == "" {
			out[i] = w
		} else if strings.Contains(w, Dyn) {
			// Run-time values go back in double quotes, a variable as itself (${NAME}).
			esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(w)
			out[i] = `"` + stripMarks(esc) + `"`
		} else {
			out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// remote analyses a command run on another machine.
func (a *analyzer) remote(text, via string, st *state, owner *Cmd) {
	a.inRemote++
	a.nested(text, via, st, nil, owner)
	a.inRemote--
}
