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
	netDecodedExec       = &Rule{ID: "net.decoded-exec", Action: Deny, Radius: High, Instead: "run the decoded command itself, in the open"}
	netDownloadRun       = &Rule{ID: "net.download-run", Action: Deny, Radius: High, Instead: "download it, read it, and run it in a later step only if it is what you expect"}
	netDownloadRunBinary = &Rule{ID: "net.download-run-binary", Action: Ask, Radius: Medium, Instead: "check the download (its checksum or signature) before running it"}
	netInterpreterEval   = &Rule{ID: "net.interpreter-eval", Action: Deny, Radius: High, Instead: "download it, read it, and run it only if it is what you expect"}
	netPipeInstaller     = &Rule{ID: "net.pipe-installer", Action: Ask, Radius: Medium, Instead: "download the script, read it, then run it"}
	netPipeShell         = &Rule{ID: "net.pipe-shell", Action: Deny, Radius: High, Instead: "download it with curl -o, read it, and run it in a later step only if it is what you expect"}
	netInstallSource     = &Rule{ID: "net.install-source", Action: Ask, Radius: Medium, Instead: "install from the registry the project already uses, or ask the user to add the source to its configuration"}
)

var packNet = pack{name: "net", title: "code from the network",
	rules: []*Rule{netDecodedExec, netDownloadRun, netDownloadRunBinary, netInstallSource, netInterpreterEval, netPipeInstaller, netPipeShell},
	line:  func(j *judge) { j.downloadThenRun(); j.macDownloads() },
	each:  []func(*judge, *shell.Cmd){(*judge).netStdinRuns},
	known: (*judge).installSource,
}

// fetcher reports a program that reads from the network; their output run as code is code from the network.
func fetcher(name string) bool {
	switch strings.TrimSuffix(strings.ToLower(name), ".exe") { // curl.exe, Windows' own curl
	case "curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lynx", "links", "nc", "ncat", "netcat", "socat", "telnet", "openssl", "ftp", "tftp", "scp", "sftp", "ssh", "gh":
		return true
	}
	return false
}

func (j *judge) runs(c *shell.Cmd) {
	var net []*shell.Cmd
	for _, r := range c.Runs {
		switch {
		case isDecode(r):
			j.add(c, netDecodedExec, "it runs text decoded by "+r.Name+", which hides what it really runs", "")
			return
		case fetcher(r.Name):
			net = append(net, r)
		case r.Name == "nc" || r.Name == "ncat":
			net = append(net, r)
		}
	}
	if len(net) == 0 {
		return
	}
	for _, n := range net {
		if n.Name == "nc" || n.Name == "ncat" || n.Name == "netcat" || n.Name == "socat" || n.Name == "telnet" {
			j.add(c, revNetShell, "it runs commands that arrive over a raw network connection ("+n.Name+"): a reverse shell", "")
			return
		}
	}
	hosts := []string{}
	trusted := true
	for _, n := range net {
		u := firstURL(n.Args)
		host, p := hostPath(u)
		hosts = append(hosts, cmp.Or(host, "an unknown host"))
		trusted = trusted && host != "" && j.trusted(host, p)
	}
	what := "code downloaded from " + strings.Join(hosts, ", ")
	if trusted {
		j.add(c, netPipeInstaller, "it runs "+what+" without a chance to read it first", "")
		return
	}
	j.add(c, netPipeShell, "it runs "+what+", unreviewed, with your permissions", "")
}

// downloadThenRun finds a file fetched from the network and run later in the same command
// line (curl -o x.sh URL && bash x.sh, wget -O t URL; chmod +x t; ./t): the same unreviewed
// code as curl | sh, one step removed.
func (j *judge) downloadThenRun() { j.downloadThenRunIn(j.an.Cmds) }

