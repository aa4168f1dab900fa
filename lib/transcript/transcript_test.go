package transcript

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json")

func fresh() *State { return New("s1", "/home/dev/proj", "/home/dev") }

func fold(t *testing.T, path string, cp *Checkpoint) (Summary, *Checkpoint) {
	t.Helper()
	s, cp, err := Fold(path, cp, fresh)
	if err != nil {
		t.Fatal(err)
	}
	return s, cp
}

func js(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// fixtures are the real transcripts: Claude Code 2.1.330's in testdata, and one per other
// client in testdata/<client>/, written by tests/clients (HARNESS_KEEP_TRANSCRIPTS).
func fixtures(t testing.TB) []string {
	files, _ := filepath.Glob("testdata/*.jsonl")
	clients, _ := filepath.Glob("testdata/*/*.jsonl")
	if len(files) < 5 || len(clients) != len(readers) {
		t.Fatalf("found %d transcripts of Claude Code, %d of %d other clients", len(files), len(clients), len(readers))
	}
	return append(files, clients...)
}

// The real transcripts against their reviewed summaries.
func TestGoldenRealTranscripts(t *testing.T) {
	files := fixtures(t)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s, _ := fold(t, f, nil)
			got := js(t, s)
			golden := strings.TrimSuffix(f, ".jsonl") + ".golden.json"
			if *update {
				os.WriteFile(golden, got, 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("summary of %s differs from %s:\n%s", f, golden, got)
			}
		})
	}
}

// What the real transcripts must say, whatever the golden files hold.
func TestRealTranscriptFacts(t *testing.T) {
	s, _ := fold(t, "testdata/main-session.jsonl", nil)
	if s.Tools["Bash"] != 3 || s.Tools["Write"] != 1 || s.Tools["Agent"] != 1 || s.ToolCalls != 5 {
		t.Errorf("tools = %v (%d)", s.Tools, s.ToolCalls)
	}
	if len(s.Failures) != 1 || s.Failures[0].Reason != "Exit code 3" {
		t.Errorf("failures = %+v", s.Failures)
	}
	if len(s.Blocked) != 1 || s.Blocked[0].Tool != "Write" || s.Blocked[0].By != "config" {
		t.Errorf("blocked = %+v", s.Blocked)
	}
	if len(s.Subagents) != 1 || s.Subagents[0].AgentID != "ac726d78fb68be8e3" || s.Subagents[0].Result != "Subagent finished." {
		t.Errorf("subagents = %+v", s.Subagents)
	}
	if s.LastMessage != "All done." || s.Prompts.Total != 1 {
		t.Errorf("last = %q, prompts = %v", s.LastMessage, s.Prompts)
	}

	s, _ = fold(t, "testdata/pretooluse-exit2.jsonl", nil)
	if len(s.Blocked) != 1 || s.Blocked[0].By != "hook" || !strings.Contains(s.Blocked[0].Reason, "TEST-BLOCKED-EXIT2") {
		t.Errorf("blocked = %+v", s.Blocked)
	}
	if len(s.Edited.Items) != 0 {
		t.Errorf("a blocked command wrote %v", s.Edited.Items)
	}

	s, _ = fold(t, "testdata/stop-block.jsonl", nil)
	if len(s.Blocked) != 1 || s.Blocked[0].By != "Stop" || s.Prompts.Total != 1 {
		t.Errorf("blocked = %+v, prompts = %v (hook feedback is not a prompt)", s.Blocked, s.Prompts)
	}

	s, _ = fold(t, "testdata/capture-extras.jsonl", nil)
	want := []string{"First prompt: say hello.", "/compact keep the e2e notes", "/e2e-hello world", "/model sonnet", "Last prompt."}
	if strings.Join(s.Prompts.Items, "|") != strings.Join(want, "|") {
		t.Errorf("prompts = %q, want %q", s.Prompts.Items, want)
	}
	if len(s.Compactions) != 1 || s.Compactions[0].Trigger != "manual" || s.Compactions[0].PreTokens != 2591 {
		t.Errorf("compactions = %+v", s.Compactions)
	}

	// A background agent (the default in the real client): launched, then a task-notification
	// that is no prompt but the agent's result.
	s, _ = fold(t, "testdata/async-agent.jsonl", nil)
	if s.Prompts.Total != 1 || len(s.Subagents) != 1 || s.Subagents[0].Status != "completed" ||
		s.Subagents[0].Result != "Subagent says hi." || s.Subagents[0].DurationMS != 90 {
		t.Errorf("prompts = %v, subagents = %+v", s.Prompts, s.Subagents)
	}

	// The subagent's own transcript: every line is a sidechain line.
	st := fresh()
	st.Agent = true
	s, _, _ = Fold("testdata/subagent.jsonl", nil, func() *State { return st })
	if s.Tools["Bash"] != 1 || s.Commands.Items[0] != "echo from-subagent" || s.LastMessage != "Subagent finished." {
		t.Errorf("agent work = %+v", s)
	}
}

