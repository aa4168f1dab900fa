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

// SecurityValidator, wired by the installer into the user settings the client loads, blocks a
// destructive Bash call: the command never runs, and the model's next request carries the
// reason as the tool's error.
func TestSecurityValidatorBlocksDestructiveCommand(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	canary := filepath.Join(s.home, "keep-me")
	os.WriteFile(canary, []byte("x"), 0o644)
	m := startModel(t, turn{tool: "Bash", toolUse: "toolu_e2e_rm", input: map[string]any{"command": "cd ~ && rm -rf *", "description": "clean up"}})
	out := s.run(m, "clean up my home directory")
	content, isErr, found := m.toolResult("toolu_e2e_rm")
	if !found || !isErr || !strings.Contains(content, "SecurityValidator: blocked `rm -rf *`") || !strings.Contains(content, "Instead:") {
		t.Fatalf("tool_result %q (error %v, found %v)\nclaude:\n%s\nhooks:\n%s\nrequests:\n%s", content, isErr, found, out, s.hookLines()+s.payloads(), m.dump())
	}
	if _, err := os.Stat(canary); err != nil {
		t.Fatalf("the command ran: %v", err)
	}
}

// An everyday command passes in silence and runs.
func TestSecurityValidatorLetsEverydayCommandsRun(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	m := startModel(t, turn{tool: "Bash", toolUse: "toolu_e2e_echo", input: map[string]any{"command": "echo harness-e2e-ran && git --version >/dev/null", "description": "print"}})
	out := s.run(m, "print something")
	content, isErr, found := m.toolResult("toolu_e2e_echo")
	if !found || isErr || !strings.Contains(content, "harness-e2e-ran") {
		t.Fatalf("tool_result %q (error %v, found %v)\nclaude:\n%s\nhooks:\n%s", content, isErr, found, out, s.hookLines()+s.payloads())
	}
	// AuditLog recorded the call before and after it ran, and the guards their verdicts.
	logs, _ := filepath.Glob(filepath.Join(s.harnessHome, "projects", "*", "audit", "*.jsonl"))
	var all strings.Builder
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		all.Write(b)
	}
	for _, want := range []string{`"hook":"AuditLog","client":"claude","tool":"Bash","tool_use_id":"toolu_e2e_echo"`, `"event":"PostToolUse","hook":"AuditLog"`,
		`"hook":"SecurityValidator","client":"claude","tool":"Bash","tool_use_id":"toolu_e2e_echo","decision":"silent"`} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the audit log has no %s:\n%s", want, all.String())
		}
	}
	// The records carry the client's prompt_id and form one whole chain.
	if !version.Less(event.Version{2, 1, 332}) && !regexp.MustCompile(`"prompt_id":"[0-9a-f-]{36}","event":"PreToolUse","hook":"AuditLog"`).MatchString(all.String()) {
		t.Errorf("no AuditLog record carries Claude Code %s's prompt_id:\n%s", version, all.String())
	}
	cmd := exec.Command(filepath.Join(binDir, "harness"), "audit", "verify")
	cmd.Env = append(os.Environ(), "HOME="+s.home, "HARNESS_HOME="+s.harnessHome)
	if out, err := cmd.CombinedOutput(); err != nil || !regexp.MustCompile(`(?m)^ok .*: \d+ records, seq 1-\d+, head [0-9a-f]{64}$`).Match(out) {
		t.Errorf("harness audit verify after a session: %v\n%s", err, out)
	}
}

