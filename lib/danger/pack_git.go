package danger

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	gitBranchForceDelete  = &Rule{ID: "git.branch-force-delete", Action: Ask, Radius: Medium, Instead: "use git branch -d, which refuses to lose unmerged work"}
	gitClean              = &Rule{ID: "git.clean", Action: Deny, Radius: High, Instead: "run git clean -n to list them, then delete the ones you mean"}
	gitDeleteDefault      = &Rule{ID: "git.delete-default", Action: Deny, Radius: High, Instead: "leave protected branches alone"}
	gitDiscardFiles       = &Rule{ID: "git.discard-files", Action: Ask, Radius: Medium, Instead: "git stash push -- FILE keeps a copy of the changes; or show the user git diff -- FILE first"}
	gitDiscardTree        = &Rule{ID: "git.discard-tree", Action: Deny, Radius: High, Instead: "git stash (keeps the changes), or restore the single files you mean"}
	gitForcePush          = &Rule{ID: "git.force-push", Action: Ask, Radius: Medium, Instead: "name the branch, and prefer --force-with-lease"}
	gitForcePushProtected = &Rule{ID: "git.force-push-protected", Action: Deny, Radius: High, Instead: "force-push the one feature branch you mean"}
	gitPushMirror         = &Rule{ID: "git.push-mirror", Action: Deny, Radius: High, Instead: "push the branches you mean by name"}
	gitReflogExpire       = &Rule{ID: "git.reflog-expire", Action: Deny, Radius: High, Instead: "leave the reflog to expire on its own"}
	gitResetHard          = &Rule{ID: "git.reset-hard", Action: Deny, Radius: High, Instead: "git stash (or commit) first; to move the branch keep changes with git reset --soft or --mixed"}
	gitRewriteHistory     = &Rule{ID: "git.rewrite-history", Action: Deny, Radius: High, Instead: "ask the user to do history rewrites themselves"}
	gitStashClear         = &Rule{ID: "git.stash-clear", Action: Deny, Radius: High, Instead: "drop the single stash you mean with git stash drop stash@{n}"}
	gitStashDrop          = &Rule{ID: "git.stash-drop", Action: Ask, Radius: Medium, Instead: "check it with git stash show -p first"}
	gitWorktreeForce      = &Rule{ID: "git.worktree-force", Action: Ask, Radius: Medium, Instead: "commit or stash in that worktree first, then remove it without --force"}
)

var packGit = pack{name: "git", title: "git history",
	rules: []*Rule{gitBranchForceDelete, gitClean, gitDeleteDefault, gitDiscardFiles, gitDiscardTree, gitForcePush, gitForcePushProtected, gitPushMirror, gitReflogExpire, gitResetHard, gitRewriteHistory, gitStashClear, gitStashDrop, gitWorktreeForce},
	programs: []program{
		{[]string{"git"}, (*judge).git},
	},
}

var gitOpts = shell.Opts{Short: "mCcFSo", Long: []string{"message", "file", "author", "date", "source", "onto", "strategy", "format", "pretty",
	"repo", "push-option", "receive-pack", "exec", "upload-pack", "expire", "expire-unreachable", "git-dir", "work-tree", "pathspec-from-file", "conflict"}}

