package danger

import (
	"path"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	clobberCredential   = &Rule{ID: "clobber.credential", Action: Deny, Radius: High, Instead: "leave credentials alone"}
	clobberLocalBin     = &Rule{ID: "clobber.local-bin", Action: Ask, Radius: Medium, Instead: "check it is the program the user wants installed"}
	clobberRcAppend     = &Rule{ID: "clobber.rc-append", Action: Ask, Radius: Low, Instead: "check the line is what the user wants in their shell"}
	clobberRcFile       = &Rule{ID: "clobber.rc-file", Action: Deny, Radius: High, Instead: "append one line with >> after reading the file, or ask the user"}
	clobberSystemAppend = &Rule{ID: "clobber.system-append", Action: Ask, Radius: Medium, Instead: "check the entry is what the user wants"}
	clobberSystemFile   = &Rule{ID: "clobber.system-file", Action: Deny, Radius: High, Instead: "ask the user to change system configuration"}
)

var packClobber = pack{name: "clobber", title: "clobbered files",
	rules: []*Rule{clobberCredential, clobberLocalBin, clobberRcAppend, clobberRcFile, clobberSystemAppend, clobberSystemFile},
}

func (j *judge) written(c *shell.Cmd, t shell.Target) {
	p := t.Path
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom":
		return
	}
	if shell.StartsUnknown(p) {
		j.unknownFolder(c, p)
		return
	}
	if strings.HasPrefix(p, "/dev/fd/") || loopbackTCP(p) {
		return // a local service: judged as a connection (rev.dev-tcp)
	}
	if diskDevice(p) {
		j.add(c, diskWriteDevice, "it writes straight onto the disk device "+p+", destroying its filesystems", "")
		return
	}
	j.tamper(c, p, "overwrite")
	base := path.Base(p)
	switch {
	case historyFile(p):
		j.add(c, histHistoryFile, "it rewrites the shell history "+p, "")
	case under(p, "/var/log"):
		j.add(c, histLogs, "it overwrites the system log "+p, "")
	case base == "authorized_keys" || base == "authorized_keys2" || strings.EqualFold(base, "administrators_authorized_keys"): // Windows OpenSSH's for admins
		j.add(c, persistAuthorizedKeys, "it adds or replaces SSH keys allowed to log in as this user", "")
	case j.canon(p) == "/etc/sudoers" || under(j.canon(p), "/etc/sudoers.d"): // /private/etc on macOS
		j.add(c, persistSudoers, "it changes who may run commands as root", "")
	case p == "/etc/ld.so.preload":
		j.add(c, persistPreload, "/etc/ld.so.preload injects a library into every program on the machine", "")
	case j.launchd(p) && fetcher(c.Name):
		j.add(c, persistAutorun, c.Name+" downloads a launchd job into "+p+", which launchd starts by itself", "ask the user to set up LaunchAgents themselves")
	case winStartup(p):
		j.add(c, persistAutorun, "it puts "+p+" in a Startup folder: Windows runs it at every logon", "ask the user to set up startup programs")
	case j.autorun(p) && !j.rcFile(p) && (runsFetched(j.content(c)) || hijacks(j.content(c))):
		j.add(c, persistAutorun, "it plants a command that downloads, connects or hijacks into "+p+", which runs by itself later", "ask the user to set up hooks, services and autostart entries themselves")
	case j.launchd(p) && !under(j.canon(p), "/Library"):
		j.add(c, persistLaunchAgent, "it adds a LaunchAgent ("+p+"), a program launchd starts at every login ("+t.How+")", "")
	case j.rcFile(p):
		switch {
		case fetchesCode(j.content(c)) || psFetches(j.content(c)) || hijacks(j.content(c)):
			j.add(c, persistRcPayload, "it plants a command that downloads or connects into "+p+", run by every new shell", "")
		case !t.Append:
			j.add(c, clobberRcFile, "it rewrites "+p+" (the user's shell startup file) through "+t.How, "")
		case under(p, "/etc"):
			j.add(c, clobberSystemFile, "it changes the system file "+p, "")
		default:
			j.add(c, clobberRcAppend, "it appends to "+p+", which every new shell runs", "")
		}
	default:
		pl, label := j.classify(p)
		switch {
		case pl == system && (path.Dir(p) == "/usr/local/bin" || path.Dir(p) == "/usr/local/sbin" || (p == "/usr/local/bin" || p == "/usr/local/sbin") && t.How != "> redirect" && t.How != ">> redirect") &&
			!shadows(path.Base(p)):
			// Installing a program where local software goes is how tools are installed; it
			// also comes before /usr/bin on the PATH, so the user confirms it.
			j.add(c, clobberLocalBin, "it installs "+p+", a program that comes first on everyone's PATH ("+t.How+")", "")
		case pl == system && t.Append && p == "/etc/hosts":
			j.add(c, clobberSystemAppend, "it adds a name to /etc/hosts, which redirects that name for every program", "")
		case pl == system:
			j.add(c, clobberSystemFile, "it writes "+label+" ("+t.How+")", "ask the user to change system files themselves")
		case pl == homeSecret && j.isSecretFile(p):
			j.add(c, clobberCredential, "it overwrites the credential "+p, "")
		}
	}
}

// content is what a command writes, as far as it is known: echo's words, its stdin.
func (j *judge) content(c *shell.Cmd) string {
	var b strings.Builder
	if c.Name == "echo" || c.Name == "printf" || c.Name == "sed" || c.Name == "gsed" { // sed: the lines its program adds
		b.WriteString(strings.Join(c.Args, " "))
	}
	if c.Stdin != nil {
		b.WriteString(" " + c.Stdin.Text)
		for _, f := range c.Stdin.From {
			b.WriteString(" " + f.Name + " " + strings.Join(f.Args, " "))
		}
	}
	if t, ok := strings.CutPrefix(c.PSIn, shell.PSText); ok {
		b.WriteString(" " + t) // 'text' | Out-File: the text a PowerShell pipeline writes
	}
	return b.String()
}

// shadows reports a program name that /usr/local/bin would put in front of a system command
// that handles the user's credentials or that everything else relies on (a sudo there takes
// every password typed to it).
func shadows(name string) bool {
	switch name {
	case "sudo", "su", "doas", "pkexec", "ssh", "scp", "sftp", "ssh-agent", "ssh-add", "git", "passwd", "login", "gpg", "gpg2",
		"sh", "bash", "zsh", "dash", "env", "ls", "cat", "ps", "id", "whoami", "kill", "mount", "systemctl":
		return true
	}
	return false
}

// unknownFolder judges a write into a folder known only when the command runs
// ("$(getent passwd me | cut -d: -f6)/.claude/settings.json", "$(eval echo ~$USER)/..."): the
// part that is known still names Claude Code's settings or the harness's home, which no folder
// of anyone's makes safe to write.
func (j *judge) unknownFolder(c *shell.Cmd, p string) {
	tail := p[strings.LastIndex(p, shell.Dyn)+1:]
	low, shown := strings.ToLower(tail), strings.TrimLeft(tail, "/")
	switch {
	case strings.HasSuffix(low, "/.claude/settings.json") || strings.HasSuffix(low, "/.claude/settings.local.json"):
		j.add(c, tamperUserSettings, "it writes Claude Code's settings ("+shown+") in a folder known only when it runs: the user's, where the hooks that guard this session are configured, for all the guard can tell", "")
	case strings.Contains(low+"/", "/.claude/harness/"):
		j.add(c, tamperHarness, "it writes the harness's own files ("+shown+") in a folder known only when it runs", "")
	}
}
