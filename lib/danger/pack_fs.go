package danger

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	fsBackupDelete     = &Rule{ID: "fs.backup-delete", Action: Deny, Radius: High, Instead: "ask the user to manage their backups"}
	fsRmComputed       = &Rule{ID: "fs.rm-computed", Action: Ask, Radius: Medium, Instead: "print the paths first, then delete the ones you mean by name"}
	fsFindDelete       = &Rule{ID: "fs.find-delete", Action: Deny, Radius: High, Instead: "run find in a project directory, and list the matches before deleting"}
	fsMvCritical       = &Rule{ID: "fs.mv-critical", Action: Deny, Radius: High, Instead: "move the specific files you mean"}
	fsMvDevnull        = &Rule{ID: "fs.mv-devnull", Action: Deny, Radius: High, Instead: "use rm to delete a file"}
	fsMvDynamic        = &Rule{ID: "fs.mv-dynamic", Action: Ask, Radius: Medium, Instead: "check where the files end up"}
	fsRmCritical       = &Rule{ID: "fs.rm-critical", Action: Deny, Radius: High, Instead: "delete the specific directory you mean"}
	fsRmOtherUser      = &Rule{ID: "fs.rm-other-user", Action: Deny, Radius: High, Instead: "leave other users' files to them"}
	fsRmOutside        = &Rule{ID: "fs.rm-outside", Action: Ask, Radius: Medium, Instead: "delete inside the project, or check the path is the one you mean"}
	fsRmNoPreserveRoot = &Rule{ID: "fs.rm-no-preserve-root", Action: Deny, Radius: High, Instead: "delete the specific directory you mean"}
	fsRmTemp           = &Rule{ID: "fs.rm-temp", Action: Ask, Radius: Medium, Instead: "delete your own subdirectory of it"}
	fsRmUnsetVariable  = &Rule{ID: "fs.rm-unset-variable", Action: Ask, Radius: High, Instead: "check the variable is set (use ${VAR:?}) or name the directory literally"}
	fsRsyncDelete      = &Rule{ID: "fs.rsync-delete", Action: Deny, Radius: High, Instead: "sync into a dedicated directory"}
	fsShred            = &Rule{ID: "fs.shred", Action: Deny, Radius: High, Instead: "leave it alone"}
)

var packFS = pack{name: "fs", title: "filesystem destruction",
	rules: []*Rule{fsBackupDelete, fsFindDelete, fsRmComputed, fsMvCritical, fsMvDevnull, fsMvDynamic, fsRmCritical, fsRmNoPreserveRoot, fsRmOtherUser, fsRmOutside, fsRmTemp, fsRmUnsetVariable, fsRsyncDelete, fsShred},
	programs: []program{
		{[]string{"rm", "unlink"}, (*judge).rm}, {[]string{"rimraf"}, (*judge).rimraf}, {[]string{"shred"}, (*judge).shred},
		{[]string{"find"}, (*judge).find}, {[]string{"rsync"}, (*judge).rsync}, {[]string{"mv"}, (*judge).mv},
		{[]string{"tar", "gtar", "bsdtar", "zip", "7z", "7za", "7zz"}, (*judge).archiveRemoves},
		{[]string{"tmutil"}, (*judge).tmutil}, {[]string{"security"}, (*judge).deleteKeychain},
	},
}

// The option grammars of the programs this file judges: which options take a value.
var (
	shredOpts = shell.Opts{Short: "nsx", Long: []string{"iterations", "size", "random-source"}}
	rsyncOpts = shell.Opts{Short: "eTf", Long: []string{"rsh", "exclude", "include", "filter", "temp-dir", "chmod", "chown", "rsync-path", "backup-dir", "log-file", "password-file"}}
	mvOpts    = shell.Opts{Short: "tS", Long: []string{"target-directory", "suffix", "backup"}}
)

