package clients

import (
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testClient runs one client three times: with a probe hook of the test's own (which shows the
// runner, the fake model and the checks work, whatever harness does), with harness's hooks
// through a scripted session of six tool calls, and with a prompt that holds a token.
func testClient(t *testing.T, c *client) {
	need(t, c)
	t.Run("runner", func(t *testing.T) { testRunner(t, c) })
	t.Run("hooks", func(t *testing.T) { testHooks(t, c) })
	t.Run("secret prompt", func(t *testing.T) { testSecretPrompt(t, c) })
}

// probeHook denies, with exit 2 and a reason on stderr, every tool call whose payload says
// probe-deny, and lets the rest through.
const probeHook = `#!/bin/sh
p=$(cat)
case $p in *probe-deny*) echo "probe: denied by the test hook" >&2; exit 2;; esac
exit 0
`

func testRunner(t *testing.T, c *client) {
	m := startModel(t, c.proto)
	s := newSession(t, c, m)
	hook := filepath.Join(s.root, "probe.sh")
	s.writeFile(hook, []byte(probeHook))
	os.Chmod(hook, 0o755)
	c.hooks(s, map[string]any{c.preTool: []any{map[string]any{"matcher": "*", "hooks": []any{
		map[string]any{"type": "command", "command": hook, "timeout": c.timeout(10)}}}}})
	m.script(
		c.shell("call_deny", "echo probe-deny > denied.txt"),
		c.shell("call_ok", "echo probe-ok > ok.txt"),
		c.write(s, "call_write", "written.txt", "probe-write\n"),
	)
	out := s.run(m, "run the probe")
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format+"\n%s:\n%s\n%s", append(args, c.name, tail(out), m.dump())...)
	}
	if exists(filepath.Join(s.project, "denied.txt")) {
		fail("the call the probe hook denied ran")
	}
	denied := c.probeDenied
	if denied == "" {
		denied = "probe: denied by the test hook"
	}
	if r, ok := m.result("call_deny"); !ok || !strings.Contains(r, denied) {
		fail("the denied call's result %q (found %v) does not say %q", r, ok, denied)
	}
	if b, err := os.ReadFile(filepath.Join(s.project, "ok.txt")); err != nil || string(b) != "probe-ok\n" {
		fail("the allowed command did not run: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(s.project, "written.txt")); err != nil || string(b) != "probe-write\n" {
		fail("the write tool did not write: %q %v", b, err)
	}
}

// The scripted session's calls, in this order: "ask" comes last because Gemini ends a headless
// run at a hook's ask.
func sessionCalls(s *session) []call {
	c := s.c
	return []call{
		// The home by its absolute path, not ~: were the hooks not loaded and the client
		// to give its shell another HOME, ~ would be the real home.
		c.shell("call_find", "find "+s.home+" -delete"),
		c.shell("call_safe", "echo safe-ran > safe-ran.txt"),
		// Fails on its own (no hook is involved): the summary counts it as a failure.
		c.shell("call_fail", "cat no-such-file.txt"),
		c.write(s, "call_inside", "inside.txt", "inside\n"),
		c.write(s, "call_outside", "../outside.txt", "escaped\n"),
		c.write(s, "call_env", ".env", "TOKEN=x\n"),
		c.shell("call_ask", "chmod -R 777 ./build; echo ask-ran > ask-ran.txt"),
	}
}

