package danger

import (
	"path"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	persistAuthorizedKeys  = &Rule{ID: "persist.authorized-keys", Action: Deny, Radius: High, Instead: "ask the user to manage their SSH access"}
	persistAutorun         = &Rule{ID: "persist.autorun", Action: Deny, Radius: High, Instead: "ask the user to set up login items"}
	persistCronFetch       = &Rule{ID: "persist.cron-fetch", Action: Deny, Radius: High, Instead: "ask the user to schedule jobs themselves"}
	persistCrontabInstall  = &Rule{ID: "persist.crontab-install", Action: Deny, Radius: High, Instead: "ask the user to schedule jobs themselves (crontab -e)"}
	persistCrontabRemove   = &Rule{ID: "persist.crontab-remove", Action: Deny, Radius: Medium, Instead: "edit the single entry you mean with crontab -e"}
	persistExecutionPolicy = &Rule{ID: "persist.execution-policy", Action: Deny, Radius: High, Instead: "use -Scope Process for this session, or ask the user"}
	persistGitConfig       = &Rule{ID: "persist.git-config", Action: Deny, Radius: High, Instead: "ask the user to change git's configuration"}
	persistPackageScript   = &Rule{ID: "persist.package-script", Action: Ask, Radius: Medium, Instead: "run the command yourself when it is needed, or ask the user to add the install script"}
	persistGitRuns         = &Rule{ID: "persist.git-runs", Action: Ask, Radius: Medium, Instead: "run the command yourself when it is needed, or ask the user to add the setting"}
	persistLaunchAgent     = &Rule{ID: "persist.launch-agent", Action: Ask, Radius: Medium, Instead: "show the user the job and let them load it"}
	persistPassword        = &Rule{ID: "persist.password", Action: Deny, Radius: High, Instead: "ask the user to change account passwords themselves"}
	persistPreload         = &Rule{ID: "persist.preload", Action: Deny, Radius: High, Instead: "ask the user to change what the dynamic linker preloads"}
	persistPrivilegedGroup = &Rule{ID: "persist.privileged-group", Action: Deny, Radius: High, Instead: "ask the user to grant administrator rights themselves"}
	persistRcPayload       = &Rule{ID: "persist.rc-payload", Action: Deny, Radius: High, Instead: "ask the user to edit their shell startup files"}
	persistSudoers         = &Rule{ID: "persist.sudoers", Action: Deny, Radius: High, Instead: "ask the user to edit sudoers with visudo"}
)

var packPersist = pack{name: "persist", title: "persistence",
	rules: []*Rule{persistAuthorizedKeys, persistAutorun, persistCronFetch, persistCrontabInstall, persistCrontabRemove, persistExecutionPolicy, persistGitConfig, persistGitRuns, persistPackageScript, persistLaunchAgent, persistPassword, persistPreload, persistPrivilegedGroup, persistRcPayload, persistSudoers},
	programs: []program{
		{[]string{"crontab"}, (*judge).crontab}, {[]string{"visudo"}, (*judge).visudo},
		{[]string{"ansible"}, (*judge).ansible}, {[]string{"npm"}, func(j *judge, c *shell.Cmd) { j.npmScript(c); j.plantedInstall(c) }},
		{[]string{"pip", "pip3", "uv", "pnpm", "yarn", "bun", "composer", "python", "python3"}, (*judge).plantedInstall},
		{[]string{"passwd", "chpasswd", "usermod", "useradd", "gpasswd", "adduser", "addgroup", "dseditgroup", "dscl"}, (*judge).account},
	},
}

// The option grammars of the programs this file judges: which options take a value.
var (
	crontabOpts = shell.Opts{Short: "u"}
)

// ansible: modules that plant access or run code on every host matched (the shell ones are
// analysed as commands on those hosts, lib/shell).
func (j *judge) ansible(c *shell.Cmd) {
	p := shell.AnsibleOpts.Parse(c.Args)
	switch m, _ := p.Value("m", "module-name"); strings.TrimPrefix(strings.TrimPrefix(m, "ansible.posix."), "ansible.builtin.") {
	case "authorized_key":
		j.add(c, persistAuthorizedKeys, "ansible -m authorized_key adds SSH keys allowed to log in on every host matched", "ask the user to manage SSH access")
	case "user":
		if a, _ := p.Value("a", "args"); strings.Contains(a, "state=absent") {
			j.add(c, killUser, "ansible -m user state=absent removes the account on every host matched", "")
		}
	}
}