// listFromFile reports arguments that xargs reads from a file: given with -a/--arg-file (none
// of the line's commands feeds them), or printed by a command that reads files (cat, sort, ...).
func listFromFile(c *shell.Cmd) bool {
	if len(c.ArgsFrom) == 0 {
		return c.Stdin == nil || c.Stdin.File != "" // xargs -a FILE, xargs < FILE
	}
	for _, f := range c.ArgsFrom {
		switch f.Name {
		case "cat", "sort", "uniq", "head", "tail", "grep", "egrep", "cut", "awk", "sed", "tr", "jq", "yq":
		default:
			return false
		}
	}
	return true
}

// rm: recursive deletes of the filesystem's important places, and any delete of system files,
// credentials, history and the guard's own files.
func (j *judge) rm(c *shell.Cmd) {
	p := shell.Opts{}.Parse(c.Args)
	recursive := p.Has("r", "R", "recursive") && c.Name == "rm" || viaFind(c)
	if p.Has("no-preserve-root") {
		j.add(c, fsRmNoPreserveRoot, "--no-preserve-root exists only to delete the whole filesystem", "")
		return
	}
	if recursive && len(p.Operands) > 0 && viaCode(c) && !slices.ContainsFunc(p.Operands, func(op string) bool { return shell.Plain(op) != shell.Dyn }) {
		// Interpreter code deleting, in a loop, paths it computes (read from a file, the
		// environment, its arguments): which ones cannot be told before it runs.
		j.add(c, fsRmComputed, "the code deletes recursively paths it computes when it runs ("+c.Via[len(c.Via)-1]+")", "")
		return
	}
	if recursive && len(p.Operands) > 0 && slices.Contains(c.Via, "xargs") && listFromFile(c) && !slices.ContainsFunc(p.Operands, func(op string) bool { return shell.Plain(op) != shell.Dyn }) {
		// xargs -a stale.txt rm -rf, cat dirs.txt | xargs rm -rf: the list is a file's
		// content, which cannot be read before it runs.
		j.add(c, fsRmComputed, "it deletes recursively every path a file lists, which cannot be read before it runs", "")
		return
	}
	if j.homeDotListing(c.ArgsFrom) {
		j.add(c, fsFindDelete, "it deletes what a listing of home gives, narrowed to the dot-entries: ~/.ssh, ~/.config and the rest", "")
		return
	}
	for _, f := range c.ArgsFrom {
		// find ~ -name '.*' | xargs rm -rf: home's dot-folders, listed then deleted.
		if f.Name != "find" {
			continue
		}
		for _, start := range shell.FindStarts(f.Args) {
			for i, a := range f.Args {
				if (a == "-name" || a == "-iname") && i+1 < len(f.Args) && (i == 0 || f.Args[i-1] != "!" && f.Args[i-1] != "-not") {
					if w := j.homeDotMatch(j.res(f, start), f.Args[i+1]); w != "" {
						j.add(c, fsFindDelete, "it deletes what find lists with -name "+f.Args[i+1]+", which matches "+w+" and the other dot-folders of home", "")
						return
					}
				}
			}
		}
	}
	if untrackedListing(c.ArgsFrom) {
		j.add(c, gitClean, c.Name+" deletes every untracked file git lists: that is git clean, and nothing brings them back", "")
		return
	}
	for _, op := range p.Operands {
		j.deleted(c, j.res(c, op), recursive, fsRmCritical)
	}
}

