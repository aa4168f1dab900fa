// Git: its global options, -c settings and aliases, and the commands and hooks git runs.

package shell

import (
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
)

// git handles git's global options (-C, -c alias.x=!cmd) and shell aliases; it reports
// whether it took care of the command.
func (a *analyzer) git(c *Cmd, words []string, st *state) bool {
	args := words[1:]
	for _, kv := range gitEnvConfig(c, st) {
		a.gitConfig(kv)
		a.gitCommandConfig(c, kv, st)
		c.GitConfig = append(c.GitConfig, kv)
	}
	var kept []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "-C" && i+1 < len(args):
			i++
			c.Dir = a.resolve(args[i], c.Dir)
		case arg == "-c" && i+1 < len(args) || strings.HasPrefix(arg, "-c") && len(arg) > 2:
			kv := strings.TrimPrefix(arg, "-c") // -ckey=value, attached
			if kv == "" {
				i++
				kv = args[i]
			}
			a.gitConfig(kv)
			a.gitCommandConfig(c, kv, st)
			c.GitConfig = append(c.GitConfig, kv)
		case strings.HasPrefix(arg, "--git-dir=") || strings.HasPrefix(arg, "--work-tree="):
			kept = append(kept, arg)
		case (arg == "--git-dir" || arg == "--work-tree" || arg == "--namespace" || arg == "--exec-path") && i+1 < len(args):
			kept = append(kept, arg+"="+args[i+1])
			i++
		case strings.HasPrefix(arg, "-"):
			kept = append(kept, arg)
		default:
			sub := arg
			rest := args[i+1:]
			if sub == "config" {
				a.gitConfigCmd(rest)
			}
			if sub == "submodule" && len(rest) > 1 && rest[0] == "foreach" {
				// git submodule foreach [--recursive] 'cmd': cmd runs in every submodule.
				a.record(c, append([]string{words[0]}, append(kept, args[i:]...)...))
				if ops := (Opts{}).Parse(rest[1:]).Operands; len(ops) > 0 {
					a.nested(strings.Join(ops, " "), "git submodule foreach", st, nil, c)
				}
				return true
			}
			if alias, ok := a.aliases[sub]; ok {
				a.record(c, append([]string{words[0]}, append(kept, args[i:]...)...))
				if shellAlias, isShell := strings.CutPrefix(alias, "!"); isShell {
					a.nested(shellAlias+" "+strings.Join(rest, " "), "git alias "+sub, st, nil, c)
				} else {
					sc := &Cmd{Dir: c.Dir, Text: c.Text, Via: []string{"git alias " + sub}}
					a.git(sc, append([]string{"git"}, append(strings.Fields(alias), rest...)...), st)
				}
				return true
			}
			rest = expandLong("git "+sub, rest)
			a.record(c, append([]string{words[0]}, append(append(kept, sub), rest...)...))
			a.gitRuns(c, sub, rest, st)
			a.commandVars(c, st) // GIT_SSH_COMMAND=..., EDITOR=... git commit
			return true
		}
	}
	a.record(c, append([]string{words[0]}, kept...))
	return true
}

// gitCommandConfig analyses a git -c setting whose value is a command git runs through the
// shell: the editor, the pager, the ssh command, fsmonitor, external diff, a credential helper
// or filter given as a command.
func (a *analyzer) gitCommandConfig(c *Cmd, kv string, st *state) {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || v == "" {
		return
	}
	k = strings.ToLower(k)
	switch {
	case k == "core.editor" || k == "core.pager" || k == "core.sshcommand" || k == "sequence.editor" || k == "diff.external" ||
		k == "core.askpass" || k == "gpg.program" || k == "interactive.difffilter" || strings.HasPrefix(k, "pager.") ||
		k == "core.fsmonitor" && v != "true" && v != "false" ||
		strings.HasPrefix(k, "filter.") && (strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".smudge") || strings.HasSuffix(k, ".process")) ||
		strings.HasPrefix(k, "diff.") && (strings.HasSuffix(k, ".textconv") || strings.HasSuffix(k, ".command")) ||
		strings.HasPrefix(k, "merge.") && strings.HasSuffix(k, ".driver"):
		a.nested(strings.TrimPrefix(v, "!"), "git -c "+k, st, nil, c)
	case k == "credential.helper" && strings.HasPrefix(v, "!"):
		a.nested(v[1:], "git -c "+k, st, nil, c)
	case k == "core.hookspath":
		a.hooksPath = a.resolve(v, c.Dir)
	}
}