// npmScript: npm pkg set scripts.X="..." that fetches code: npm runs install scripts by itself.
func (j *judge) npmScript(c *shell.Cmd) {
	if len(c.Args) < 3 || c.Args[0] != "pkg" || c.Args[1] != "set" {
		return
	}
	for _, a := range c.Args[2:] {
		if strings.HasPrefix(a, "scripts.") && (fetchesCode(a) || hijacks(a)) {
			j.add(c, persistAutorun, "it sets an npm script that downloads or connects ("+strings.SplitN(a, "=", 2)[0]+"), run by npm on its own", "ask the user to add install scripts")
			return
		}
	}
	for _, a := range c.Args[2:] {
		// A lifecycle script runs by itself at the next install, for anyone who installs.
		if k, _, _ := strings.Cut(a, "="); lifecycleScript(strings.TrimPrefix(k, "scripts.")) && strings.HasPrefix(k, "scripts.") && j.installsAfter(c) {
			j.add(c, persistPackageScript, "it sets the "+strings.TrimPrefix(k, "scripts.")+" script and installs, which runs it unreviewed (and at every install after)", "")
			return
		}
	}
}

// plantedInstall: a file an installer runs by itself (setup.py, package.json's lifecycle
// scripts, composer.json's scripts), or a package manager's configuration naming where it
// installs from (.npmrc, .yarnrc, pip.conf, uv.toml), written earlier in the line and then an
// install that reads it. Code that downloads or connects: denied; other code: asked; a source
// that is not the registry: asked, as an install from it is.
func (j *judge) plantedInstall(c *shell.Cmd) {
	installer := ""
	switch {
	case (c.Name == "pip" || c.Name == "pip3" || c.Name == "uv") && slices.Contains(c.Args, "install") || strings.HasPrefix(c.Name, "python") && slices.Contains(c.Args, "setup.py"):
		installer = "pip"
	case c.Name == "uv" && (at(c.Args, 0) == "sync" || at(c.Args, 0) == "add" || at(c.Args, 0) == "lock"):
		installer = "pip"
	case (c.Name == "npm" || c.Name == "pnpm" || c.Name == "yarn" || c.Name == "bun") && (len(c.Args) == 0 || slices.Contains([]string{"install", "i", "ci", "add", "rebuild"}, c.Args[0])):
		installer = "npm"
	case c.Name == "composer" && (at(c.Args, 0) == "install" || at(c.Args, 0) == "update" || at(c.Args, 0) == "require"):
		installer = "composer"
	default:
		return
	}
	for _, o := range j.an.Cmds {
		if o == c {
			return
		}
		if installer == "composer" && o.Name == "composer" && at(o.Args, 0) == "config" && strings.HasPrefix(at(o.Args, 1), "scripts.") {
			j.add(c, persistPackageScript, "composer config sets the "+strings.TrimPrefix(o.Args[1], "scripts.")+" script and composer runs it on "+c.Args[0]+", unreviewed", "")
			return
		}
		for _, t := range o.Writes(j.world.Home) {
			base := path.Base(t.Path)
			content := j.writtenText(o, t.Path)
			runs := installer == "pip" && base == "setup.py" || installer == "npm" && base == "package.json" || installer == "composer" && base == "composer.json"
			source := installer == "npm" && (base == ".npmrc" || base == ".yarnrc" || base == ".yarnrc.yml") || installer == "pip" && (base == "pip.conf" || base == "uv.toml" || base == "pip.ini")
			switch {
			case (runs || source) && (fetchesCode(content) || hijacks(content)):
				j.add(c, persistAutorun, c.Name+" runs "+base+", written just before with a command that downloads or connects", "")
				return
			case runs && (base != "package.json" || hasLifecycle(content)):
				j.add(c, persistPackageScript, c.Name+" runs the code of "+base+", written just before, unreviewed", "")
				return
			case source && (strings.Contains(content, "http://") || strings.Contains(content, "https://")):
				j.add(c, netInstallSource, c.Name+" installs from the source "+base+" names, written just before: not the registry the project uses", "")
				return
			}
		}
	}
}

