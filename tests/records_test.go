package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// runHook runs a hook binary on a payload with the given environment and returns its output.
func runHook(t *testing.T, name, home string, payload []byte, env ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(binDir, name), "--home="+home)
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Env = append(os.Environ(), env...)
	return cmd.CombinedOutput()
}

// Parallel SessionSummary and AgentOutputCapture runs on one session, while the transcript
// grows, never leave a half-written summary, JSON twin or index, and end with the bytes a
// single run gives.
func TestParallelSummariesNeverTear(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../lib/transcript/testdata/main-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tr := filepath.Join(dir, "t.jsonl")
	os.WriteFile(tr, src[:len(src)/2], 0o600)
	home := filepath.Join(dir, "harness")
	env := []string{"CLAUDE_PROJECT_DIR=/home/dev/proj", "HOME=/home/dev"}
	stop := []byte(fmt.Sprintf(`{"session_id":"s-par","transcript_path":%q,"cwd":"/home/dev/proj","hook_event_name":"Stop","stop_hook_active":false}`, tr))
	sub := []byte(fmt.Sprintf(`{"session_id":"s-par","transcript_path":%q,"cwd":"/home/dev/proj","hook_event_name":"SubagentStop","agent_id":"a1","agent_type":"general-purpose","agent_transcript_path":"../lib/transcript/testdata/subagent.jsonl","last_assistant_message":"Subagent finished."}`, tr))
	sessions := filepath.Join(home, "projects", "-home-dev-proj", "sessions")

	var done atomic.Bool
	var torn []string
	var reader sync.WaitGroup
	reader.Add(1)
	go func() {
		defer reader.Done()
		for !done.Load() {
			for _, name := range []string{"s-par.json", "index.json", "s-par.agents/a1.json"} {
				if b, err := os.ReadFile(filepath.Join(sessions, name)); err == nil && !json.Valid(b) {
					torn = append(torn, name)
				}
			}
			if b, err := os.ReadFile(filepath.Join(sessions, "s-par.md")); err == nil && len(b) > 0 && !bytes.HasPrefix(b, []byte("# Session s-par\n")) {
				torn = append(torn, "s-par.md")
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := 0; i < 24; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			payload := stop
			if i%4 == 3 {
				payload = sub
			}
			if out, err := runHook(t, map[bool]string{true: "AgentOutputCapture", false: "SessionSummary"}[i%4 == 3], home, payload, env...); err != nil || len(out) > 0 {
				errs <- fmt.Sprintf("run %d: %v %s", i, err, out)
			}
		}(i)
		if i == 12 {
			os.WriteFile(tr, src, 0o600) // the rest of the transcript arrives mid-way
		}
	}
	wg.Wait()
	done.Store(true)
	reader.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if len(torn) > 0 {
		t.Fatalf("half-written files seen: %v", torn)
	}
	got, _ := os.ReadFile(filepath.Join(sessions, "s-par.md"))

	// One run on a fresh home gives the same summary.
	home2 := filepath.Join(dir, "harness2")
	env2 := []string{"CLAUDE_PROJECT_DIR=/home/dev/proj", "HOME=/home/dev"}
	runHook(t, "AgentOutputCapture", home2, sub, env2...)
	if out, err := runHook(t, "SessionSummary", home2, stop, env2...); err != nil {
		t.Fatal(err, string(out))
	}
	want, _ := os.ReadFile(filepath.Join(home2, "projects", "-home-dev-proj", "sessions", "s-par.md"))
	if !bytes.Equal(got, want) {
		t.Errorf("parallel runs ended with\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(string(got), "## Tool calls (5)") {
		t.Errorf("summary misses the calls:\n%s", got)
	}
}

// Known secrets seeded into a session's prompt, commands, tool output and replies appear in
// no file the record hooks write.
func TestRecordsHoldNoSecrets(t *testing.T) {
	dir := t.TempDir()
	secrets := []string{"ghp_ryjioXD0rbMJ8GWnKrugmmB2lgw9tkBRsAHn", "AKIA3PMHGI2HBN7K47CC",
		"xoxb-491227095221-5990263885770-5ICy5cdbnClAuZ3cfmgl6FIZ", "Serx7gzkZhUDUuGEPV"}
	lines := []string{
		`{"type":"user","timestamp":"2026-01-01T10:00:00Z","message":{"content":"deploy with token ` + secrets[0] + `"}}`,
		`{"type":"assistant","timestamp":"2026-01-01T10:00:01Z","message":{"id":"m1","content":[{"type":"text","text":"Using ` + secrets[1] + `"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"curl -H 'Authorization: Bearer ` + secrets[2] + `' https://slack.com/api > out.txt"}}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"error: DB_PASSWORD=` + secrets[3] + ` rejected","is_error":true}]}}`,
		`{"type":"assistant","message":{"id":"m2","content":[{"type":"tool_use","id":"t2","name":"Write","input":{"file_path":"/home/dev/proj/.env","content":"GITHUB_TOKEN=` + secrets[0] + `"}}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t2","content":"ok"}]},"toolUseResult":{"type":"create"}}`,
		`{"type":"assistant","message":{"id":"m3","content":[{"type":"text","text":"Done with ` + secrets[2] + `"}]}}`,
	}
	tr := filepath.Join(dir, "t.jsonl")
	os.WriteFile(tr, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	home := filepath.Join(dir, "harness")
	env := []string{"CLAUDE_PROJECT_DIR=/home/dev/proj", "HOME=/home/dev"}
	for _, p := range []string{
		`{"session_id":"s-sec","transcript_path":%q,"cwd":"/home/dev/proj","hook_event_name":"Stop","last_assistant_message":"Done with ` + secrets[2] + `"}`,
		`{"session_id":"s-sec","transcript_path":%q,"cwd":"/home/dev/proj","hook_event_name":"SubagentStop","agent_id":"a1","agent_transcript_path":"` + tr + `","last_assistant_message":"key ` + secrets[1] + `"}`,
		`{"session_id":"s-sec","transcript_path":%q,"cwd":"/home/dev/proj","hook_event_name":"SessionEnd","reason":"other"}`,
	} {
		hook := map[bool]string{true: "AgentOutputCapture", false: "SessionSummary"}[strings.Contains(p, "SubagentStop")]
		if out, err := runHook(t, hook, home, []byte(fmt.Sprintf(p, tr)), env...); err != nil {
			t.Fatal(hook, err, string(out))
		}
	}
	n := 0
	filepath.Walk(home, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		n++
		b, _ := os.ReadFile(path)
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds secret %s...", path, s[:6])
			}
		}
		return nil
	})
	if n < 7 {
		t.Errorf("the hooks wrote %d files, want the summary, twin, checkpoint, index and the agent's two", n)
	}
	md, _ := os.ReadFile(filepath.Join(home, "projects", "-home-dev-proj", "sessions", "s-sec.md"))
	for _, want := range []string{"[REDACTED:github-token]", "`/home/dev/proj/.env`", "## Failures (1)"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
}
