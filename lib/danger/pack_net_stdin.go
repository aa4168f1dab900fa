// Code from the network run without a literal curl | sh: a download fed to a program that runs
// what it reads (awk's system($0), sed's e flag, make -f -, exec(sys.stdin.read()), eval
// "$(cat)", a shell under su -c), or handed as the script of bash -c by xargs.

package danger

import (
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// netStdinRuns judges a command that runs as code what a download feeds it.
func (j *judge) netStdinRuns(c *shell.Cmd) {
	if c.PS || slices.ContainsFunc(c.Runs, func(r *shell.Cmd) bool { return fetcher(r.Name) || isDecode(r) }) {
		return // curl | sh itself: judged by runs
	}
	if isShell(c.Name) {
		// curl URL | xargs -0 bash -c: the download is the script bash -c is given
		if i := slices.Index(c.Args, "-c"); i >= 0 && i+1 < len(c.Args) && !shell.Known(c.Args[i+1]) {
			for _, f := range fromArg(c, i+1) {
				if fetcher(f.Name) {
					j.netRan(c, f, c.Name+" -c is handed its script by "+f.Name+":")
					return
				}
			}
		}
	}
	how := stdinCode(c)
	if how == "" {
		return
	}
	if f := j.netStdin(c); f != nil {
		j.netRan(c, f, how+":")
	}
}

// fromArg are the commands substituted into c.Args[i], or all of ArgsFrom when not told apart.
func fromArg(c *shell.Cmd, i int) []*shell.Cmd {
	if i < len(c.FromArg) && c.FromArg[i] != nil {
		return c.FromArg[i]
	}
	return c.ArgsFrom
}

// netRan adds the finding for c running what fetch f downloaded (why says how): asked for a
// trusted installer host, denied for any other.
func (j *judge) netRan(c, f *shell.Cmd, why string) {
	host, p := hostPath(firstURL(f.Args))
	if host != "" && j.trusted(host, p) {
		j.add(c, netPipeInstaller, why+" code downloaded from "+host+", run without a chance to read it first", "")
		return
	}
	if host == "" {
		host = "an unknown host"
	}
	j.add(c, netPipeShell, why+" code downloaded from "+host+", run unreviewed, with your permissions", "")
}

// netStdin is the fetch whose output reaches c's standard input: piped in, or piped into the
// su -c or bash -c that c runs inside.
func (j *judge) netStdin(c *shell.Cmd) *shell.Cmd {
	for depth := 0; c != nil && depth < 4; depth++ {
		if c.Stdin != nil {
			for _, f := range c.Stdin.From {
				if fetcher(f.Name) {
					return f
				}
			}
			if len(c.Stdin.From) == 0 && strings.Contains(c.Stdin.Text, shell.Dyn+"S") {
				return j.hereStringFetch(c)
			}
			return nil
		}
		c = j.outer(c)
	}
	return nil
}

// hereStringFetch is the fetch whose output a here-string or here-document of c substitutes
// (bash <<< "$(curl URL)"). The substitution's commands are analysed just before c: the one
// right before it is the substitution's last stage.
func (j *judge) hereStringFetch(c *shell.Cmd) *shell.Cmd {
	i := slices.Index(j.an.Cmds, c)
	if i < 1 {
		return nil
	}
	p := j.an.Cmds[i-1]
	if len(p.Via) != len(c.Via) || len(p.Writes(j.world.Home)) > 0 {
		return nil
	}
	if fetcher(p.Name) {
		return p
	}
	if p.Stdin != nil {
		for _, f := range p.Stdin.From {
			if fetcher(f.Name) {
				return f
			}
		}
	}
	return nil
}

// outer is the command whose -c text c was found in (bash -c, su -c), nil for none.
func (j *judge) outer(c *shell.Cmd) *shell.Cmd {
	if len(c.Via) == 0 {
		return nil
	}
	last := c.Via[len(c.Via)-1]
	name, ok := strings.CutSuffix(last, " -c")
	if !ok {
		return nil
	}
	i := slices.Index(j.an.Cmds, c)
	for k := i - 1; k >= 0; k-- {
		o := j.an.Cmds[k]
		if o.Name == name && slices.Equal(o.Via, c.Via[:len(c.Via)-1]) {
			return o
		}
	}
	return nil
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish":
		return true
	}
	return false
}

