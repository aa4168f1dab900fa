package danger

import (
	"path"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/paths"
	"github.com/hookkit/harness/lib/shell"
)

// containerLocal prefixes a path that belongs to a new container's own filesystem, which goes
// with the container: under a temp directory, it is judged as ordinary scratch space.
const containerLocal = "/tmp/.container"

// res resolves a path a command names; inside a container, a path under a bind mount is the
// host path it stands for.
func (j *judge) res(c *shell.Cmd, p string) string {
	r := shell.Resolve(p, c.Dir, j.world.Home)
	if len(c.Mounts) > 0 || c.Fresh {
		host, mounted := c.HostPath(r)
		if !mounted && c.Fresh {
			// rm -rf / in a container with -v /:/host also deletes what is mounted under it.
			for _, m := range c.Mounts {
				if !m.ReadOnly && under(m.Container, contentsOf(r)) {
					return m.Host
				}
			}
			return containerLocal + r
		}
		r = host
	}
	return r
}

// resRead is res for a path read: read-only mounts lead to the host too.
func (j *judge) resRead(c *shell.Cmd, p string) string {
	r := shell.Resolve(p, c.Dir, j.world.Home)
	if host, mounted := c.ReadPath(r); mounted {
		return host
	}
	return j.res(c, p)
}

func harnessHome(in Input) string {
	if in.HarnessHome != "" {
		return in.HarnessHome
	}
	return config.DefaultHome(in.World.Home)
}

// place is what a path is to the rules.
type place int

const (
	ordinary    place = iota
	temp              // /tmp, /var/tmp themselves
	unknownRoot       // starts with a value unknown until run time: empty would mean /
	logs              // /var/log and inside
	git               // a .git directory
	ancestor          // an ancestor of the project root
	project           // the project root
	outside           // outside the project, the temp directories and the caches tools rebuild
	foreign           // inside another user's home directory
	homeSecret        // ~/.ssh, ~/.gnupg, ~/.aws, ... and what is in the first three
	home              // a home directory
	system            // inside /etc, /usr, /bin, ...; or a top-level directory such as /var
	root              // /
)

var systemDirs = []string{"/bin", "/sbin", "/boot", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/usr", "/sys", "/proc", "/dev", "/System", "/Library",
	"/c:/windows", "/c:/program files", "/c:/program files (x86)", "/c:/programdata"}

// topDirs are the top-level directories whose removal wrecks the machine, though things inside
// them may be fine to delete.
var topDirs = []string{"/var", "/var/www", "/var/www/html", "/opt", "/srv", "/home", "/root", "/mnt", "/media", "/snap", "/Users", "/Applications", "/private", "/run", "/boot", "/c:/users"}

var secretDirs = []string{".ssh", ".gnupg", ".aws", ".kube", ".docker", ".config", ".claude", ".azure", ".gcloud", ".password-store"}

// userDirs are the home folders that hold the user's own files (the XDG and macOS user
// folders, Downloads aside, which people clear out): deleting one whole is losing them.
var userDirs = []string{"Documents", "Desktop", "Pictures", "Music", "Videos", "Movies", "Library", "Public", "Templates"}

// homes are the home directories the rules protect: world.Home, where ~ points, and the
// account's own (Input.OwnerHome) when a project's settings moved HOME elsewhere. Only what
// protects home reads them; what home allows (scratch folders, ~ in a command) is world.Home's.
func (j *judge) homes() []string {
	hs := make([]string, 0, 2)
	for _, h := range []string{j.world.Home, j.owner} {
		h = shell.Resolve(h, "/", "") // C:\Users\dev as paths resolve: /c:/Users/dev
		if h != "" && !slices.Contains(hs, h) {
			hs = append(hs, h)
		}
	}
	return hs
}

// project is the project directory as paths resolve (C:\Users\dev\proj is /c:/Users/dev/proj).
func (j *judge) project() string { return shell.Resolve(j.world.Project, "/", "") }

