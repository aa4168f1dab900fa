package danger

import "testing"

// TestPackProtect names the rule of the system-protections pack each command must be decided by ("": allowed).
func TestPackProtect(t *testing.T) {
	checkPack(t, []packCase{
		{"csrutil disable", "protect.os-off"},
		{"sudo spctl --master-disable", "protect.os-off"},
		{"csrutil authenticated-root disable", "protect.os-off"},
		{"csrutil status", ""},
		{"sudo setenforce 0", "protect.os-off"},
		{"setenforce Permissive", "protect.os-off"},
		{"sudo aa-teardown", "protect.os-off"},
		{"sudo auditctl -e 0", "protect.os-off"},
		{"sudo auditctl -D", "protect.os-off"},
		{"sudo systemctl stop auditd", "protect.os-off"},
		{"sudo systemctl disable --now apparmor.service", "protect.os-off"},
		{"sudo service auditd stop", "protect.os-off"},
		{"setenforce 1", ""},
		{"sudo auditctl -l", ""},
		{"systemctl status auditd", ""},
		{"sudo service nginx stop", ""},
		{"spctl --assess --verbose /Applications/Foo.app", ""},
	})
}
