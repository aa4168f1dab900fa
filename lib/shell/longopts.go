package shell

import (
	"slices"
	"strings"
)

// longOpts are the long options of the commands whose flags the rules read, for expanding the
// abbreviations getopt_long and git accept (rm --recursiv --forc, git push --forc-with-l); a
// switch, so that nothing is built at start-up.
func longOpts(cmd string) []string {
	switch cmd {
	case "rm":
		return []string{"force", "interactive", "one-file-system", "no-preserve-root", "preserve-root", "recursive", "dir", "verbose", "help", "version"}
	case "git push":
		return []string{"all", "branches", "mirror", "delete", "tags", "dry-run", "porcelain", "force", "force-with-lease", "force-if-includes",
			"repo", "set-upstream", "thin", "no-thin", "quiet", "verbose", "progress", "prune", "no-verify", "verify", "follow-tags",
			"signed", "atomic", "push-option", "receive-pack", "exec", "recurse-submodules", "ipv4", "ipv6", "no-force-with-lease"}
	case "git reset":
		return []string{"soft", "mixed", "hard", "merge", "keep", "quiet", "no-quiet", "refresh", "no-refresh", "patch", "recurse-submodules", "pathspec-from-file", "pathspec-file-nul", "intent-to-add"}
	case "git clean":
		return []string{"force", "dry-run", "quiet", "interactive", "exclude"}
	case "git checkout":
		return []string{"force", "quiet", "progress", "no-progress", "ours", "theirs", "merge", "conflict", "patch", "detach", "track", "no-track", "orphan", "ignore-skip-worktree-bits", "overwrite-ignore", "no-overwrite-ignore", "recurse-submodules", "pathspec-from-file", "pathspec-file-nul", "guess", "no-guess", "overlay", "no-overlay"}
	case "git branch":
		return []string{"delete", "force", "move", "copy", "list", "all", "remotes", "verbose", "quiet", "track", "no-track", "set-upstream-to", "unset-upstream", "contains", "no-contains", "merged", "no-merged", "sort", "points-at", "format", "column", "color", "show-current", "edit-description", "create-reflog"}
	case "git stash":
		return []string{"all", "include-untracked", "keep-index", "no-keep-index", "patch", "quiet", "message", "staged", "pathspec-from-file", "index"}
	case "git switch":
		return []string{"create", "force-create", "detach", "guess", "no-guess", "force", "discard-changes", "merge", "conflict", "quiet", "progress", "no-progress", "track", "no-track", "orphan", "ignore-other-worktrees", "recurse-submodules", "no-recurse-submodules"}
	case "git restore":
		return []string{"source", "staged", "worktree", "ours", "theirs", "merge", "conflict", "patch", "quiet", "progress", "no-progress", "overlay", "no-overlay", "ignore-unmerged", "recurse-submodules", "pathspec-from-file", "pathspec-file-nul"}
	case "git reflog":
		return []string{"expire", "all", "stale-fix", "dry-run", "updateref", "rewrite", "verbose", "single-worktree"}
	case "git gc":
		return []string{"aggressive", "auto", "prune", "no-prune", "quiet", "force", "keep-largest-pack"}
	case "chmod":
		return []string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "reference", "recursive", "help", "version"}
	case "chown":
		return []string{"changes", "silent", "quiet", "verbose", "dereference", "no-dereference", "from", "no-preserve-root", "preserve-root", "reference", "recursive", "help", "version"}
	case "rsync":
		return []string{"delete", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded", "remove-source-files", "dry-run", "recursive", "archive", "verbose", "force"}
	case "shred":
		return []string{"force", "iterations", "random-source", "size", "remove", "verbose", "exact", "zero"}
	}
	return nil
}

// expandLong replaces each abbreviated long option of cmd ("rm", "git push", ...) with the
// option it stands for; "--" ends the options.
func expandLong(cmd string, args []string) []string {
	opts := longOpts(cmd)
	if opts == nil || !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--") && len(a) > 3 }) {
		return args
	}
	var out []string
	for i, arg := range args {
		if arg == "--" {
			return append(out, args[i:]...)
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
		if !strings.HasPrefix(arg, "--") || len(name) < 2 {
			out = append(out, arg)
			continue
		}
		// A unique prefix is that option; an ambiguous one (--forc: force, force-with-lease,
		// force-if-includes) is read as the shortest, the strongest reading for a guard.
		match := ""
		for _, o := range opts {
			if o == name {
				match = ""
				break // exact: nothing to expand
			}
			if strings.HasPrefix(o, name) && (match == "" || len(o) < len(match)) {
				match = o
			}
		}
		if match == "" {
			out = append(out, arg)
			continue
		}
		if hasVal {
			match += "=" + val
		}
		out = append(out, "--"+match)
	}
	return out
}
