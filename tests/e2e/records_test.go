package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/event"
)

// After a session that writes a file, runs a failing command and delegates to a subagent,
// SessionSummary's summary exists with the right counts, AgentOutputCapture saved what the
// subagent returned, and AuditLog has a record for every tool_use_id.
func TestSessionRecords(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	m := startModel(t,
		turn{tool: "Write", toolUse: "toolu_e2e_w", input: map[string]any{"file_path": filepath.Join(s.project, "notes.txt"), "content": "hello\n"}},
		turn{tool: "Bash", toolUse: "toolu_e2e_fail", input: map[string]any{"command": "ls /harness-e2e-missing", "description": "list"}},
		turn{tool: "Agent", toolUse: "toolu_e2e_agent", input: map[string]any{"description": "Say hi", "prompt": subMark + ": say hi", "subagent_type": "general-purpose", "run_in_background": false}},
		turn{text: "Done."},
	)
	// The agent runs in the foreground: in the background (the client's default) whether its
	// task-notification starts one more turn before -p exits is a race inside the client, which
	// made this test flaky under load. The background path is covered by lib/transcript's
	// async-agent fixture, taken from the real client.
	m.sub = []turn{{text: "Subagent says hi."}}
	out := s.run(m, "write notes, list a folder, then delegate")
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf(format+"\nclaude:\n%s\nhooks:\n%s\nrequests:\n%s", append(args, out, s.hookLines()+s.payloads(), m.dump())...)
	}
	// The tap that lets a failing scenario show the payloads saw the subagent's stop.
	if p := s.payloads(); !strings.Contains(p, `"hook_event_name":"SubagentStop"`) {
		fail("the payload tap did not see SubagentStop")
	}
	mds, _ := filepath.Glob(filepath.Join(s.harnessHome, "projects", "*", "sessions", "*.md"))
	if len(mds) != 1 {
		fail("summaries: %v", mds)
	}
	b, _ := os.ReadFile(mds[0])
	md := string(b)
	for _, want := range []string{
		"## Prompts (1)\n\n1. write notes, list a folder, then delegate\n",
		"## Tool calls (3)", "- Agent: 1\n", "- Bash: 1\n", "- Write: 1\n",
		"## Files created (1)\n\n- `" + filepath.Join(s.project, "notes.txt") + "`",
		"## Failures (1)\n\n- Bash `ls /harness-e2e-missing`",
		"## Subagents (1)\n\n- general-purpose \"Say hi\" (completed",
		"## Captured subagent outputs (1)", "Subagent says hi.",
		"## Last assistant message\n\n> Done.",
		"- Status: ended",
	} {
		if !strings.Contains(md, want) {
			fail("the summary lacks %q:\n%s", want, md)
		}
	}
	agents, _ := filepath.Glob(filepath.Join(s.harnessHome, "projects", "*", "sessions", "*.agents", "*.md"))
	if len(agents) != 1 {
		fail("captured agents: %v", agents)
	}
	if a, _ := os.ReadFile(agents[0]); !strings.Contains(string(a), "> Subagent says hi.") || !strings.Contains(string(a), "- Type: general-purpose") {
		fail("the captured agent:\n%s", a)
	}
	logs, _ := filepath.Glob(filepath.Join(s.harnessHome, "projects", "*", "audit", "*.jsonl"))
	var all strings.Builder
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		all.Write(b)
	}
	for _, id := range []string{"toolu_e2e_w", "toolu_e2e_fail", "toolu_e2e_agent"} {
		if !strings.Contains(all.String(), `"tool_use_id":"`+id+`"`) {
			fail("the audit log has no record of %s:\n%s", id, all.String())
		}
	}
}

// harness doctor, on the settings the installer wrote for the client, finds every hook in place
// and every guard enforcing.
func TestDoctorOnInstalledSettings(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	cmd := exec.Command(filepath.Join(binDir, "harness"), "doctor")
	cmd.Env = append(os.Environ(), "HOME="+s.home, "HARNESS_HOME="+s.harnessHome, "HARNESS_CLAUDE="+claude)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "every guard enforces") || strings.Contains(string(out), "FAIL") {
		t.Fatalf("harness doctor: %v\n%s", err, out)
	}
	// The skill route: proven by a canary where the client has it, reported as unguarded where not.
	want := regexp.MustCompile(`(?m)^ok +SecurityValidator +PreSkillShellCommand +canary +skill runs git reset --hard: block`)
	if version.Less(event.Version{2, 1, 332}) {
		want = regexp.MustCompile(`(?m)^warn +SecurityValidator +PreSkillShellCommand +client +Claude Code ` + regexp.QuoteMeta(version.String()) + ` never runs`)
	}
	if !want.Match(out) {
		t.Errorf("harness doctor on Claude Code %s: no line matching %s\n%s", version, want, out)
	}
	// The read route, on every client: a Read of a key in the session's home.
	if read := regexp.MustCompile(`(?m)^ok +WriteProtector +PreToolUse +canary +read ~/.ssh/id_canary: block`); !read.Match(out) {
		t.Errorf("harness doctor: no line matching %s\n%s", read, out)
	}
	// The settings doctor checked are the ones the client runs: a session fires the guards.
	m := startModel(t, turn{tool: "Bash", toolUse: "toolu_e2e_doc", input: map[string]any{"command": "rm -rf ~", "description": "x"}})
	run := s.run(m, "doctor check")
	if content, isErr, _ := m.toolResult("toolu_e2e_doc"); !isErr || !strings.Contains(content, "SecurityValidator") {
		t.Fatalf("the guard doctor vouched for did not block in the client: %q\n%s", content, run)
	}
}
