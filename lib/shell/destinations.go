// The folders and files a command writes through an option or an operand that names where its
// output goes: archive extraction, git checkouts into another work tree, and the programs with
// a destination option (-o FILE, --prefix DIR, --target DIR, ...).

package shell

import (
	"path"
	"slices"
	"strings"
)

// destWrites lists what c writes into by destination: a folder (an extraction writes files of
// unknown names into it, so the folder is what is judged) or a file. "." is the command's
// directory.
func (c *Cmd) destWrites() (how string, paths []string, into bool) {
	switch c.Name {
	case "tar", "bsdtar", "gtar":
		return "tar -x", c.tarExtractDirs(), true
	case "unzip":
		// unzip ARCHIVE [FILES] [-x XFILES] [-d DIR]; -l, -t, -v, -z, -p and -c write nothing.
		p := Opts{Short: "dxP", Long: []string{}}.Parse(c.Args)
		if p.Has("l", "t", "v", "z", "p", "c", "Z") || len(p.Operands) == 0 {
			return "", nil, false
		}
		if d, ok := p.Value("d"); ok {
			return "unzip -d", []string{d}, true
		}
		return "unzip", []string{"."}, true
	case "7z", "7za", "7zz", "7zr":
		// 7z x|e ARCHIVE -oDIR (the folder attached to -o).
		ops := Opts{}.Parse(c.Args).Operands
		if len(ops) == 0 || ops[0] != "x" && ops[0] != "e" {
			return "", nil, false
		}
		for _, a := range c.Args {
			if d, ok := strings.CutPrefix(a, "-o"); ok && d != "" {
				return "7z -o", []string{d}, true
			}
		}
		return "7z x", []string{"."}, true
	case "cpio":
		// cpio -i (copy-in) writes under -D DIR or the working directory; cpio -p DIR copies
		// the files it reads into DIR.
		p := Opts{Short: "DEFHIMORs", Long: []string{"directory", "pattern-file", "file", "format", "message", "owner", "block-size", "io-size", "rsh-command"}}.Parse(c.Args)
		switch {
		case p.Has("p", "pass-through") && len(p.Operands) > 0:
			return "cpio -p", p.Operands[len(p.Operands)-1:], true
		case p.Has("i", "extract"):
			if d, ok := p.Value("D", "directory"); ok {
				return "cpio -D", []string{d}, true
			}
			return "cpio -i", []string{"."}, true
		}
	case "ar":
		if ops := (Opts{Long: []string{"output"}}).Parse(c.Args); len(ops.Operands) > 0 && strings.Contains(strings.TrimPrefix(ops.Operands[0], "-"), "x") {
			if d, ok := ops.Value("output"); ok {
				return "ar x", []string{d}, true
			}
			return "ar x", []string{"."}, true
		}
	case "jar":
		if len(c.Args) > 0 && strings.Contains(strings.TrimPrefix(c.Args[0], "-"), "x") {
			return "jar x", []string{"."}, true
		}
	case "pax":
		if p := (Opts{Short: "fsox"}).Parse(c.Args); p.Has("r") {
			if p.Has("w") && len(p.Operands) > 0 {
				return "pax -rw", p.Operands[len(p.Operands)-1:], true
			}
			return "pax -r", []string{"."}, true
		}
	case "git":
		return c.gitDest()
	case "rsync":
		// --backup-dir DIR: the files rsync replaces are moved there
		if d, ok := copyOpts("rsync").Parse(c.Args).Value("backup-dir"); ok {
			return "rsync --backup-dir", []string{d}, true
		}
	case "bundle":
		if len(c.Args) > 0 && c.Args[0] == "install" {
			if d, ok := (Opts{Long: []string{"path", "gemfile", "jobs", "retry", "without", "with", "binstubs", "standalone", "shebang", "trust-policy"}}).Parse(c.Args[1:]).Value("path"); ok {
				return "bundle install --path", []string{d}, true
			}
		}
	case "patch":
		p := Opts{Short: "dopiBbDFrVYzgLs", Long: []string{"directory", "output", "strip", "input", "prefix", "basename-prefix", "suffix", "ifdef", "fuzz", "reject-file", "version-control", "quoting-style", "get", "backup-if-mismatch"}}.Parse(c.Args)
		if o, ok := p.Value("o", "output"); ok {
			return "patch -o", []string{o}, false
		}
		if d, ok := p.Value("d", "directory"); ok {
			return "patch -d", []string{d}, true
		}
		if len(p.Operands) > 0 {
			return "patch", p.Operands[:1], false // patch FILE [PATCHFILE]
		}
	case "curl":
		// curl --output-dir DIR -O URL: the download lands in DIR.
		for i, a := range c.Args {
			if d, ok := strings.CutPrefix(a, "--output-dir="); ok {
				return "curl --output-dir", []string{d}, true
			}
			if a == "--output-dir" && i+1 < len(c.Args) {
				return "curl --output-dir", []string{c.Args[i+1]}, true
			}
		}
	case "wget":
		if d, ok := (Opts{Short: "OoaPe", Long: []string{"output-document", "output-file", "append-output", "directory-prefix", "execute"}}).Parse(c.Args).Value("P", "directory-prefix"); ok {
			if name := urlName(Opts{Short: "OoaPe"}.Parse(c.Args).Operands); name != "" {
				d = strings.TrimSuffix(d, "/") + "/" + name
			}
			return "wget -P", []string{d}, false
		}
	case "sort", "shuf", "iconv":
		if o, ok := readerOpts(c.Name).Parse(c.Args).Value("o", "output"); ok {
			return c.Name + " -o", []string{o}, false
		}
	case "go":
		// go build -o FILE|DIR, go test -c -o FILE.
		if len(c.Args) > 0 && (c.Args[0] == "build" || c.Args[0] == "test") {
			if o, ok := (Opts{Short: "o", Long: []string{"o"}}).Parse(c.Args[1:]).Value("o"); ok {
				return "go " + c.Args[0] + " -o", []string{o}, false
			}
		}
	case "gcc", "cc", "clang", "g++", "c++", "clang++", "rustc", "tcc", "zig":
		for i, a := range c.Args {
			if a == "-o" && i+1 < len(c.Args) {
				return c.Name + " -o", []string{c.Args[i+1]}, false
			}
		}
	case "pip", "pip3", "uv":
		// pip install --target DIR | --prefix DIR | --root DIR put the package's files there.
		args := c.Args
		if c.Name == "uv" && len(args) > 0 && args[0] == "pip" {
			args = args[1:]
		}
		if len(args) > 0 && args[0] == "install" {
			p := Opts{Short: "trceiI", Long: []string{"target", "prefix", "root", "requirement", "constraint", "editable", "index-url", "extra-index-url", "find-links", "python"}}.Parse(args[1:])
			if d, ok := p.Value("t", "target", "prefix", "root"); ok {
				return c.Name + " install --target", []string{d}, true
			}
		}
	case "npm", "pnpm", "yarn", "bun":
		// --prefix DIR (npm -C DIR) moves where npm installs into, for any of its commands.
		if d, ok := (Opts{Short: "C", Long: []string{"prefix", "dir", "cwd"}}).Parse(c.Args).Value("prefix", "C", "dir", "cwd"); ok && (npmInstalls(c.Args) || c.Name == "npm") {
			return c.Name + " --prefix", []string{d}, true
		}
	case "tsc", "esbuild", "vite", "webpack", "rollup", "babel", "swc", "parcel":
		// a bundler's or compiler's output folder or file
		p := Opts{Short: "odp", Long: []string{"outDir", "outdir", "outFile", "outfile", "declarationDir", "out-dir", "out-file", "output-path", "dist-dir", "file", "dir", "project", "config", "mode", "target", "format", "platform"}}.Parse(c.Args)
		if d, ok := p.Value("outDir", "outdir", "declarationDir", "out-dir", "output-path", "dist-dir", "dir"); ok {
			return c.Name + " --outDir", []string{d}, true
		}
		if f, ok := p.Value("outFile", "outfile", "out-file", "file"); ok {
			return c.Name + " --outFile", []string{f}, false
		}
		if (c.Name == "babel" || c.Name == "swc") && p.Has("d") {
			d, _ := p.Value("d")
			return c.Name + " -d", []string{d}, true
		}
		if (c.Name == "rollup" || c.Name == "babel" || c.Name == "webpack") && p.Has("o") {
			f, _ := p.Value("o")
			return c.Name + " -o", []string{f}, false
		}
	case "cargo":
		if d, ok := (Opts{Long: []string{"target-dir", "manifest-path", "package", "features", "target", "profile", "jobs", "bin", "example", "test", "bench"}}).Parse(c.Args).Value("target-dir"); ok {
			return "cargo --target-dir", []string{d}, true
		}
		if len(c.Args) > 0 && c.Args[0] == "install" {
			if d, ok := (Opts{Long: []string{"root", "path", "git", "branch", "tag", "rev", "version", "features", "target", "target-dir", "profile", "index", "registry", "jobs"}}).Parse(c.Args[1:]).Value("root"); ok {
				return "cargo install --root", []string{d}, true
			}
		}
	case "cmake":
		if len(c.Args) > 0 && c.Args[0] == "--install" {
			if d, ok := (Opts{Long: []string{"install", "prefix", "config", "component", "default-directory-permissions"}}).Parse(c.Args).Value("prefix"); ok {
				return "cmake --install --prefix", []string{d}, true
			}
		}
	case "make", "gmake":
		// make DESTDIR=DIR install puts the installed tree under DIR.
		for _, a := range c.Args {
			if d, ok := strings.CutPrefix(a, "DESTDIR="); ok && d != "" {
				return "make DESTDIR=", []string{d}, true
			}
		}
	case "ssh-keygen":
		// Generating a key (none of -l, -y, -e, -i, -F, -R, -Y, -L, -D, -Q, -k): -f FILE writes
		// FILE and FILE.pub. ssh-keygen asks before replacing a file, so it only creates.
		p := Opts{Short: "fCNtbOnIZVzsPamEJjKGMrSTwxhD"}.Parse(c.Args)
		if f, ok := p.Value("f"); ok && !p.Has("l", "y", "e", "i", "F", "R", "Y", "L", "D", "Q", "k") {
			return "ssh-keygen -f", []string{f, f + ".pub"}, false
		}
	case "openssl":
		for i, a := range c.Args {
			if (a == "-out" || a == "-keyout") && i+1 < len(c.Args) {
				return "openssl " + a, []string{c.Args[i+1]}, false
			}
		}
	case "gpg", "gpg2", "age", "sops", "zstd", "lz4":
		if o, ok := (Opts{Short: "orukis", Long: []string{"output", "recipient", "local-user", "homedir", "input-type", "output-type"}}).Parse(c.Args).Value("o", "output"); ok {
			return c.Name + " -o", []string{o}, false
		}
	case "docker", "podman", "kubectl", "oc":
		// docker cp SRC DEST and kubectl cp SRC DEST: a DEST without CONTAINER: is this machine's.
		ops := Opts{Short: "ncL", Long: []string{"namespace", "container", "context", "kubeconfig", "retries"}}.Parse(c.Args).Operands
		if len(ops) == 3 && ops[0] == "cp" && !strings.Contains(ops[2], ":") && ops[2] != "-" {
			return c.Name + " cp", ops[2:], false
		}
		if len(ops) == 4 && ops[0] == "container" && ops[1] == "cp" && !strings.Contains(ops[3], ":") && ops[3] != "-" {
			return c.Name + " container cp", ops[3:], false
		}
	}
	return "", nil, false
}