// tilde is how a message names a home: ~ for world.Home, the path for the owner's.
func (j *judge) tilde(h string) string {
	if h == j.world.Home || h == shell.Resolve(j.world.Home, "/", "") {
		return "~"
	}
	return h
}

// userDir reports ~/Documents and the other user folders of a home themselves (or their
// contents), as a message names them.
func (j *judge) userDir(p string) (string, bool) {
	p = j.canon(contentsOf(p))
	for _, h := range j.homes() {
		rel, ok := strings.CutPrefix(p, j.canon(h)+"/")
		if !ok {
			continue
		}
		for _, d := range userDirs {
			if strings.EqualFold(rel, d) {
				return j.tilde(h) + "/" + d, true
			}
		}
	}
	return "", false
}

// wholeSecret are the home directories every file of which is a credential.
var wholeSecret = []string{".ssh", ".gnupg", ".aws", ".password-store"}

// toolInstall reports a directory a tool was unpacked into under /usr/local (/usr/local/go,
// /usr/local/aws-cli), outside the standard hierarchy: the official Go upgrade removes
// /usr/local/go before unpacking the new release.
func toolInstall(p string) bool {
	rest, ok := strings.CutPrefix(p, "/usr/local/")
	if !ok || rest == "" {
		return false
	}
	top, _, _ := strings.Cut(rest, "/")
	switch top {
	case "bin", "sbin", "lib", "lib32", "lib64", "libexec", "include", "share", "etc", "man", "src", "games", "var", "*", ".*",
		"Homebrew", "Cellar", "Caskroom", "Frameworks", "opt", "mysql", "pgsql", "mongodb", "redis", "var-lib":
		return false // Homebrew's prefix, and servers whose data lives there
	}
	return !strings.ContainsAny(top, "*?[") && shell.Known(top)
}

