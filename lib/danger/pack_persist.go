package danger

import (
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// ansible: modules that plant access or run code on every host matched (the shell ones are
// analysed as commands on those hosts, lib/shell).
func (j *judge) ansible(c *shell.Cmd) {
	p := shell.Opts{Short: "mauiefMlBPtTc", Long: []string{"module-name", "args", "user", "inventory", "extra-vars", "limit"}}.Parse(c.Args)
	switch m, _ := p.Value("m", "module-name"); strings.TrimPrefix(strings.TrimPrefix(m, "ansible.posix."), "ansible.builtin.") {
	case "authorized_key":
		j.add(c, "persist.authorized-keys", Deny, High, "ansible -m authorized_key adds SSH keys allowed to log in on every host matched", "ask the user to manage SSH access")
	case "user":
		if a, _ := p.Value("a", "args"); strings.Contains(a, "state=absent") {
			j.add(c, "kill.user", Deny, High, "ansible -m user state=absent removes the account on every host matched", "ask the user to manage accounts")
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
			j.add(c, "persist.autorun", Deny, High, "it sets an npm script that downloads or connects ("+strings.SplitN(a, "=", 2)[0]+"), run by npm on its own", "ask the user to add install scripts")
			return
		}
	}
}

func (j *judge) crontab(c *shell.Cmd) {
	p := shell.Opts{Short: "u"}.Parse(c.Args)
	if p.Has("r") {
		j.add(c, "persist.crontab-remove", Deny, Medium, "crontab -r deletes every scheduled job of the user", "edit the single entry you mean with crontab -e")
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
		j.add(c, "persist.cron-fetch", Deny, High, "it schedules a job that downloads, connects or starts hidden code", "ask the user to schedule jobs themselves")
	}
}

// visudo fed by a non-interactive editor (EDITOR='tee -a', a pipe): sudoers written blind.
func (j *judge) visudo(c *shell.Cmd) {
	for _, e := range c.Env {
		if strings.HasPrefix(e, "EDITOR=") || strings.HasPrefix(e, "VISUAL=") || strings.HasPrefix(e, "SUDO_EDITOR=") {
			j.add(c, "persist.sudoers", Deny, High, "it changes who may run commands as root, through visudo with "+e, "ask the user to edit sudoers with visudo")
			return
		}
	}
	if c.Stdin != nil && (len(c.Stdin.From) > 0 || c.Stdin.Text != "") {
		j.add(c, "persist.sudoers", Deny, High, "it feeds visudo, which changes who may run commands as root", "ask the user to edit sudoers with visudo")
	}
}