// untrackedListing reports arguments that are every untracked (or ignored) file of the
// repository: git ls-files --others, or git status's ?? lines picked out, with nothing
// narrowing them (a grep for one kind of file, head).
func untrackedListing(from []*shell.Cmd) bool {
	listing, status, picked := false, false, false
	for _, f := range from {
		text := strings.Join(f.Args, " ")
		switch f.Name {
		case "git":
			if i := slices.Index(f.Args, "ls-files"); i >= 0 {
				others, paths := false, false
				for k := i + 1; k < len(f.Args); k++ {
					switch a := f.Args[k]; {
					case a == "-x" || a == "--exclude" || a == "-X" || a == "--exclude-from" || a == "--exclude-per-directory":
						k++
					case a == "--others" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "o"):
						others = true
					case a == "--":
					case !strings.HasPrefix(a, "-"):
						paths = true // a pathspec: some of them
					}
				}
				if others && !paths {
					listing = true
				}
			}
			if slices.Contains(f.Args, "status") && slices.ContainsFunc(f.Args, func(a string) bool {
				return strings.HasPrefix(a, "--porcelain") || a == "-s" || a == "--short"
			}) {
				status = true
			}
		case "grep", "egrep", "rg", "awk", "gawk", "mawk", "sed":
			switch {
			case strings.Contains(text, "??") || strings.Contains(text, `\?\?`):
				picked = true
			case f.Name == "grep" || f.Name == "egrep" || f.Name == "rg":
				if !slices.Contains(f.Args, "-v") {
					return false // narrowed to some of them
				}
			}
		case "head", "tail":
			return false
		}
	}
	return listing || status && picked
}

// deleted judges one path a command deletes (recursively or not).
func (j *judge) deleted(c *shell.Cmd, t string, recursive bool, rule *Rule) {
	if d, ok := matchUnder(t); ok {
		switch pl, label := j.classify(d); pl {
		case root, system:
			j.add(c, rule, "it deletes matching files anywhere under "+label, "search a project directory instead, and list the matches before deleting them")
		case foreign:
			j.add(c, fsRmOtherUser, "it deletes matching files anywhere under "+label, "")
		case outside:
			if !c.Remote {
				j.add(c, fsRmOutside, "it deletes matching files anywhere under "+label, "")
			}
		}
		j.tamper(c, d, "delete")
		return
	}
	if d, ok := dynamicTail(t); ok && recursive {
		if pl, label := j.classify(d); pl >= ancestor {
			j.add(c, fsRmUnsetVariable, "the path ends in a variable unknown here; if it is empty this deletes "+label, "")
		}
		return
	}
	pl, label := j.classify(t)
	if d, ok := j.userDir(t); ok && recursive {
		j.add(c, rule, "it recursively deletes "+d+", the user's own files", "delete the specific files you mean")
		return
	}
	switch pl {
	case root, home, project, ancestor, git:
		if recursive {
			j.add(c, rule, "it recursively deletes "+label, j.deleteInstead(pl))
		}
	case system, homeSecret:
		if recursive || !strings.Contains(label, "directory") {
			j.add(c, rule, "it deletes "+label, "leave system files and credentials alone; remove only what you created, inside the project")
		}
	case foreign:
		if recursive {
			j.add(c, fsRmOtherUser, "it recursively deletes "+label, "")
		} else if historyFile(t) {
			j.add(c, histHistoryFile, "it deletes the shell history "+t, "")
		}
		// The account's own home is another user's while a project's settings move HOME:
		// its files keep their protections.
		j.tamper(c, t, "delete")
	case outside:
		if historyFile(t) {
			j.add(c, histHistoryFile, "it deletes the shell history "+t, "")
		}
		j.tamper(c, t, "delete")
		// On another machine or in a container the project is not where the path is.
		if recursive && !c.Remote && !strings.HasPrefix(t, containerLocal) {
			instead := ""
			if p := j.project(); p != "" && path.Dir(t) == path.Dir(p) {
				instead = "for a worktree of the project use git worktree remove, which refuses to drop uncommitted work; otherwise check the path is the one you mean"
			}
			j.add(c, fsRmOutside, "it recursively deletes "+label, instead)
		}
	case logs:
		j.add(c, histLogs, "it deletes "+label+", the record of what happened on this machine", "rotate logs with logrotate, or leave them")
	case temp:
		if recursive {
			j.add(c, fsRmTemp, "it deletes "+label+", which every program on the machine shares", "")
		}
	case unknownRoot:
		if shell.Guarded(t) {
			break // ${d:?}/...: never empty, so never the root
		}
		if recursive && strings.Contains(t, "/") && strings.Trim(shell.Plain(t), "/*"+shell.Dyn) == "" {
			j.add(c, fsRmUnsetVariable, "the path is a variable unknown here followed by /; if it is empty this deletes the whole filesystem", "")
		} else if rest := unknownHead(t); recursive && rest != "" {
			// "$X"/tmp, "$DIR/"*: with the variable empty, what is left is an absolute path.
			if pl, label := j.classify(rest); pl == root || pl == home || pl == homeSecret {
				j.add(c, fsRmUnsetVariable, "the path starts with a variable unknown here; if it is empty this deletes "+label, "")
			} else if strings.HasPrefix(strings.TrimLeft(shell.Plain(t), shell.Dyn), "/..") && !c.Remote {
				// "$TMPDIR/../x": out of a directory unknown here, to somewhere else
				j.add(c, fsRmOutside, "the path climbs out of a directory unknown here ("+t[:strings.Index(t, "/..")]+"/..), to a place outside it", "")
			}
		}
	default:
		if historyFile(t) {
			j.add(c, histHistoryFile, "it deletes the shell history "+t, "")
		}
		j.tamper(c, t, "delete")
	}
}

