// Git settings that change what a command does: a push refspec or mirror set for the remote,
// clean.requireForce off, the reflog expired by gc; and the plumbing that does what reset
// --hard and push --force do (read-tree --reset -u, checkout-index -a -f, send-pack --force).

package danger

import (
	"path"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// gitSettings are the settings (lowercased key, value) a git command runs with besides the
// config files: git config KEY VALUE run earlier in the line (any scope: each is read by this
// command), then git -c KEY=VALUE and GIT_CONFIG_* (shell.Cmd.GitConfig), which win.
func (j *judge) gitSettings(c *shell.Cmd) map[string]string {
	out := map[string]string{}
	set := func(kv string) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out[strings.ToLower(strings.TrimSpace(k))] = v
		}
	}
	for _, o := range j.an.Cmds {
		if o == c {
			break
		}
		if o.Name != "git" || len(o.Args) < 3 || o.Args[0] != "config" {
			continue
		}
		var ops []string
		for _, a := range o.Args[1:] {
			if a == "--unset" || a == "--unset-all" || a == "--get" || a == "-l" || a == "--list" {
				ops = nil
				break
			}
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
		if len(ops) == 2 {
			set(ops[0] + "=" + ops[1])
		}
	}
	for _, kv := range c.GitConfig { // git -c, GIT_CONFIG_*: lib/shell keeps them on the command
		set(kv)
	}
	return out
}

// gitConfigured judges what settings make a git command do: a push refspec or mirror for the
// remote pushed to, clean without -f when clean.requireForce is off, gc expiring the reflog.
func (j *judge) gitConfigured(c *shell.Cmd, sub string, p shell.Parsed) {
	if !strings.Contains(c.Text, "-c") && !strings.Contains(c.Text, "GIT_CONFIG") && !j.lineConfigures() {
		return
	}
	set := j.gitSettings(c)
	if len(set) == 0 {
		return
	}
	switch sub {
	case "push":
		if p.Has("mirror") || p.Has("d", "delete") {
			return
		}
		remote := at(p.Operands, 0)
		if remote == "" {
			remote = "origin"
		}
		if isTrue(set["remote."+strings.ToLower(remote)+".mirror"]) {
			j.add(c, gitPushMirror, "remote."+remote+".mirror makes this push a mirror push: it makes the remote match this clone, deleting every branch and tag it lacks", "")
			return
		}
		spec, ok := set["remote."+strings.ToLower(remote)+".push"]
		if !ok || len(p.Operands) > 1 {
			return // refspecs on the command line replace the configured ones
		}
		force := p.Has("f", "force", "force-with-lease", "force-if-includes")
		j.pushRefspec(c, spec, force, "remote."+remote+".push sets the refspec: ")
	case "clean":
		if !p.Has("n", "dry-run", "f", "force", "i", "interactive") && !isTrue(set["clean.requireforce"]) && set["clean.requireforce"] != "" {
			j.add(c, gitClean, "with clean.requireForce off, git clean deletes untracked files for good without -f, which no git command can bring back", "")
		}
	case "gc":
		for _, k := range []string{"gc.reflogexpire", "gc.reflogexpireunreachable"} {
			if v := strings.ToLower(set[k]); v == "now" || v == "all" || v == "0" {
				j.add(c, gitReflogExpire, k+"="+set[k]+" makes gc expire the reflog now, removing the only record that recovers lost commits", "")
				return
			}
		}
	}
}

// lineConfigures reports a git config command in the line.
func (j *judge) lineConfigures() bool {
	for _, o := range j.an.Cmds {
		if o.Name == "git" && at(o.Args, 0) == "config" {
			return true
		}
	}
	return false
}

func isTrue(v string) bool {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}

// pushRefspec judges one refspec a push sends with (why says where it comes from).
func (j *judge) pushRefspec(c *shell.Cmd, r string, force bool, why string) {
	plus := strings.HasPrefix(r, "+")
	src, dst, hasDst := strings.Cut(strings.TrimPrefix(r, "+"), ":")
	if !hasDst {
		dst = src
	}
	if dst == "HEAD" || dst == "@" {
		dst = j.currentBranch(c.Dir)
	}
	if !force && !plus {
		return
	}
	if b := j.protectedMatch(dst); b != "" {
		j.add(c, gitForcePushProtected, why+"a force push of "+dst+" rewrites the protected branch "+b+" on the remote", "push a new branch and open a pull request, or revert with a new commit")
		return
	}
	j.forcePush(c, dst, false, false)
}

// protectedMatch is a protected branch a ref or ref pattern (refs/heads/*) names, "" for none.
func (j *judge) protectedMatch(ref string) string {
	ref = strings.TrimPrefix(strings.TrimPrefix(ref, "+"), "refs/heads/")
	if ref == "" {
		return ""
	}
	if j.protected(ref) {
		return ref
	}
	if !strings.ContainsAny(ref, "*?[") {
		return ""
	}
	for _, b := range j.pol.ProtectedBranches {
		if strings.ContainsAny(b, "*?[") {
			b = strings.NewReplacer("*", "x", "?", "x", "[", "", "]", "").Replace(b) // release/* names release/x
		}
		if ok, _ := path.Match(ref, b); ok {
			return b
		}
	}
	return ""
}

// gitPlumbing judges the plumbing commands that do what porcelain does: read-tree --reset -u
// and checkout-index -a -f overwrite the working tree as reset --hard does; send-pack --force
// rewrites remote branches as push --force does.
func (j *judge) gitPlumbing(c *shell.Cmd, sub string, rest []string) {
	has := func(opts ...string) bool {
		for _, a := range rest {
			for _, o := range opts {
				if a == o {
					return true
				}
			}
		}
		return false
	}
	short := func(ch byte) bool {
		for _, a := range rest {
			if a == "--" {
				return false
			}
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.IndexByte(a[1:], ch) >= 0 {
				return true
			}
		}
		return false
	}
	switch sub {
	case "read-tree":
		if has("--reset") && (short('u') || has("-u")) {
			j.add(c, gitDiscardTree, "git read-tree --reset -u overwrites the working tree with the tree read, discarding every uncommitted change", "")
		}
	case "checkout-index":
		if (short('a') || has("--all")) && (short('f') || has("--force")) {
			j.add(c, gitDiscardTree, "git checkout-index -a -f overwrites every tracked file with the index's version, discarding every uncommitted change", "")
		} else if short('f') || has("--force") {
			j.add(c, gitDiscardFiles, "git checkout-index -f overwrites the files with the index's version: their uncommitted changes are gone", "")
		}
	case "send-pack":
		force := short('f') || has("--force")
		var ops []string
		for k, a := range rest {
			if !strings.HasPrefix(a, "-") && !(k > 0 && (rest[k-1] == "--receive-pack" || rest[k-1] == "--exec")) {
				ops = append(ops, a)
			}
		}
		if has("--mirror") {
			j.add(c, gitPushMirror, "git send-pack --mirror makes the remote match this clone, deleting every branch it lacks", "")
			return
		}
		if force && has("--all") {
			j.add(c, gitForcePushProtected, "git send-pack --force --all rewrites every branch on the remote, protected ones among them", "")
			return
		}
		if len(ops) > 1 {
			for _, r := range ops[1:] {
				j.pushRefspec(c, r, force, "git send-pack: ")
			}
		}
	}
}