// downloadThenRunIn is downloadThenRun over cmds (a PowerShell script's, judged where it is found).
func (j *judge) downloadThenRunIn(cmds []*shell.Cmd) {
	fetched := map[string]*shell.Cmd{}
	unpacked := map[string]*shell.Cmd{} // folders a download was unpacked into
	for _, c := range cmds {
		if fetcher(c.Name) && c.Name != "ssh" && c.Name != "scp" && c.Name != "sftp" {
			for _, t := range c.Writes(j.world.Home) {
				fetched[t.Path] = c
			}
			continue
		}
		if f := j.netStdin(c); f != nil && f.Name != "ssh" && f.Name != "scp" && f.Name != "sftp" {
			// curl URL | tee x.sh, curl URL | cat > x.sh, | dd of=x.sh: the download, saved
			for _, t := range c.Writes(j.world.Home) {
				fetched[t.Path] = f
			}
		}
		if dir, from := j.unpacks(c, fetched); from != nil {
			unpacked[dir] = from
			continue
		}
		if dir := npmTarball(c); dir != "" {
			unpacked[j.res(c, dir)] = c // npm install URL: the package's files under node_modules
			continue
		}
		if f, pkg := j.installsPackage(c, fetched); f != nil {
			host, p := hostPath(firstURL(f.Args))
			if host == "" || !j.trusted(host, p) {
				j.add(c, netDownloadRun, "it installs "+pkg+", a package it just downloaded from "+cmp.Or(host, "an unknown host")+": its install scripts run as root, unreviewed", "")
			}
			continue
		}
		var ran string
		file := false // ran is a file the program reads, never looked up on PATH
		if r := j.codeFile(c, fetched); r != "" {
			ran, file = r, true
		}
		switch {
		case file:
		default:
			switch c.Name {
			case "msiexec", "wine":
				// msiexec /i FILE installs it; wine FILE (or wine msiexec /i FILE) runs it
				for i, a := range c.Args {
					if c.Name == "wine" && i == 0 && a != "msiexec" {
						ran = a
						break
					}
					if (strings.EqualFold(a, "/i") || strings.EqualFold(a, "/package")) && i+1 < len(c.Args) {
						ran = c.Args[i+1]
						break
					}
				}
				if ran != "" && !strings.Contains(ran, "/") {
					ran = "./" + ran // a file in the working folder, not a program on PATH
				}
			case "sh", "bash", "zsh", "dash", "ksh", "source", ".", "python", "python3", "perl", "ruby", "node", "php":
				for _, a := range c.Args {
					if !strings.HasPrefix(a, "-") {
						ran = a
						break
					}
				}
			default:
				ran = c.Prog
			}
		}
		var f *shell.Cmd
		ok := false
		target := ""
		if len(fetched) > 0 && ran != "" && ran == c.Prog && !strings.Contains(ran, "/") {
			// A bare name is looked up on PATH: it runs the download when the line fetched a
			// file of that name into a folder on a usual PATH (curl -o ~/.local/bin/kx URL; kx).
			target, f, ok = j.fetchedOnPath(ran, fetched)
		}
		if !ok && (ran == "" || !file && !strings.Contains(ran, "/") && c.Name != "sh" && c.Name != "bash" && c.Name != "source" && c.Name != "." &&
			c.Name != "zsh" && c.Name != "dash" && c.Name != "ksh" && c.Name != "python" && c.Name != "python3" &&
			c.Name != "perl" && c.Name != "ruby" && c.Name != "node" && c.Name != "php") {
			continue // a bare program name is found on PATH, not in the directory
		}
		if !ok {
			target = j.res(c, ran)
			f, ok = fetched[target]
		}
		archive := false
		if !ok {
			for dir, from := range unpacked {
				if under(target, dir) && target != dir {
					f, ok, archive = from, true, true
					break
				}
			}
		}
		if !ok {
			continue
		}
		host, p := hostPath(firstURL(f.Args))
		if archive && host != "" && (releaseDownload(host, p) || j.trusted(host, p)) {
			continue // a release archive unpacked and its program run: the documented install
		}
		what := "code it downloaded from " + cmp.Or(host, "an unknown host")
		switch {
		case host != "" && j.trusted(host, p):
			j.add(c, netPipeInstaller, "it runs "+what+" without a chance to read it first", "")
		case ran == c.Prog && host != "" && !ipAddress(host) && !scriptName(ran) && releaseDownload(host, p):
			// A downloaded program run directly is usually a release binary (kubectl, a CLI);
			// a script handed to an interpreter is the curl | sh pattern one step removed.
			j.add(c, netDownloadRunBinary, "it runs a program it just downloaded from "+cmp.Or(host, "an unknown host"), "")
		default:
			j.add(c, netDownloadRun, "it runs "+what+" in the same breath, unreviewed, with your permissions", "")
		}
	}
}