// viaFind reports a command run by find -exec on what it finds: on an unfiltered start path
// that is everything under it, as if recursive.
// deepNames: a find from home (or above) that deletes by name reaches ~/.claude and ~/.ssh too,
// unless its depth or a -path test keeps it out. The name may be a pattern (id_*).
func (j *judge) deepNames(c *shell.Cmd, start string, branch []string, name string, fold bool) {
	for _, h := range j.homes() {
		if start == h || under(h, start) {
			j.deepNamesIn(c, h, branch, name, fold)
		}
	}
}

func (j *judge) deepNamesIn(c *shell.Cmd, h string, branch []string, name string, fold bool) {
	if slices.Contains(branch, "-path") || slices.Contains(branch, "-wholename") {
		return
	}
	if d := slices.Index(c.Args, "-maxdepth"); d >= 0 && d+1 < len(c.Args) && c.Args[d+1] < "2" && len(c.Args[d+1]) == 1 {
		return
	}
	if fold {
		name = strings.ToLower(name)
	}
	for _, p := range []string{".claude/settings.json", ".claude/settings.local.json", ".claude/.credentials.json", ".ssh/id_rsa",
		".ssh/id_ed25519", ".ssh/id_ecdsa", ".ssh/id_dsa", ".ssh/authorized_keys", ".ssh/known_hosts"} {
		if ok, _ := path.Match(name, path.Base(p)); ok {
			j.deleted(c, h+"/"+p, false, fsFindDelete)
		}
	}
}

// deleteBranch is the part of a find expression, between -o operators, that holds -delete:
// find . -path ./node_modules -prune -o -name '*.x' -delete deletes what the second part picks.
func deleteBranch(args []string) []string {
	start := 0
	for i, a := range args {
		if a == "-o" || a == "-or" {
			if findDeletes(args[start:i]) {
				return args[start:i]
			}
			start = i + 1
		}
	}
	return args[start:]
}

// findDeletes reports a find expression that deletes what it matches: -delete, or -exec
// (-execdir, -ok) running rm, unlink or shred on {}.
func findDeletes(args []string) bool { return deleteAction(args) >= 0 }