// stdinCode says how c runs what arrives on its standard input as code, "" when it does not.
func stdinCode(c *shell.Cmd) string {
	switch {
	case isShell(c.Name) || strings.HasPrefix(c.Name, "python") || c.Name == "perl" || c.Name == "ruby" || c.Name == "node" || c.Name == "php":
		if c.Code != "" {
			l := strings.ToLower(c.Code)
			if containsAny(l, "exec(", "eval(", "eval ", "exec ", "function(") && containsAny(l, "stdin", "readfilesync(0", "readfilesync('/dev/stdin", `readfilesync("/dev/stdin`) {
				return c.Name + " evaluates its input"
			}
			return ""
		}
		for k, a := range c.Args {
			if a == "-s" && isShell(c.Name) || a == "-" {
				return c.Name + " reads its program from its input"
			}
			if a == "-c" || a == "-e" || a == "-r" || !strings.HasPrefix(a, "-") || k > 0 && (c.Args[k-1] == "-o" || c.Args[k-1] == "-O") {
				return ""
			}
		}
		return c.Name + " reads its program from its input"
	case strings.HasSuffix(c.Name, "awk"):
		l := strings.ReplaceAll(c.Code, " ", "")
		if strings.Contains(l, "system($") || containsAny(l, `|"sh"`, `|"bash"`, `|"/bin/sh"`, `|"/bin/bash"`) {
			return c.Name + " runs the lines it reads"
		}
	case c.Name == "sed" || c.Name == "gsed":
		if sedExecutes(c.Args) {
			return "sed's e runs the lines it reads"
		}
	case c.Name == "make" || c.Name == "gmake":
		for k, a := range c.Args {
			if (a == "-f" || a == "--file" || a == "--makefile") && k+1 < len(c.Args) && (c.Args[k+1] == "-" || c.Args[k+1] == "/dev/stdin") ||
				a == "--file=-" || a == "--makefile=-" || a == "-f-" {
				return "make runs the recipes of the makefile it reads"
			}
		}
	case c.Name == "eval" || c.Name == "source" || c.Name == ".":
		for _, r := range c.Runs {
			if r.Name == "cat" && (len(r.Args) == 0 || slices.Equal(r.Args, []string{"-"})) && r.Stdin == nil {
				return c.Name + " runs the text cat reads"
			}
		}
		if len(c.Args) > 0 && (c.Args[0] == "/dev/stdin" || c.Args[0] == "/dev/fd/0" || c.Args[0] == "/proc/self/fd/0") {
			return c.Name + " runs its input"
		}
	}
	return ""
}

// sedExecutes reports a sed script that runs text as a command: the e command, or the e flag
// of s (s/^//e runs each line).
func sedExecutes(args []string) bool {
	var scripts []string
	for k := 0; k < len(args); k++ {
		a := args[k]
		switch {
		case a == "-e" || a == "--expression":
			if k+1 < len(args) {
				scripts = append(scripts, args[k+1])
				k++
			}
		case strings.HasPrefix(a, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(a, "--expression="))
		case strings.HasPrefix(a, "-"):
		default:
			if len(scripts) == 0 {
				scripts = append(scripts, a)
			}
			k = len(args)
		}
	}
	for _, s := range scripts {
		for _, cmd := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\n' }) {
			cmd = strings.TrimSpace(cmd)
			if cmd == "e" {
				return true
			}
			if len(cmd) < 4 || cmd[0] != 's' {
				continue
			}
			d := cmd[1]
			n, k := 0, 2
			for ; k < len(cmd) && n < 2; k++ {
				if cmd[k] == '\\' {
					k++
				} else if cmd[k] == d {
					n++
				}
			}
			flags, _, _ := strings.Cut(cmd[k:], "w") // s/a/b/w FILE: the rest names a file
			if n == 2 && strings.ContainsRune(flags, 'e') {
				return true
			}
		}
	}
	return false
}