// codeFile is the file a program reads as code and runs that is not a script operand of a
// shell or interpreter: make's makefile (-f, or the default in its folder), just's justfile,
// pwsh -File, go run, java -jar; "" for anything else.
func (j *judge) codeFile(c *shell.Cmd, fetched map[string]*shell.Cmd) string {
	after := func(opts ...string) string {
		for k, a := range c.Args {
			for _, o := range opts {
				if strings.EqualFold(a, o) && k+1 < len(c.Args) {
					return c.Args[k+1]
				}
				if v, ok := strings.CutPrefix(a, o+"="); ok && strings.HasPrefix(o, "--") {
					return v
				}
			}
		}
		return ""
	}
	operand := func(suffix string) string {
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "-") && strings.HasSuffix(strings.ToLower(a), suffix) {
				return a
			}
		}
		return ""
	}
	var defaults []string
	switch c.Name {
	default:
		return ""
	case "make", "gmake":
		if f := after("-f", "--file", "--makefile"); f != "" {
			return f
		}
		defaults = []string{"GNUmakefile", "makefile", "Makefile"}
	case "just":
		if f := after("-f", "--justfile"); f != "" {
			return f
		}
		defaults = []string{"justfile", "Justfile", ".justfile"}
	case "pwsh", "powershell", "powershell.exe", "pwsh.exe":
		if f := after("-File", "-f"); f != "" {
			return f
		}
		return operand(".ps1")
	case "go":
		if at(c.Args, 0) == "run" {
			return operand(".go")
		}
	case "java":
		if f := after("-jar"); f != "" {
			return f
		}
		return operand(".java")
	}
	dir := after("-C", "--directory", "-d", "--working-directory")
	for _, d := range defaults {
		p := d
		if dir != "" {
			p = dir + "/" + d
		}
		if _, ok := fetched[j.res(c, p)]; ok {
			return p
		}
	}
	return ""
}

// fetchedOnPath finds a file the line fetched into a folder that is on a usual PATH under
// the name a command is run by.
func (j *judge) fetchedOnPath(name string, fetched map[string]*shell.Cmd) (string, *shell.Cmd, bool) {
	dirs := []string{"/usr/local/bin", "/usr/local/sbin", "/usr/bin", "/usr/sbin", "/bin", "/sbin", "/opt/homebrew/bin", "/opt/local/bin"}
	for _, h := range j.homes() {
		dirs = append(dirs, h+"/bin", h+"/.local/bin", h+"/go/bin", h+"/.cargo/bin", h+"/.bun/bin", h+"/.npm-global/bin")
	}
	for _, d := range dirs {
		p := d + "/" + name
		if f, ok := fetched[p]; ok {
			return p, f, true
		}
	}
	return "", nil, false
}

// npmTarball is the folder a package manager of JavaScript unpacks a tarball fetched from a URL
// into (npm install https://host/pkg-1.0.0.tgz: node_modules/pkg), "" for anything else.
func npmTarball(c *shell.Cmd) string {
	if c.Name != "npm" && c.Name != "pnpm" && c.Name != "yarn" && c.Name != "bun" || len(c.Args) < 2 {
		return ""
	}
	switch c.Args[0] {
	case "install", "i", "add":
	default:
		return ""
	}
	for _, a := range c.Args[1:] {
		if !strings.HasPrefix(a, "https://") && !strings.HasPrefix(a, "http://") {
			continue
		}
		u, _, _ := strings.Cut(a, "?")
		name := path.Base(u)
		for _, ext := range []string{".tgz", ".tar.gz"} {
			if n, ok := strings.CutSuffix(name, ext); ok {
				// pkg-1.2.3: the version after the last dash that a digit follows
				if i := strings.LastIndex(n, "-"); i > 0 && i+1 < len(n) && n[i+1] >= '0' && n[i+1] <= '9' {
					n = n[:i]
				}
				return "node_modules/" + n
			}
		}
	}
	return ""
}

// releaseDownload reports a project's published release binary: GitHub's and GitLab's release
// downloads, and the download hosts of the tools agents fetch most. Run straight after the
// download it is asked about; a binary from anywhere else is code from the network.
func releaseDownload(host, p string) bool {
	p = "/" + strings.TrimPrefix(p, "/")
	switch host {
	case "github.com":
		return strings.Contains(p, "/releases/download/")
	case "gitlab.com":
		return strings.Contains(p, "/-/releases/") || strings.Contains(p, "/-/package_files/")
	case "objects.githubusercontent.com", "release-assets.githubusercontent.com", "dl.k8s.io", "releases.hashicorp.com", "get.helm.sh",
		"dl.google.com", "go.dev", "nodejs.org", "static.rust-lang.org", "storage.googleapis.com":
		return true
	}
	return false
}