// deleteAction is the index of find's first action that deletes what it finds (-1 if none):
// -delete, or -exec of rm, unlink, shred or truncate on {} (through sudo, env, command or an
// absolute path, or as the first word of sh -c), or cp /dev/null {}.
func deleteAction(args []string) int {
	for i, a := range args {
		switch a {
		case "-delete":
			return i
		case "-exec", "-execdir", "-ok", "-okdir":
			words := args[i+1:]
			if end := slices.IndexFunc(words, func(w string) bool { return w == ";" || w == "+" }); end >= 0 {
				words = words[:end]
			}
			for len(words) > 1 && (path.Base(words[0]) == "sudo" || path.Base(words[0]) == "env" || words[0] == "command" || words[0] == "nice") {
				words = words[1:]
			}
			if len(words) == 0 || !slices.Contains(words, "{}") && !slices.ContainsFunc(words, func(w string) bool { return strings.Contains(w, "{}") }) {
				continue
			}
			prog := path.Base(words[0])
			if (prog == "sh" || prog == "bash" || prog == "zsh" || prog == "dash") && len(words) > 2 && words[1] == "-c" {
				if f := strings.Fields(words[2]); len(f) > 0 {
					prog = path.Base(f[0])
				}
			}
			switch {
			case prog == "rm" || prog == "unlink" || prog == "shred" || prog == "truncate":
				return i
			case prog == "cp" && slices.Index(words, "/dev/null") >= 0 && slices.Index(words, "/dev/null") < slices.Index(words, "{}"):
				return i // cp /dev/null {} empties each file; cp {} /dev/null only reads it
			}
		}
	}
	return -1
}

// broadName reports a -name test that matches every name (-name '*').
func broadName(args []string) bool {
	for i, a := range args {
		if (a == "-name" || a == "-iname" || a == "-path") && i+1 < len(args) && strings.Trim(args[i+1], "*") == "" {
			return true
		}
	}
	return false
}

// testsFirst reports a find branch (deleteBranch) whose tests all come before its deleting
// action: only then do they narrow what it deletes (find . -delete -mtime +1 deletes
// everything).
func testsFirst(args []string) bool {
	del := deleteAction(args)
	if del < 0 {
		return true
	}
	rest := args[del+1:]
	if args[del] != "-delete" { // past the command -exec runs
		if end := slices.IndexFunc(rest, func(w string) bool { return w == ";" || w == "+" }); end >= 0 {
			rest = rest[end+1:]
		}
	}
	for _, a := range rest {
		if strings.HasPrefix(a, "-") && a != "-print" && a != "-print0" && a != "-quit" {
			return false
		}
	}
	return true
}

// viaFind reports a command run on what a find (or git ls-files) lists: find -exec, or xargs
// fed by one. The start paths it is given stand for everything under them.
func viaFind(c *shell.Cmd) bool {
	for _, v := range c.Via {
		if strings.HasPrefix(v, "find -") {
			return true
		}
		if from := shell.Unfiltered(c.ArgsFrom); v == "xargs" && len(from) > 0 {
			last := from[len(from)-1]
			// find . -size 0 | xargs rm lists files, not the tree: rm alone removes those.
			if last.Name == "find" && !shell.FindNarrowed(last.Args) || last.Name == "git" && len(last.Args) > 0 && last.Args[0] == "ls-files" {
				return true
			}
		}
	}
	return false
}

func (j *judge) deleteInstead(pl place) string {
	switch pl {
	case project:
		return "delete the specific build or cache directories by name (e.g. rm -rf ./dist ./node_modules)"
	case git:
		return "keep .git; to start over use git reset or a fresh clone elsewhere"
	case home:
		return "delete the specific files or directories you mean, by name"
	}
	return "delete the specific directory you mean, by name, inside the project or /tmp"
}

// rimraf (npm's rm -rf, usually through npx) deletes its operands recursively and forcibly.
func (j *judge) rimraf(c *shell.Cmd) {
	rm := *c
	rm.Name = "rm"
	rm.Args = []string{"-rf", "--"}
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "-") {
			rm.Args = append(rm.Args, a)
		}
	}
	j.rm(&rm)
}

func (j *judge) shred(c *shell.Cmd) {
	p := shredOpts.Parse(c.Args)
	for _, op := range p.Operands {
		t := j.res(c, op)
		pl, label := j.classify(t)
		switch {
		case pl >= logs || strings.HasPrefix(t, "/dev/"):
			j.add(c, fsShred, "it irrecoverably overwrites "+label, "")
		case historyFile(t):
			j.add(c, histHistoryFile, "it destroys the shell history "+t, "")
		case slices.Contains(j.homes(), path.Dir(t)):
			j.add(c, fsShred, "it irrecoverably overwrites "+t+" in your home directory", "")
		default:
			j.tamper(c, t, "destroy")
		}
	}
}

