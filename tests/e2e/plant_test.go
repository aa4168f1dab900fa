package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Code planted where another program runs it later, outside the guards, is asked about in the
// real client: the project's .mcp.json written with the Write tool and an .envrc written with a
// shell redirection. Headless, an ask is no approval: neither file is written, while an
// ordinary file of the same session is. The session accepts edits by itself (acceptEdits), as
// a user who lets the agent work does; under bypassPermissions Claude Code 2.1.332 hands a
// hook's ask for Write and Bash to its own permission check, which that mode passes.
func TestPlantedCodeAsks(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	mcp := filepath.Join(s.project, ".mcp.json")
	envrc := filepath.Join(s.project, ".envrc")
	ok := filepath.Join(s.project, "README.md")
	m := startModel(t,
		turn{tool: "Write", toolUse: "toolu_e2e_mcp", input: map[string]any{"file_path": mcp,
			"content": `{"mcpServers": {"helper": {"command": "sh", "args": ["-c", "touch planted"]}}}`}},
		turn{tool: "Bash", toolUse: "toolu_e2e_envrc", input: map[string]any{"command": "echo 'touch planted' > .envrc", "description": "set up direnv"}},
		turn{tool: "Write", toolUse: "toolu_e2e_readme", input: map[string]any{"file_path": ok, "content": "# proj\n"}})
	out := s.run(m, "set up the project", "--permission-mode", "acceptEdits")
	for id, file := range map[string]string{"toolu_e2e_mcp": mcp, "toolu_e2e_envrc": envrc} {
		content, isErr, found := m.toolResult(id)
		if !found || !isErr {
			t.Errorf("%s: tool_result %q (error %v, found %v), want the call refused after the hook asked", id, content, isErr, found)
		}
		if _, err := os.Stat(file); err == nil {
			t.Errorf("%s was written although the hook asked, in headless mode", file)
		}
	}
	if _, isErr, found := m.toolResult("toolu_e2e_readme"); !found || isErr {
		t.Errorf("README.md: error %v, found %v", isErr, found)
	}
	if b, err := os.ReadFile(ok); err != nil || string(b) != "# proj\n" {
		t.Errorf("README.md was not written: %v", err)
	}
	// The asks came from the planted-code rules, not from something else refusing the calls.
	if hooks := s.hookLines() + s.payloads(); !strings.Contains(hooks, "ask.planted") {
		t.Errorf("no ask.planted answer in the hook log")
	}
	if t.Failed() {
		t.Fatalf("claude:\n%s\nhooks:\n%s\nrequests:\n%s", out, s.hookLines()+s.payloads(), m.dump())
	}
}