// unpacks reports an archive extraction whose input is a download (a file fetched earlier in
// the line, or a fetch piped in) and the folder it unpacks into (-C, -d, -o, or the command's own).
func (j *judge) unpacks(c *shell.Cmd, fetched map[string]*shell.Cmd) (string, *shell.Cmd) {
	var dir string
	var input []string
	switch c.Name {
	case "tar", "bsdtar", "gtar":
		x := false
		for i, a := range c.Args {
			switch {
			case a == "-C" || a == "--directory":
				dir = at(c.Args, i+1)
			case strings.HasPrefix(a, "--directory="):
				dir = strings.TrimPrefix(a, "--directory=")
			case a == "-f" || a == "--file":
				input = append(input, at(c.Args, i+1))
			case strings.HasPrefix(a, "--file="):
				input = append(input, strings.TrimPrefix(a, "--file="))
			case a == "--extract" || a == "--get":
				x = true
			case i == 0 && !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
				if strings.Contains(a, "x") {
					x = true
				}
				if f := strings.IndexByte(a, 'f'); f >= 0 && f == len(a)-1 {
					input = append(input, at(c.Args, i+1))
				}
			}
		}
		if !x {
			return "", nil
		}
	case "unzip", "7z", "7za", "bsdunzip":
		for i, a := range c.Args {
			switch {
			case a == "-d":
				dir = at(c.Args, i+1)
			case strings.HasPrefix(a, "-o") && len(a) > 2 && c.Name != "unzip":
				dir = a[2:]
			case !strings.HasPrefix(a, "-") && (strings.HasSuffix(a, ".zip") || strings.HasSuffix(a, ".7z")):
				input = append(input, a)
			}
		}
		if c.Name != "unzip" && c.Name != "bsdunzip" && at(c.Args, 0) != "x" && at(c.Args, 0) != "e" {
			return "", nil
		}
	default:
		return "", nil
	}
	var from *shell.Cmd
	for _, in := range input {
		if f, ok := fetched[j.res(c, in)]; ok {
			from = f
		}
	}
	if c.Stdin != nil && from == nil {
		for _, f := range c.Stdin.From {
			if fetcher(f.Name) {
				from = f
			}
		}
	}
	if from == nil {
		return "", nil
	}
	if dir == "" {
		return c.Dir, from
	}
	return j.res(c, dir), from
}

// installsPackage reports a package manager installing a package file fetched in the line, or
// straight from a URL (dnf install https://..., rpm -U URL): which one, and the fetch.
func (j *judge) installsPackage(c *shell.Cmd, fetched map[string]*shell.Cmd) (*shell.Cmd, string) {
	install := false
	switch c.Name {
	case "dpkg":
		install = slices.Contains(c.Args, "-i") || slices.Contains(c.Args, "--install")
	case "apt", "apt-get", "dnf", "yum", "zypper":
		install = at(c.Args, 0) == "install" || slices.Contains(c.Args, "install")
	case "rpm":
		install = slices.ContainsFunc(c.Args, func(a string) bool {
			return strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "iU") || a == "--install" || a == "--upgrade"
		})
	case "installer", "msiexec":
		install = true
	}
	if !install {
		return nil, ""
	}
	for _, a := range c.Args {
		if !strings.HasSuffix(a, ".deb") && !strings.HasSuffix(a, ".rpm") && !strings.HasSuffix(a, ".pkg") && !strings.HasSuffix(a, ".msi") {
			continue
		}
		if strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "https://") {
			return &shell.Cmd{Name: c.Name, Args: []string{a}}, a
		}
		if f, ok := fetched[j.res(c, a)]; ok {
			return f, a
		}
	}
	return nil, ""
}

