// Archivers and sync tools that delete their source: tar --remove-files, zip -m, 7z -sdel, and
// rclone purge|delete of a local path. What they delete is judged as rm -rf of it.

package danger

import (
	"path"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// tarValueOpts are tar's short options that take the next word as their value.
const tarValueOpts = "fCTXbHgKNVL"

// tarLongValue reports tar's long options that take the next word when not given with =.
func tarLongValue(a string) bool {
	switch a {
	case "--file", "--directory", "--files-from", "--exclude-from", "--exclude", "--transform", "--xform", "--format", "--owner",
		"--group", "--mode", "--mtime", "--newer", "--after-date", "--label", "--listed-incremental", "--use-compress-program", "--blocking-factor":
		return true
	}
	return false
}

// archiveRemoves judges an archiver told to delete what it archives.
func (j *judge) archiveRemoves(c *shell.Cmd) {
	j.wrapped(c) // as for a program with no check of its own: tar --to-command, zip -TT
	switch c.Name {
	case "tar", "gtar", "bsdtar":
		j.tarRemoves(c)
	case "zip":
		move, recursive := false, false
		var ops []string
		for k := 0; k < len(c.Args); k++ {
			a := c.Args[k]
			switch {
			case a == "--move":
				move = true
			case a == "--recurse-paths":
				recursive = true
			case a == "-b" || a == "-n" || a == "-t" || a == "-tt" || a == "-P" || a == "-O" || a == "-Z" || a == "--temp-path" || a == "--password":
				k++
			case a == "-x" || a == "-i" || a == "--exclude" || a == "--include":
				k = len(c.Args) // the rest are patterns
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
				move = move || strings.Contains(a, "m")
				recursive = recursive || strings.Contains(a, "r")
			case !strings.HasPrefix(a, "-"):
				ops = append(ops, a)
			}
		}
		if move && len(ops) > 1 {
			for _, op := range ops[1:] {
				j.deleted(c, j.res(c, op), recursive, fsRmCritical)
			}
		}
	case "7z", "7za", "7zz":
		if !containsArg(c.Args, "-sdel") {
			return
		}
		var ops []string
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
		if len(ops) > 2 && (ops[0] == "a" || ops[0] == "u") {
			for _, op := range ops[2:] {
				j.deleted(c, j.res(c, op), true, fsRmCritical)
			}
		}
	}
}

func containsArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

// tarRemoves: tar --remove-files deletes each file it adds, and the folders it adds with
// everything in them; -C DIR moves where the names after it are read.
func (j *judge) tarRemoves(c *shell.Cmd) {
	remove := false
	for _, a := range c.Args {
		if len(a) >= len("--remove-f") && strings.HasPrefix("--remove-files", a) {
			remove = true
		}
	}
	if !remove {
		return
	}
	dir := ""
	setDir := func(d string) {
		if strings.HasPrefix(d, "/") || dir == "" {
			dir = d
		} else {
			dir = path.Join(dir, d)
		}
	}
	var files []string
	var owed []byte // the options whose values the next words are, in order
	for k, a := range c.Args {
		switch {
		case len(owed) > 0:
			if owed[0] == 'C' {
				setDir(a)
			}
			owed = owed[1:]
		case a == "--":
		case strings.HasPrefix(a, "--"):
			if name, v, ok := strings.Cut(a, "="); ok {
				if name == "--directory" {
					setDir(v)
				}
			} else if a == "--directory" {
				owed = append(owed, 'C')
			} else if tarLongValue(a) {
				owed = append(owed, 'x')
			}
		case strings.HasPrefix(a, "-") || k == 0 && strings.Trim(a, "AcdrtuxzjJavfpPkhOSWlBiMGZCTXbHgKNVLwmno") == "":
			// a bundle of short options (-czf, or czf first): each value-taking letter owes a
			// word, unless the rest of a dashed bundle is its value (-fx.tar, -Cdir)
			letters := strings.TrimPrefix(a, "-")
			for i := 0; i < len(letters); i++ {
				if strings.IndexByte(tarValueOpts, letters[i]) < 0 {
					continue
				}
				if strings.HasPrefix(a, "-") && i+1 < len(letters) {
					if letters[i] == 'C' {
						setDir(letters[i+1:])
					}
					break
				}
				owed = append(owed, letters[i])
			}
		default:
			if dir != "" && !strings.HasPrefix(a, "/") {
				a = path.Join(dir, a)
			}
			files = append(files, a)
		}
	}
	for _, f := range files {
		j.deleted(c, j.res(c, f), true, fsRmCritical)
	}
}

// rcloneLocal: rclone purge, or delete with no filter, of a local path (not remote:path) is
// rm -rf of it (rclone delete keeps the folders, not what is in them).
func (j *judge) rcloneLocal(c *shell.Cmd, verb, target string, narrowed bool) {
	if verb != "purge" && !(verb == "delete" && !narrowed) {
		return
	}
	if remote, _, ok := strings.Cut(target, ":"); ok && len(remote) > 1 && !strings.Contains(remote, "/") {
		return // remote:path, judged as storage
	}
	j.deleted(c, j.res(c, target), true, fsRmCritical)
}
