package danger

import "testing"

// TestPackPower names the rule of the shutdown pack each command must be decided by ("": allowed).
func TestPackPower(t *testing.T) {
	checkPack(t, []packCase{
		{"sudo launchctl reboot", "power.shutdown"},
		{"launchctl list", ""},
		{"sudo systemctl stop sshd", "power.critical-service"},
		{"reboot", "power.shutdown"},
		{"who -b", ""},
		{"uptime", ""},
		{"docker restart api", ""},
	})
}