func (j *judge) git(c *shell.Cmd) {
	if len(c.Args) == 0 {
		return
	}
	args := c.Args
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		args = args[1:] // global options the analysis kept (--git-dir=..., --no-pager)
	}
	if len(args) == 0 {
		return
	}
	sub, rest := args[0], args[1:]
	p := gitOpts.Parse(rest)
	j.gitPlumbing(c, sub, rest)
	j.gitConfigured(c, sub, p)
	switch sub {
	case "reset":
		if p.Has("hard") {
			j.add(c, gitResetHard, "git reset --hard discards all uncommitted changes, and with a commit moves the branch away from work", "")
		} else if p.Has("merge", "keep") {
			return
		}
	case "checkout", "switch":
		// -b/-B/-c/-C take the new branch's name (-bfeature is a name, not -f); -m merges.
		p := checkoutOpts.Parse(rest)
		j.moved(c, sub, p)
		if p.Has("f", "force", "discard-changes") {
			j.add(c, gitDiscardTree, "git "+sub+" --force throws away uncommitted changes", "git stash first, then "+sub)
		} else if sub == "checkout" && wholeTree(p.Operands, true) {
			j.add(c, gitDiscardTree, "it discards every uncommitted change in the working tree", "")
		} else if i := slices.Index(rest, "--"); sub == "checkout" && i >= 0 && i < len(rest)-1 && !p.Has("ours", "theirs", "merge", "m", "p", "patch") {
			j.add(c, gitDiscardFiles, "git checkout -- "+strings.Join(rest[i+1:], " ")+" overwrites the files with the committed version: their uncommitted changes are gone, with no copy anywhere", "")
		} else if sub == "checkout" && p.Has("pathspec-from-file") && !p.Has("ours", "theirs", "merge", "m", "p", "patch") {
			j.add(c, gitDiscardFiles, "git checkout overwrites the files the list names with the committed version: their uncommitted changes are gone", "")
		}
	case "restore":
		// restore's -S is --staged, not the signing option gitOpts reads it as.
		p := restoreOpts.Parse(rest)
		staged := p.Has("S", "staged")
		worktree := p.Has("W", "worktree")
		if (!staged || worktree) && wholeTree(p.Operands, false) {
			j.add(c, gitDiscardTree, "it discards every uncommitted change in the working tree", "")
		} else if (!staged || worktree) && len(p.Operands) > 0 && !p.Has("ours", "theirs", "merge", "m", "p", "patch") {
			j.add(c, gitDiscardFiles, "git restore "+strings.Join(p.Operands, " ")+" overwrites the files with the committed version: their uncommitted changes are gone, with no copy anywhere", "")
		} else if (!staged || worktree) && p.Has("pathspec-from-file") && !p.Has("ours", "theirs", "merge", "m", "p", "patch") {
			j.add(c, gitDiscardFiles, "git restore overwrites the files the list names with the committed version: their uncommitted changes are gone", "")
		}
	case "rm":
		if p.Has("f", "force") && p.Has("r") && !p.Has("cached") && wholeTree(p.Operands, false) {
			j.add(c, gitDiscardTree, "git rm -rf on the whole tree deletes every tracked file, uncommitted changes included", "remove the files you mean by name")
		} else if p.Has("f", "force") && !p.Has("cached", "n", "dry-run") && len(p.Operands) > 0 {
			j.add(c, gitDiscardFiles, "git rm -f deletes "+strings.Join(p.Operands, " ")+" even with uncommitted changes, which git rm alone refuses to lose", "")
		}
	case "clean":
		if p.Has("n", "dry-run") {
			return
		}
		if p.Has("f", "force") {
			j.add(c, gitClean, "git clean -f deletes untracked files for good, which no git command can bring back", "")
		}
	case "config":
		for i, a := range p.Operands {
			k := strings.ToLower(a)
			if (k == "core.fsmonitor" || k == "core.sshcommand" || k == "core.pager" || k == "core.editor" || k == "credential.helper" ||
				k == "sequence.editor" || strings.HasSuffix(k, ".textconv") || strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".smudge") ||
				strings.HasSuffix(k, ".process")) && i+1 < len(p.Operands) && (fetchesCode(p.Operands[i+1]) || hijacks(p.Operands[i+1])) {
				j.add(c, persistGitConfig, "git config "+a+" makes git run a command that downloads or connects, every time it runs", "")
				return
			}
		}
		if !p.Has("get", "get-all", "get-regexp", "unset", "unset-all", "l", "list", "remove-section", "rename-section") && len(p.Operands) >= 2 {
			j.gitRunsLater(c, p.Operands[0], p.Operands[1])
		}
	case "add":
		if p.Has("f", "force") {
			for _, op := range p.Operands {
				if base := path.Base(op); base == ".env.test" || base == ".env.development" || base == ".env.ci" || base == ".env.dev" {
					j.add(c, exfilGitAddDevEnv, "git add -f stages "+op+", which .gitignore keeps out; some projects commit their test and development settings", "")
					return
				}
				if j.isSecretFile(j.res(c, op)) {
					j.add(c, exfilGitAddSecret, "git add -f stages "+op+", a credential file that .gitignore keeps out, to be committed and pushed", "")
					return
				}
			}
		}
	case "push":
		j.push(c, p)
	case "branch":
		if p.Has("D") || (p.Has("d", "delete") && p.Has("f", "force")) {
			// A local delete loses only unmerged local work, except on a branch protected by name
			// (main, master, ...), not merely by a pattern (release-*).
			for _, b := range p.Operands {
				if slices.Contains(j.pol.ProtectedBranches, strings.TrimPrefix(b, "refs/heads/")) {
					j.add(c, gitDeleteDefault, "git branch -D deletes the protected branch "+b+", even where it is not merged", "keep "+b+"; delete the feature branches you mean")
					return
				}
			}
			j.add(c, gitBranchForceDelete, "git branch -D deletes a branch even when its commits are not merged anywhere", "")
		}
	case "stash":
		if len(p.Operands) > 0 {
			switch p.Operands[0] {
			case "clear":
				j.add(c, gitStashClear, "git stash clear drops every stash for good", "")
			case "drop":
				if j.stashedEverything(c) {
					j.add(c, gitDiscardTree, "it stashes every change, untracked files included, and drops the stash: the work is gone, as with git reset --hard and git clean", "")
					return
				}
				j.add(c, gitStashDrop, "git stash drop deletes a stash", "")
			}
		}
	case "worktree":
		if at(p.Operands, 0) == "remove" && p.Has("f", "force") {
			j.add(c, gitWorktreeForce, "git worktree remove --force deletes the worktree with its uncommitted and untracked changes", "")
		}
	case "reflog":
		if len(p.Operands) > 0 && p.Operands[0] == "expire" {
			for _, k := range []string{"expire", "expire-unreachable"} {
				if v, ok := p.Flags[k]; ok && (v == "now" || v == "all" || v == "0" || strings.HasPrefix(v, "0.")) {
					j.add(c, gitReflogExpire, "expiring the reflog now removes the only record that recovers lost commits", "")
					return
				}
			}
		}
	case "filter-branch", "filter-repo":
		j.add(c, gitRewriteHistory, "git "+sub+" rewrites the whole history of the repository", "")
	case "update-ref":
		if p.Has("d") && len(p.Operands) > 0 && j.protected(strings.TrimPrefix(p.Operands[0], "refs/heads/")) {
			j.add(c, gitDeleteDefault, "it deletes the protected branch "+p.Operands[0], "")
		}
	}
}

