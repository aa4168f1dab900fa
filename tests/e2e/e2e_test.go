// Package e2e runs the real Claude Code client (pinned 2.1.332; .ci/run runs the suite again on
// 2.1.330), headless and offline, against a scripted Messages API server on 127.0.0.1, with
// hooks installed by the project's own installer, and checks what the model was sent.
//
// Without the client the tests skip, saying how to enable them; with HARNESS_E2E=1 (set by
// .ci/run) a missing client fails. HARNESS_E2E_CLAUDE names the claude binary; by default it is
// looked for where .ci/run installs it (~/.cache/harness/claude-2.1.332) and in .cache/claude
// under the repository. Tests of what a newer client added skip on an older one (needVersion).
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/sandbox"
	"github.com/hookkit/harness/tests/internal/cacheinputs"
)

var (
	binDir  string        // the hooks and the harness CLI, built once
	claude  string        // the client
	version event.Version // the client's, from claude --version
)

// pinned is the Claude Code version the tests are written against.
const pinned = "2.1.332"

// installHint says how to get the pinned client.
const installHint = "npm install --no-audit --no-fund --prefix ~/.cache/harness/claude-" + pinned + " @anthropic-ai/claude-code@" + pinned

func TestMain(m *testing.M) {
	leave := sandbox.Enter() // every test in a throwaway home (lib/sandbox)
	code := run(m)
	leave()
	os.Exit(code)
}

func run(m *testing.M) int {
	// With the client present, the tests run in a network namespace that has only loopback:
	// the scripted model and the client share it, and nothing can reach any other network.
	if findClaude() != "" && os.Getenv("HARNESS_E2E_NETNS") == "" && unshareWorks() {
		cmd := exec.Command("unshare", append([]string{"-n", "sh", "-c", `ip link set lo up && exec "$0" "$@"`, os.Args[0]}, os.Args[1:]...)...)
		cmd.Env = append(os.Environ(), "HARNESS_E2E_NETNS=1")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return ee.ExitCode()
			}
			fmt.Fprintln(os.Stderr, "e2e: running in a network namespace:", err)
			return 1
		}
		return 0
	}
	return setup(m)
}

func setup(m *testing.M) int {
	claude = findClaude()
	if claude == "" {
		if os.Getenv("HARNESS_E2E") == "1" {
			fmt.Fprintln(os.Stderr, "e2e: HARNESS_E2E=1 but no Claude Code client found (install it with: "+installHint+")")
			return 1
		}
		return m.Run() // every test skips with the reason
	}
	out, err := exec.Command(claude, "--version").Output()
	v, ok := event.ParseVersion(string(out))
	if err != nil || !ok {
		fmt.Fprintf(os.Stderr, "e2e: %s --version: %q, %v\n", claude, out, err)
		return 1
	}
	version = v
	fmt.Fprintf(os.Stderr, "e2e: Claude Code %s (%s)\n", version, claude)
	dir, err := os.MkdirTemp("", "harness-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	cmd := exec.Command("go", "build", "-trimpath", "-o", dir+string(os.PathSeparator), "../../hooks/...", "../../cmd/...", "../hooks/...", "./payloadtap", "./mcpserver")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building the binaries:", err)
		return 1
	}
	return m.Run()
}

func findClaude() string {
	if c := os.Getenv("HARNESS_E2E_CLAUDE"); c != "" {
		return c
	}
	for _, c := range []string{filepath.Join(sandbox.Cache(), "harness/claude-"+pinned+"/node_modules/.bin/claude"), "../../.cache/claude/node_modules/.bin/claude"} {
		if abs, err := filepath.Abs(c); err == nil {
			if _, err := os.Stat(abs); err == nil {
				return abs
			}
		}
	}
	return ""
}

func needClient(t testing.TB) {
	t.Helper()
	if claude == "" {
		t.Skip("the real Claude Code client is not installed: " + installHint + " (HARNESS_E2E=1 makes its absence a failure)")
	}
}

// needVersion skips a test of something Claude Code added in v when the client is older.
func needVersion(t *testing.T, v event.Version, what string) {
	t.Helper()
	needClient(t)
	if version.Less(v) {
		t.Skipf("Claude Code %s has no %s (it came in %s)", version, what, v)
	}
}

