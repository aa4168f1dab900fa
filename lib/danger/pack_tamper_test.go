package danger

import (
	"os"
	"path/filepath"
	"testing"
)

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

		// The harness CLI: what changes the install is denied, what reads stays silent.
		{"/home/dev/.claude/harness/bin/harness uninstall --purge", "tamper.harness-cli"},
		{"~/.claude/harness/bin/harness uninstall", "tamper.harness-cli"},
		{"harness uninstall --force", "tamper.harness-cli"},
		{"/opt/harness/bin/harness uninstall --managed", "tamper.harness-cli"},
		{"harness install", "tamper.harness-cli"},
		{"harness install --scope project --only SecurityValidator", "tamper.harness-cli"},
		{"sudo harness install --managed --prefix /opt/harness", "tamper.harness-cli"},
		{"harness uninstall --purge --dry-run=false", "tamper.harness-cli"},
		{"env HARNESS_HOME=/tmp/h harness uninstall --purge", "tamper.harness-cli"},
		{"bash -c 'harness uninstall --purge'", "tamper.harness-cli"},
		{"echo uninstall | xargs harness", "tamper.harness-cli"},
		{"harness $CMD", "tamper.harness-cli"},
		{"go run ./cmd/harness uninstall --purge", "tamper.harness-cli"},
		{"cd ~/src/harness && ./install.sh", "tamper.harness-cli"},
		{"cd ~/src/harness && sh install.sh --uninstall --purge", "tamper.harness-cli"},
		{"~/src/harness/install.sh --client codex", "tamper.harness-cli"},
		{"harness install --managed --print", ""},
		{"harness status", ""},
		{"harness rules --json", ""},
		{"harness doctor", ""},
		{"harness validate ~/.claude/settings.json", ""},
		{"harness audit tail -n 20", ""},
		{"harness audit why toolu_01", ""},
		{"harness audit top", ""},
		{"harness audit verify", ""},
		{"harness events PreToolUse", ""},
		{"harness describe", ""},
		{"harness --help", ""},
		{"harness uninstall --help", ""},
		{"go run ./cmd/harness status", ""},
		{"cd ~/src/harness && ./install.sh --dry-run", ""},
		{"./install.sh", ""},
		{"echo 'run harness uninstall --purge to remove it'", ""},
		{"grep -rn 'harness uninstall' docs", ""},
	})
}

// install.sh in a checkout of the harness is denied wherever the checkout lives.
func TestPackTamperFiles(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "checkout")
	os.MkdirAll(filepath.Join(repo, "hooks", "SecurityValidator"), 0o755)
	os.WriteFile(filepath.Join(repo, "hooks", "SecurityValidator", "main.go"), []byte("package main\n"), 0o644)
	other := filepath.Join(dir, "other")
	os.MkdirAll(other, 0o755)
	checkPack(t, []packCase{
		{"cd " + repo + " && ./install.sh --uninstall", "tamper.harness-cli"},
		{"bash " + repo + "/install.sh", "tamper.harness-cli"},
		{"cd " + other + " && ./install.sh --uninstall", ""},
	})
}