// find: -delete over an unfiltered important tree, or over / at all.
func (j *judge) find(c *shell.Cmd) {
	if !findDeletes(c.Args) {
		return
	}
	branch := deleteBranch(c.Args)
	filtered, narrowed := shell.FindFiltered(branch) && testsFirst(branch) && !broadName(branch), shell.FindNarrowed(branch) && testsFirst(branch)
	for _, s := range shell.FindStarts(c.Args) {
		t := j.res(c, s)
		// A -name naming one file: judge that file's deletion (settings.json, .bash_history, id_rsa).
		branch := deleteBranch(c.Args)
		for i, a := range branch {
			if (a == "-name" || a == "-iname") && i+1 < len(branch) {
				j.deleted(c, t+"/"+branch[i+1], false, fsFindDelete)
				j.deepNames(c, t, branch, branch[i+1], a == "-iname")
				if w := j.homeDotMatch(t, branch[i+1]); w != "" && (i == 0 || branch[i-1] != "!" && branch[i-1] != "-not") {
					j.add(c, fsFindDelete, "its -name "+branch[i+1]+" matches "+w+" and the other dot-folders of home", "")
					return
				}
			}
		}
		pl, label := j.classify(t)
		switch {
		case pl == unknownRoot && strings.HasSuffix(s, "/") && !filtered && strings.Trim(shell.Plain(t), "/") == shell.Dyn && !shell.Guarded(t):
			j.add(c, fsRmUnsetVariable, "find starts at a variable unknown here; if it is empty this deletes across the whole filesystem", "")
		case pl == root:
			j.add(c, fsFindDelete, "it deletes files across the whole filesystem", "")
		case pl == system || pl == logs:
			j.add(c, fsFindDelete, "it deletes files in "+label, "leave system files alone")
		case !filtered && (pl == home || pl == homeSecret || pl == ancestor || pl == git || pl == project && !narrowed):
			j.add(c, fsFindDelete, "it deletes everything in "+label+" (nothing narrows what it matches)", "add -name/-path tests and run without -delete first to see the matches")
		case pl == foreign || pl == home && t != j.world.Home && t != shell.Resolve(j.world.Home, "/", "") && !c.Remote:
			j.add(c, fsRmOtherUser, "it deletes files in "+label, "")
		case pl == outside && !c.Remote:
			j.add(c, fsRmOutside, "it deletes files in "+label, "")
		}
		j.tamper(c, t, "delete")
	}
}

// rsync --delete onto an important place.
func (j *judge) rsync(c *shell.Cmd) {
	del := false
	for _, a := range c.Args {
		if strings.HasPrefix(a, "--delete") || a == "--remove-source-files" {
			del = true
		}
	}
	p := rsyncOpts.Parse(c.Args)
	if !del || len(p.Operands) < 2 {
		return
	}
	dest := p.Operands[len(p.Operands)-1]
	if i := strings.IndexByte(dest, ':'); i > 0 && !strings.Contains(dest[:i], "/") {
		return // another host
	}
	if pl, label := j.classify(j.res(c, dest)); pl >= ancestor || pl == homeSecret || pl == git {
		j.add(c, fsRsyncDelete, "rsync --delete makes "+label+" match the source, deleting everything else in it", "")
	}
}

