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
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/sandbox"
	"github.com/hookkit/harness/lib/ship"
	"github.com/hookkit/harness/tests/internal/cacheinputs"
	"github.com/hookkit/harness/tests/internal/otelcol"
)

var binDir string // harness, AuditLog, AuditShip and SecurityValidator, built once

func TestMain(m *testing.M) {
	leave := sandbox.Enter() // every test in a throwaway home (lib/sandbox)
	code := build(m)
	leave()
	os.Exit(code)
}

func build(m *testing.M) int {
	dir, err := os.MkdirTemp("", "harness-collector-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	cmd := exec.Command("go", "build", "-trimpath", "-o", dir+string(os.PathSeparator),
		"../../cmd/harness", "../../hooks/AuditLog", "../../hooks/AuditShip", "../../hooks/SecurityValidator")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "collector: building the binaries:", err)
		return 1
	}
	return m.Run()
}

// env is one test's world: a harness home, a project, and the environment the binaries see.
type env struct {
	t             *testing.T
	home, project string
	vars          []string
}

func newEnv(t *testing.T) *env {
	e := &env{t: t, home: t.TempDir(), project: t.TempDir()}
	// The CLI reads HARNESS_HOME; a hook is told its home on the command line (run).
	e.vars = append(os.Environ(), "HARNESS_HOME="+e.home, "CLAUDE_PROJECT_DIR="+e.project)
	return e
}

func (e *env) dir() string { return audit.Dir(e.home, e.project) }

