package e2e

import (
	"encoding/json"
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

// serveProc is one run of harness serve.
type serveProc struct {
	cmd *exec.Cmd
	log string
}

func startServe(t testing.TB, addr, secretFile, harnessHome, system, log string) *serveProc {
	t.Helper()
	f, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(filepath.Join(binDir, "harness"), "serve", "--listen", addr, "--secret-file", secretFile, "--home", harnessHome, "--system-dir", system)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProc{cmd: cmd, log: log}
	t.Cleanup(p.stop)
	for i := 0; i < 100; i++ {
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return p
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := os.ReadFile(log)
	t.Fatalf("harness serve did not listen on %s:\n%s", addr, b)
	return nil
}

func (p *serveProc) stop() {
	if p.cmd.ProcessState == nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
}

// serveSession is a session whose user settings wire the guards and AuditLog as type "http"
// hooks (the guards with onFailure "block") to a harness serve of its own, with the secret in
// the user settings' env, and serve-register as the SessionStart command hook.
type serveSession struct {
	*session
	addr, base, secretFile, system, serveLog string
	srv                                      *serveProc
}

func newServeSession(t testing.TB) *serveSession {
	s := &serveSession{session: newSession(t)}
	root := filepath.Dir(s.home)
	s.system = filepath.Join(root, "system")
	s.secretFile = filepath.Join(root, "serve.secret")
	s.serveLog = filepath.Join(root, "serve.log")
	secret := "e2e-serve-secret-0123456789abcdef"
	if err := os.WriteFile(s.secretFile, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	ln.Close()
	s.base = "http://" + s.addr

	httpHook := func(name string, guard bool) map[string]any {
		h := map[string]any{"type": "http", "url": s.base + "/hook/" + name, "timeout": 10,
			"headers": map[string]any{"X-Harness-Secret": "$HARNESS_SERVE_SECRET"}, "allowedEnvVars": []any{"HARNESS_SERVE_SECRET"}}
		if guard {
			h["onFailure"] = "block"
		}
		return h
	}
	settings := map[string]any{
		"env":                    map[string]any{"HARNESS_SERVE_SECRET": secret},
		"allowedHttpHookUrls":    []any{s.base + "/*"},
		"httpHookAllowedEnvVars": []any{"HARNESS_SERVE_SECRET"},
		"hooks": map[string]any{
			"SessionStart": []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "timeout": 5,
				"command": filepath.Join(binDir, "harness"), "args": []any{"serve-register", "--home", s.harnessHome, "--url", s.base}}}}},
			"PreToolUse": []any{
				map[string]any{"matcher": "Bash|PowerShell", "hooks": []any{httpHook("SecurityValidator", true), httpHook("SecretGuard", true)}},
				map[string]any{"matcher": "^(Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|Read|NotebookRead|Grep|Glob|mcp__.*)$", "hooks": []any{httpHook("WriteProtector", true)}},
				map[string]any{"matcher": "*", "hooks": []any{httpHook("AuditLog", false)}},
			},
			"PostToolUse": []any{map[string]any{"matcher": "*", "hooks": []any{httpHook("AuditLog", false)}}},
		},
	}
	b, _ := json.MarshalIndent(settings, "", "  ")
	os.MkdirAll(filepath.Join(s.home, ".claude"), 0o755)
	if err := os.WriteFile(filepath.Join(s.home, ".claude", "settings.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	s.start()
	return s
}

func (s *serveSession) start() {
	s.srv = startServe(s.t, s.addr, s.secretFile, s.harnessHome, s.system, s.serveLog)
}

// debug is what a failing scenario shows.
func (s *serveSession) debug(out string, m *model) string {
	log, _ := os.ReadFile(s.serveLog)
	return fmt.Sprintf("\nclaude:\n%s\nserver:\n%s\nhooks:\n%s\nrequests:\n%s", out, log, s.hookLines()+s.payloads(), m.dump())
}

// In serve mode the real client blocks a dangerous command and runs a safe one; a killed
// server blocks the next guarded call; a restarted one answers again, and the audit log it and
// its predecessor wrote is one whole chain.
func TestServeModeGuards(t *testing.T) {
	needClient(t)
	s := newServeSession(t)
	srv, base, debug := s.srv, s.base, s.debug

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

	// A killed server: the next guarded call is blocked, and the session's start says so.
	srv.stop()
	marker := filepath.Join(s.project, "ran-while-down")
	m = startModel(t, turn{tool: "Bash", toolUse: "toolu_serve_down", input: map[string]any{"command": "echo x > " + marker, "description": "write"}})
	out = s.run(m, "write the marker")
	if content, isErr, found := m.toolResult("toolu_serve_down"); !found || !isErr || !strings.Contains(content, base+"/hook/") {
		// Claude Code's own onFailure message names the URL that failed.
		t.Fatalf("server down: tool_result %q (error %v, found %v)%s", content, isErr, found, debug(out, m))
	} else {
		t.Logf("server down, the model read: %s", content)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("the call ran while the server was down%s", debug(out, m))
	}
	if !strings.Contains(out, "harness serve is not answering at "+base) {
		t.Errorf("the session's start did not say the server is down%s", debug(out, m))
	}

	// Restarted, it answers again, and no record was lost: the chain verifies.
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
			if _, err := os.Stat(canary); err != nil || !found || !isErr {
				t.Fatalf("the call was not blocked (canary: %v): tool_result %q (error %v, found %v)%s", err, content, isErr, found, s.debug(out, m))
			}
			t.Logf("the model read: %s", content)
		})
	}
}
