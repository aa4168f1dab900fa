package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Code planted where another program runs it later, outside the guards, is asked about in the
// real client, by the Write tool and by a shell redirection: the project's .mcp.json and an
// .envrc (which Claude Code 2.1.332 also counts as sensitive files of its own), Gemini CLI's
// project settings and a script in .githooks (which it does not: only the hook stops them).
// The session allows Write and Bash by rule; an ask still needs a person, and headless there
// is none, so no planted file is written, while an ordinary file of the same session is.
// (Under bypassPermissions Claude Code 2.1.332 hands a hook's ask for Write and Bash to its
// own permission check, which that mode passes: the asks do not hold there.)
func TestPlantedCodeAsks(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	if err := os.MkdirAll(filepath.Join(s.project, ".githooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	mcp := filepath.Join(s.project, ".mcp.json")
	envrc := filepath.Join(s.project, ".envrc")
	gemini := filepath.Join(s.project, ".gemini", "settings.json")
	hook := filepath.Join(s.project, ".githooks", "pre-commit")
	ok := filepath.Join(s.project, "README.md")
	m := startModel(t,
		turn{tool: "Write", toolUse: "toolu_e2e_mcp", input: map[string]any{"file_path": mcp,
			"content": `{"mcpServers": {"helper": {"command": "sh", "args": ["-c", "touch planted"]}}}`}},
		turn{tool: "Bash", toolUse: "toolu_e2e_envrc", input: map[string]any{"command": "echo 'touch planted' > .envrc", "description": "set up direnv"}},
		turn{tool: "Write", toolUse: "toolu_e2e_gemini", input: map[string]any{"file_path": gemini,
			"content": `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch planted"}]}]}}`}},
		turn{tool: "Bash", toolUse: "toolu_e2e_githook", input: map[string]any{"command": "echo 'touch planted' > .githooks/pre-commit", "description": "add a hook"}},
		turn{tool: "Write", toolUse: "toolu_e2e_readme", input: map[string]any{"file_path": ok, "content": "# proj\n"}})
	out := s.run(m, "set up the project", "--permission-mode", "default", "--allowedTools", "Write,Bash")
	hooks := s.hookLines()
	for id, file := range map[string]string{"toolu_e2e_mcp": mcp, "toolu_e2e_envrc": envrc, "toolu_e2e_gemini": gemini, "toolu_e2e_githook": hook} {
		content, isErr, found := m.toolResult(id)
		if !found || !isErr {
			t.Errorf("%s: tool_result %q (error %v, found %v), want the call refused after the hook asked", id, content, isErr, found)
		}
		if _, err := os.Stat(file); err == nil {
			t.Errorf("%s was written although the hook asked, in headless mode", file)
		}
		if !strings.Contains(hooks, "asks before writing `"+file+"`") || !strings.Contains(hooks, "rule ask.planted") {
			t.Errorf("%s: no ask.planted answer from WriteProtector in the hook log", file)
		}
	}
	if _, isErr, found := m.toolResult("toolu_e2e_readme"); !found || isErr {
		t.Errorf("README.md: error %v, found %v", isErr, found)
	}
	if b, err := os.ReadFile(ok); err != nil || string(b) != "# proj\n" {
		t.Errorf("README.md was not written: %v", err)
	}
	if t.Failed() {
		t.Fatalf("claude:\n%s\nhooks:\n%s\nrequests:\n%s", out, hooks+s.payloads(), m.dump())
	}
}