// run runs a built binary with stdin, returning stdout, stderr and the exit code.
func (e *env) run(stdin []byte, name string, args ...string) (string, string, int) {
	e.t.Helper()
	if name != "harness" {
		args = append([]string{"--home=" + e.home}, args...)
	}
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

// startCollector runs the collector with the configuration
// `harness audit collector-config --receivers otlp` prints.
func startCollector(t *testing.T, e *env, bin string, port int) *otelcol.Collector {
	t.Helper()
	cfg, errs, code := e.run(nil, "harness", "audit", "collector-config", "--receivers", "otlp")
	if code != 0 {
		t.Fatalf("collector-config: %d %s", code, errs)
	}
	return otelcol.Start(t, bin, cfg, port)
}

// Hooks write records from captured payloads; harness audit ship sends them; the collector
// has every record, each with its line as the body, its id, and its fields under the names
// Claude Code uses; the AuditShip hook sends what came after.
func TestShipToCollector(t *testing.T) {
	bin := otelcol.Bin(t)
	e := newEnv(t)
	col := startCollector(t, e, bin, otelcol.FreePort(t))
	e.config(fmt.Sprintf(`{"audit": {"ship": {"endpoint": %q}}}`, col.Endpoint()))

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
	if want := fmt.Sprintf("%s: 7 records shipped in 1 batches, chain head %s (seq 7)\n", filepath.Base(filepath.Dir(e.dir())), head[:16]); out != want {
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
			if r.Attrs[k] != v {
				t.Errorf("record %s (%s): %s = %q, want %q", id[:8], rec.Get("event").Str, k, r.Attrs[k], v)
			}
		}
		if r.Body != l || r.Event != ship.EventName {
			t.Errorf("record %s: body %q event %q", id[:8], r.Body, r.Event)
		}
		if r.Resource["service.name"] != "harness" || r.Resource["host.name"] == "" || r.Resource["user.name"] == "" {
			t.Errorf("record %s: resource %v", id[:8], r.Resource)
		}
	}
	if d := got[ship.LineID([]byte(lines[6]))]; d.Attrs["harness.decision"] != "deny" || d.Attrs["harness.rule"] == "" || d.Attrs["tool_use_id"] != "toolu_deny" {
		t.Errorf("the verdict record: %v", d.Attrs)
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
func byID(t *testing.T, c *otelcol.Collector, n int) map[string]otelcol.Record {
	t.Helper()
	recs := c.Wait(n, 10*time.Second)
	if len(recs) != n {
		t.Errorf("the collector printed %d records, want %d", len(recs), n)
	}
	m := map[string]otelcol.Record{}
	for _, r := range recs {
		m[r.Attrs["harness.record.id"]] = r
	}
	return m
}

// A large backlog in small batches; the collector is killed while it arrives: ship fails with
// one line and keeps the checkpoint at what was accepted. Restarted, the next run sends the
// rest: every record arrived, and a record arrived twice only as part of the batch in flight
// at the kill, with the same id and body.
func TestCollectorKilledMidBacklog(t *testing.T) {
	bin := otelcol.Bin(t)
	e := newEnv(t)
	const total, batch = 20000, 10
	for i := range total {
		r := audit.Record{Time: time.Date(2026, 11, 26, 9, 0, 0, i*1000, time.UTC), Project: e.project, Session: "s-backlog",
			Event: "PreToolUse", Hook: "AuditLog", Tool: "Bash", ToolUseID: fmt.Sprint("toolu_", i), Summary: fmt.Sprint("echo ", i)}
		if err := audit.Append(e.home, r); err != nil {
			t.Fatal(err)
		}
	}
	port := otelcol.FreePort(t)
	first := startCollector(t, e, bin, port)
	e.config(fmt.Sprintf(`{"audit": {"ship": {"endpoint": %q, "batch": %d, "timeout_ms": 2000}}}`, first.Endpoint(), batch))

	cmd := exec.Command(filepath.Join(binDir, "harness"), "audit", "ship")
	cmd.Env = e.vars
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for strings.Count(first.Output(), "LogRecord #") < 2000 {
		select {
		case err := <-exited:
			t.Fatalf("ship finished before the collector could be killed (%v): make the backlog larger", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	first.Kill()
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
	before := first.Records()
	if int64(len(before)) < cp.Shipped {
		t.Errorf("the checkpoint says %d accepted, the collector printed %d", cp.Shipped, len(before))
	}

	second := startCollector(t, e, bin, port)
	out, errs, code := e.run(nil, "harness", "audit", "ship")
	if code != 0 || errs != "" {
		t.Fatalf("ship after the restart: %d\n%s%s", code, out, errs)
	}
	after := second.Wait(total-int(cp.Shipped), 120*time.Second) // it returns as soon as all are printed
	if len(after) != total-int(cp.Shipped) {
		t.Errorf("the restarted collector printed %d records, want %d", len(after), total-int(cp.Shipped))
		t.Logf("LogRecord lines: %d; ship printed: %s", strings.Count(second.Output(), "LogRecord #"), out)
		n := 0
		for _, l := range strings.Split(second.Output(), "\n") {
			if strings.Contains(l, "error") || strings.Contains(l, "warn") || strings.Contains(l, "drop") {
				if n++; n < 20 {
					t.Log(l)
				}
			}
		}
	}
	seen := map[string]string{}
	count := map[string]int{}
	for _, r := range append(before, after...) {
		id := r.Attrs["harness.record.id"]
		if b, ok := seen[id]; ok && b != r.Body {
			t.Fatalf("two bodies for id %s", id)
		}
		seen[id] = r.Body
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

// The results of these tests depend on the binaries TestMain builds: go test's cache must see
// their sources, and the collector's, or a change to a hook would replay a stale pass.
func TestSourcesAreCacheInputs(t *testing.T) {
	if err := cacheinputs.Read("../../hooks", "../../cmd", "../../lib", "../../go.mod", "../../go.sum", "../../settings.json", "../../embed.go"); err != nil {
		t.Fatal(err)
	}
}

// Another shipper holds the project's lock: ship exits 4 saying so and sends nothing; the
// hook does nothing and exits 0.
func TestBusy(t *testing.T) {
	e := newEnv(t)
	e.run(e.payload("PreToolUse.json"), "AuditLog")
	lock := flock.New(filepath.Join(e.dir(), "ship.lock"))
	if ok, err := lock.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer lock.Unlock()
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { requests.Add(1) }))
	defer srv.Close()
	e.config(fmt.Sprintf(`{"audit": {"ship": {"endpoint": %q}}}`, srv.URL))
	_, errs, code := e.run(nil, "harness", "audit", "ship")
	if want := "harness audit ship: " + filepath.Base(filepath.Dir(e.dir())) + ": " + ship.ErrBusy.Error() + "\n"; code != 4 || errs != want {
		t.Errorf("ship while locked: %d %q, want 4 %q", code, errs, want)
	}
	if out, errs, code := e.run(e.payload("Stop.json"), "AuditShip"); code != 0 || out != "" || errs != "" {
		t.Errorf("AuditShip while locked: %d %q %q", code, out, errs)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests sent while locked", n)
	}
}