// A guard that cannot decide in time denies at its own deadline, below the timeout it is
// installed with, instead of being killed by the client (which would let the call through).
func TestGuardDeadlineDeniesInsteadOfTimingOut(t *testing.T) {
	needClient(t)
	s := newSession(t)
	wiring := filepath.Join(s.project, "..", "wiring.json")
	os.WriteFile(wiring, []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"TestGuard","timeout":2}]}]}}`), 0o644)
	s.install("--defaults", wiring)
	marker := filepath.Join(s.project, "ran")
	m := startModel(t, turn{tool: "Bash", toolUse: "toolu_e2e_hang", input: map[string]any{"command": "echo hang > " + marker, "description": "write"}})
	out := s.run(m, "write the marker")
	content, isErr, found := m.toolResult("toolu_e2e_hang")
	if !found || !isErr || !strings.Contains(content, "no decision before the hook's deadline") {
		t.Fatalf("tool_result %q (error %v, found %v)\nclaude:\n%s\nhooks:\n%s", content, isErr, found, out, s.hookLines()+s.payloads())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the command ran although the guard never decided")
	}
}

// SecretGuard blocks a prompt that holds a key: the model is never called, the reason names
// the kind of secret, and the key is left nowhere on disk. Claude Code 2.1.330 writes the
// prompt into its transcript twice (a queue-operation line before the hooks run, and
// "Original prompt:" in the block notice after); SecretGuard masks the first at once and the
// second at the session's end.
func TestSecretGuardBlocksPromptWithKey(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	const key = "ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde"
	m := startModel(t)
	out := s.run(m, "use my token "+key+" to open the pull request")
	if n := len(m.requests); n != 0 {
		t.Fatalf("the model was called %d times\nclaude:\n%s", n, out)
	}
	if !strings.Contains(out, "SecretGuard: your prompt contains a GitHub token") {
		t.Errorf("the block reason did not reach the user:\n%s", out)
	}
	masked := "use my token " + strings.Repeat("*", len(key)) + " to open the pull request"
	transcripts := 0
	filepath.Walk(filepath.Dir(s.home), func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || p == s.tap || p == s.debug { // the test's own instruments
			return nil
		}
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), key) {
			t.Errorf("the key was left in %s\nclaude:\n%s\nhooks:\n%s", p, out, s.hookLines()+s.payloads())
		}
		if strings.HasSuffix(p, ".jsonl") && strings.Count(string(b), masked) == 2 {
			transcripts++
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(s.harnessHome, "projects")); err == nil {
		filepath.Walk(filepath.Join(s.harnessHome, "projects"), func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.Contains(p, "secretguard") && strings.HasSuffix(p, ".json") {
				t.Errorf("a scrub record outlived the session: %s", p)
			}
			return nil
		})
	}
	if transcripts != 1 {
		t.Errorf("%d transcripts hold the prompt masked twice, want 1\npayloads:\n%s", transcripts, s.payloads())
	}
}

// WriteProtector in the real client: a Write to a private key and one outside the project are
// blocked (the files are not created), a Write to .env asks (which headless mode treats as a
// denial), and a Write inside the project goes through.
func TestWriteProtector(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	key := filepath.Join(s.home, ".ssh", "id_ed25519")
	env := filepath.Join(s.project, ".env")
	// The session lives under /tmp, where writes are allowed; a directory outside the project
	// and every temp dir is made in the user's cache.
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(cache, 0o755)
	elsewhere, err := os.MkdirTemp(cache, "harness-e2e-outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(elsewhere) })
	outside := filepath.Join(elsewhere, "notes.md")
	ok := filepath.Join(s.project, "notes.md")
	m := startModel(t,
		turn{tool: "Write", toolUse: "toolu_e2e_key", input: map[string]any{"file_path": key, "content": "not a key"}},
		turn{tool: "Write", toolUse: "toolu_e2e_env", input: map[string]any{"file_path": env, "content": "A=1\n"}},
		turn{tool: "Write", toolUse: "toolu_e2e_outside", input: map[string]any{"file_path": outside, "content": "x\n"}},
		turn{tool: "Write", toolUse: "toolu_e2e_ok", input: map[string]any{"file_path": ok, "content": "fine\n"}})
	out := s.run(m, "write four files")
	content, isErr, found := m.toolResult("toolu_e2e_key")
	if !found || !isErr || !strings.Contains(content, "WriteProtector: blocked writing") {
		t.Errorf("key: %q (error %v, found %v)\nclaude:\n%s", content, isErr, found, out)
	}
	if _, err := os.Stat(key); err == nil {
		t.Error("the key file was written")
	}
	content, isErr, found = m.toolResult("toolu_e2e_env")
	if !found || !isErr {
		t.Errorf(".env: %q (error %v, found %v)", content, isErr, found)
	}
	if _, err := os.Stat(env); err == nil {
		t.Error(".env was written although the hook asked, in headless mode")
	}
	content, isErr, found = m.toolResult("toolu_e2e_outside")
	if !found || !isErr || !strings.Contains(content, "outside the project") {
		t.Errorf("outside: %q (error %v, found %v)", content, isErr, found)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("a file outside the project was written")
	}
	if _, isErr, found = m.toolResult("toolu_e2e_ok"); !found || isErr {
		t.Errorf("notes.md: error %v, found %v\nclaude:\n%s\nhooks:\n%s", isErr, found, out, s.hookLines()+s.payloads())
	}
	if b, err := os.ReadFile(ok); err != nil || string(b) != "fine\n" {
		t.Errorf("notes.md was not written: %v", err)
	}
}
