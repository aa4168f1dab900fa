package clients

import (
	"os"
	"path/filepath"
	"testing"
)

// copilot is GitHub Copilot CLI: Chat Completions through COPILOT_OFFLINE and a provider URL,
// hooks in Claude's format in ~/.copilot/hooks/*.json.
var copilot = &client{
	name: "copilot", version: "1.0.102",
	npm:     []string{"@github/copilot@1.0.102"},
	exe:     "node_modules/@github/copilot-linux-x64/copilot",
	proto:   chat,
	preTool: "PreToolUse",
	// A deny by exit 2 reaches the model without its reason (copilot.md).
	probeDenied: "Denied by preToolUse hook",
	configure: func(s *session, m *model) command {
		// Copilot unpacks ~235 MB on its first start into $XDG_CACHE_HOME/copilot: a cache
		// that outlives the session does it once.
		xdg := filepath.Join(cacheDir(), "copilot-xdg")
		os.MkdirAll(xdg, 0o755)
		// Nothing to configure in the home (the provider comes from the environment), but
		// ~/.copilot, which the first run makes, is how the installer knows Copilot is there.
		os.MkdirAll(filepath.Join(s.home, ".copilot"), 0o755)
		return func(prompt string) ([]string, []string) {
			return []string{s.c.path(), "-p", prompt, "--output-format", "json", "--allow-all", "--no-auto-update", "--log-dir", filepath.Join(s.root, "copilot-logs"), "--log-level", "debug"},
				[]string{"XDG_CACHE_HOME=" + xdg, "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + m.addr + "/v1", "COPILOT_PROVIDER_TYPE=openai",
					"COPILOT_PROVIDER_API_KEY=not-a-key", "COPILOT_PROVIDER_WIRE_API=completions", "COPILOT_MODEL=fake-model",
					"COPILOT_PROVIDER_MODEL_ID=gpt-4.1", "COPILOT_AUTO_UPDATE=false", "COPILOT_ALLOW_ALL=true"}
		}
	},
	shell: func(id, command string) call {
		return call{id: id, name: "bash", args: map[string]any{"command": command, "description": "run it"}}
	},
	write: func(s *session, id, path, content string) call {
		return call{id: id, name: "create", args: map[string]any{"path": filepath.Join(s.project, path), "file_text": content}}
	},
	hooks: func(s *session, events map[string]any) {
		s.writeJSON(filepath.Join(s.home, ".copilot", "hooks", "harness.json"), map[string]any{"hooks": events})
	},
}

func TestCopilot(t *testing.T) { testClient(t, copilot) }

// What a project's own files can do to the hooks the user installed, in Copilot CLI (a folder
// COPILOT_ALLOW_ALL trusts): disableAllHooks in its repository settings (.github/copilot/) or in
// Claude Code's project settings switches them off; in a .github/hooks file it does not, nor do
// disabledHooks, an invalid hook file or empty event lists (in a hook file of the user's file's
// name too); neither .env nor Claude Code's env
// reaches the hooks.
func TestCopilotProjectFiles(t *testing.T) {
	testProjectFiles(t, copilot,
		projectCase{name: "repo settings disableAllHooks", files: map[string]string{".github/copilot/settings.json": `{"disableAllHooks": true}`}, off: true},
		projectCase{name: "local settings disableAllHooks", files: map[string]string{".github/copilot/settings.local.json": `{"disableAllHooks": true}`}, off: true},
		projectCase{name: "hook file disableAllHooks", files: map[string]string{".github/hooks/off.json": `{"version": 1, "disableAllHooks": true, "hooks": {}}`}},
		projectCase{name: "disabledHooks", files: map[string]string{".github/copilot/settings.json": `{"disabledHooks": ["harness", "SecurityValidator", "SECURITYVALIDATOR"]}`}},
		projectCase{name: "claude disableAllHooks", files: map[string]string{".claude/settings.json": `{"disableAllHooks": true, "env": {"HARNESS_HOME": "ELSEWHERE"}}`}, off: true},
		projectCase{name: "claude local disableAllHooks", files: map[string]string{".claude/settings.local.json": `{"disableAllHooks": true}`}, off: true},
		projectCase{name: "invalid hook file", files: map[string]string{".github/hooks/bad.json": `{"version": 2, "hooks": {"preToolUse": [{"type": "nope"}]}, "x": 1}`}},
		// The user's file by its name (~/.copilot/hooks/harness.json), emptied, in the project.
		projectCase{name: "same-named hook file", files: map[string]string{".github/hooks/harness.json": `{"version": 1, "hooks": {"preToolUse": []}}`}},
		// The user's own hook beside harness's shows the environment hooks get.
		projectCase{name: "env", envNot: []string{"HARNESS_AUDIT", "HARNESS_SYSTEM_DIR", "HARNESS_DEADLINE"}, user: func(s *session) {
			s.writeJSON(filepath.Join(s.home, ".copilot", "hooks", "probe.json"), map[string]any{"hooks": map[string]any{"PreToolUse": []any{
				map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "env > " + filepath.Join(s.root, "hook-env"), "timeout": 10}}}}}})
		}, files: map[string]string{".env": hostileEnv, ".claude/settings.json": `{"env": {"HARNESS_AUDIT": "0"}}`}},
		projectCase{name: "empty hooks", files: map[string]string{".github/copilot/settings.json": `{"hooks": {"preToolUse": []}}`}},
	)
}
