// Package collector ships the audit trail to a real OpenTelemetry Collector (core components:
// the OTLP receiver and the debug exporter, built by install.sh beside this file with the
// official collector builder) on 127.0.0.1, and reads every record back from the debug
// exporter's detailed output: the attributes, the ids, a collector killed in the middle of a
// backlog and restarted (nothing lost, duplicates only of the batch in flight, by id). It
// also runs `harness audit ship` and the AuditShip hook against endpoints that reject, fail
// and hang.
//
// The collector is looked for in ~/.cache/harness/otelcol-<version> (or under
// $HARNESS_COLLECTOR_DIR). Without it the collector tests skip, saying how to build it; with
// HARNESS_E2E=1 (set by .ci/run) its absence fails them.
package collector

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/ship"
)

// version is the collector install.sh builds.
const version = "0.165.0"

var binDir string // harness, AuditLog, AuditShip and SecurityValidator, built once

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "harness-collector-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	cmd := exec.Command("go", "build", "-trimpath", "-o", dir+string(os.PathSeparator),
		"../../cmd/harness", "../../hooks/AuditLog", "../../hooks/AuditShip", "../../hooks/SecurityValidator")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "collector: building the binaries:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// collectorBin is the built collector, or a skip (a failure with HARNESS_E2E=1) saying how to
// build it.
func collectorBin(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("HARNESS_COLLECTOR_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "harness")
	}
	bin := filepath.Join(dir, "otelcol-"+version, "otelcol-harness")
	if st, err := os.Stat(bin); err == nil && st.Mode()&0o111 != 0 {
		return bin
	}
	why := fmt.Sprintf("the OpenTelemetry Collector %s is not built at %s: run tests/collector/install.sh (about 4 minutes, from the Go module proxy)", version, bin)
	if os.Getenv("HARNESS_E2E") == "1" {
		t.Fatal(why)
	}
	t.Skip(why + " (HARNESS_E2E=1 makes this a failure)")
	return ""
}

// env is one test's world: a harness home, a project, and the environment the binaries see.
type env struct {
	t             *testing.T
	home, project string
	vars          []string
}

func newEnv(t *testing.T) *env {
	e := &env{t: t, home: t.TempDir(), project: t.TempDir()}
	e.vars = append(os.Environ(), "HARNESS_HOME="+e.home, "CLAUDE_PROJECT_DIR="+e.project, "HARNESS_DEADLINE=")
	return e
}

func (e *env) dir() string { return audit.Dir(e.home, e.project) }

// run runs a built binary with stdin, returning stdout, stderr and the exit code.
func (e *env) run(stdin []byte, name string, args ...string) (string, string, int) {
	e.t.Helper()
	cmd := exec.Command(filepath.Join(binDir, name), args...)
	cmd.Env, cmd.Dir = e.vars, e.project
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatalf("%s: %v", name, err)
	}
	return out.String(), errb.String(), code
}