// npmInstalls reports an install-like npm command, whose files go under --prefix.
func npmInstalls(args []string) bool {
	for _, a := range args {
		switch a {
		case "install", "i", "add", "ci", "link", "update", "exec", "x":
			return true
		}
	}
	return false
}

// tarExtractDirs are the folders an extracting tar writes into: each -C DIR, or the working
// directory; nil when tar does not extract (or extracts to stdout).
func (c *Cmd) tarExtractDirs() []string {
	args := c.Args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = append([]string{"-" + args[0]}, args[1:]...) // tar xzf: the old bundled form
	}
	extract := false
	var dirs []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--extract" || a == "--get":
			extract = true
		case a == "-O" || a == "--to-stdout" || a == "--to-command" || strings.HasPrefix(a, "--to-command="):
			return nil
		case a == "-C" || a == "--directory" || a == "--cd":
			if i+1 < len(args) {
				i++
				dirs = append(dirs, args[i])
			}
		case strings.HasPrefix(a, "--directory="):
			dirs = append(dirs, strings.TrimPrefix(a, "--directory="))
		case strings.HasPrefix(a, "-C") && len(a) > 2 && a[1] == 'C':
			dirs = append(dirs, a[2:]) // -C/etc
		case a == "-f" || a == "--file" || a == "-T" || a == "--files-from" || a == "-X" || a == "--exclude-from" || a == "--exclude" || a == "-I" || a == "--use-compress-program":
			i++
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.ContainsRune(a[1:], 'O') {
				return nil
			}
			if strings.ContainsRune(a[1:], 'x') {
				extract = true
			}
			for j, f := range a[1:] {
				switch f {
				case 'f', 'T', 'X', 'I':
					i++ // a bundled f (xzf, -xvf) takes the next word as the archive
				case 'C':
					if j == len(a)-2 && i+1 < len(args) {
						i++
						dirs = append(dirs, args[i]) // -xzfC ARCHIVE DIR is rare; -xC DIR
					}
				}
			}
		}
	}
	if !extract {
		return nil
	}
	if len(dirs) == 0 {
		return []string{"."}
	}
	return dirs
}

