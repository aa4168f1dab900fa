package danger

import "testing"

// TestPackTamper names the rule of the guard tampering pack each command must be decided by ("": allowed).
func TestPackTamper(t *testing.T) {
	checkPack(t, []packCase{
		{"rm -rf ~/.claude/projects", "tamper.agent-state"},
		{"truncate -s 0 ~/.claude/projects/-home-dev-proj/*.jsonl", "tamper.agent-state"},
		{"rm -f ~/.claude.json", "tamper.agent-state"},
		{": > ~/.claude/history.jsonl", "tamper.agent-state"},
		{"ls ~/.claude/projects", ""},
		{"rm ~/.claude/commands/old.md", ""},
		{"cp ~/.claude.json /tmp/claude.json.bak", ""},
		{"echo '{\"disableAllHooks\": true}' > ~/.claude/settings.json", "tamper.disable-hooks"},
		{"rm -rf ~/.claude/harness", "tamper.harness"},
		{"pkill -f WriteProtector", "tamper.kill-hooks"},
		{"mv /tmp/new-settings.json .claude/settings.json", "tamper.project-settings"},
		{"rm ~/.claude/settings.json", "tamper.user-settings"},
		{"ls -la ~/.claude/", ""},
		{"ls ~/.claude/harness/bin", ""},
		{"cat .claude/settings.json", ""},

		// The harness's files by any route, and its machine-wide places.
		{"cp /tmp/x ~/.claude/harness/bin/SecurityValidator", "tamper.harness"},
		{"ln -sf /bin/true ~/.claude/harness/bin/SecurityValidator", "tamper.harness"},
		{"mv ~/.claude/harness/security.json /tmp/", "tamper.harness"},
		{"sed -i 's/deny/allow/' ~/.claude/harness/security.json", "tamper.harness"},
		{"python3 -c \"open('/home/dev/.claude/harness/security.json','w').write('{}')\"", "tamper.harness"},
		{"jq . x > ~/.claude/harness/installed.json", "tamper.harness"},
		{"rm /opt/harness/bin/SecurityValidator", "tamper.harness"},
		{"sudo rm -rf /opt/harness", "tamper.harness"},
		{"echo '{}' > /etc/harness/security.json", "tamper.harness"},
		{"cp ~/.claude/harness/security.json /tmp/sec.json", ""},
	})
}
