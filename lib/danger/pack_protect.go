package danger

import (
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack: the operating system's own protections turned off.
var (
	protectOff = &Rule{ID: "protect.os-off", Action: Deny, Radius: High, Instead: "leave the system's protections on; ask the user if a tool really needs an exception"}
)

var packProtect = pack{name: "protect", title: "system protections",
	rules: []*Rule{protectOff},
	programs: []program{
		{[]string{"csrutil"}, (*judge).csrutil}, {[]string{"spctl"}, (*judge).spctl},
		{[]string{"setenforce"}, (*judge).setenforce}, {[]string{"aa-teardown"}, (*judge).aaTeardown}, {[]string{"auditctl"}, (*judge).auditctl},
	},
}

// csrutil disable turns off macOS's System Integrity Protection (from recovery; the attempt
// is what matters), authenticated-root disable its sealed system volume.
func (j *judge) csrutil(c *shell.Cmd) {
	if at(c.Args, 0) == "disable" || at(c.Args, 0) == "authenticated-root" && at(c.Args, 1) == "disable" {
		j.add(c, protectOff, "csrutil "+at(c.Args, 0)+" turns off System Integrity Protection", "")
	}
}

// spctl --master-disable (--global-disable) turns Gatekeeper off for every app.
func (j *judge) spctl(c *shell.Cmd) {
	if slices.Contains(c.Args, "--master-disable") || slices.Contains(c.Args, "--global-disable") {
		j.add(c, protectOff, "spctl turns Gatekeeper off: apps from anywhere run unchecked", "")
	}
}

// setenforce 0 (Permissive) turns SELinux's enforcement off.
func (j *judge) setenforce(c *shell.Cmd) {
	if a := at(c.Args, 0); a == "0" || strings.EqualFold(a, "permissive") {
		j.add(c, protectOff, "setenforce "+a+" stops SELinux enforcing its policy", "")
	}
}

// aa-teardown unloads every AppArmor profile.
func (j *judge) aaTeardown(c *shell.Cmd) {
	j.add(c, protectOff, "aa-teardown unloads every AppArmor profile", "")
}

// auditctl -e 0 turns the kernel's auditing off; -D deletes every audit rule.
func (j *judge) auditctl(c *shell.Cmd) {
	for i, a := range c.Args {
		if a == "-D" || a == "-e" && at(c.Args, i+1) == "0" {
			j.add(c, protectOff, "auditctl "+a+" turns the kernel's auditing off or deletes its rules", "")
			return
		}
	}
}
