package danger

import (
	"slices"

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
