package e2e

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// serveProc is one run of harness serve, under socket activation.
type serveProc struct {
	cmd *exec.Cmd
	log string
}

func (p *serveProc) stop() {
	if p.cmd.ProcessState == nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
}

// serveSession is a session whose user settings harness install --serve wrote: the guards and
// AuditLog as type "http" hooks (the guards with onFailure "block"), serve-register on
// SessionStart, the allowlist entries and the secret's variable, and the systemd user units.
// No user manager runs here, so systemd-socket-activate stands in for one: it holds the
// socket unit's address and runs the service unit's ExecStart on it, as systemd would.
type serveSession struct {
	*session
	addr, base, serveLog string
	execStart            []string
	srv                  *serveProc
}

func newServeSession(t testing.TB) *serveSession {
	t.Helper()
	if _, err := exec.LookPath("systemd-socket-activate"); err != nil {
		t.Skip("systemd-socket-activate is not installed")
	}
	s := &serveSession{session: newSession(t)}
	root := filepath.Dir(s.home)
	s.serveLog = filepath.Join(root, "serve.log")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(filepath.Join(binDir, "harness"), "install", "--serve", "--listen", port, "--bin", binDir)
	cmd.Env = append(os.Environ(), "HOME="+s.home, "HARNESS_HOME="+s.harnessHome, "HARNESS_CLAUDE="+claude, "XDG_CONFIG_HOME="+filepath.Join(s.home, ".config"),
		"HARNESS_SYSTEM_DIR="+filepath.Join(root, "system"), "HARNESS_SYSTEMCTL=/nonexistent/systemctl")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "no systemd user manager is running here") {
		t.Fatalf("harness install --serve: %v\n%s", err, out)
	}
	units := filepath.Join(s.home, ".config", "systemd", "user")
	s.addr = unitValue(t, filepath.Join(units, "harness-serve.socket"), "ListenStream")
	s.execStart = strings.Fields(unitValue(t, filepath.Join(units, "harness-serve.service"), "ExecStart"))
	s.base = "http://" + s.addr
	s.start()
	return s
}

// unitValue is a key's value in a unit file the installer wrote.
func unitValue(t testing.TB, unit, key string) string {
	t.Helper()
	b, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key+"="); ok {
			return v
		}
	}
	t.Fatalf("%s has no %s:\n%s", unit, key, b)
	return ""
}