// scriptName reports a file named as a script (run directly it is still a script).
func scriptName(p string) bool {
	for _, ext := range []string{".sh", ".bash", ".zsh", ".py", ".pl", ".rb", ".js", ".php", ".ps1"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

// trusted reports whether a host (and path) is one of the policy's known installer sources.
func (j *judge) trusted(host, p string) bool {
	for _, t := range j.pol.TrustedHosts {
		th, tp, _ := strings.Cut(t, "/")
		if host != th {
			continue
		}
		if tp == "" || strings.HasPrefix(strings.TrimPrefix(p, "/"), tp) {
			return true
		}
	}
	return false
}

// macDownloads: three macOS routes around the checks a download gets. A file whose
// com.apple.quarantine mark is removed (xattr -d, -c, -r) and then run or opened in the same
// line: only downloads carry the mark, and Gatekeeper checks only what carries it. A program
// run from a disk image attached in the line that is a download (fetched in the line, or in
// ~/Downloads). The clipboard run as code (pbpaste | sh) after a fetch filled it.
func (j *judge) macDownloads() {
	fetched, unquarantined := map[string]bool{}, map[string]bool{}
	image, clip := "", false
	for _, c := range j.an.Cmds {
		if fetcher(c.Name) {
			for _, t := range c.Writes(j.world.Home) {
				fetched[t.Path] = true
			}
		}
		switch c.Name {
		case "xattr":
			quarantine, clears := slices.Contains(c.Args, "com.apple.quarantine"), false
			for _, a := range c.Args {
				clears = clears || strings.HasPrefix(a, "-") && (strings.Contains(a, "c") || quarantine && strings.Contains(a, "d"))
			}
			for _, a := range c.Args {
				if clears && !strings.HasPrefix(a, "-") && a != "com.apple.quarantine" {
					unquarantined[j.res(c, a)] = true
				}
			}
		case "hdiutil":
			if v := at(c.Args, 0); v == "attach" || v == "mount" {
				for _, a := range c.Args[1:] {
					p := j.res(c, a)
					if !strings.HasPrefix(a, "-") && (fetched[p] || slices.ContainsFunc(j.homes(), func(h string) bool { return under(p, h+"/Downloads") })) {
						image = a
					}
				}
			}
		case "pbcopy":
			if c.Stdin != nil && slices.ContainsFunc(c.Stdin.From, func(f *shell.Cmd) bool { return fetcher(f.Name) }) {
				clip = true
			}
		}
		ran := j.ranFile(c)
		switch {
		case ran != "" && unquarantined[ran]:
			j.add(c, netDownloadRun, "it runs "+ran+" after removing its quarantine mark, so Gatekeeper never checks the download", "")
		case ran != "" && image != "" && under(ran, "/Volumes"):
			j.add(c, netDownloadRun, "it runs "+ran+" from the downloaded disk image "+image+", unreviewed", "")
		case clip && slices.ContainsFunc(c.Runs, func(r *shell.Cmd) bool { return r.Name == "pbpaste" }):
			j.add(c, netPipeShell, "it runs the clipboard as code, just filled with a download", "")
		}
	}
}

// ranFile is the file a command runs: the program named by its path, the script a shell or
// interpreter is given, or what open opens ("": none, or a program found on PATH).
func (j *judge) ranFile(c *shell.Cmd) string {
	var ran string
	switch c.Name {
	case "sh", "bash", "zsh", "dash", "ksh", "source", ".", "python", "python3", "perl", "ruby", "node", "osascript":
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "-") {
				return j.res(c, a)
			}
		}
		return ""
	case "open":
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "-") {
				ran = a
			}
		}
	case "installer":
		// installer -pkg PKG -target /: the package's scripts run as root.
		for i, a := range c.Args {
			if (a == "-pkg" || a == "-package") && i+1 < len(c.Args) {
				return j.res(c, c.Args[i+1])
			}
		}
		return ""
	default:
		ran = c.Prog
	}
	if !strings.Contains(ran, "/") {
		return ""
	}
	return j.res(c, ran)
}

// installSource: a package installed from a URL or an index that is not the ecosystem's own
// registry (npm install https://…/x.tgz, --registry, pip install --index-url, -f, a wheel's
// URL): its install scripts or build hooks run code from a source nothing has vouched for. A
// company's own registry goes in the policy's trusted_hosts.
// codeHost reports the public code hosts projects take git dependencies from.
func codeHost(host string) bool {
	switch host {
	case "github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gist.github.com":
		return true
	}
	return false
}

