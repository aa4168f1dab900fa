package danger

import (
	"cmp"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	powerCriticalService = &Rule{ID: "power.critical-service", Action: Deny, Radius: High, Instead: "ask the user to manage system services"}
	powerShutdown        = &Rule{ID: "power.shutdown", Action: Deny, Radius: High, Instead: "ask the user to restart the machine"}
)

var packPower = pack{name: "power", title: "shutdown",
	rules: []*Rule{powerCriticalService, powerShutdown},
	programs: []program{
		{[]string{"shutdown", "reboot", "halt", "poweroff", "init", "telinit"}, (*judge).power},
		{[]string{"systemctl"}, (*judge).systemctl}, {[]string{"launchctl"}, (*judge).launchctl}, {[]string{"dbus-send", "busctl", "gdbus"}, (*judge).logind},
	},
}

func (j *judge) power(c *shell.Cmd) {
	if c.Name == "init" || c.Name == "telinit" {
		if len(c.Args) == 0 || (c.Args[0] != "0" && c.Args[0] != "6") {
			return
		}
	}
	if c.Name == "shutdown" && slices.Contains(c.Args, "-c") {
		return
	}
	j.add(c, powerShutdown, c.Name+" shuts down or restarts the machine, ending every session and process on it", "")
}

func (j *judge) systemctl(c *shell.Cmd) {
	for _, a := range c.Args {
		switch a {
		case "poweroff", "reboot", "halt", "kexec", "emergency", "rescue", "rescue.target", "emergency.target", "poweroff.target",
			"halt.target", "reboot.target", "runlevel0.target", "runlevel1.target", "runlevel6.target":
			j.add(c, powerShutdown, "systemctl "+a+" takes the whole machine down", "")
			return
		}
	}
	ops := shell.Opts{}.Parse(c.Args).Operands
	j.serveUnit(c, ops)
	if len(ops) > 1 && (ops[0] == "stop" || ops[0] == "disable" || ops[0] == "mask" || ops[0] == "kill") {
		for _, u := range ops[1:] {
			switch strings.TrimSuffix(u, ".service") {
			case "ssh", "sshd", "systemd-logind", "dbus", "networking", "NetworkManager", "systemd-networkd":
				j.add(c, powerCriticalService, "systemctl "+ops[0]+" "+u+" cuts the machine off (logins, network or the system bus)", "")
				return
			}
		}
	}
}

// logind over D-Bus: PowerOff, Reboot, Halt.
func (j *judge) logind(c *shell.Cmd) {
	text := strings.Join(c.Args, " ")
	if strings.Contains(text, "login1") && (strings.Contains(text, "PowerOff") || strings.Contains(text, "Reboot") || strings.Contains(text, "Halt") || strings.Contains(text, "KExec")) {
		j.add(c, powerShutdown, c.Name+" asks logind to power off or restart the machine", "")
	}
}

// launchctl reboot [system|userspace|halt|logout|apps]: macOS restarts, halts or ends every
// session.
func (j *judge) launchctl(c *shell.Cmd) {
	if at(c.Args, 0) == "reboot" {
		j.add(c, powerShutdown, "launchctl reboot "+cmp.Or(at(c.Args, 1), "system")+" restarts the machine or ends every process of the session", "")
	}
	j.launchdJob(c)
}