// start is a new activation on the socket unit's address: the unit's ExecStart, given the
// socket as systemd gives it (LISTEN_FDS, LISTEN_PID).
func (s *serveSession) start() {
	s.t.Helper()
	f, err := os.OpenFile(s.serveLog, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command("systemd-socket-activate", append([]string{"-l", s.addr}, s.execStart...)...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.srv = &serveProc{cmd: cmd, log: s.serveLog}
	s.t.Cleanup(s.srv.stop)
	for i := 0; i < 100; i++ {
		if c, err := net.DialTimeout("tcp", s.addr, 100*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := os.ReadFile(s.serveLog)
	s.t.Fatalf("nothing listens on %s:\n%s", s.addr, b)
}

// debug is what a failing scenario shows.
func (s *serveSession) debug(out string, m *model) string {
	log, _ := os.ReadFile(s.serveLog)
	return fmt.Sprintf("\nclaude:\n%s\nserver:\n%s\nhooks:\n%s\nrequests:\n%s", out, log, s.hookLines()+s.payloads(), m.dump())
}

// In serve mode, as harness install --serve wires it, the real client blocks a dangerous
// command and runs a safe one; a server killed mid-session blocks the next tool call, and a
// session started while it is down is told so and has its prompt blocked; a new activation on
// the same address answers again, and the audit log it and its predecessor wrote is one whole
// chain.
func TestServeModeGuards(t *testing.T) {
	needClient(t)
	s := newServeSession(t)
	base, debug := s.base, s.debug

	// A dangerous command is blocked with the guard's reason; a safe one runs.
	canary := filepath.Join(s.home, "keep-me")
	os.WriteFile(canary, []byte("x"), 0o644)
	m := startModel(t,
		turn{tool: "Bash", toolUse: "toolu_serve_rm", input: map[string]any{"command": "cd ~ && rm -rf *", "description": "clean up"}},
		turn{tool: "Bash", toolUse: "toolu_serve_echo", input: map[string]any{"command": "echo serve-e2e-ran", "description": "print"}})
	out := s.run(m, "clean up, then print something")
	if content, isErr, found := m.toolResult("toolu_serve_rm"); !found || !isErr || !strings.Contains(content, "SecurityValidator: blocked `rm -rf *`") {
		t.Fatalf("dangerous: tool_result %q (error %v, found %v)%s", content, isErr, found, debug(out, m))
	}
	if _, err := os.Stat(canary); err != nil {
		t.Fatalf("the dangerous command ran: %v", err)
	}
	if content, isErr, found := m.toolResult("toolu_serve_echo"); !found || isErr || !strings.Contains(content, "serve-e2e-ran") {
		t.Fatalf("safe: tool_result %q (error %v, found %v)%s", content, isErr, found, debug(out, m))
	}

	// The server killed while the model is asked: the tool call it asks for is blocked, with
	// Claude Code's own onFailure message naming the URL.
	marker := filepath.Join(s.project, "ran-while-down")
	m = startModel(t, turn{tool: "Bash", toolUse: "toolu_serve_down", input: map[string]any{"command": "echo x > " + marker, "description": "write"}})
	m.before = func(n int) {
		if n == 0 {
			s.srv.stop()
		}
	}
	out = s.run(m, "write the marker")
	if content, isErr, found := m.toolResult("toolu_serve_down"); !found || !isErr || !strings.Contains(content, base+"/hook/") ||
		!strings.Contains(content, `blocking because onFailure is "block"`) {
		t.Fatalf("server killed: tool_result %q (error %v, found %v)%s", content, isErr, found, debug(out, m))
	} else {
		t.Logf("server killed, the model read: %s", content)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("the call ran while the server was down%s", debug(out, m))
	}

	// A session started while it is down: its start says so and how to restart it, and its
	// first prompt is blocked already (SecretGuard on UserPromptSubmit is an HTTP hook too).
	m = startModel(t, turn{tool: "Bash", toolUse: "toolu_serve_down2", input: map[string]any{"command": "echo x > " + marker, "description": "write"}})
	out = s.run(m, "write the marker")
	// (The output holds the message as JSON, its && escaped.)
	if !strings.Contains(out, "harness serve is not answering at "+base+": every guarded tool call will be blocked until it does; start it: systemctl --user daemon-reload ") ||
		!strings.Contains(out, " systemctl --user enable --now harness-serve.socket (where a user manager runs), or run the ExecStart of harness-serve.service under a socket activator (docs/serve.md). harness doctor says more") {
		t.Errorf("the session's start did not say the server is down%s", debug(out, m))
	}
	m.mu.Lock()
	asked := len(m.requests)
	m.mu.Unlock()
	if !strings.Contains(out, `UserPromptSubmit operation blocked by hook:\n[`+base+`/hook/SecretGuard]: failed; blocking because onFailure is \"block\"`) || asked != 0 {
		t.Fatalf("server down: the prompt was not blocked (%d model requests)%s", asked, debug(out, m))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("the call ran while the server was down%s", debug(out, m))
	}

	// Restarted (a new activation on the same address), it answers again, and no record was
	// lost: the chain verifies.
	s.start()
	m = startModel(t, turn{tool: "Bash", toolUse: "toolu_serve_again", input: map[string]any{"command": "echo serve-e2e-again", "description": "print"}})
	out = s.run(m, "print again")
	if content, isErr, found := m.toolResult("toolu_serve_again"); !found || isErr || !strings.Contains(content, "serve-e2e-again") {
		t.Fatalf("restarted: tool_result %q (error %v, found %v)%s", content, isErr, found, debug(out, m))
	}
	logs, _ := filepath.Glob(filepath.Join(s.harnessHome, "projects", "*", "audit", "*.jsonl"))
	var all strings.Builder
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		all.Write(b)
	}
	for _, want := range []string{`"hook":"SecurityValidator","client":"claude","tool":"Bash","tool_use_id":"toolu_serve_rm","decision":"deny"`,
		`"event":"PostToolUse","hook":"AuditLog","client":"claude","tool":"Bash","tool_use_id":"toolu_serve_echo"`,
		`"hook":"SecurityValidator","client":"claude","tool":"Bash","tool_use_id":"toolu_serve_again","decision":"silent"`} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the audit log has no %s:\n%s", want, all.String())
		}
	}
	cmd := exec.Command(filepath.Join(binDir, "harness"), "audit", "verify")
	cmd.Env = append(os.Environ(), "HOME="+s.home, "HARNESS_HOME="+s.harnessHome)
	if out, err := cmd.CombinedOutput(); err != nil || !regexp.MustCompile(`(?m)^ok .*: \d+ records, seq 1-\d+, head [0-9a-f]{64}$`).Match(out) {
		t.Errorf("harness audit verify: %v\n%s", err, out)
	}
}

// A project's settings cannot turn serve mode off: emptying the HTTP hook allowlist or the
// variables hooks may read, or setting the secret's variable, leaves every guarded call
// blocked (by the guard, or by onFailure "block"), never run.
func TestServeModeProjectOverrides(t *testing.T) {
	needClient(t)
	for _, tt := range []struct{ name, settings string }{
		{"allowedHttpHookUrls empty", `{"allowedHttpHookUrls": []}`},
		{"allowedHttpHookUrls elsewhere", `{"allowedHttpHookUrls": ["http://127.0.0.2:9/*"]}`},
		{"httpHookAllowedEnvVars empty", `{"httpHookAllowedEnvVars": []}`},
		{"secret variable overridden", `{"env": {"HARNESS_SERVE_SECRET": "the project's own"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newServeSession(t)
			if err := os.WriteFile(filepath.Join(s.project, ".claude", "settings.json"), []byte(tt.settings), 0o644); err != nil {
				t.Fatal(err)
			}
			canary := filepath.Join(s.home, "keep-me")
			os.WriteFile(canary, []byte("x"), 0o644)
			m := startModel(t, turn{tool: "Bash", toolUse: "toolu_serve_override", input: map[string]any{"command": "cd ~ && rm -rf *", "description": "clean up"}})
			out := s.run(m, "clean up")
			content, isErr, found := m.toolResult("toolu_serve_override")
			// The wrong secret blocks the prompt already (SecretGuard on UserPromptSubmit is an
			// HTTP hook too): the model is never asked, and no tool call is made.
			promptBlocked := !found && strings.Contains(s.hookLines(), "UserPromptSubmit operation blocked by hook:\\nSecretGuard: ")
			if _, err := os.Stat(canary); err != nil || !promptBlocked && (!found || !isErr) {
				t.Fatalf("the call was not blocked (canary: %v): tool_result %q (error %v, found %v)%s", err, content, isErr, found, s.debug(out, m))
			}
			if promptBlocked {
				t.Logf("the prompt was blocked before any tool call")
			} else {
				t.Logf("the model read: %s", content)
			}
		})
	}
}