func testHooks(t *testing.T, c *client) {
	m := startModel(t, c.proto)
	s := newSession(t, c, m)
	marker := filepath.Join(s.home, "keep-me")
	s.writeFile(marker, []byte("x"))
	s.install()
	s.checkInstall()
	m.script(sessionCalls(s)...)
	out := s.run(m, "tidy up this project")
	s.keepTranscripts()
	fail := func(t *testing.T, format string, args ...any) {
		t.Helper()
		t.Errorf(format+"\n%s:\n%s\n%s", append(args, c.name, tail(out), m.dump())...)
	}

	t.Run("dangerous command blocked, reason to the model", func(t *testing.T) {
		if !exists(marker) {
			fail(t, "find -delete ran: the marker in the home is gone")
		}
		if r, ok := m.result("call_find"); !ok || !strings.Contains(r, "SecurityValidator") || !strings.Contains(r, "deletes everything in your home directory") {
			fail(t, "the model did not get SecurityValidator's reason: %q (found %v)", r, ok)
		}
	})
	t.Run("ask command does not run", func(t *testing.T) {
		if !m.made("call_ask") {
			fail(t, "the session ended before the model asked for the command")
		}
		if exists(filepath.Join(s.project, "ask-ran.txt")) {
			fail(t, "the command SecurityValidator asks about ran")
		}
		if r, ok := m.result("call_ask"); ok && !strings.Contains(r, "SecurityValidator") {
			fail(t, "the model was not told why: %q", r)
		}
	})
	t.Run("safe command runs, hooks silent", func(t *testing.T) {
		if b, err := os.ReadFile(filepath.Join(s.project, "safe-ran.txt")); err != nil || string(b) != "safe-ran\n" {
			fail(t, "the safe command did not run: %q %v", b, err)
		}
		r, ok := m.result("call_safe")
		if !ok {
			fail(t, "no result for the safe command")
		}
		// Paths are left out: the work directory's own name may hold any word.
		r = strings.NewReplacer(s.project, "", s.home, "").Replace(r)
		for _, word := range []string{"hook", "SecurityValidator", "SecretGuard", "WriteProtector", "AuditLog"} {
			if strings.Contains(strings.ToLower(r), strings.ToLower(word)) {
				fail(t, "the safe command's result mentions %q: %q", word, r)
			}
		}
	})
	t.Run("writes outside the project and to .env stopped, inside allowed", func(t *testing.T) {
		if b, err := os.ReadFile(filepath.Join(s.project, "inside.txt")); err != nil || string(b) != "inside\n" {
			fail(t, "the write inside the project did not happen: %q %v", b, err)
		}
		if exists(filepath.Join(s.root, "outside.txt")) {
			fail(t, "../outside.txt was written")
		}
		if exists(filepath.Join(s.project, ".env")) {
			fail(t, ".env was written")
		}
		// Gemini's write_file refuses both paths itself, before any hook runs (gemini.md,
		// "Built-in write protection"); elsewhere WriteProtector has to say why.
		if c != gemini {
			if r, ok := m.result("call_outside"); !ok || !strings.Contains(r, "WriteProtector") {
				fail(t, "the model was not told WriteProtector's reason for ../outside.txt: %q (found %v)", r, ok)
			}
		}
	})
	t.Run("LoadContext reaches the model", func(t *testing.T) {
		if c.noContext != "" {
			t.Skip(c.noContext)
		}
		if !m.contains("harness LoadContext") {
			fail(t, "no request carries LoadContext's briefing")
		}
		// Every guard enforces here (the session shows it): a warning that one does not
		// would be a false alarm, to the model and the user.
		if m.contains("NOT enforcing") || strings.Contains(out, "NOT enforcing") {
			fail(t, "the session was told a guard is not enforcing, although every guard enforced")
		}
	})
	t.Run("SessionSummary writes a true summary", func(t *testing.T) {
		if c.noSummary != "" {
			if n := len(summaries(s)); n != 0 {
				t.Errorf("%d session summaries, although SessionSummary is not wired for %s", n, c.name)
			}
			t.Skip(c.noSummary)
		}
		first := summaries(s)
		if len(first) != 1 {
			t.Fatalf("%d session summaries in %s, want 1 (transcript %s)", len(first), s.harnessHome, s.transcript())
		}
		var id string
		for k := range first {
			id = k
		}
		if c.stopLast != "" {
			// The summary is Stop's; a second, short session's LoadContext brings it up to date
			// with what the client wrote after (summary.CatchUp).
			t.Logf("%s: %v of %d tool calls in the summary at Stop (%s)", c.name, first[id]["tool_calls"], len(sessionCalls(s)), c.stopLast)
			m.script()
			s.run(m, "what did the last session do?")
			if !m.contains("Tool calls: Bash 4; Write 3") {
				t.Errorf("the next session's briefing does not carry every call of the first:\n%s", m.dump())
			}
		}
		checkSummary(t, s, id, len(sessionCalls(s)))
	})
	t.Run("AuditLog records every call", func(t *testing.T) {
		// A call is known in the log by its tool_use_id where the client passes the model's
		// (Codex), else by the command or file in the summary AuditLog writes.
		recs := s.auditRecords()
		var missing []string
		for _, want := range []struct{ id, key string }{
			{"call_find", "find " + s.home}, {"call_safe", "safe-ran.txt"}, {"call_inside", "inside.txt"},
			{"call_outside", "outside.txt"}, {"call_env", ".env"}, {"call_ask", "ask-ran.txt"},
		} {
			if c == gemini && (want.id == "call_outside" || want.id == "call_env") {
				continue // refused by Gemini before any hook runs
			}
			found := false
			for _, r := range recs {
				if r["hook"] == "AuditLog" && (r["tool_use_id"] == want.id || strings.Contains(str(r, "summary"), want.key)) {
					found = true
					break
				}
			}
			if !found {
				missing = append(missing, want.id+" ("+want.key+")")
			}
		}
		if len(missing) > 0 {
			t.Errorf("the audit log has no AuditLog record of %s:\n%s", strings.Join(missing, ", "), s.auditText())
		}
		// Every record names the client that made the call, AuditLog's and the guards' alike.
		for _, r := range recs {
			if r["client"] != c.name {
				t.Errorf("a %s record names client %v, want %s: %v", r["hook"], r["client"], c.name, r)
			}
		}
	})
}