// writtenText is what a command writes into path, as far as the line tells: the text it is fed,
// the code that writes it (interpreter code holds what it writes: p.scripts.postinstall = ...),
// its arguments (jq's program), and for a move or copy, what wrote its source.
func (j *judge) writtenText(o *shell.Cmd, path string) string {
	text := j.content(o) + " " + o.Code + " " + strings.Join(o.Args, " ") // jq's program, yq's expression
	if len(o.Via) > 0 {
		for _, w := range j.an.Cmds { // a write by interpreter code: the code holds what it writes
			if w == o {
				break
			}
			if w.Code != "" && w.Text == o.Text {
				text += " " + w.Code
			}
		}
	}
	if o.Name != "mv" && o.Name != "cp" {
		return text
	}
	for _, src := range o.Args {
		if strings.HasPrefix(src, "-") {
			continue
		}
		src = j.res(o, src)
		if src == path {
			continue
		}
		for _, w := range j.an.Cmds {
			if w == o {
				break
			}
			for _, t := range w.Writes(j.world.Home) {
				if t.Path == src {
					text += " " + j.writtenText(w, src)
				}
			}
		}
	}
	return text
}

// hasLifecycle reports package.json text, or code that edits it, setting a script npm runs on
// its own: "postinstall": ..., .scripts.postinstall = ..., p["scripts"]["prepare"] = ....
func hasLifecycle(text string) bool {
	for _, s := range []string{"preinstall", "install", "postinstall", "prepare"} {
		for i := strings.Index(text, s); i >= 0; {
			end := i + len(s)
			before := byte(' ')
			if i > 0 {
				before = text[i-1]
			}
			if (before == '"' || before == '\'' || before == '.' || before == '[') && (end == len(text) || !isIdentByte(text[end])) &&
				(before != '.' || i > 1 && strings.HasSuffix(text[:i-1], "scripts")) {
				return true
			}
			next := strings.Index(text[end:], s)
			if next < 0 {
				break
			}
			i = end + next
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// installsAfter reports a package install later in the same line, which runs the lifecycle
// scripts.
func (j *judge) installsAfter(c *shell.Cmd) bool {
	after := false
	for _, o := range j.an.Cmds {
		if o == c {
			after = true
			continue
		}
		if after && (o.Name == "npm" || o.Name == "pnpm" || o.Name == "yarn" || o.Name == "bun") && (len(o.Args) == 0 || slices.Contains([]string{"install", "i", "ci", "add", "rebuild"}, o.Args[0])) {
			return true
		}
	}
	return false
}

// lifecycleScript reports the npm scripts npm runs on its own: around install, and prepare.
func lifecycleScript(name string) bool {
	switch name {
	case "preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare", "prepublish", "prepack", "postpack", "dependencies":
		return true
	}
	return false
}

func (j *judge) crontab(c *shell.Cmd) {
	p := crontabOpts.Parse(c.Args)
	if p.Has("r") {
		j.add(c, persistCrontabRemove, "crontab -r deletes every scheduled job of the user", "")
		return
	}
	if p.Has("l", "e") {
		return
	}
	text := ""
	if c.Stdin != nil {
		text = c.Stdin.Text
		for _, f := range c.Stdin.From {
			text += " " + f.Name + " " + strings.Join(f.Args, " ")
		}
	}
	for _, f := range c.ArgsFrom { // crontab <(echo '...')
		text += " " + f.Name + " " + strings.Join(f.Args, " ")
	}
	written := ""
	if ops := p.Operands; len(ops) > 0 && ops[0] != "-" && shell.Known(ops[0]) {
		written = j.wroteBefore(c, j.res(c, ops[0]), true) // echo '...' > c; crontab c: the jobs the line wrote
		text += written
	}
	if fetchesCode(text) || hijacks(text) || strings.Contains(text, "@reboot") && (strings.Contains(text, "--connect") || strings.Contains(text, " nc ")) {
		j.add(c, persistCronFetch, "it schedules a job that downloads, connects or starts hidden code", "")
		return
	}
	// crontab - (or no file): the whole crontab is replaced by what arrives on stdin.
	if ops := p.Operands; (len(ops) == 0 || ops[0] == "-") && c.Stdin != nil && (c.Stdin.Known || c.Stdin.File != "" || len(c.Stdin.From) > 0) {
		why := "it replaces the crontab with what it reads from standard input: jobs that run by themselves later"
		if !listsCrontab(c.Stdin.From) {
			why += ", and every job the crontab had is lost"
		}
		j.add(c, persistCrontabInstall, why, "")
		return
	}
	// crontab FILE of a file the line wrote: the same replacement, one step removed.
	if written != "" {
		why := "it replaces the crontab with " + p.Operands[0] + ", which this line wrote: jobs that run by themselves later"
		if !strings.Contains(written, "crontab -l") {
			why += ", and every job the crontab had is lost"
		}
		j.add(c, persistCrontabInstall, why, "")
	}
}

// wroteBefore is what the commands before c in the line write to file p: their text and the
// commands that feed them, and with writers each writer itself (curl -o p, crontab -l > p).
func (j *judge) wroteBefore(c *shell.Cmd, p string, writers bool) string {
	var b strings.Builder
	for _, o := range j.an.Cmds {
		if o == c {
			break
		}
		for _, t := range o.Writes(j.world.Home) {
			if t.Path == p {
				if writers {
					b.WriteString(" " + o.Name + " " + strings.Join(o.Args, " "))
				}
				b.WriteString(" " + j.content(o))
				break
			}
		}
	}
	return b.String()
}

// listsCrontab reports crontab -l among the commands that feed a new crontab (the old jobs
// are kept).
func listsCrontab(from []*shell.Cmd) bool {
	for _, f := range from {
		if f.Name == "crontab" && crontabOpts.Parse(f.Args).Has("l") {
			return true
		}
	}
	return false
}

// privilegedGroup reports a group whose members administer the machine.
func privilegedGroup(g string) bool {
	switch strings.ToLower(g) {
	case "sudo", "wheel", "admin", "root", "administrators", "sudoers":
		return true
	}
	return false
}

// account: passwords removed or changed, and users added to the groups that administer the
// machine (docker and the others that a developer joins stay silent).
func (j *judge) account(c *shell.Cmd) {
	switch c.Name {
	case "chpasswd":
		j.add(c, persistPassword, "chpasswd sets account passwords from its input", "")
		return
	case "passwd":
		p := shell.Opts{Short: "nxwi"}.Parse(c.Args)
		if p.Has("d", "delete") {
			j.add(c, persistPassword, "passwd -d removes the password: the account opens without one", "")
		} else if p.Has("stdin") || c.Stdin != nil && (c.Stdin.Known || len(c.Stdin.From) > 0) {
			j.add(c, persistPassword, "it sets a password fed on standard input", "")
		}
		return
	case "dscl":
		if slices.Contains(c.Args, "-passwd") {
			j.add(c, persistPassword, "dscl -passwd changes an account's password", "")
			return
		}
		for i, a := range c.Args {
			if (a == "-append" || a == "-merge" || a == "-create") && strings.HasPrefix(at(c.Args, i+1), "/Groups/") && privilegedGroup(strings.TrimPrefix(at(c.Args, i+1), "/Groups/")) {
				j.add(c, persistPrivilegedGroup, "it adds a member to "+at(c.Args, i+1)+", which administers the machine", "")
				return
			}
		}
		return
	}
	var groups []string
	switch c.Name {
	case "usermod", "useradd":
		p := shell.Opts{Short: "cdefgGlpsuKRPZ", Long: []string{"comment", "home", "expiredate", "gid", "groups", "login", "password", "shell", "uid", "root", "prefix", "inactive", "key"}}.Parse(c.Args)
		if _, ok := p.Value("p", "password"); ok {
			j.add(c, persistPassword, c.Name+" -p sets an account's password", "")
			return
		}
		if v, ok := p.Value("G", "groups"); ok {
			groups = strings.Split(v, ",")
		}
		if v, ok := p.Value("g", "gid"); ok {
			groups = append(groups, v)
		}
	case "gpasswd":
		p := shell.Opts{Short: "adMAr", Long: []string{"add", "delete", "members", "administrators"}}.Parse(c.Args)
		if _, ok := p.Value("a", "add", "M", "members", "A", "administrators"); ok {
			groups = p.Operands
		}
	case "adduser", "addgroup":
		// adduser USER GROUP (Debian) and addgroup USER GROUP (busybox) add an existing user to a group
		if ops := (shell.Opts{Long: []string{"home", "shell", "uid", "gid", "gecos", "ingroup", "firstuid", "lastuid", "conf"}}).Parse(c.Args); len(ops.Operands) == 2 {
			groups = ops.Operands[1:]
		} else if v, ok := ops.Value("ingroup"); ok {
			groups = []string{v}
		}
	case "dseditgroup":
		if slices.Contains(c.Args, "-a") && len(c.Args) > 0 {
			groups = c.Args[len(c.Args)-1:]
		}
	}
	for _, g := range groups {
		if privilegedGroup(g) {
			j.add(c, persistPrivilegedGroup, c.Name+" adds a user to the group "+g+", which administers the machine (root through sudo)", "")
			return
		}
	}
}

// visudo fed by a non-interactive editor (EDITOR='tee -a', a pipe): sudoers written blind.
func (j *judge) visudo(c *shell.Cmd) {
	for _, e := range c.Env {
		if strings.HasPrefix(e, "EDITOR=") || strings.HasPrefix(e, "VISUAL=") || strings.HasPrefix(e, "SUDO_EDITOR=") {
			j.add(c, persistSudoers, "it changes who may run commands as root, through visudo with "+e, "")
			return
		}
	}
	if c.Stdin != nil && (len(c.Stdin.From) > 0 || c.Stdin.Text != "") {
		j.add(c, persistSudoers, "it feeds visudo, which changes who may run commands as root", "")
	}
}

// launchdJob: launchctl load, bootstrap or submit starts a launchd job that runs by itself,
// at every login or boot. One that downloads or runs downloaded code (a plist fetched in the
// line, a submitted command that fetches) is denied; any other asks.
func (j *judge) launchdJob(c *shell.Cmd) {
	verb := at(c.Args, 0)
	if verb != "load" && verb != "bootstrap" && verb != "submit" && verb != "enable" {
		return
	}
	if verb == "submit" {
		if runsFetched(strings.Join(c.Args, " ")) {
			j.add(c, persistAutorun, "launchctl submit keeps a command that downloads and runs code running under launchd", "")
			return
		}
		j.add(c, persistLaunchAgent, "launchctl submit keeps a command running under launchd, restarted whenever it stops", "")
		return
	}
	if verb == "enable" {
		return // enable only clears a disabled flag; load or bootstrap starts the job
	}
	for _, a := range c.Args[1:] {
		if strings.HasPrefix(a, "-") || !strings.HasSuffix(strings.ToLower(a), ".plist") && !j.launchd(j.res(c, a)) {
			continue
		}
		p := j.res(c, a)
		for _, f := range j.an.Cmds {
			if !fetcher(f.Name) {
				continue
			}
			for _, t := range f.Writes(j.world.Home) {
				if t.Path == p || under(p, t.Path) {
					j.add(c, persistAutorun, "launchctl "+verb+" starts "+a+", a launchd job just downloaded, at every login", "")
					return
				}
			}
		}
		j.add(c, persistLaunchAgent, "launchctl "+verb+" starts "+a+" as a launchd job, run by itself at every login or boot", "")
		return
	}
}

// defaultsLaunchd: defaults write of a plist in a LaunchAgents or LaunchDaemons folder writes
// a launchd job; one whose program downloads or connects is denied, any other asks.
func (j *judge) defaultsLaunchd(c *shell.Cmd) {
	if at(c.Args, 0) != "write" || !j.launchd(j.res(c, at(c.Args, 1))) {
		return
	}
	if text := strings.Join(c.Args, " "); fetchesCode(text) || hijacks(text) {
		j.add(c, persistAutorun, "defaults write plants a launchd job that downloads or connects ("+c.Args[1]+"), run by itself at every login", "ask the user to set up LaunchAgents themselves")
		return
	}
	j.add(c, persistLaunchAgent, "defaults write changes the launchd job "+c.Args[1]+", run by itself at every login or boot", "")
}
