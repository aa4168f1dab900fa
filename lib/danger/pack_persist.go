package danger

import (
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	persistAuthorizedKeys  = &Rule{ID: "persist.authorized-keys", Action: Deny, Radius: High, Instead: "ask the user to manage their SSH access"}
	persistAutorun         = &Rule{ID: "persist.autorun", Action: Deny, Radius: High, Instead: "ask the user to set up login items"}
	persistCronFetch       = &Rule{ID: "persist.cron-fetch", Action: Deny, Radius: High, Instead: "ask the user to schedule jobs themselves"}
	persistCrontabRemove   = &Rule{ID: "persist.crontab-remove", Action: Deny, Radius: Medium, Instead: "edit the single entry you mean with crontab -e"}
	persistExecutionPolicy = &Rule{ID: "persist.execution-policy", Action: Deny, Radius: High, Instead: "use -Scope Process for this session, or ask the user"}
	persistGitConfig       = &Rule{ID: "persist.git-config", Action: Deny, Radius: High, Instead: "ask the user to change git's configuration"}
	persistPreload         = &Rule{ID: "persist.preload", Action: Deny, Radius: High, Instead: "ask the user to change what the dynamic linker preloads"}
	persistRcPayload       = &Rule{ID: "persist.rc-payload", Action: Deny, Radius: High, Instead: "ask the user to edit their shell startup files"}
	persistSudoers         = &Rule{ID: "persist.sudoers", Action: Deny, Radius: High, Instead: "ask the user to edit sudoers with visudo"}
)

var packPersist = pack{name: "persist", title: "persistence",
	rules: []*Rule{persistAuthorizedKeys, persistAutorun, persistCronFetch, persistCrontabRemove, persistExecutionPolicy, persistGitConfig, persistPreload, persistRcPayload, persistSudoers},
	programs: []program{
		{[]string{"crontab"}, (*judge).crontab}, {[]string{"visudo"}, (*judge).visudo},
		{[]string{"ansible"}, (*judge).ansible}, {[]string{"npm"}, (*judge).npmScript},
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
	if fetchesCode(text) || hijacks(text) || strings.Contains(text, "@reboot") && (strings.Contains(text, "--connect") || strings.Contains(text, " nc ")) {
		j.add(c, persistCronFetch, "it schedules a job that downloads, connects or starts hidden code", "")
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
