package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LoadContext's briefing and PromptContext's date arrive in the model's first request: the
// project's prompt file, and in a second session the summary of the first.
func TestContextArrivesInFirstRequest(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	os.WriteFile(filepath.Join(s.project, "AGENTS.md"), []byte("Harness-e2e marker: always run the linter.\n"), 0o644)
	os.WriteFile(filepath.Join(s.project, "go.mod"), []byte("module e2e\n"), 0o644)

	m1 := startModel(t, turn{tool: "Bash", toolUse: "toolu_e2e_ls", input: map[string]any{"command": "ls", "description": "list"}})
	out := s.run(m1, "first session: look around")
	first := m1.firstRequest()
	for _, want := range []string{"# Session briefing (harness LoadContext)", "Harness-e2e marker: always run the linter.", "`go test ./...`", "Current date and time: "} {
		if !strings.Contains(first, want) {
			t.Fatalf("the first request lacks %q\nclaude:\n%s\nhooks:\n%s\nrequests:\n%s", want, out, s.hookLines()+s.payloads(), m1.dump())
		}
	}
	if strings.Contains(first, "NOT enforcing") {
		t.Fatalf("the session-start canary says a guard is broken:\n%s", m1.dump())
	}
	m2 := startModel(t)
	out = s.run(m2, "second session")
	if second := m2.firstRequest(); !strings.Contains(second, "## Previous session in this project") ||
		!strings.Contains(second, "Asked: first session: look around") || !strings.Contains(second, "Tool calls: Bash 1") {
		t.Fatalf("the second session's first request lacks the first session's summary\nclaude:\n%s\nhooks:\n%s\nrequests:\n%s", out, s.hookLines()+s.payloads(), m2.dump())
	}
}

// firstRequest is the first Messages request, as JSON text.
func (m *model) firstRequest() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.requests) == 0 {
		return ""
	}
	b, _ := json.Marshal(m.requests[0])
	return string(b)
}

// Before a compaction, PromptContext's "always preserve" instructions reach the model's
// summary request, after the user's own /compact instructions.
func TestPreserveInstructionsReachCompaction(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	os.WriteFile(filepath.Join(s.project, ".claude", "harness.json"), []byte(`{"context":{"preserve":["the e2e-preserve-marker decisions"]}}`), 0o644)
	m := startModel(t)
	s.run(m, "hello")
	out := s.run(m, "/compact keep-the-notes", "--continue")
	all := m.allRequests()
	if !strings.Contains(all, `keep-the-notes\n\nWhen summarizing, always preserve:\n- the e2e-preserve-marker decisions`) {
		t.Fatalf("no compaction request carries the instructions\nclaude:\n%s\nhooks:\n%s\nrequests:\n%s", out, s.hookLines()+s.payloads(), m.dump())
	}
}

// allRequests is every request, as JSON text.
func (m *model) allRequests() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, _ := json.Marshal(m.requests)
	return string(b)
}