// Resuming from a checkpoint at any line boundary, or from a checkpoint taken while the last
// line was half written, gives the same summary as reading the whole file at once.
func TestResumeIsIdempotent(t *testing.T) {
	for _, f := range fixtures(t) {
		data, _ := os.ReadFile(f)
		whole, _ := fold(t, f, nil)
		want := js(t, whole)
		path := filepath.Join(t.TempDir(), "t.jsonl")
		cuts := []int{}
		for i, c := range data {
			if c == '\n' {
				cuts = append(cuts, i+1, i+1+(len(data)-i)/3) // a line boundary, and inside the next line
			}
		}
		for _, cut := range cuts {
			if cut > len(data) {
				continue
			}
			os.WriteFile(path, data[:cut], 0o600)
			_, cp := fold(t, path, nil)
			saved, _ := cp.Encode()
			cp, _ = Decode(saved)
			os.WriteFile(path, data, 0o600)
			got, cp2 := fold(t, path, cp)
			if g := js(t, got); !bytes.Equal(g, want) {
				t.Fatalf("%s resumed at byte %d:\n%s\nwant\n%s", f, cut, g, want)
			}
			if cp2.Offset != int64(len(data)) {
				t.Fatalf("%s: checkpoint at %d, want %d", f, cp2.Offset, len(data))
			}
		}
	}
}

// A checkpoint that does not fit the file (rewritten, shorter) is dropped, not trusted.
func TestStaleCheckpointIsDropped(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	main, _ := os.ReadFile("testdata/main-session.jsonl")
	other, _ := os.ReadFile("testdata/stop-block.jsonl")
	os.WriteFile(a, main, 0o600)
	_, cp := fold(t, a, nil)
	os.WriteFile(a, append(other, other...), 0o600) // rewritten, longer
	got, _ := fold(t, a, cp)
	os.WriteFile(b, append(other, other...), 0o600)
	want, _ := fold(t, b, nil)
	if !bytes.Equal(js(t, got), js(t, want)) {
		t.Errorf("a rewritten file was resumed from a stale checkpoint")
	}
	os.WriteFile(a, other[:100], 0o600) // shorter
	if s, _ := fold(t, a, cp); s.Prompts.Total != 0 || s.Lines != 0 {
		t.Errorf("a shorter file was resumed: %+v", s)
	}
}