var checkoutOpts = shell.Opts{Short: "bBcC", Long: []string{"orphan", "conflict", "pathspec-from-file", "create", "force-create"}}

var restoreOpts = shell.Opts{Short: "s", Long: []string{"source", "pathspec-from-file", "conflict"}}

// wholeTree reports whether pathspecs name the whole tree (., :/, *, or a parent such as ..,
// which from a subdirectory holds it all).
func wholeTree(ops []string, checkout bool) bool {
	for _, o := range ops {
		switch strings.TrimSuffix(o, "/") {
		case ".", ":/", "*", ":", "./", ":(top)", "":
			return true
		}
		if strings.Trim(o, "./") == "" && strings.Contains(o, "..") {
			return true
		}
	}
	return false
}

func (j *judge) push(c *shell.Cmd, p shell.Parsed) {
	force := p.Has("f", "force", "force-with-lease", "force-if-includes")
	if p.Has("mirror") {
		j.add(c, gitPushMirror, "git push --mirror makes the remote match this clone, deleting every branch and tag it lacks", "")
		return
	}
	ops := p.Operands
	var refspecs []string
	if len(ops) > 1 {
		refspecs = ops[1:]
	}
	if force && p.Has("all", "branches") {
		j.add(c, gitForcePushProtected, "git push --force --all rewrites every branch on the remote, protected ones among them", "")
		return
	}
	if p.Has("d", "delete") && massListing(c.ArgsFrom) {
		j.add(c, gitDeleteDefault, "it deletes on the remote every branch a listing printed, protected ones among them", "delete the branches you mean by name")
		return
	}
	if p.Has("d", "delete") {
		for _, r := range refspecs {
			if j.protected(r) {
				j.add(c, gitDeleteDefault, "it deletes the protected branch "+r+" on the remote", "")
			}
		}
		return
	}
	lease, leased := p.Flags["force-with-lease"]
	if leased && lease != "" && len(refspecs) == 0 {
		refspecs = append(refspecs, strings.SplitN(lease, ":", 2)[0])
	}
	// A lease that names the commit expected on the remote (REF:SHA, not a remote-tracking ref a
	// fetch moves), or --force-if-includes,
	// really checks, where a bare --force-with-lease is satisfied by any background fetch: to
	// one named branch, with no plain --force and no +refspec, such a push is routine.
	_, expect, _ := strings.Cut(lease, ":")
	checked := (commitID(expect) || p.Has("force-if-includes") && leased) && !p.Has("f", "force") && len(refspecs) == 1 && !strings.HasPrefix(refspecs[0], "+")
	for _, r := range refspecs {
		plus := strings.HasPrefix(r, "+")
		src, dst, hasDst := strings.Cut(strings.TrimPrefix(r, "+"), ":")
		if !hasDst {
			dst = src
		}
		if dst == "HEAD" || dst == "@" {
			dst = j.currentBranch(c.Dir) // HEAD pushes the branch checked out
		}
		if hasDst && src == "" && j.protected(dst) {
			j.add(c, gitDeleteDefault, "pushing an empty ref to "+dst+" deletes the protected branch on the remote", "")
			continue
		}
		if !force && !plus {
			continue
		}
		j.forcePush(c, dst, leased, checked)
	}
	if force && len(refspecs) == 0 {
		j.forcePush(c, j.currentBranch(c.Dir), leased, false)
	}
}