func (e *env) config(doc string) {
	e.t.Helper()
	if err := os.WriteFile(filepath.Join(e.home, "config.json"), []byte(doc), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// lines are the project's audit lines in the order of the log.
func (e *env) lines() []string {
	e.t.Helper()
	files, _ := filepath.Glob(filepath.Join(e.dir(), "*.jsonl"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			e.t.Fatal(err)
		}
		out = append(out, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")...)
	}
	return out
}

// payload is a captured Claude Code payload with its cwd set to the project and, for each
// path in set, a value replaced.
func (e *env) payload(name string, set ...string) []byte {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "lib", "event", "testdata", "captured", name))
	if err != nil {
		e.t.Fatal(err)
	}
	b, _ = sjson.SetBytes(b, "cwd", e.project)
	for i := 0; i+1 < len(set); i += 2 {
		b, _ = sjson.SetBytes(b, set[i], set[i+1])
	}
	return b
}

// collector is a running collector whose debug output is gathered.
type collector struct {
	t    *testing.T
	cmd  *exec.Cmd
	port int
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

// freePort is a port on 127.0.0.1 nothing listens on.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startCollector runs the collector on 127.0.0.1:port with the configuration
// `harness audit collector-config --receivers otlp` prints, and waits until it listens.
func startCollector(t *testing.T, e *env, bin string, port int) *collector {
	t.Helper()
	cfg, errs, code := e.run(nil, "harness", "audit", "collector-config", "--receivers", "otlp")
	if code != 0 {
		t.Fatalf("collector-config: %d %s", code, errs)
	}
	file := filepath.Join(t.TempDir(), "otelcol.yaml")
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &collector{t: t, port: port, done: make(chan struct{})}
	c.cmd = exec.Command(bin, "--config", "file:"+file, fmt.Sprintf("--set=receivers.otlp.protocols.http.endpoint=127.0.0.1:%d", port))
	c.cmd.Stdout, c.cmd.Stderr = c, c
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.cmd.Wait(); close(c.done) }()
	t.Cleanup(c.kill)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			conn.Close()
			return c
		}
		select {
		case <-c.done:
			t.Fatalf("the collector exited:\n%s", c.output())
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("the collector did not listen on %d within 20 s:\n%s", port, c.output())
	return nil
}

func (c *collector) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(p)
}

func (c *collector) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.String()
}

func (c *collector) kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.done
}

func (c *collector) endpoint() string { return fmt.Sprintf("http://127.0.0.1:%d", c.port) }

// received is one log record as the debug exporter printed it.
type received struct {
	body      string
	event     string
	attrs     map[string]string
	resources map[string]string
}

// records reads the debug exporter's detailed output: each LogRecord block with its body,
// event name, attributes and its resource's attributes.
func (c *collector) records() []received {
	var out []received
	var res map[string]string
	var cur *received
	inResource := false
	sc := bufio.NewScanner(strings.NewReader(c.output()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasSuffix(line, "ResourceLog #0") || strings.HasPrefix(line, "ResourceLog #"):
			res, inResource, cur = map[string]string{}, false, nil
		case line == "Resource attributes:":
			inResource = true
		case strings.HasPrefix(line, "ScopeLogs #"):
			inResource = false
		case strings.HasPrefix(line, "LogRecord #"):
			out = append(out, received{attrs: map[string]string{}, resources: res})
			cur = &out[len(out)-1]
		case strings.HasPrefix(line, "     -> "):
			k, v, _ := strings.Cut(strings.TrimPrefix(line, "     -> "), ": ")
			v = value(v)
			if inResource && res != nil {
				res[k] = v
			} else if cur != nil {
				cur.attrs[k] = v
			}
		case cur != nil && strings.HasPrefix(line, "Body: "):
			cur.body = value(strings.TrimPrefix(line, "Body: "))
		case cur != nil && strings.HasPrefix(line, "EventName: "):
			cur.event = strings.TrimPrefix(line, "EventName: ")
		}
	}
	return out
}

// value unwraps the debug exporter's Str(...), Int(...), Double(...).
func value(v string) string {
	if i := strings.IndexByte(v, '('); i > 0 && strings.HasSuffix(v, ")") {
		return v[i+1 : len(v)-1]
	}
	return v
}

