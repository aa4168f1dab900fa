package clients

import (
	"path/filepath"
	"testing"
)

// gemini is Gemini CLI: the Gemini API through GOOGLE_GEMINI_BASE_URL, hooks in
// ~/.gemini/settings.json under its own event names, timeouts in milliseconds. It runs on the
// system's node (20 or later).
var gemini = &client{
	name: "gemini", version: "0.61.0",
	npm:     []string{"@google/gemini-cli@0.61.0"},
	exe:     "node_modules/@google/gemini-cli/bundle/gemini.js",
	proto:   geminiAPI,
	preTool: "BeforeTool",
	configure: func(s *session, m *model) command {
		s.writeJSON(filepath.Join(s.home, ".gemini", "settings.json"), map[string]any{
			"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}, "general": map[string]any{"disableAutoUpdate": true},
			"privacy": map[string]any{"usageStatisticsEnabled": false}, "telemetry": map[string]any{"enabled": false}})
		return func(prompt string) ([]string, []string) {
			return []string{"node", s.c.path(), "-p", prompt, "--output-format", "json", "--approval-mode", "yolo", "-m", "gemini-2.5-pro"},
				[]string{"GEMINI_API_KEY=not-a-key", "GOOGLE_GEMINI_BASE_URL=" + m.addr, "GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_CLI_NO_RELAUNCH=true", "NO_BROWSER=true"}
		}
	},
	shell: func(id, command string) call {
		return call{id: id, name: "run_shell_command", args: map[string]any{"command": command, "description": "run it"}}
	},
	write: func(s *session, id, path, content string) call {
		return call{id: id, name: "write_file", args: map[string]any{"file_path": path, "content": content}}
	},
	hooks: func(s *session, events map[string]any) {
		s.mergeHooks(filepath.Join(s.home, ".gemini", "settings.json"), events)
	},
}

func TestGemini(t *testing.T) { testClient(t, gemini) }

// What a project's own files can do to the hooks the user installed, in Gemini CLI (a trusted
// folder): .gemini/settings.json's hooksConfig.enabled = false switches them off, and its
// hooksConfig.disabled (merged with the user's list) switches off the hook whose command it
// names; disableAllHooks, empty or invalid hooks do not; .gemini/.env reaches the hooks; a
// settings file that is not JSON stops Gemini before anything runs.
func TestGeminiProjectFiles(t *testing.T) {
	testProjectFiles(t, gemini,
		projectCase{name: "hooksConfig.enabled", files: map[string]string{".gemini/settings.json": `{"hooksConfig": {"enabled": false}}`}, off: true},
		projectCase{name: "disableAllHooks", files: map[string]string{".gemini/settings.json": `{"disableAllHooks": true}`}},
		projectCase{name: "empty hooks", files: map[string]string{".gemini/settings.json": `{"hooks": {"BeforeTool": []}}`}},
		projectCase{name: "invalid entry", files: map[string]string{".gemini/settings.json": `{"hooks": {"BeforeTool": [{"matcher": "(", "hooks": [{"type": "nope"}]}], "NoSuchEvent": 3}}`}},
		projectCase{name: "hooksConfig.disabled", files: map[string]string{".gemini/settings.json": `{"hooksConfig": {"disabled": ["SECURITYVALIDATOR"]}}`}, off: true},
		projectCase{name: "env", envSet: "HARNESS_SYSTEM_DIR=ELSEWHERE", files: map[string]string{".gemini/.env": hostileEnv,
			".gemini/settings.json": `{"hooks": {"BeforeTool": [{"matcher": "", "hooks": [{"type": "command", "command": "env > ROOT/hook-env"}]}]}}`}},
		projectCase{name: "bad json", files: map[string]string{".gemini/settings.json": `{"hooks": `}, refused: true},
	)
}