// under reports whether p is dir or inside it (dir without a trailing slash, or "/").
func under(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

// classify says what a resolved path is. A path ending in /* (or /.*) names the contents of its
// directory, which the rules treat as the directory itself.
func (j *judge) classify(p string) (place, string) {
	if shell.StartsUnknown(p) {
		return unknownRoot, "a path that starts with a value unknown until it runs"
	}
	p = j.canon(contentsOf(p))
	h, proj := j.canon(j.world.Home), j.canon(j.world.Project)
	// The common case first: something inside the project.
	if proj != "" && len(p) > len(proj) && under(p, proj) {
		if path.Base(p) == ".git" || strings.HasSuffix(path.Dir(p), "/.git") && (path.Base(p) == "objects" || path.Base(p) == "refs") {
			return git, "the repository's history (" + p + ")"
		}
		return ordinary, p
	}
	switch {
	case p == "/":
		return root, "the whole filesystem"
	case drive(p) && len(p) == 3:
		return root, "the whole drive " + strings.ToUpper(p[1:])
	case under(p, "/var/log") || under(p, "/var/db/diagnostics") || under(p, "/var/db/uuidtext"):
		return logs, "the system logs (" + p + ")" // macOS's unified log lives in /var/db
	case (p == "/tmp" || p == "/var/tmp" || p == "/private/tmp") && !(proj != "" && under(proj, p)):
		return temp, "the shared temp directory " + p
	}
	if toolInstall(p) || under(p, "/var/lib/apt/lists") || under(p, "/var/cache/apt") || p != "/var/cache" && under(p, "/var/cache") {
		return ordinary, p // caches that the package manager rebuilds
	}
	for _, d := range systemDirs {
		if under(p, d) {
			return system, p + ", a system path"
		}
	}
	for _, d := range topDirs {
		if p == d {
			return system, p + ", a top-level system directory"
		}
	}
	for _, d := range []string{"/var/lib", "/var/spool", "/var/mail", "/var/db", "/var/backups", "/var/run"} {
		if under(p, d) {
			return system, p + ", system state under /var"
		}
	}
	for _, raw := range j.homes() {
		hd := j.canon(raw)
		if !under(p, hd) {
			continue
		}
		rel := strings.TrimPrefix(p, hd)
		if rel == "" {
			if hd != h {
				return home, "your home directory " + raw
			}
			return home, "your home directory"
		}
		top, _, deeper := strings.Cut(rel[1:], "/")
		for _, d := range secretDirs {
			if top == d && !deeper {
				return homeSecret, j.tilde(raw) + "/" + d + ", where your credentials and settings live"
			}
		}
		for _, d := range wholeSecret {
			if top == d {
				return homeSecret, j.tilde(raw) + rel + ", a credential"
			}
		}
		if lr := strings.ToLower(rel); under(lr, "/library/keychains") {
			return homeSecret, j.tilde(raw) + rel + ", the keychains that hold your saved passwords"
		}
	}
	if (path.Dir(p) == "/home" || path.Dir(p) == "/Users" || drive(p) && path.Dir(p[3:]) == "/users") && p != h {
		return home, "the home directory " + p
	}
	if o := otherHome(p, h); o != "" {
		return foreign, p + ", in " + o + "'s home directory"
	}
	if proj != "" {
		if p == proj {
			return project, "the project root " + proj
		}
		if under(proj, p) {
			return ancestor, p + ", which contains the project"
		}
	}
	if path.Base(p) == ".git" {
		return git, "the repository's history (" + p + ")"
	}
	if proj != "" && path.IsAbs(p) && !scratch(p, h, j.world.Env) {
		return outside, p + ", outside the project"
	}
	return ordinary, p
}

// otherHome is the user whose home directory holds p, when that is not the user's own: under
// /home or /Users, /root, or an unexpanded ~name.
func otherHome(p, h string) string {
	if name, ok := strings.CutPrefix(p, "~"); ok && name != "" && name[0] != '/' {
		user, _, _ := strings.Cut(name, "/")
		if h != "" && path.Base(h) == user {
			return ""
		}
		return user
	}
	for _, dir := range []string{"/home/", "/Users/", "/users/"} {
		if dir == "/users/" {
			if !drive(p) {
				continue
			}
			dir = p[:3] + dir // C:\Users
		}
		if rest, ok := strings.CutPrefix(p, dir); ok {
			user, _, _ := strings.Cut(rest, "/")
			if user != "" && !(h != "" && under(p, dir+user) && under(h, dir+user)) {
				return user
			}
		}
	}
	if under(p, "/root") && !(h != "" && under(h, "/root")) {
		return "root"
	}
	return ""
}

// scratch reports a path programs make and remove all the time: inside a temp directory, in a
// cache a tool rebuilds (a folder named cache, tmp or DerivedData anywhere on the way, the
// package managers' stores), in the trash, or in ~/Downloads, which people clear out.
func scratch(p, h string, env func(string) (string, bool)) bool {
	for _, part := range strings.Split(p, "/") {
		switch name := strings.ToLower(strings.Trim(part, "._-")); {
		case strings.HasSuffix(name, "cache"), strings.HasSuffix(name, "caches"),
			name == "tmp", name == "temp", name == "deriveddata", name == "trash":
			return true
		}
	}
	for _, t := range []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", "/var/folders", "/dev/shm"} {
		if under(p, t) {
			return true
		}
	}
	if env != nil {
		if t, ok := env("TMPDIR"); ok && path.IsAbs(t) && len(t) > 1 && under(p, path.Clean(t)) {
			return true
		}
	}
	rel, ok := strings.CutPrefix(p, h+"/")
	if h == "" || !ok {
		return false
	}
	for _, c := range []string{"Downloads", ".npm", ".yarn", ".pnpm-store", ".m2/repository", ".cargo/registry", ".cargo/git", "go/pkg",
		".nuget/packages", ".deno", ".local/share/pnpm", ".cabal/packages", ".stack", ".sbt", ".conan", ".ccache", ".node-gyp"} {
		if under(rel, c) || c == "Downloads" && under(rel, "downloads") { // folded on macOS and Windows
			return true
		}
	}
	return false
}

