package clients

import (
	"path/filepath"
	"testing"
)

// droid is Factory droid: a BYOK Chat Completions model in ~/.factory/settings.json, hooks in
// the same file. The binary comes from the platform package: the npm wrapper's postinstall,
// which install.sh skips, would download it from Factory's servers.
var droid = &client{
	name: "droid", version: "0.225.2",
	npm:     []string{"@factory/cli@0.225.1", "@factory/cli-linux-x64@0.225.2"},
	exe:     "node_modules/@factory/cli-linux-x64/bin/droid",
	proto:   chat,
	preTool: "PreToolUse",
	// droid exec fires no UserPromptSubmit (droid.md): nothing can stop a prompt headless.
	noPromptEvent: "droid exec fires no prompt event (UserPromptSubmit), so no hook can stop a prompt in a headless run",
	configure: func(s *session, m *model) command {
		s.writeJSON(filepath.Join(s.home, ".factory", "settings.json"), map[string]any{
			"customModels": []any{map[string]any{"model": "fake-model", "displayName": "fake", "baseUrl": m.addr + "/v1", "apiKey": "not-a-key",
				"provider": "generic-chat-completion-api", "maxOutputTokens": 4096}}})
		return func(prompt string) ([]string, []string) {
			return []string{s.c.path(), "exec", "-o", "json", "--skip-permissions-unsafe", "-m", "custom:fake-model", prompt}, []string{"FACTORY_API_KEY=not-a-key"}
		}
	},
	shell: func(id, command string) call {
		return call{id: id, name: "Execute", args: map[string]any{"command": command, "summary": "run it"}}
	},
	write: func(s *session, id, path, content string) call {
		return call{id: id, name: "Create", args: map[string]any{"file_path": filepath.Join(s.project, path), "content": content}}
	},
	hooks: func(s *session, events map[string]any) {
		s.mergeHooks(filepath.Join(s.home, ".factory", "settings.json"), events)
	},
}

func TestDroid(t *testing.T) { testClient(t, droid) }

// What a project's own files can do to the hooks the user installed, in droid: its
// .factory/settings.json's hooks.hooksDisabled switches them off; the same in
// settings.local.json does not, nor do empty or invalid hooks, a file that is not JSON, or
// Claude Code's disableAllHooks; no env of the project's (.env, either settings' env) reaches
// the hooks.
func TestDroidProjectFiles(t *testing.T) {
	testProjectFiles(t, droid,
		projectCase{name: "hooksDisabled", files: map[string]string{".factory/settings.json": `{"hooks": {"hooksDisabled": true}}`}, off: true},
		projectCase{name: "local hooksDisabled", files: map[string]string{".factory/settings.local.json": `{"hooks": {"hooksDisabled": true}}`}},
		projectCase{name: "env, claude disableAllHooks", envNot: []string{"HARNESS_AUDIT", "HARNESS_SYSTEM_DIR", "HARNESS_DEADLINE"}, files: map[string]string{".env": hostileEnv, ".claude/settings.json": `{"disableAllHooks": true, "env": {"HARNESS_AUDIT": "0"}}`,
			".factory/settings.json": `{"env": {"HARNESS_DEADLINE": "1ns"}, "hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "env > ROOT/hook-env"}]}]}}`}},
		projectCase{name: "empty hooks", files: map[string]string{".factory/settings.json": `{"hooks": {"PreToolUse": []}}`}},
		projectCase{name: "invalid entry", files: map[string]string{".factory/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "(", "hooks": [{"type": "nope"}]}], "NoSuchEvent": 3}}`}},
		projectCase{name: "bad json", files: map[string]string{".factory/settings.json": `{"hooks": `}},
	)
}