// turn is one scripted model reply: text, or one tool call.
type turn struct {
	text    string
	tool    string
	input   map[string]any
	toolUse string // tool_use id
}

// model is a scripted Messages API: the reply to a request is chosen by how many assistant
// messages the request already holds, so a retry gets the same answer. Every body is kept.
type model struct {
	turns []turn
	// sub are the replies to a subagent: a request whose first message holds subMark.
	sub      []turn
	mu       sync.Mutex
	requests []map[string]any
	srv      *http.Server
	addr     string
	// before, when set, runs before the reply to the request that holds n assistant messages
	// (the n-th turn), while the client waits for it.
	before func(n int)
}

func startModel(t testing.TB, turns ...turn) *model {
	t.Helper()
	m := &model{turns: turns}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m.addr = "http://" + ln.Addr().String()
	m.srv = &http.Server{Handler: http.HandlerFunc(m.serve)}
	go m.srv.Serve(ln)
	t.Cleanup(func() { m.srv.Close() })
	return m
}

func (m *model) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if !strings.HasPrefix(r.URL.Path, "/v1/messages") || strings.Contains(r.URL.Path, "count_tokens") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens": 10}`)
		return
	}
	var req map[string]any
	json.Unmarshal(body, &req)
	m.mu.Lock()
	m.requests = append(m.requests, req)
	m.mu.Unlock()
	n := 0
	msgs, _ := req["messages"].([]any)
	for _, msg := range msgs {
		if mm, _ := msg.(map[string]any); mm["role"] == "assistant" {
			n++
		}
	}
	if m.before != nil {
		m.before(n)
	}
	turns := m.turns
	if len(msgs) > 0 && strings.Contains(flatten(msgs[0].(map[string]any)["content"]), subMark) {
		turns = m.sub
	}
	tr := turn{text: "Done."}
	if n < len(turns) {
		tr = turns[n]
	}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(ev string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, b)
	}
	id := fmt.Sprintf("msg_mock_%d", n)
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": "claude-sonnet-4-5", "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
	stop := "end_turn"
	if tr.tool != "" {
		stop = "tool_use"
		in, _ := json.Marshal(tr.input)
		send("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": tr.toolUse, "name": tr.tool, "input": map[string]any{}}})
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
	} else {
		send("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": tr.text}})
	}
	send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// subMark marks the prompt of a subagent in a scripted Agent call.
const subMark = "SUBTASK-E2E"

// toolResult finds the tool_result for id in the requests the model received.
func (m *model) toolResult(id string) (content string, isError, found bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, req := range m.requests {
		msgs, _ := req["messages"].([]any)
		for _, msg := range msgs {
			mm, _ := msg.(map[string]any)
			blocks, _ := mm["content"].([]any)
			for _, b := range blocks {
				bb, _ := b.(map[string]any)
				if bb["type"] == "tool_result" && bb["tool_use_id"] == id {
					return flatten(bb["content"]), bb["is_error"] == true, true
				}
			}
		}
	}
	return "", false, false
}

func flatten(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var parts []string
		for _, p := range v {
			if pm, _ := p.(map[string]any); pm != nil {
				parts = append(parts, fmt.Sprint(pm["text"]))
			}
		}
		return strings.Join(parts, "\n")
	}
	return fmt.Sprint(v)
}

// dump shows what the model received, for a failing scenario.
func (m *model) dump() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, _ := json.MarshalIndent(m.requests, "", "  ")
	if len(b) > 20000 {
		b = append(b[:20000], "..."...)
	}
	return string(b)
}

// session is one throwaway machine: a home with the hooks installed, and a project.
type session struct {
	t             testing.TB
	home, project string
	harnessHome   string
	debug         string
	// tap receives every payload the client sends to a hook (tests/e2e/payloadtap).
	tap string
	// env is added to the client's environment.
	env []string
	// wrap, when set, is the command the client runs under (its arguments follow).
	wrap []string
}

