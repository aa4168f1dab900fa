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
		{[]string{"systemctl"}, (*judge).systemctl}, {[]string{"service"}, (*judge).service}, {[]string{"launchctl"}, (*judge).launchctl}, {[]string{"dbus-send", "busctl", "gdbus"}, (*judge).logind},
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
			if j.serviceOff(c, "systemctl "+ops[0], u) {
				return
			}
		}
	}
}

// service NAME stop: SysV's spelling of systemctl stop.
func (j *judge) service(c *shell.Cmd) {
	ops := shell.Opts{}.Parse(c.Args).Operands
	if len(ops) == 2 && (ops[1] == "stop" || ops[1] == "disable") {
		j.serviceOff(c, "service", ops[0]+" "+ops[1])
	}
}

// serviceOff judges a unit stopped, disabled or masked: the firewall's (ask, as a flush) or
// a protection's (the audit daemon, AppArmor, SELinux's restorecond, an endpoint agent: deny).
func (j *judge) serviceOff(c *shell.Cmd, verb, unit string) bool {
	name, _, _ := strings.Cut(strings.TrimSuffix(strings.Fields(unit)[0], ".service"), "@")
	switch name {
	case "firewalld", "ufw", "nftables", "iptables", "ip6tables", "netfilter-persistent", "shorewall":
		j.add(c, netcfgFlush, verb+" "+unit+" turns the firewall off: every port is open until it is on again", "")
		return true
	case "auditd", "apparmor", "restorecond", "falcon-sensor", "osqueryd", "wazuh-agent", "clamav-daemon", "fail2ban", "aide", "crowdstrike":
		j.add(c, protectOff, verb+" "+unit+" turns a protection of the system off (auditing, confinement or intrusion detection)", "")
		return true
	}
	return false
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
	j.serveJob(c)
}