// gitRuns analyses what a git command runs besides itself: an ext:: transport's command, and
// hooks written earlier in the line (.git/hooks/NAME, or under core.hooksPath) that it fires.
func (a *analyzer) gitRuns(c *Cmd, sub string, rest []string, st *state) {
	for _, arg := range rest {
		if cmdText, ok := strings.CutPrefix(arg, "ext::"); ok {
			// ext::sh -c rm% -rf% ~: "% " is a space inside an argument
			var words []string
			for _, w := range strings.Split(strings.ReplaceAll(cmdText, "% ", "\x03"), " ") {
				if w != "" {
					words = append(words, strings.ReplaceAll(w, "\x03", " "))
				}
			}
			if len(words) > 0 {
				a.simple(&Cmd{Dir: c.Dir, Via: []string{"git ext::"}, Text: c.Text, Remote: c.Remote}, words, st.child())
			}
		}
	}
	if sub == "rebase" {
		// git rebase --exec CMD (-x CMD): CMD runs through the shell after each commit replayed
		for i, arg := range rest {
			switch {
			case (arg == "-x" || arg == "--exec") && i+1 < len(rest):
				a.nested(rest[i+1], "git rebase --exec", st, nil, c)
			case strings.HasPrefix(arg, "--exec="):
				a.nested(strings.TrimPrefix(arg, "--exec="), "git rebase --exec", st, nil, c)
			}
		}
	}
	switch sub {
	case "commit", "push", "merge", "rebase", "am", "checkout", "switch", "pull", "cherry-pick", "revert", "gc", "commit-tree":
	default:
		return
	}
	for _, p := range slices.Sorted(maps.Keys(a.written)) {
		if dir := path.Dir(p); dir == a.hooksPath || path.Base(dir) == "hooks" && strings.HasSuffix(path.Dir(dir), ".git") {
			a.nested(a.written[p], "git hook "+path.Base(p), st, nil, c)
		}
	}
}

// gitConfig remembers an alias set with git -c alias.NAME=VALUE.
func (a *analyzer) gitConfig(kv string) {
	k, v, ok := strings.Cut(kv, "=")
	if name, isAlias := strings.CutPrefix(strings.ToLower(k), "alias."); ok && isAlias {
		a.aliases[name] = v
	}
}

// gitConfigCmd remembers an alias set with git config [--global] alias.NAME VALUE.
func (a *analyzer) gitConfigCmd(args []string) {
	var ops []string
	for _, arg := range args {
		if !strings.HasPrefix(arg, "-") {
			ops = append(ops, arg)
		}
	}
	if len(ops) >= 2 {
		a.gitConfig(ops[0] + "=" + strings.Join(ops[1:], " "))
	}
}

// gitEnvConfig are the settings git takes from its environment, as key=value:
// GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n, and GIT_CONFIG_PARAMETERS
// (what git -c passes to the gits it runs: 'key'='value' or 'key=value', quoted as sh does).
func gitEnvConfig(c *Cmd, st *state) []string {
	var out []string
	if n, err := strconv.Atoi(envOf(c, st, "GIT_CONFIG_COUNT")); err == nil {
		for i := 0; i < min(n, 32); i++ {
			if k := envOf(c, st, "GIT_CONFIG_KEY_"+strconv.Itoa(i)); k != "" {
				out = append(out, k+"="+envOf(c, st, "GIT_CONFIG_VALUE_"+strconv.Itoa(i)))
			}
		}
	}
	params := envOf(c, st, "GIT_CONFIG_PARAMETERS")
	var word strings.Builder
	quoted, started := false, false
	for i := 0; i < len(params); i++ {
		switch ch := params[i]; {
		case ch == '\'':
			quoted, started = !quoted, true
		case ch == '\\' && !quoted && i+1 < len(params):
			i++
			word.WriteByte(params[i])
		case (ch == ' ' || ch == '\t') && !quoted:
			if started || word.Len() > 0 {
				out = append(out, word.String())
			}
			word.Reset()
			started = false
		default:
			word.WriteByte(ch)
		}
	}
	if started || word.Len() > 0 {
		out = append(out, word.String())
	}
	return out
}