// contentsOf maps dir/* and dir/.* to dir: deleting everything in a directory is deleting it.
func contentsOf(p string) string {
	// A last part made only of wildcards (/???, ~/.??*, ~/.[!.]*, /[a-z]*) can match any entry:
	// it names the directory's contents like /*.
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 && broadGlob(p[i+1:]) {
		if i == 0 {
			return "/"
		}
		return p[:i]
	}
	for _, suffix := range []string{"/*", "/.*", "/*.*", "/{*,.*}"} {
		if strings.HasSuffix(p, suffix) {
			if d := strings.TrimSuffix(p, suffix); d != "" {
				return d
			}
			return "/"
		}
	}
	return p
}

// broadGlob reports a name made only of wildcards, after an optional leading dot: *, ???,
// .??*, [a-z]*, .[!.]*, [[:alnum:]]* (not *.txt, not *.?).
func broadGlob(name string) bool {
	n := strings.TrimPrefix(name, ".")
	if strings.HasPrefix(n, "[") {
		end := strings.LastIndexByte(n, ']')
		if end < 1 {
			return false
		}
		n = n[end+1:]
		return n != "" && strings.Trim(n, "*?") == ""
	}
	return n != "" && strings.Trim(n, "*?") == "" && n != "*" || n == "*" && name != "*"
}

// matchUnder returns the start path of a filtered find match ("/x/<match>" is under "/x").
func matchUnder(p string) (string, bool) {
	d, ok := strings.CutSuffix(p, "/"+shell.Match)
	if !ok {
		return "", false
	}
	if d == "" {
		d = "/"
	}
	return d, true
}

// unknownHead is what a path that starts with a run-time value becomes when that value is
// empty: the literal rest after the leading value, when it is an absolute path ("" if not).
func unknownHead(p string) string {
	rest := strings.TrimLeft(shell.Plain(p), shell.Dyn)
	if !shell.Known(rest) || !strings.HasPrefix(rest, "/") {
		return ""
	}
	return path.Clean(rest)
}

// dynamicTail reports a path whose last part is unknown until run time, and the directory it
// is in: rm -rf "$HOME/$X" deletes home when X is empty.
func dynamicTail(p string) (string, bool) {
	if strings.Contains(p, shell.Dyn+"G") {
		return "", false // ${d:?}: never empty
	}
	p = shell.Plain(p)
	i := strings.Index(p, shell.Dyn)
	if i <= 0 {
		return "", false
	}
	dir := strings.TrimSuffix(p[:i], "/")
	rest := strings.Trim(p[i:], "/*")
	if strings.Contains(rest, "/") || strings.Trim(rest, shell.Dyn) != "" {
		return "", false
	}
	if dir == "" {
		dir = "/"
	}
	return dir, true
}

// isSecretFile reports whether a resolved path holds credentials: the rules of lib/paths
// (keys, key stores, cloud and tool credentials), .env files, and the private files in the
// credential directories of home (public keys, known_hosts and ssh config aside: reading or
// sending those leaks nothing).
func (j *judge) isSecretFile(p string) bool {
	for _, t := range j.tainted {
		if p == t {
			return true
		}
	}
	if procEnviron(p) {
		return true // /proc/self/environ, /proc/$PPID/environ: a process's environment, its keys with it
	}
	if paths.EnvFile(p) || p == "/etc/sudoers" || strings.HasPrefix(p, "/etc/sudoers.d/") || j.credentialStore(p) {
		return true
	}
	base := path.Base(p)
	if base == "id_rsa" || base == "id_ed25519" || base == "id_ecdsa" || base == "id_dsa" || credentialJSON(base) {
		return true
	}
	for _, h := range append(j.homes(), "") {
		if paths.IsCredential(p, h) {
			return true
		}
		if h == "" {
			break
		}
		// s3cmd's and rclone's configurations hold the storage keys in clear.
		if p == h+"/.s3cfg" || p == h+"/.config/rclone/rclone.conf" {
			return true
		}
		// The whole folder of a tool's credentials (archived, copied, listed into a pipe).
		for _, d := range []string{"/.aws", "/.kube", "/.docker"} {
			if p == h+d {
				return true
			}
		}
		for _, d := range []string{"/.gnupg", "/.config/gcloud", "/.ssh", "/.password-store", "/.azure"} {
			if under(p, h+d) && !strings.HasSuffix(p, ".pub") && !strings.HasSuffix(p, "/known_hosts") && !strings.HasSuffix(p, "/config") {
				return true
			}
		}
	}
	return false
}