// mv of an important place somewhere else, or onto /dev/null.
func (j *judge) mv(c *shell.Cmd) {
	p := mvOpts.Parse(c.Args)
	ops := p.Operands
	if len(ops) < 2 {
		return
	}
	srcs, dest := ops[:len(ops)-1], ops[len(ops)-1]
	if t, ok := p.Value("t", "target-directory"); ok {
		srcs, dest = ops, t
	}
	if dest == "/dev/null" {
		j.add(c, fsMvDevnull, "moving onto /dev/null replaces the device and loses the file", "")
	}
	to := j.res(c, dest)
	for _, s := range srcs {
		t := j.res(c, s)
		pl, label := j.classify(t)
		if pl == project && under(to, contentsOf(t)) {
			continue // the project's files moved into a directory of the project stay in it
		}
		if pl == project && !shell.Known(dest) && (shell.StartsUnknown(dest) || under(to, contentsOf(t))) {
			// ls | while read f; do mv "$f" "${f// /_}"; done: each name renamed where it is
			j.add(c, fsMvDynamic, "it moves "+label+" to a name known only when it runs", "")
			continue
		}
		if pl == root || pl == home || pl == homeSecret || pl == project || pl == ancestor ||
			pl == system && (strings.Contains(label, "directory") || strings.Count(t, "/") <= 2) {
			j.add(c, fsMvCritical, "it moves "+label+" away", "")
		} else {
			j.tamper(c, t, "move")
		}
	}
}

// tmutil delete removes Time Machine backups (every one of a machine's, given its folder),
// deletelocalsnapshots the local ones (all of them, given a volume rather than a date).
func (j *judge) tmutil(c *shell.Cmd) {
	switch verb := strings.ToLower(at(c.Args, 0)); verb {
	case "delete":
		j.add(c, fsBackupDelete, "tmutil "+c.Args[0]+" deletes Time Machine backups, the copies that restore this machine", "")
	case "deletelocalsnapshots":
		if strings.HasPrefix(at(c.Args, 1), "/") {
			j.add(c, fsBackupDelete, "tmutil deletelocalsnapshots "+c.Args[1]+" deletes every local Time Machine snapshot of the volume", "")
		}
	}
}

// deleteKeychain: security delete-keychain deletes a keychain file and every password in it.
func (j *judge) deleteKeychain(c *shell.Cmd) {
	if at(c.Args, 0) == "delete-keychain" {
		j.add(c, fsRmCritical, "security delete-keychain deletes "+cmp.Or(at(c.Args, len(c.Args)-1), "the default keychain")+" and every password it holds", "leave the keychain alone, or ask the user")
	}
}

// homeDotMatch names a credential or settings folder of home that a glob of dot-entries matches
// (.*, .[a-z]*, .??*) when dir is a home: such a delete takes ~/.ssh with the caches.
func (j *judge) homeDotMatch(dir, glob string) string {
	if !strings.HasPrefix(glob, ".") || !strings.ContainsAny(glob, "*?[") || !slices.Contains(j.homes(), j.canon(dir)) {
		return ""
	}
	for _, d := range []string{".ssh", ".gnupg", ".aws", ".config", ".kube"} {
		if ok, _ := path.Match(glob, d); ok {
			return "~/" + d
		}
	}
	return ""
}

// viaCode reports a command found in an interpreter's code (python code, node code, ...).
func viaCode(c *shell.Cmd) bool {
	return len(c.Via) > 0 && strings.HasSuffix(c.Via[len(c.Via)-1], " code")
}

// homeDotListing reports arguments that are home's dot-entries: ls -a or -A of home (named, or
// run there) kept to the names starting with a dot by grep '^\.' (or sed).
func (j *judge) homeDotListing(from []*shell.Cmd) bool {
	lsHome, dots := false, false
	for _, f := range from {
		switch f.Name {
		case "ls":
			all := slices.ContainsFunc(f.Args, func(a string) bool {
				return strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "aA") || a == "--all" || a == "--almost-all"
			})
			ops := shell.Opts{}.Parse(f.Args).Operands
			dir := f.Dir
			if len(ops) == 1 {
				dir = j.res(f, ops[0])
			}
			lsHome = all && slices.Contains(j.homes(), j.canon(dir))
		case "grep", "egrep", "rg":
			for _, a := range f.Args {
				if strings.HasPrefix(strings.Trim(a, `'"`), `^\.`) && !slices.Contains(f.Args, "-v") {
					dots = true
				}
			}
		}
	}
	return lsHome && dots
}