// gitDest is where a git command writes files of the work tree when that tree is not the
// working directory: --work-tree DIR with a command that checks files out, and the folders
// clone and worktree add create. git -C DIR moved the command's directory already.
func (c *Cmd) gitDest() (string, []string, bool) {
	tree := ""
	i := 0
	for ; i < len(c.Args) && strings.HasPrefix(c.Args[i], "-"); i++ {
		if t, ok := strings.CutPrefix(c.Args[i], "--work-tree="); ok {
			tree = t
		}
	}
	if i >= len(c.Args) {
		return "", nil, false
	}
	if tree == "" {
		for _, kv := range c.Env {
			if t, ok := strings.CutPrefix(kv, "GIT_WORK_TREE="); ok {
				tree = t
			}
		}
	}
	sub, rest := c.Args[i], c.Args[i+1:]
	if sub == "config" {
		return gitConfigFile(rest)
	}
	if sub == "archive" || sub == "bundle" && len(rest) > 0 && rest[0] == "create" || sub == "format-patch" {
		// git archive -o FILE, git bundle create FILE, git format-patch -o DIR
		p := Opts{Short: "o", Long: []string{"output", "output-directory", "format", "prefix", "remote", "exec"}}.Parse(rest)
		if o, ok := p.Value("o", "output", "output-directory"); ok {
			return "git " + sub + " -o", []string{o}, sub == "format-patch"
		}
		if sub == "bundle" && len(p.Operands) > 1 {
			return "git bundle create", p.Operands[1:2], false
		}
	}
	if sub == "checkout-index" {
		// --prefix=DIR/ writes the checked-out files under DIR (a prefix without a slash is
		// glued to each name: its folder is where they land).
		for _, a := range rest {
			if v, ok := strings.CutPrefix(a, "--prefix="); ok && v != "" {
				if !strings.HasSuffix(v, "/") {
					v = path.Dir(v)
				}
				return "git checkout-index --prefix", []string{v}, true
			}
		}
	}
	switch sub {
	case "checkout", "restore", "reset", "switch", "merge", "pull", "stash", "read-tree", "checkout-index", "apply", "cherry-pick", "revert", "rebase", "am":
		if tree != "" {
			return "git --work-tree " + sub, []string{tree}, true
		}
		if sub != "apply" && sub != "am" {
			return "git " + sub, []string{"."}, true // the work tree at the command's directory (git -C DIR)
		}
	case "clone":
		ops := Opts{Short: "obcju", Long: []string{"origin", "branch", "config", "depth", "jobs", "upload-pack", "template", "reference", "reference-if-able", "separate-git-dir", "shallow-since", "shallow-exclude", "filter", "server-option", "bundle-uri", "ref-format"}}.Parse(rest).Operands
		if len(ops) >= 2 {
			return "git clone", ops[1:2], true
		}
	case "worktree":
		if len(rest) > 0 && rest[0] == "add" {
			if ops := (Opts{Short: "bB", Long: []string{"reason"}}).Parse(rest[1:]).Operands; len(ops) > 0 {
				return "git worktree add", ops[:1], true
			}
		}
	}
	return "", nil, false
}

