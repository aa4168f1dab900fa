package danger

import "testing"

// TestPackTamper names the rule of the guard tampering pack each command must be decided by ("": allowed).
func TestPackTamper(t *testing.T) {
	checkPack(t, []packCase{
		{"echo '{\"disableAllHooks\": true}' > ~/.claude/settings.json", "tamper.disable-hooks"},
		{"rm -rf ~/.claude/harness", "tamper.harness"},
		{"pkill -f WriteProtector", "tamper.kill-hooks"},
		{"mv /tmp/new-settings.json .claude/settings.json", "tamper.project-settings"},
		{"rm ~/.claude/settings.json", "tamper.user-settings"},
		{"ls -la ~/.claude/", ""},
		{"ls ~/.claude/harness/bin", ""},
		{"cat .claude/settings.json", ""},
	})
}