// procEnviron reports a process's environment file under /proc (any pid, self, thread-self,
// one known only when it runs, or a task of it).
func procEnviron(p string) bool {
	rest, ok := strings.CutPrefix(p, "/proc/")
	return ok && strings.HasSuffix(rest, "/environ") && strings.Count(rest, "/") <= 3
}

// credentialJSON reports a file named as a credential store: credentials.json, secrets.json,
// a cloud service account's key (service-account.json, *-sa-key.json), an OAuth client
// secret (client_secret_*.json).
func credentialJSON(base string) bool {
	b := strings.ToLower(base)
	stem, ok := strings.CutSuffix(b, ".json")
	if !ok {
		return false
	}
	switch {
	case stem == "credentials" || stem == "secrets" || stem == "secret" || strings.HasSuffix(stem, "-credentials") || strings.HasSuffix(stem, "_credentials"):
		return true
	case strings.Contains(stem, "service-account") || strings.Contains(stem, "service_account") || strings.Contains(stem, "serviceaccount"),
		strings.HasSuffix(stem, "-sa-key") || strings.HasSuffix(stem, "_sa_key"), strings.HasPrefix(stem, "client_secret"):
		return true
	}
	return false
}

// rcFile reports whether a path is a shell startup file of the user's.
func (j *judge) rcFile(p string) bool {
	hs := j.homes()
	if slices.ContainsFunc(hs, func(h string) bool { return p == h+"/.config/fish/config.fish" }) {
		return true
	}
	if strings.HasSuffix(strings.ToLower(path.Base(p)), "profile.ps1") { // PowerShell's profiles
		d := path.Dir(p)
		ld := strings.ToLower(d)
		if slices.ContainsFunc(hs, func(h string) bool {
			return d == h+"/Documents/PowerShell" || d == h+"/Documents/WindowsPowerShell" || d == h+"/.config/powershell"
		}) || ld == "/c:/windows/system32/windowspowershell/v1.0" || strings.HasPrefix(ld, "/c:/program files/powershell/") {
			return true
		}
	}
	if !slices.Contains(hs, path.Dir(p)) {
		return p == "/etc/profile" || p == "/etc/bash.bashrc" || p == "/etc/zshrc" || p == "/etc/environment"
	}
	switch path.Base(p) {
	case ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".kshrc", ".cshrc", ".tcshrc", ".config/fish/config.fish":
		return true
	}
	return false
}

// autorun reports a file that runs by itself later: git hooks, systemd units, autostart
// entries, cron tables, profile.d scripts, and the shell startup files.
func (j *judge) autorun(p string) bool {
	lp := strings.ToLower(p) // .Husky is .husky where the file system folds case
	return strings.Contains(lp, "/.git/hooks/") || strings.Contains(lp, "/.husky/") ||
		under(p, "/etc/systemd") || under(p, "/lib/systemd") || under(p, "/usr/lib/systemd") || under(p, "/etc/init.d") ||
		under(p, "/etc/cron.d") || under(p, "/etc/cron.daily") || under(p, "/etc/cron.hourly") || p == "/etc/crontab" ||
		under(p, "/var/spool/cron") || under(p, "/etc/profile.d") || under(p, "/etc/xdg/autostart") || p == "/etc/rc.local" || j.launchd(p) ||
		slices.ContainsFunc(j.homes(), func(h string) bool {
			return under(p, h+"/.config/systemd") || under(p, h+"/.config/autostart") || under(p, h+"/Library/LaunchAgents") ||
				under(p, h+"/.hooks") || under(p, h+"/.git-hooks") || under(p, h+"/.config/git/hooks")
		}) ||
		j.rcFile(p)
}