// Hooks write records from captured payloads; harness audit ship sends them; the collector
// has every record, each with its line as the body, its id, and its fields under the names
// Claude Code uses; the AuditShip hook sends what came after.
func TestShipToCollector(t *testing.T) {
	bin := collectorBin(t)
	e := newEnv(t)
	col := startCollector(t, e, bin, freePort(t))
	e.config(fmt.Sprintf(`{"audit": {"ship": {"endpoint": %q}}}`, col.endpoint()))

	for _, p := range []string{"SessionStart.json", "UserPromptSubmit.json", "PreToolUse.json", "PostToolUse.json", "PostToolUseFailure.json", "Stop.json"} {
		if _, errs, code := e.run(e.payload(p), "AuditLog"); code != 0 {
			t.Fatalf("AuditLog %s: %d %s", p, code, errs)
		}
	}
	deny := e.payload("PreToolUse.json", "tool_input.command", "rm -rf /", "tool_use_id", "toolu_deny")
	if _, _, code := e.run(deny, "SecurityValidator"); code != 2 {
		t.Fatalf("SecurityValidator let rm -rf / through: %d", code)
	}
	out, errs, code := e.run(nil, "harness", "audit", "ship", "--project", e.project)
	if code != 0 || errs != "" {
		t.Fatalf("harness audit ship: %d\n%s%s", code, out, errs)
	}
	lines := e.lines()
	if len(lines) != 7 {
		t.Fatalf("%d local records, want 7:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	head := ship.LineID([]byte(lines[len(lines)-1]))
	if want := fmt.Sprintf("%s: 7 records shipped in 1 batches, chain head %s\n", filepath.Base(filepath.Dir(e.dir())), head[:16]); out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	got := byID(t, col, 7)
	for _, l := range lines {
		id := ship.LineID([]byte(l))
		r, ok := got[id]
		if !ok {
			t.Errorf("the collector has no record %s: %s", id, l)
			continue
		}
		rec := gjson.Parse(l)
		want := map[string]string{"harness.record.id": id, "harness.chain.head": head, "session.id": rec.Get("session").Str,
			"harness.event": rec.Get("event").Str, "harness.hook": rec.Get("hook").Str, "harness.project": e.project}
		for k, f := range map[string]string{"tool_name": "tool", "tool_use_id": "tool_use_id", "harness.decision": "decision",
			"harness.rule": "rule", "harness.category": "category", "harness.summary": "summary", "duration_ms": "duration_ms", "error": "error"} {
			if v := rec.Get(f); v.Exists() {
				want[k] = v.String()
			}
		}
		for k, v := range want {
			if r.attrs[k] != v {
				t.Errorf("record %s (%s): %s = %q, want %q", id[:8], rec.Get("event").Str, k, r.attrs[k], v)
			}
		}
		if r.body != l || r.event != ship.EventName {
			t.Errorf("record %s: body %q event %q", id[:8], r.body, r.event)
		}
		if r.resources["service.name"] != "harness" || r.resources["host.name"] == "" || r.resources["user.name"] == "" {
			t.Errorf("record %s: resource %v", id[:8], r.resources)
		}
	}
	if d := got[ship.LineID([]byte(lines[6]))]; d.attrs["harness.decision"] != "deny" || d.attrs["harness.rule"] == "" || d.attrs["tool_use_id"] != "toolu_deny" {
		t.Errorf("the verdict record: %v", d.attrs)
	}

	// The hook, at the end of a turn, sends the records since: the Stop record AuditLog wrote.
	stop := e.payload("Stop.json")
	if _, errs, code := e.run(stop, "AuditLog"); code != 0 {
		t.Fatal(errs)
	}
	if out, errs, code := e.run(stop, "AuditShip"); code != 0 || out != "" || errs != "" {
		t.Fatalf("AuditShip: %d %q %q", code, out, errs)
	}
	lines = e.lines()
	all := byID(t, col, 8)
	if _, ok := all[ship.LineID([]byte(lines[7]))]; !ok {
		t.Errorf("the record written after the first ship did not arrive")
	}
}

// byID waits until the collector has printed n records and returns them by id.
func byID(t *testing.T, c *collector, n int) map[string]received {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		recs := c.records()
		if len(recs) >= n || time.Now().After(deadline) {
			m := map[string]received{}
			for _, r := range recs {
				m[r.attrs["harness.record.id"]] = r
			}
			if len(recs) != n {
				t.Errorf("the collector printed %d records, want %d", len(recs), n)
			}
			return m
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A large backlog in small batches; the collector is killed while it arrives: ship fails with
// one line and keeps the checkpoint at what was accepted. Restarted, the next run sends the
// rest: every record arrived, and a record arrived twice only as part of the batch in flight
// at the kill, with the same id and body.
func TestCollectorKilledMidBacklog(t *testing.T) {
	bin := collectorBin(t)
	e := newEnv(t)
	const total, batch = 20000, 10
	for i := range total {
		r := audit.Record{Time: time.Date(2026, 11, 26, 9, 0, 0, i*1000, time.UTC), Project: e.project, Session: "s-backlog",
			Event: "PreToolUse", Hook: "AuditLog", Tool: "Bash", ToolUseID: fmt.Sprint("toolu_", i), Summary: fmt.Sprint("echo ", i)}
		if err := audit.Append(e.home, r); err != nil {
			t.Fatal(err)
		}
	}
	port := freePort(t)
	first := startCollector(t, e, bin, port)
	e.config(fmt.Sprintf(`{"audit": {"ship": {"endpoint": %q, "batch": %d, "timeout_ms": 2000}}}`, first.endpoint(), batch))

	cmd := exec.Command(filepath.Join(binDir, "harness"), "audit", "ship")
	cmd.Env = e.vars
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for strings.Count(first.output(), "LogRecord #") < 2000 {
		select {
		case err := <-exited:
			t.Fatalf("ship finished before the collector could be killed (%v): make the backlog larger", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	first.kill()
	err := <-exited
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("ship with the collector killed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if msg := stderr.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "did not accept 10 records") {
		t.Errorf("stderr is not one line naming the batch: %q", msg)
	}
	cp, _, err := ship.ReadCheckpoint(e.dir())
	if err != nil || cp.Shipped == 0 || cp.Shipped >= total || cp.Error == "" {
		t.Fatalf("checkpoint after the kill: %+v %v", cp, err)
	}
	before := first.records()
	if int64(len(before)) < cp.Shipped {
		t.Errorf("the checkpoint says %d accepted, the collector printed %d", cp.Shipped, len(before))
	}

	second := startCollector(t, e, bin, port)
	if out, errs, code := e.run(nil, "harness", "audit", "ship"); code != 0 || errs != "" {
		t.Fatalf("ship after the restart: %d\n%s%s", code, out, errs)
	}
	after := byIDAll(t, second, total-int(cp.Shipped))
	seen := map[string]string{}
	count := map[string]int{}
	for _, r := range append(before, after...) {
		id := r.attrs["harness.record.id"]
		if b, ok := seen[id]; ok && b != r.body {
			t.Fatalf("two bodies for id %s", id)
		}
		seen[id] = r.body
		count[id]++
	}
	for _, l := range e.lines() {
		if count[ship.LineID([]byte(l))] == 0 {
			t.Fatalf("record lost: %s", l)
		}
	}
	dups := len(before) + len(after) - len(seen)
	if len(seen) != total || dups > batch {
		t.Errorf("%d distinct records (want %d), %d duplicates (at most the batch in flight, %d)", len(seen), total, dups, batch)
	}
	t.Logf("killed after %d records accepted; %d printed before the kill, %d after; %d sent twice", cp.Shipped, len(before), len(after), dups)
}

// byIDAll waits until the collector has printed n records and returns them.
func byIDAll(t *testing.T, c *collector, n int) []received {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		recs := c.records()
		if len(recs) >= n || time.Now().After(deadline) {
			if len(recs) != n {
				t.Errorf("the collector printed %d records, want %d", len(recs), n)
			}
			return recs
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Endpoints that answer 500 and 400: one line on stderr naming the status, exit 1, the
// checkpoint not moved, the records kept and sent once an endpoint accepts them.
func TestRejectingEndpoint(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"PreToolUse.json", "PostToolUse.json"} {
		e.run(e.payload(p), "AuditLog")
	}
	var mu sync.Mutex
	status, requests := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		defer mu.Unlock()
		requests++
		if status != 200 {
			http.Error(w, "rejected\nfor the test", status)
		}
	}))
	defer srv.Close()
	for _, c := range []struct {
		status int
		text   string
	}{{500, "500 Internal Server Error"}, {400, "400 Bad Request"}} {
		mu.Lock()
		status = c.status
		mu.Unlock()
		out, errs, code := e.run(nil, "harness", "audit", "ship", "--endpoint", srv.URL, "--project", e.project)
		if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.text) || !strings.Contains(errs, srv.URL+"/v1/logs did not accept 2 records") {
			t.Errorf("%d: exit %d, stderr %q", c.status, code, errs)
		}
		if !strings.Contains(out, ": 0 records shipped") {
			t.Errorf("%d: stdout %q", c.status, out)
		}
		if cp, _, _ := ship.ReadCheckpoint(e.dir()); cp.Shipped != 0 || !strings.Contains(cp.Error, c.text) {
			t.Errorf("%d: checkpoint %+v", c.status, cp)
		}
		if len(e.lines()) != 2 {
			t.Errorf("%d: the local records changed", c.status)
		}
	}
	mu.Lock()
	status = 200
	mu.Unlock()
	if out, errs, code := e.run(nil, "harness", "audit", "ship", "--endpoint", srv.URL+"/"); code != 0 || !strings.Contains(out, ": 2 records shipped in 1 batches") {
		t.Errorf("accepting endpoint: %d %q %q", code, out, errs)
	}
	if cp, _, _ := ship.ReadCheckpoint(e.dir()); cp.Shipped != 2 || cp.Error != "" {
		t.Errorf("checkpoint %+v", cp)
	}
}

// No endpoint: ship says so and exits 3; the hook does nothing. A header whose variable is
// unset: exit 2 naming the header and the variable, never a value.
func TestNotConfigured(t *testing.T) {
	e := newEnv(t)
	e.run(e.payload("PreToolUse.json"), "AuditLog")
	_, errs, code := e.run(nil, "harness", "audit", "ship")
	if code != 3 || errs != "harness audit ship: "+ship.ErrNoEndpoint.Error()+"\n" {
		t.Errorf("no endpoint: %d %q", code, errs)
	}
	if out, errs, code := e.run(e.payload("Stop.json"), "AuditShip"); code != 0 || out != "" || errs != "" {
		t.Errorf("AuditShip without an endpoint: %d %q %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(e.dir(), ship.CheckpointFile)); !os.IsNotExist(err) {
		t.Errorf("a checkpoint was written: %v", err)
	}
	e.config(`{"audit": {"ship": {"endpoint": "http://127.0.0.1:9", "headers": {"Authorization": {"env": "HARNESS_TEST_OTLP_TOKEN"}}}}}`)
	_, errs, code = e.run(nil, "harness", "audit", "ship")
	if code != 2 || errs != "harness audit ship: header Authorization: environment variable HARNESS_TEST_OTLP_TOKEN is not set\n" {
		t.Errorf("unset header variable: %d %q", code, errs)
	}
}

// An endpoint that does not answer: the hook gives up inside SessionEnd's budget (1.5 s in
// Claude Code, 1 s installed), exits 0, and the checkpoint stays for the next run.
func TestHookGivesUpInBudget(t *testing.T) {
	e := newEnv(t)
	e.run(e.payload("PreToolUse.json"), "AuditLog")
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	e.config(fmt.Sprintf(`{"audit": {"ship": {"endpoint": %q}}}`, srv.URL))
	start := time.Now()
	out, errs, code := e.run(e.payload("SessionEnd.json"), "AuditShip")
	took := time.Since(start)
	if code != 0 || out != "" || errs != "" || took > time.Second {
		t.Errorf("AuditShip on SessionEnd with a silent endpoint: exit %d in %v, %q %q", code, took, out, errs)
	}
	if cp, ok, _ := ship.ReadCheckpoint(e.dir()); ok && cp.Shipped != 0 {
		t.Errorf("checkpoint moved: %+v", cp)
	}
}
