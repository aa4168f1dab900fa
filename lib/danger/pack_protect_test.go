package danger

import "testing"

// TestPackProtect names the rule of the system-protections pack each command must be decided by ("": allowed).
func TestPackProtect(t *testing.T) {
	checkPack(t, []packCase{
		{"csrutil disable", "protect.os-off"},
		{"sudo spctl --master-disable", "protect.os-off"},
		{"csrutil authenticated-root disable", "protect.os-off"},
		{"csrutil status", ""},
		{"spctl --assess --verbose /Applications/Foo.app", ""},
	})
}