// winStartup reports a file in a Windows Startup folder, the user's or all users'.
func winStartup(p string) bool {
	l := strings.ToLower(p)
	return drive(l) && strings.Contains(l+"/", "/microsoft/windows/start menu/programs/startup/") // the folder, or a file in it
}

// launchd reports a folder of launchd jobs, or a file in one: the user's and the system's
// LaunchAgents, and the LaunchDaemons, run as root.
func (j *judge) launchd(p string) bool {
	lp := strings.ToLower(j.canon(p))
	if under(lp, "/library/launchagents") || under(lp, "/library/launchdaemons") {
		return true
	}
	return slices.ContainsFunc(j.homes(), func(h string) bool { return under(lp, strings.ToLower(j.canon(h))+"/library/launchagents") })
}

// historyFile reports whether a path is a shell or REPL history.
func historyFile(p string) bool {
	b := path.Base(p)
	return b == ".bash_history" || b == ".zsh_history" || b == ".history" || b == ".sh_history" ||
		b == ".zhistory" || b == ".python_history" || b == ".mysql_history" || b == ".psql_history" ||
		b == ".node_repl_history" || b == ".lesshst" || b == "fish_history" || strings.EqualFold(b, "ConsoleHost_history.txt")
}

// taint notes the files the line fills with secrets: a file that an earlier command fills
// with a secret (env > /tmp/e.txt) is a secret file for the commands after it.
func (j *judge) taint() {
	for _, c := range j.an.Cmds {
		if j.readsSecret(c) != "" || printsToken(c) != "" {
			for _, t := range c.Writes(j.world.Home) {
				j.tainted = append(j.tainted, t.Path)
			}
			if a := archiveOut(c); a != "" { // tar czf k.tgz ~/.ssh: the archive holds them
				j.tainted = append(j.tainted, j.res(c, a))
			}
		}
	}
}

// archiveOut returns the archive tar -f or zip writes, "" for other commands.
func archiveOut(c *shell.Cmd) string {
	switch c.Name {
	case "zip", "7z", "7za", "rar":
		for i, a := range c.Args {
			if c.Name != "zip" && i == 0 {
				continue // 7z a ARCHIVE FILES: the verb first
			}
			if !strings.HasPrefix(a, "-") {
				return a
			}
		}
	case "tar", "bsdtar":
		for i, a := range c.Args {
			switch {
			case strings.HasPrefix(a, "--file="):
				return a[len("--file="):]
			case (a == "-f" || a == "--file") && i+1 < len(c.Args):
				return c.Args[i+1]
			case i == 0 && !strings.HasPrefix(a, "--") && strings.Contains(a, "f") && i+1 < len(c.Args) ||
				strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "f") && i+1 < len(c.Args):
				return c.Args[i+1]
			}
		}
	}
	return ""
}

// drive reports a path on a Windows drive as shell.Resolve writes it: /c:, /c:/Users/dev.
func drive(p string) bool {
	return len(p) >= 3 && p[0] == '/' && p[1] >= 'a' && p[1] <= 'z' && p[2] == ':' && (len(p) == 3 || p[3] == '/')
}

// canon writes a path in the one form the rules compare (shell.Canon): /private/etc is /etc,
// C:\Users and /mnt/c/Users are /c:/users, and case is folded where the file system folds it.
func (j *judge) canon(p string) string { return shell.Canon(p, j.world.GOOS()) }