func (j *judge) forcePush(c *shell.Cmd, branch string, lease, checked bool) {
	instead := "prefer --force-with-lease, and check nobody else uses the branch"
	if lease {
		instead = "check nobody else has pushed to the branch"
	}
	branch = strings.TrimPrefix(strings.TrimPrefix(branch, "refs/heads/"), "HEAD:")
	switch {
	case branch == "" || branch == "HEAD":
		j.add(c, gitForcePush, "a force push rewrites the remote branch, and which branch this is could not be told", "")
	case j.protected(branch):
		j.add(c, gitForcePushProtected, "a force push to the protected branch "+branch+" rewrites shared history", "push a new branch and open a pull request, or revert with a new commit")
	case strings.ContainsAny(branch, "*?[") && j.protectedMatch(branch) != "":
		j.add(c, gitForcePushProtected, "a force push of "+branch+" rewrites every branch it matches on the remote, the protected branch "+j.protectedMatch(branch)+" among them", "push the one feature branch you mean")
	case checked:
		return
	default:
		j.add(c, gitForcePush, "a force push rewrites the history of "+branch+" on the remote", instead)
	}
}

// moved records the branch a checkout or switch moves to, for the commands after it in the
// same line (git checkout main && git push -f pushes main). A lone operand with a dot or
// after -- is a file, not a branch.
func (j *judge) moved(c *shell.Cmd, sub string, p shell.Parsed) {
	branch := ""
	if b, ok := p.Value("b", "B", "c", "C", "create", "force-create", "orphan"); ok {
		branch = b
		if branch == "" && len(p.Operands) > 0 {
			branch = p.Operands[0] // -b takes no value in gitOpts: the new branch is the first operand
		}
	} else if len(p.Operands) == 1 && !slices.Contains(c.Args, "--") && !strings.Contains(p.Operands[0], ".") && p.Operands[0] != "-" {
		if _, err := os.Stat(j.res(c, p.Operands[0])); err != nil { // an existing path is a file to restore
			branch = p.Operands[0]
		}
	}
	if p.Has("t", "track") {
		// --track origin/main checks out main
		for _, remote := range []string{"origin/", "upstream/"} {
			branch = strings.TrimPrefix(branch, remote)
		}
	}
	if branch == "" || !shell.Known(branch) {
		return
	}
	if j.branches == nil {
		j.branches = map[string]string{}
	}
	j.branches[c.Dir] = branch
}

// currentBranch is the branch a checkout earlier in the line moved dir to, else HEAD of the
// repository around dir; "" when it cannot be told.
func (j *judge) currentBranch(dir string) string {
	if b, ok := j.branches[dir]; ok {
		return b
	}
	if !shell.Known(dir) {
		return ""
	}
	for d := dir; ; d = path.Dir(d) {
		b, err := os.ReadFile(path.Join(d, ".git", "HEAD"))
		if err == nil {
			ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: refs/heads/")
			if !ok {
				return ""
			}
			return ref
		}
		if d == "/" || d == "." {
			return ""
		}
	}
}

