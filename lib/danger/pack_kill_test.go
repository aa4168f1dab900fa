package danger

import "testing"

// TestPackKill names the rule of the mass kills pack each command must be decided by ("": allowed).
func TestPackKill(t *testing.T) {
	checkPack(t, []packCase{
		{"kill 1", "kill.mass"},
		{"ansible all -m user -a \"name=bob state=absent\"", "kill.user"},
		{"kill %1", ""},
		{"killall node", ""},
		{"kill -9 12345", ""},
	})
}
