package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/builtin"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
)

const secret = "s3cret-for-tests"

// slow is a guard that never decides: its deadline answers.
var slow = builtin.Hook{
	Spec: hook.Spec{Name: "Slow", Description: "test", Policy: hook.Closed, Events: []hook.Binding{{Event: event.PreToolUse, Matcher: "Bash", Timeout: 1}}},
	Run: func(ctx context.Context, in event.Input) (answer.Answer, error) {
		<-ctx.Done()
		return nil, nil
	},
}

func setup(t *testing.T) (*httptest.Server, string, string) {
	t.Helper()
	root := t.TempDir()
	home, user, proj := filepath.Join(root, "harness"), filepath.Join(root, "user"), filepath.Join(root, "user", "proj")
	for _, d := range []string{home, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	hooks := map[string]builtin.Hook{"Slow": slow}
	for k, v := range builtin.Hooks {
		hooks[k] = v
	}
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	srv.Config.Handler = Handler(Config{Home: home, SystemDir: filepath.Join(root, "system"), Secret: secret,
		Host: srv.Listener.Addr().String(), Hooks: hooks, Log: io.Discard})
	t.Cleanup(srv.Close)
	if err := Register(home, "sess-1", Session{Project: proj, Home: user}); err != nil {
		t.Fatal(err)
	}
	return srv, home, proj
}

func bash(session, cmd, cwd string) string {
	return `{"session_id":"` + session + `","hook_event_name":"PreToolUse","cwd":"` + cwd + `","tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"command":"` + cmd + `"}}`
}

func TestServe(t *testing.T) {
	srv, home, proj := setup(t)
	denied := func(reason string) string {
		return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"SecurityValidator: blocked because the hook could not check this call: ` + reason + `"}}` + "\n"
	}
	tests := []struct {
		name, path, body string
		header           map[string]string
		status           int
		want             string
	}{
		{name: "safe", path: "/hook/SecurityValidator", body: bash("sess-1", "ls -la", proj), status: 200, want: ""},
		{name: "no secret", path: "/hook/SecurityValidator", body: bash("sess-1", "ls", proj), header: map[string]string{SecretHeader: ""},
			status: 200, want: denied("the request does not carry the server's secret (header X-Harness-Secret)")},
		{name: "bad secret", path: "/hook/SecurityValidator", body: bash("sess-1", "ls", proj), header: map[string]string{SecretHeader: "guess"},
			status: 200, want: denied("the request does not carry the server's secret (header X-Harness-Secret)")},
		{name: "origin", path: "/hook/SecurityValidator", body: bash("sess-1", "ls", proj), header: map[string]string{"Origin": "http://evil.example"},
			status: 200, want: denied("a request from a web page (it carries an Origin header)")},
		{name: "host", path: "/hook/SecurityValidator", body: bash("sess-1", "ls", proj), header: map[string]string{"Host": "rebound.example:80"},
			status: 200, want: denied(`the Host header is \"rebound.example:80\", not the server's address`)},
		{name: "unknown session", path: "/hook/SecurityValidator", body: bash("sess-2", "ls", proj),
			status: 200, want: denied("session sess-2 was never registered (its SessionStart hook, harness serve-register, did not run)")},
		{name: "malformed body", path: "/hook/SecurityValidator", body: `{"session_id":"sess-1","hook_event_name":"PreToolUse","tool_input":{`,
			status: 200, want: denied("invalid hook input: not valid JSON (truncated or malformed)")},
		{name: "not JSON at all", path: "/hook/SecurityValidator", body: `rm -rf /`,
			status: 403, want: "SecurityValidator: blocked because the hook could not check this call: the payload names no session_id\n"},
		{name: "unknown hook", path: "/hook/Nope", body: bash("sess-1", "ls", proj), status: 404, want: "harness serve: no hook is served at /hook/Nope (POST /hook/<Name>)\n"},
		{name: "deadline", path: "/hook/Slow", body: bash("sess-1", "ls", proj), status: 200,
			want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Slow: blocked because the hook could not check this call: no decision before the hook's deadline"}}` + "\n"},
		{name: "audit log, unknown session", path: "/hook/AuditLog", body: bash("sess-2", "ls", proj), status: 403,
			want: "AuditLog: blocked because the hook could not check this call: session sess-2 was never registered (its SessionStart hook, harness serve-register, did not run)\n"},
		{name: "audit log", path: "/hook/AuditLog", body: bash("sess-1", "ls", proj), status: 200, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", srv.URL+tt.path, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(SecretHeader, secret)
			for k, v := range tt.header {
				if k == "Host" {
					req.Host = v
				} else {
					req.Header.Set(k, v)
				}
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || string(b) != tt.want {
				t.Errorf("got %d %q\nwant %d %q", resp.StatusCode, b, tt.status, tt.want)
			}
		})
	}
	// A dangerous command is denied with the rule, and the verdict is in the audit log.
	req, _ := http.NewRequest("POST", srv.URL+"/hook/SecurityValidator", strings.NewReader(bash("sess-1", "rm -rf /", "/")))
	req.Header.Set(SecretHeader, secret)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(string(b), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"SecurityValidator: `) {
		t.Errorf("rm -rf /: got %d %q, want a deny", resp.StatusCode, b)
	}
	logs, _ := filepath.Glob(filepath.Join(audit.Dir(home, proj), "*.jsonl"))
	var all string
	for _, f := range logs {
		b, _ := os.ReadFile(f)
		all += string(b)
	}
	if !strings.Contains(all, `"hook":"SecurityValidator"`) || !strings.Contains(all, `"decision":"deny"`) || !strings.Contains(all, `"hook":"AuditLog"`) {
		t.Errorf("the audit log under %s lacks the verdicts:\n%s", home, all)
	}
}