// gitConfigFile is the file a git config that sets or unsets a value writes: --global the
// user's ~/.gitconfig, --system /etc/gitconfig, --file FILE that file (the repository's own
// .git/config is under .git, which the command's folder already names).
func gitConfigFile(args []string) (string, []string, bool) {
	file := ""
	reads := false
	for i, a := range args {
		switch {
		case a == "--global":
			file = "~/.gitconfig"
		case a == "--system":
			file = "/etc/gitconfig"
		case (a == "--file" || a == "-f") && i+1 < len(args):
			file = args[i+1]
		case strings.HasPrefix(a, "--file="):
			file = strings.TrimPrefix(a, "--file=")
		case a == "--get" || a == "--get-all" || a == "--get-regexp" || a == "--list" || a == "-l" || a == "--get-urlmatch" ||
			a == "get" || a == "list" || a == "--show-origin" && len(args) <= 2:
			reads = true
		}
	}
	ops := Opts{Short: "f", Long: []string{"file", "blob", "type", "default", "comment"}}.Parse(args).Operands
	if file == "" || reads || len(ops) < 2 && !slices.Contains(args, "--unset") && !slices.Contains(args, "--unset-all") && !slices.Contains(args, "--remove-section") && !slices.Contains(args, "--add") && !slices.Contains(args, "--replace-all") {
		return "", nil, false // git config --global user.name: a read
	}
	return "git config", []string{file}, false
}