// runsPackageURL: npx, bunx, pnpm|yarn dlx and npm exec fetch a package and run its program in
// one step; given a URL (a tarball, a git repository, github:user/repo) instead of a registry
// name, that is code downloaded and run (net.download-run), unless the host is trusted. lib/shell
// unwraps them: c is the program run, found through one of them.
func (j *judge) runsPackageURL(c *shell.Cmd) bool {
	if len(c.Via) == 0 {
		return false
	}
	via, pkg, _ := strings.Cut(c.Via[len(c.Via)-1], " --package=") // npx -p URL x (lib/shell)
	switch via {
	case "npx", "bunx", "pnpx", "pnpm", "yarn", "npm", "bun":
	default:
		return false
	}
	cands := []string{c.Prog}
	if pkg != "" {
		cands = append(cands, pkg)
	}
	for _, a := range cands {
		u := strings.TrimPrefix(a, "git+")
		for prefix, host := range map[string]string{"github:": "github.com/", "gitlab:": "gitlab.com/", "bitbucket:": "bitbucket.org/", "git://": ""} {
			if rest, ok := strings.CutPrefix(u, prefix); ok {
				u = "https://" + host + rest
			}
		}
		if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
			continue
		}
		host, _, segs, _ := splitURL(u)
		if host == "registry.npmjs.org" || j.trusted(host, strings.Join(segs, "/")) {
			continue
		}
		j.add(c, netDownloadRun, via+" fetches "+a+" from "+host+" and runs its program in the same step, unreviewed", "")
		return true
	}
	return false
}

func (j *judge) installSource(c *shell.Cmd) {
	args := c.Args
	name := c.Name
	if name == "uv" && at(args, 0) == "pip" {
		name, args = "pip", args[1:]
	} else if strings.HasPrefix(name, "python") && at(args, 0) == "-m" && at(args, 1) == "pip" {
		name, args = "pip", args[2:]
	}
	if j.runsPackageURL(c) {
		return
	}
	var official []string
	switch name {
	case "npm", "pnpm", "yarn", "bun":
		if s := at(args, 0); s != "install" && s != "i" && s != "add" && s != "ci" {
			return
		}
		official = []string{"registry.npmjs.org", "registry.yarnpkg.com"}
	case "pip", "pip3", "uv":
		if at(args, 0) != "install" && at(args, 0) != "add" && at(args, 0) != "sync" {
			return
		}
		official = []string{"pypi.org", "files.pythonhosted.org", "test.pypi.org"}
	default:
		return
	}
	for i, a := range args {
		u := a
		for _, opt := range []string{"--registry", "--index-url", "--extra-index-url", "--find-links", "--index", "--default-index", "-i", "-f"} {
			if v, ok := strings.CutPrefix(a, opt+"="); ok {
				u = v
			} else if a == opt {
				u = at(args, i+1)
			}
		}
		if _, after, ok := strings.Cut(u, "@ "); ok {
			u = strings.TrimSpace(after) // PEP 508: 'pkg @ https://host/x.whl'
		}
		gitSource := strings.HasPrefix(u, "git+") || strings.HasPrefix(u, "git://") || strings.HasPrefix(u, "ssh://")
		u = strings.TrimPrefix(u, "git+") // git+https://, git+ssh://
		if rest, ok := strings.CutPrefix(u, "git://"); ok {
			u = "https://" + rest
		} else if rest, ok := strings.CutPrefix(u, "ssh://"); ok {
			u = "https://" + rest[strings.IndexByte(rest, '@')+1:]
		}
		if name == "npm" || name == "pnpm" || name == "yarn" || name == "bun" {
			// github:user/repo, gitlab:, bitbucket:, and npm's user/repo shorthand for GitHub
			for prefix, host := range map[string]string{"github:": "github.com/", "gitlab:": "gitlab.com/", "bitbucket:": "bitbucket.org/", "gist:": "gist.github.com/"} {
				if rest, ok := strings.CutPrefix(u, prefix); ok {
					u, gitSource = "https://"+host+rest, true
				}
			}
			if i > 0 && !strings.HasPrefix(u, "-") && !strings.HasPrefix(u, "@") && !strings.HasPrefix(u, ".") && !strings.HasPrefix(u, "/") &&
				!strings.HasPrefix(u, "~") && strings.Count(u, "/") == 1 && !strings.Contains(u, ":") && !strings.HasSuffix(u, ".tgz") {
				u, gitSource = "https://github.com/"+u, true
			}
		}
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			continue
		}
		host, _, segs, _ := splitURL(u)
		if gitSource && codeHost(host) {
			continue // a dependency from its repository on a public code host: ordinary
		}
		if !slices.Contains(official, host) && !j.trusted(host, strings.Join(segs, "/")) { // trusted_hosts names a company's own
			j.add(c, netInstallSource, c.Name+" installs from "+host+", a source that is not the package registry: its install scripts run code from there", "")
			return
		}
	}
}