func newSession(t testing.TB) *session {
	t.Helper()
	root := t.TempDir()
	s := &session{t: t, home: filepath.Join(root, "home"), project: filepath.Join(root, "proj")}
	s.harnessHome = filepath.Join(s.home, ".claude", "harness")
	s.debug = filepath.Join(root, "debug.txt")
	s.tap = filepath.Join(root, "payloads.jsonl")
	for _, d := range []string{s.home, s.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Trust the project, so that nothing waits for a dialog.
	real, _ := filepath.EvalSymlinks(s.project)
	trust := map[string]any{"hasCompletedOnboarding": true, "projects": map[string]any{real: map[string]any{"hasTrustDialogAccepted": true}}}
	b, _ := json.Marshal(trust)
	os.WriteFile(filepath.Join(s.home, ".claude.json"), b, 0o644)
	s.wireTap()
	return s
}

// wireTap adds payloadtap on every event in the project's local settings, apart from the user
// settings the installer writes.
func (s *session) wireTap() {
	groups := map[string]any{}
	for _, e := range event.All() {
		g := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": filepath.Join(binDir, "payloadtap"), "timeout": 5}}}
		if e.Matcher != "" {
			g["matcher"] = "*"
		}
		groups[string(e.Name)] = []any{g}
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": groups}, "", "  ")
	os.MkdirAll(filepath.Join(s.project, ".claude"), 0o755)
	if err := os.WriteFile(filepath.Join(s.project, ".claude", "settings.local.json"), b, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// payloads is every payload the hooks received, for a failing scenario.
func (s *session) payloads() string {
	b, _ := os.ReadFile(s.tap)
	if len(b) > 30000 {
		b = append(b[:30000], "..."...)
	}
	return "\npayloads sent to the hooks:\n" + string(b)
}

// install wires the built hooks into the session's user settings with the project's installer.
func (s *session) install(args ...string) string {
	s.t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "harness"), append([]string{"install", "--bin", binDir}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+s.home, "HARNESS_HOME="+s.harnessHome, "HARNESS_CLAUDE="+claude)
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("harness install: %v\n%s", err, out)
	}
	return string(out)
}

// run runs claude -p against the model, with extra arguments (--continue), and returns the
// stream-json output.
func (s *session) run(m *model, prompt string, extra ...string) string {
	s.t.Helper()
	args := append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events", "--debug-file", s.debug,
		"--permission-mode", "bypassPermissions"}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, args...)
	if s.wrap != nil {
		cmd = exec.CommandContext(ctx, s.wrap[0], append(append(s.wrap[1:len(s.wrap):len(s.wrap)], claude), args...)...)
	}
	cmd.Dir = s.project
	cmd.Env = []string{"HOME=" + s.home, "PATH=" + os.Getenv("PATH"), "ANTHROPIC_BASE_URL=" + m.addr, "ANTHROPIC_API_KEY=sk-test-not-a-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"IS_SANDBOX=1", "HARNESS_HOME=" + s.harnessHome, "TERM=dumb", "HARNESS_E2E_TAP=" + s.tap}
	cmd.Env = append(cmd.Env, s.env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		s.t.Fatalf("claude timed out\n%s\nrequests:\n%s", out.String(), m.dump())
	}
	if err != nil {
		s.t.Logf("claude exited: %v", err)
	}
	return out.String()
}

var unshareOnce = sync.OnceValue(func() bool {
	return exec.Command("unshare", "-n", "true").Run() == nil
})

func unshareWorks() bool { return unshareOnce() }

// hookLines returns the debug-file lines about hooks.
func (s *session) hookLines() string {
	f, err := os.Open(s.debug)
	if err != nil {
		return ""
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "Hook") || strings.Contains(sc.Text(), "hook") {
			b.WriteString(sc.Text() + "\n")
		}
	}
	return b.String()
}

// TestSourcesAreCacheInputs opens every source file the binaries under test are built from, so
// that a change to a hook is never answered with a cached pass (cacheinputs). It runs in the
// process that runs the tests (inside the network namespace), whose opens go test records.
func TestSourcesAreCacheInputs(t *testing.T) {
	if err := cacheinputs.Read("../../hooks", "../../cmd", "../../lib", "../hooks", "./payloadtap", "./mcpserver", "../../go.mod", "../../go.sum", "../../settings.json", "../../embed.go", "../../LICENSE", "../../README.md"); err != nil {
		t.Fatalf("reading sources: %v", err)
	}
}