// Every kind of line, and every kind of damage.
func TestSyntheticLines(t *testing.T) {
	lines := []string{
		`{"type":"queue-operation","operation":"enqueue","content":"ignored"}`,
		`not json at all`,
		`{"type":"user","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"Fix the build\nwith details"}}`,
		`{"type":"user","isMeta":true,"timestamp":"2026-01-01T10:00:01Z","message":{"role":"user","content":"meta text"}}`,
		`{"type":"user","isSidechain":true,"message":{"role":"user","content":"sidechain prompt"}}`,
		`{"type":"some-future-type","timestamp":"2099-01-01T00:00:00Z"}`,
		`{"type":"assistant","timestamp":"2026-01-01T10:00:02Z","cwd":"/home/dev/proj","message":{"id":"m1","content":[{"type":"text","text":"Part one."}]}}`,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cd sub && go build ./... > build.log 2>&1"}}]}}`,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Part two."}]}}`,
		`{"type":"assistant","message":{"id":"m2","content":[{"type":"tool_use","id":"t2","name":"Write","input":{"file_path":"/home/dev/proj/new.go","content":"x"}},{"type":"tool_use","id":"t3","name":"Edit","input":{"file_path":"/home/dev/proj/old.go"}},{"type":"tool_use","id":"t4","name":"MultiEdit","input":{"file_path":"/home/dev/proj/old.go"}},{"type":"tool_use","id":"t5","name":"NotebookEdit","input":{"notebook_path":"/home/dev/proj/n.ipynb"}},{"type":"tool_use","id":"t6","name":"Read","input":{"file_path":"/etc/hosts"}}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"","is_error":false}]},"toolUseResult":{"stdout":""}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t2","content":"ok"}]},"toolUseResult":{"type":"create","filePath":"/home/dev/proj/new.go"}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t3","content":"ok"},{"type":"tool_result","tool_use_id":"t4","content":"ok"}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t5","content":[{"type":"text","text":"notebook failed"}],"is_error":true}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t6","content":"hosts"}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"unknown","content":"orphan result"}]}}`,
		`{"type":"system","subtype":"compact_boundary","timestamp":"2026-01-01T10:05:00Z","compactMetadata":{"trigger":"auto","preTokens":150000}}`,
		`{"type":"user","isCompactSummary":true,"message":{"content":"This session is being continued..."}}`,
		`{"type":"attachment","attachment":{"type":"hook_blocking_error","hookEvent":"Stop","blockingError":{"blockingError":"run the tests first\nmore"}}}`,
		`{"type":"assistant","timestamp":"2026-01-01T10:06:00Z","message":{"id":"m3","content":[{"type":"text","text":"Done: built and wrote new.go."}]}}`,
		`{"type":"user","message":{"content":[{"type":"text","text":"Thanks"}]`, // truncated in the middle
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o600) // last line unterminated
	s, cp := fold(t, path, nil)
	check := func(what string, got, want any) {
		t.Helper()
		if g, w := string(js(t, got)), string(js(t, want)); g != w {
			t.Errorf("%s = %s, want %s", what, g, w)
		}
	}
	check("prompts", s.Prompts, List{Items: []string{"Fix the build"}, Total: 1})
	check("tools", s.Tools, map[string]int{"Bash": 1, "Write": 1, "Edit": 1, "MultiEdit": 1, "NotebookEdit": 1, "Read": 1})
	check("created", s.Created, List{Items: []string{"/home/dev/proj/new.go"}, Total: 1})
	check("edited", s.Edited, List{Items: []string{"/home/dev/proj/sub/build.log", "/home/dev/proj/old.go"}, Total: 2})
	check("failures", s.Failures, []Event{{Tool: "NotebookEdit", ToolUseID: "t5", Input: "/home/dev/proj/n.ipynb", Reason: "notebook failed"}})
	check("blocked", s.Blocked, []Event{{By: "Stop", Reason: "run the tests first"}})
	check("compactions", s.Compactions, []Compaction{{Time: "2026-01-01T10:05:00Z", Trigger: "auto", PreTokens: 150000}})
	check("last", s.LastMessage, "Done: built and wrote new.go.")
	check("span", []string{s.Start, s.End}, []string{"2026-01-01T10:00:00Z", "2026-01-01T10:06:00Z"})
	check("lines", []int{s.Lines, s.Skipped}, []int{20, 1})
	if d := s.Duration().Seconds(); d != 360 {
		t.Errorf("duration = %v", d)
	}
	// The half-written line is not in the checkpoint: once complete, it is read.
	os.WriteFile(path, []byte(strings.Join(lines[:len(lines)-1], "\n")+"\n"+`{"type":"user","message":{"content":[{"type":"text","text":"Thanks"}]}}`+"\n"), 0o600)
	s, _ = fold(t, path, cp)
	check("prompts after the line completed", s.Prompts, List{Items: []string{"Fix the build", "Thanks"}, Total: 2})
}

// A missing transcript (the hook ran before the file was written) is an empty summary.
func TestMissingTranscript(t *testing.T) {
	s, cp := fold(t, filepath.Join(t.TempDir(), "none.jsonl"), nil)
	if s.Lines != 0 || cp == nil || cp.Offset != 0 {
		t.Errorf("summary = %+v, checkpoint = %+v", s, cp)
	}
}

// A line longer than MaxLine is skipped whole; the lines after it are read.
func TestOverlongLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	big := `{"type":"user","message":{"content":"` + strings.Repeat("x", MaxLine+10) + `"}}`
	os.WriteFile(path, []byte(big+"\n"+`{"type":"user","message":{"content":"after"}}`+"\n"), 0o600)
	s, _ := fold(t, path, nil)
	if s.Skipped != 1 || s.Prompts.Total != 1 || s.Prompts.Items[0] != "after" {
		t.Errorf("summary = %+v", s.Prompts)
	}
}

// Lists stop growing at their caps but keep counting.
func TestCaps(t *testing.T) {
	st := fresh()
	for i := 0; i < MaxList+50; i++ {
		st.Line([]byte(`{"type":"user","message":{"content":"prompt"}}`))
	}
	if len(st.Summary.Prompts.Items) != MaxList || st.Summary.Prompts.Total != MaxList+50 {
		t.Errorf("prompts: %d kept, %d total", len(st.Summary.Prompts.Items), st.Summary.Prompts.Total)
	}
}

// Secrets in prompts, commands, tool output and replies appear nowhere in the summary.
func TestSecretsAreRedacted(t *testing.T) {
	secrets := []string{"AKIA3PMHGI2HBN7K47CC", "ghp_ryjioXD0rbMJ8GWnKrugmmB2lgw9tkBRsAHn",
		"sk-ant-api03-oVglI_wXd-hgA4KXW5g7KB6z8gpS_Bm2BKgWzivldSyWWptI7uLU9EAZCNOYNkIcWB5xISXhidAeHVwjSli5wZL7xmjWSAA"}
	var lines []string
	for i, s := range secrets {
		id := string(rune('a' + i))
		lines = append(lines,
			`{"type":"user","message":{"content":"use the key `+s+` please"}}`,
			`{"type":"assistant","message":{"id":"m`+id+`","content":[{"type":"text","text":"Using `+s+`"},{"type":"tool_use","id":"t`+id+`","name":"Bash","input":{"command":"export TOKEN=`+s+` && curl -H 'x: `+s+`' > out`+id+`.txt"}}]}}`,
			`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t`+id+`","content":"failed with `+s+`","is_error":true}]}}`,
			`{"type":"assistant","message":{"id":"n`+id+`","content":[{"type":"tool_use","id":"u`+id+`","name":"Agent","input":{"description":"check `+s+`"}}]}}`,
			`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"u`+id+`","content":"agent saw `+s+`"}]},"toolUseResult":{"content":[{"type":"text","text":"agent saw `+s+`"}]}}`,
		)
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	s, cp := fold(t, path, nil)
	saved, _ := cp.Encode()
	out := string(js(t, s)) + string(saved)
	for _, sec := range secrets {
		if strings.Contains(out, sec) || strings.Contains(out, sec[:12]) {
			t.Errorf("secret %s leaked into the summary or checkpoint", sec[:8])
		}
	}
	if s.Prompts.Total != 3 || len(s.Failures) != 3 || len(s.Subagents) != 3 {
		t.Errorf("summary lost records: %+v", s)
	}
}

// The last todo list says what was left: its items not completed, in order.
func TestOpenTodos(t *testing.T) {
	lines := []string{
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"old item","status":"pending"}]}}]}}`,
		`{"type":"assistant","message":{"id":"m2","content":[{"type":"tool_use","id":"t2","name":"TodoWrite","input":{"todos":[{"content":"write the parser","status":"completed"},{"content":"add tests\nfor the parser","status":"in_progress"},{"content":"update the README","status":"pending"}]}}]}}`,
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	s, _ := fold(t, path, nil)
	if got, want := string(js(t, s.Open)), string(js(t, List{Items: []string{"add tests", "update the README"}, Total: 2})); got != want {
		t.Errorf("open todos: %s", got)
	}
}