func (j *judge) protected(branch string) bool {
	branch = strings.TrimPrefix(strings.TrimPrefix(branch, "+"), "refs/heads/")
	for _, p := range j.pol.ProtectedBranches {
		if ok, _ := path.Match(p, branch); ok {
			return true
		}
	}
	return false
}

// planted says what the line's other commands put at p (or, for a folder, in it), before or
// after the setting that makes git run it (git runs it later either way): a program downloaded
// from the network, or a file written with a command that downloads or connects; "" when
// neither.
func (j *judge) planted(c *shell.Cmd, p string) string {
	for _, o := range j.an.Cmds {
		if o == c {
			continue
		}
		for _, t := range o.Writes(j.world.Home) {
			if t.Path != p && !under(t.Path, p) {
				continue
			}
			if fetcher(o.Name) {
				return t.Path + ", a program " + o.Name + " just downloaded"
			}
			if content := j.content(o); fetchesCode(content) || hijacks(content) {
				return t.Path + ", written just before with a command that downloads or connects"
			}
		}
	}
	return ""
}

// gitRunsLater: a git setting that makes git run a program later, outside this command: hooks
// from another folder, an fsmonitor program, an external diff, a shell alias (!...), a filter
// or driver command. It downloads or runs fetched code: denied; otherwise asked. The everyday
// settings (an editor, a pager, an alias to a git command) stay silent.
func (j *judge) gitRunsLater(c *shell.Cmd, key, val string) {
	k := strings.ToLower(key)
	runs := k == "core.hookspath" || k == "diff.external" || k == "core.fsmonitor" && val != "true" && val != "false" ||
		strings.HasPrefix(k, "alias.") && strings.HasPrefix(strings.TrimSpace(val), "!") ||
		strings.HasPrefix(k, "filter.") && (strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".smudge") || strings.HasSuffix(k, ".process")) ||
		strings.HasPrefix(k, "merge.") && strings.HasSuffix(k, ".driver") ||
		k == "credential.helper" && strings.HasPrefix(val, "!")
	if k == "core.hookspath" && !j.writtenOrOutside(c, j.res(c, val)) {
		return // the project's own hooks folder, as committed (.githooks, .husky)
	}
	if !runs {
		return
	}
	if code := strings.TrimPrefix(strings.TrimSpace(val), "!"); fetchesCode(code) || hijacks(code) {
		j.add(c, persistGitConfig, "git config "+key+" makes git run a command that downloads or connects, every time it runs", "")
		return
	}
	if what := j.planted(c, j.res(c, strings.Fields(strings.TrimPrefix(strings.TrimSpace(val), "!") + " x")[0])); what != "" {
		j.add(c, persistGitConfig, "git config "+key+" makes git run "+what+", every time it runs", "")
		return
	}
	j.add(c, persistGitRuns, "git config "+key+" makes git run "+strings.TrimPrefix(strings.TrimSpace(val), "!")+" later, whenever git does, outside any check", "")
}

// writtenOrOutside reports a folder outside the project, or one this command line writes into.
func (j *judge) writtenOrOutside(c *shell.Cmd, dir string) bool {
	if j.world.Project != "" && !under(j.canon(dir), j.canon(j.world.Project)) {
		return true
	}
	for _, o := range j.an.Cmds {
		for _, t := range o.Writes(j.world.Home) {
			if under(j.canon(t.Path), j.canon(dir)) {
				return true
			}
		}
	}
	return false
}

// stashedEverything reports an earlier git stash (push) in the same line that takes untracked
// files too (-u, --include-untracked, -a, --all): dropping it then discards all the work.
func (j *judge) stashedEverything(drop *shell.Cmd) bool {
	for _, o := range j.an.Cmds {
		if o == drop {
			return false
		}
		if o.Name != "git" || !slices.Contains(o.Args, "stash") {
			continue
		}
		for _, a := range o.Args {
			if a == "-u" || a == "--include-untracked" || a == "-a" || a == "--all" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "ua") && len(a) > 2 {
				return true
			}
		}
	}
	return false
}

// commitID reports an abbreviated or full commit id: 4 to 64 hexadecimal digits.
func commitID(s string) bool {
	return len(s) >= 4 && len(s) <= 64 && strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
}