// A prompt that holds a GitHub token never reaches the model, and the audit log says SecretGuard
// stopped it.
func testSecretPrompt(t *testing.T, c *client) {
	if c.noPromptEvent != "" {
		t.Skip(c.noPromptEvent)
	}
	m := startModel(t, c.proto)
	s := newSession(t, c, m)
	s.install()
	token := "ghp_" + rand.Text()[:26] + strings.ToLower(rand.Text()[:10])
	out := s.run(m, "use my token "+token+" to open the pull request")
	var verdicts []string
	for _, r := range s.auditRecords() {
		if r["hook"] == "SecretGuard" && r["tool"] == nil && r["event"] != "SessionEnd" {
			verdicts = append(verdicts, str(r, "decision"))
		}
	}
	t.Run("never reaches the model", func(t *testing.T) {
		if m.contains(token) {
			t.Errorf("the token reached the model\n%s:\n%s\n%s", c.name, tail(out), m.dump())
		}
		// SecretGuard ran on the prompt: a client that never started cannot pass.
		if len(verdicts) == 0 {
			t.Errorf("SecretGuard never judged the prompt:\n%s\n%s:\n%s\n%s", s.auditText(), c.name, tail(out), m.dump())
		}
	})
	t.Run("audit log records the block", func(t *testing.T) {
		if len(verdicts) == 0 || (verdicts[0] != "deny" && verdicts[0] != "block") {
			t.Errorf("SecretGuard's verdicts on the prompt are %q, not a block:\n%s", verdicts, s.auditText())
		}
	})
}

// summaries are the session summaries SessionSummary wrote under the session's HARNESS_HOME,
// by session id.
func summaries(s *session) map[string]map[string]any {
	files, _ := filepath.Glob(filepath.Join(s.harnessHome, "projects", "*", "sessions", "*.json"))
	docs := map[string]map[string]any{}
	for _, f := range files {
		if filepath.Base(f) == "index.json" {
			continue
		}
		var d map[string]any
		if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &d) == nil {
			docs[str(d, "session_id")] = d
		}
	}
	return docs
}

// checkSummary reads the summary of session id that SessionSummary wrote from the client's own
// transcript, and checks it says what the scripted session did: the prompt, every tool call,
// the file written, the command that failed, the command a hook blocked.
func checkSummary(t *testing.T, s *session, id string, calls int) {
	t.Helper()
	d, ok := summaries(s)[id]
	if !ok {
		t.Fatalf("no summary of session %s in %s (transcript %s)", id, s.harnessHome, s.transcript())
	}
	dump, _ := json.MarshalIndent(d, "", "  ")
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format+"\nthe summary:\n%s", append(args, dump)...)
	}
	// A client whose last event is Stop: its summary is the last Stop's, caught up since.
	if final := d["final"] == true; final != (s.c.stopLast == "") {
		fail("final = %v: SessionEnd's run did not write the summary", final)
	}
	if d["format"] != s.c.name || d["unreadable"] != nil {
		fail("format %v (%v), want %s", d["format"], d["unreadable"], s.c.name)
	}
	prompts, _ := d["prompts"].(map[string]any)
	if items := list(prompts["items"]); len(items) != 1 || items[0] != "tidy up this project" {
		fail("prompts %v, want the one typed", prompts["items"])
	}
	if n, _ := d["tool_calls"].(float64); int(n) != calls {
		fail("%v tool calls, want %d", d["tool_calls"], calls)
	}
	created, _ := d["files_created"].(map[string]any)
	if items := list(created["items"]); len(items) != 1 || items[0] != filepath.Join(s.project, "inside.txt") {
		fail("files created %v, want inside.txt", created["items"])
	}
	var failed, blocked []string
	for _, e := range list(d["failures"]) {
		failed = append(failed, str(e, "input")+": "+str(e, "reason"))
	}
	for _, e := range list(d["blocked"]) {
		blocked = append(blocked, str(e, "input")+" by "+str(e, "by"))
	}
	if !slices.Contains(failed, "cat no-such-file.txt: Exit code 1") {
		fail("failures %q do not hold the command that failed", failed)
	}
	if !slices.Contains(blocked, "find "+s.home+" -delete by hook") {
		fail("blocked %q does not hold the command SecurityValidator blocked", blocked)
	}
}