// The proof shows the server holds the secret without sending it, to a caller that has none;
// a web page (Origin) or a rebound name (Host) still gets nothing.
func TestProof(t *testing.T) {
	srv, _, _ := setup(t)
	nonce := "0123456789abcdef-nonce"
	tests := []struct {
		name   string
		header map[string]string
		status int
		want   string
	}{
		{"proof", map[string]string{NonceHeader: nonce}, 200, Proof(secret, nonce)},
		{"short nonce", map[string]string{NonceHeader: "short"}, 400, "harness serve: the proof takes a nonce of 16 to 256 characters in X-Harness-Nonce\n"},
		{"origin", map[string]string{NonceHeader: nonce, "Origin": "http://evil.example"}, 403, "harness serve: a request from a web page (it carries an Origin header)\n"},
		{"host", map[string]string{NonceHeader: nonce, "Host": "rebound.example:80"}, 403, "harness serve: the Host header is \"rebound.example:80\", not the server's address\n"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("POST", srv.URL+ProofPath, nil)
		for k, v := range tt.header {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || string(b) != tt.want {
			t.Errorf("%s: got %d %q, want %d %q", tt.name, resp.StatusCode, b, tt.status, tt.want)
		}
	}
	if p := Proof(secret, nonce); len(p) != 64 || strings.Contains(p, secret) || p == Proof("another-secret", nonce) || p == Proof(secret, nonce+"x") {
		t.Errorf("the proof %q does not depend on both secret and nonce", p)
	}
}

func TestRegister(t *testing.T) {
	home := t.TempDir()
	if err := Register(home, "a.b", Session{Project: "/p", Home: "/h"}); err != nil {
		t.Fatal(err)
	}
	if s, err := Lookup(home, "a.b"); err != nil || s.Project != "/p" || s.Home != "/h" {
		t.Errorf("Lookup(a.b) = %+v, %v", s, err)
	}
	// a_b shares a.b's file name but is another session.
	if _, err := Lookup(home, "a_b"); err == nil || err.Error() != "session a_b was never registered (its file names another session)" {
		t.Errorf("Lookup(a_b) = %v", err)
	}
	if err := Register(home, "x", Session{Project: "rel", Home: "/h"}); err == nil {
		t.Error("a relative project root was registered")
	}
	st, err := os.Stat(sessionFile(home, "a.b"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("registration file: %v, %v", st, err)
	}
}

// Calls answered at once, as Claude Code sends a tool call's hooks in parallel: each gets its
// own answer, and every record is in the chain (run with -race).
func TestServeParallel(t *testing.T) {
	srv, home, proj := setup(t)
	const n = 40
	type result struct {
		hook string
		code int
		body string
	}
	results := make(chan result, 4*n)
	var wg sync.WaitGroup
	for i := range n {
		for _, h := range []string{"SecurityValidator", "WriteProtector", "SecretGuard", "AuditLog"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := "ls"
				if i%2 == 1 {
					cmd = "rm -rf /"
				}
				req, _ := http.NewRequest("POST", srv.URL+"/hook/"+h, strings.NewReader(bash("sess-1", cmd, proj)))
				req.Header.Set(SecretHeader, secret)
				resp, err := srv.Client().Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				want := ""
				if i%2 == 1 && h == "SecurityValidator" {
					want = "deny"
				}
				if resp.StatusCode != 200 || (want == "") != (len(b) == 0) || want != "" && !strings.Contains(string(b), `"permissionDecision":"deny"`) {
					t.Errorf("%s, %s: got %d %q", h, cmd, resp.StatusCode, b)
				}
				results <- result{h, resp.StatusCode, string(b)}
			}()
		}
	}
	wg.Wait()
	close(results)
	if len(results) != 4*n {
		t.Fatalf("%d answers, want %d", len(results), 4*n)
	}
	if rep, err := audit.Verify(audit.Dir(home, proj)); err != nil || rep.Break != nil || rep.Records != 4*n {
		t.Errorf("the chain after parallel calls: %+v, %v", rep, err)
	}
	logs, _ := filepath.Glob(filepath.Join(audit.Dir(home, proj), "*.jsonl"))
	lines := 0
	for _, f := range logs {
		b, _ := os.ReadFile(f)
		lines += strings.Count(string(b), "\n")
	}
	// AuditLog's record and each guard's verdict: four per call.
	if lines != 4*n {
		t.Errorf("%d records, want %d", lines, 4*n)
	}
}
