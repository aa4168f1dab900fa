package ship

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"
	"go.opentelemetry.io/otel/attribute"
	sdklog "go.opentelemetry.io/otel/sdk/log"

	"github.com/hookkit/harness/lib/audit"
)

// sink is an exporter that keeps what it is sent; fail, when set, decides each batch's fate
// by its number (0-based).
type sink struct {
	mu      sync.Mutex
	batches [][]sdklog.Record
	calls   int
	fail    func(n int) error
}

func (s *sink) Export(ctx context.Context, recs []sdklog.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.calls
	s.calls++
	if s.fail != nil {
		if err := s.fail(n); err != nil {
			return err
		}
	}
	b := make([]sdklog.Record, len(recs))
	for i := range recs {
		b[i] = recs[i].Clone()
	}
	s.batches = append(s.batches, b)
	return nil
}
func (s *sink) Shutdown(context.Context) error   { return nil }
func (s *sink) ForceFlush(context.Context) error { return nil }

func (s *sink) records() []sdklog.Record {
	var out []sdklog.Record
	for _, b := range s.batches {
		out = append(out, b...)
	}
	return out
}

func attrs(r sdklog.Record) map[string]string {
	m := map[string]string{}
	r.WalkAttributes(func(kv attribute.KeyValue) bool {
		m[string(kv.Key)] = kv.Value.String()
		return true
	})
	return m
}

func bodies(recs []sdklog.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Body().AsString())
	}
	return out
}

var t0 = time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)

// appendN writes n records through lib/audit, numbered in their summaries from first.
func appendN(t testing.TB, home string, first, n int) {
	t.Helper()
	for i := first; i < first+n; i++ {
		r := audit.Record{Time: t0.Add(time.Duration(i) * time.Second), Project: "/p", Session: "s1", Event: "PreToolUse", Hook: "AuditLog",
			Tool: "Bash", ToolUseID: fmt.Sprint("toolu_", i), Summary: fmt.Sprint("echo ", i)}
		if err := audit.Append(home, r); err != nil {
			t.Fatal(err)
		}
	}
}

func appendRaw(t testing.TB, dir, name, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func shipper(exp sdklog.Exporter, batch int) *Shipper {
	s := NewWithExporter(exp, batch, 5*time.Second, Identity{Host: "box", User: "ann", Version: "v1"})
	s.Now = func() time.Time { return t0.Add(time.Hour) }
	return s
}

// Every record goes out once, with its line as the body and its fields as attributes; a
// malformed line is counted and never sent; a second run has nothing to send.
func TestShipsEveryRecordOnce(t *testing.T) {
	home := t.TempDir()
	dir := audit.Dir(home, "/p")
	appendN(t, home, 0, 3)
	appendRaw(t, dir, "2026-11-26.jsonl", "{not json\n")
	denied := audit.Record{Time: t0.Add(time.Minute), Project: "/p", Session: "s1", Event: "PreToolUse", Hook: "SecurityValidator",
		Tool: "Bash", ToolUseID: "toolu_9", Decision: "deny", Reason: "blocked [rule fs.rm-critical, filesystem destruction, blast radius high]",
		Rule: "fs.rm-critical", Category: "filesystem destruction", TookMS: 1.25}
	if err := audit.Append(home, denied); err != nil {
		t.Fatal(err)
	}
	// A record of the chained format (seq, prev, prompt_id, radius), and a line being written.
	chained := `{"time":"2026-11-26T09:05:00Z","project":"/p","session":"s1","prompt_id":"p-7","event":"PostToolUse","hook":"AuditLog","tool":"Bash","tool_use_id":"toolu_10","duration_ms":42,"radius":"high","seq":6,"prev":"` + strings.Repeat("a", 64) + `"}`
	appendRaw(t, dir, "2026-11-26.jsonl", chained+"\n"+`{"time":"2026-11-26T09:0`)

	sk := &sink{}
	s := shipper(sk, 2)
	res, err := s.Ship(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Shipped != 5 || res.Skipped != 1 || res.Batches != 3 || !res.Done {
		t.Errorf("result %+v, want 5 shipped in 3 batches, 1 skipped, done", res)
	}
	recs := sk.records()
	if len(recs) != 5 {
		t.Fatalf("sent %d records", len(recs))
	}
	lines := strings.Split(readFile(t, filepath.Join(dir, "2026-11-26.jsonl")), "\n")
	for i, want := range []int{0, 1, 2, 4, 5} {
		if got := recs[i].Body().AsString(); got != lines[want] {
			t.Errorf("record %d body %q, want line %d %q", i, got, want, lines[want])
		}
		if got := attrs(recs[i])["harness.record.id"]; got != LineID([]byte(lines[want])) {
			t.Errorf("record %d id %s", i, got)
		}
		if got := attrs(recs[i])["harness.chain.head"]; got != LineID([]byte(chained)) {
			t.Errorf("record %d chain head %s, want the chained record's id", i, got)
		}
		if got := attrs(recs[i])["harness.chain.seq"]; got != "6" {
			t.Errorf("record %d chain seq %q", i, got)
		}
		if got := recs[i].Resource().Set().Encoded(attribute.DefaultEncoder()); got != "host.name=box,service.name=harness,service.version=v1,user.name=ann" {
			t.Errorf("resource %s", got)
		}
	}
	a := attrs(recs[0])
	for k, v := range map[string]string{"session.id": "s1", "tool_name": "Bash", "tool_use_id": "toolu_0", "harness.hook": "AuditLog",
		"harness.event": "PreToolUse", "harness.summary": "echo 0", "harness.project": "/p"} {
		if a[k] != v {
			t.Errorf("attribute %s = %q, want %q (all: %v)", k, a[k], v, a)
		}
	}
	if recs[0].EventName() != EventName || !recs[0].Timestamp().Equal(t0) || recs[0].SeverityText() != "INFO" {
		t.Errorf("record 0: event %q time %v severity %q", recs[0].EventName(), recs[0].Timestamp(), recs[0].SeverityText())
	}
	d := attrs(recs[3])
	for k, v := range map[string]string{"harness.decision": "deny", "harness.rule": "fs.rm-critical", "harness.category": "filesystem destruction",
		"harness.took_ms": "1.25", "harness.hook": "SecurityValidator"} {
		if d[k] != v {
			t.Errorf("deny record: %s = %q, want %q", k, d[k], v)
		}
	}
	if recs[3].SeverityText() != "WARN" {
		t.Errorf("deny severity %q", recs[3].SeverityText())
	}
	c := attrs(recs[4])
	for k, v := range map[string]string{"prompt.id": "p-7", "harness.record.seq": "6", "harness.record.prev": strings.Repeat("a", 64),
		"harness.radius": "high", "duration_ms": "42"} {
		if c[k] != v {
			t.Errorf("chained record: %s = %q, want %q", k, c[k], v)
		}
	}

	cp, ok, err := ReadCheckpoint(dir)
	if err != nil || !ok {
		t.Fatalf("checkpoint: %v %v", ok, err)
	}
	if cp.ID != LineID([]byte(chained)) || cp.Seq != 6 || cp.File != "2026-11-26.jsonl" || cp.Shipped != 5 || cp.Skipped != 1 || cp.Error != "" {
		t.Errorf("checkpoint %+v", cp)
	}

	res, err = s.Ship(context.Background(), dir)
	if err != nil || res.Shipped != 0 || res.Skipped != 0 || !res.Done || sk.calls != 3 {
		t.Errorf("second run: %+v %v, %d exports", res, err, sk.calls)
	}
	// The line being written is finished: it goes out next time, alone.
	appendRaw(t, dir, "2026-11-26.jsonl", `5:00Z","event":"Stop"}`+"\n")
	if res, err = s.Ship(context.Background(), dir); err != nil || res.Shipped != 1 {
		t.Errorf("third run: %+v %v", res, err)
	}
}

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A rejected batch keeps the checkpoint at the last accepted one; the next run sends the
// rest, the rejected batch again with the same ids, and nothing twice that was accepted.
func TestRejectedBatchIsSentAgain(t *testing.T) {
	home := t.TempDir()
	dir := audit.Dir(home, "/p")
	appendN(t, home, 0, 10)
	sk := &sink{fail: func(n int) error {
		if n == 1 {
			return errors.New("failed to send logs to http://x/v1/logs: 503 Service Unavailable (body:\n overloaded)")
		}
		return nil
	}}
	s := shipper(sk, 4)
	res, err := s.Ship(context.Background(), dir)
	var rej *RejectedError
	if !errors.As(err, &rej) || rej.Records != 4 || res.Shipped != 4 || res.Done {
		t.Fatalf("first run: %+v %v", res, err)
	}
	if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "503 Service Unavailable (body: overloaded)") {
		t.Errorf("reason not one line: %q", err)
	}
	cp, _, _ := ReadCheckpoint(dir)
	if cp.Shipped != 4 || cp.Error != err.Error() {
		t.Errorf("checkpoint after the rejection: %+v", cp)
	}
	if f := Failures(home); len(f) != 1 || f[0] != "-p: audit records not shipped (last attempt 2026-11-26T10:00:00Z): "+err.Error() {
		t.Errorf("failures %q", f)
	}
	res, err = s.Ship(context.Background(), dir)
	if err != nil || res.Shipped != 6 || !res.Done {
		t.Fatalf("second run: %+v %v", res, err)
	}
	ids := map[string]int{}
	for _, r := range sk.records() {
		ids[attrs(r)["harness.record.id"]]++
	}
	if len(ids) != 10 {
		t.Errorf("%d distinct ids accepted, want 10", len(ids))
	}
	for id, n := range ids {
		if n != 1 {
			t.Errorf("record %s accepted %d times", id, n)
		}
	}
	if cp, _, _ := ReadCheckpoint(dir); cp.Error != "" || cp.Shipped != 10 {
		t.Errorf("checkpoint after the rest: %+v", cp)
	}
	if f := Failures(home); len(f) != 0 {
		t.Errorf("failures after a good run: %q", f)
	}
}

// Rotation renames the file the checkpoint names: the line is found by its id in the day's
// rotated file, and what follows it (there and in the new file) is sent, once.
func TestResumesAcrossRotation(t *testing.T) {
	home := t.TempDir()
	dir := audit.Dir(home, "/p")
	appendN(t, home, 0, 5)
	sk := &sink{}
	s := shipper(sk, 100)
	if _, err := s.Ship(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	appendN(t, home, 5, 3)
	if err := os.Rename(filepath.Join(dir, "2026-11-26.jsonl"), filepath.Join(dir, "2026-11-26.1.jsonl")); err != nil {
		t.Fatal(err)
	}
	appendN(t, home, 8, 2) // the new current file
	res, err := s.Ship(context.Background(), dir)
	if err != nil || res.Shipped != 5 || res.Note != "" {
		t.Fatalf("after rotation: %+v %v", res, err)
	}
	var got []string
	for _, b := range bodies(sk.records()) {
		got = append(got, gjson.Get(b, "summary").Str)
	}
	if want := "echo 0,echo 1,echo 2,echo 3,echo 4,echo 5,echo 6,echo 7,echo 8,echo 9"; strings.Join(got, ",") != want {
		t.Errorf("sent %s\nwant %s", strings.Join(got, ","), want)
	}
}

// Rotation by lib/audit itself, while records are being shipped a few at a time: every
// record arrives exactly once.
func TestRotationUnderLoad(t *testing.T) {
	home := t.TempDir()
	dir := audit.Dir(home, "/p")
	old := audit.MaxFile
	audit.MaxFile = 3000
	defer func() { audit.MaxFile = old }()
	sk := &sink{}
	s := shipper(sk, 7)
	for round := range 20 {
		appendN(t, home, round*25, 25)
		if _, err := s.Ship(context.Background(), dir); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) < 5 {
		t.Fatalf("expected rotations, got %v", files)
	}
	seen := map[string]bool{}
	for _, b := range bodies(sk.records()) {
		s := gjson.Get(b, "summary").Str
		if seen[s] {
			t.Errorf("%s sent twice", s)
		}
		seen[s] = true
	}
	if len(seen) != 500 {
		t.Errorf("%d records sent, want 500", len(seen))
	}
}

// A checkpoint whose line was removed from the log: with a seq, the run resumes after it and
// says so; without, it sends the whole log again and says so.
func TestCheckpointLineGone(t *testing.T) {
	home := t.TempDir()
	dir := audit.Dir(home, "/p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 4; i++ {
		appendRaw(t, dir, "2026-11-26.jsonl", fmt.Sprintf(`{"time":"2026-11-26T09:00:0%dZ","seq":%d}`+"\n", i, i))
	}
	if err := writeCheckpoint(dir, Checkpoint{ID: strings.Repeat("0", 64), Seq: 2, File: "2026-11-26.jsonl", Start: 0, Offset: 10}); err != nil {
		t.Fatal(err)
	}
	sk := &sink{}
	res, err := shipper(sk, 10).Ship(context.Background(), dir)
	if err != nil || res.Shipped != 2 || !strings.Contains(res.Note, "seq 2") {
		t.Fatalf("%+v %v", res, err)
	}
	if err := writeCheckpoint(dir, Checkpoint{ID: strings.Repeat("0", 64)}); err != nil {
		t.Fatal(err)
	}
	res, err = shipper(sk, 10).Ship(context.Background(), dir)
	if err != nil || res.Shipped != 4 || !strings.Contains(res.Note, "whole log") {
		t.Fatalf("%+v %v", res, err)
	}
}

// A second shipper on the same folder gets ErrBusy and sends nothing.
func TestBusy(t *testing.T) {
	home := t.TempDir()
	dir := audit.Dir(home, "/p")
	appendN(t, home, 0, 3)
	release := make(chan struct{})
	entered := make(chan struct{})
	first := &sink{fail: func(int) error { close(entered); <-release; return nil }}
	done := make(chan error)
	go func() {
		_, err := shipper(first, 10).Ship(context.Background(), dir)
		done <- err
	}()
	<-entered
	second := &sink{}
	_, err := shipper(second, 10).Ship(context.Background(), dir)
	close(release)
	if !errors.Is(err, ErrBusy) || second.calls != 0 {
		t.Errorf("second shipper: %v, %d exports", err, second.calls)
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// The context ends during an export: the batch is abandoned, the checkpoint stays, the run
// says it is not done and is no error; the next run sends the batch.
func TestDeadlineLeavesTheBacklog(t *testing.T) {
	home := t.TempDir()
	dir := audit.Dir(home, "/p")
	appendN(t, home, 0, 6)
	sk := &sink{fail: func(n int) error {
		if n == 1 {
			time.Sleep(300 * time.Millisecond)
			return context.DeadlineExceeded
		}
		return nil
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	res, err := shipper(sk, 3).Ship(ctx, dir)
	if err != nil || res.Done || res.Shipped != 3 {
		t.Fatalf("%+v %v", res, err)
	}
	if cp, _, _ := ReadCheckpoint(dir); cp.Shipped != 3 || cp.Error != "" {
		t.Errorf("checkpoint %+v", cp)
	}
	res, err = shipper(sk, 3).Ship(context.Background(), dir)
	if err != nil || !res.Done || res.Shipped != 3 {
		t.Fatalf("next run: %+v %v", res, err)
	}
}

// The real OTLP/HTTP exporter against endpoints that answer 500 and 400: a one-line reason
// naming the status, the records kept; then one that accepts: everything arrives, with the
// configured header and gzip.
func TestHTTPEndpoint(t *testing.T) {
	home := t.TempDir()
	dir := audit.Dir(home, "/p")
	appendN(t, home, 0, 5)
	var status int
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r.URL.Path+" "+r.Header.Get("Authorization")+" "+r.Header.Get("Content-Encoding")+" "+r.Header.Get("Content-Type"))
		io.Copy(io.Discard, r.Body)
		if status != 200 {
			http.Error(w, "no\nthanks", status)
		}
	}))
	defer srv.Close()
	cfg := Config{Endpoint: srv.URL + "/", Batch: 2, Timeout: 2 * time.Second}
	for _, code := range []int{500, 400} {
		status = code
		s, err := New(cfg, map[string]string{"Authorization": "Bearer t0k"}, Identity{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Ship(context.Background(), dir)
		if err == nil || res.Shipped != 0 || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), fmt.Sprint(code)) ||
			!strings.HasPrefix(err.Error(), srv.URL+"/v1/logs did not accept 2 records: ") {
			t.Errorf("status %d: %+v %q", code, res, err)
		}
		if cp, _, _ := ReadCheckpoint(dir); cp.Shipped != 0 || cp.Error == "" {
			t.Errorf("status %d: checkpoint %+v", code, cp)
		}
		s.Close()
	}
	status = 200
	s, err := New(cfg, map[string]string{"Authorization": "Bearer t0k"}, Identity{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Ship(context.Background(), dir)
	if err != nil || res.Shipped != 5 || res.Batches != 3 {
		t.Fatalf("%+v %v", res, err)
	}
	if got[len(got)-1] != "/v1/logs Bearer t0k gzip application/x-protobuf" {
		t.Errorf("request %q", got[len(got)-1])
	}
}

// An unreachable endpoint is a one-line reason too.
func TestUnreachable(t *testing.T) {
	home := t.TempDir()
	dir := audit.Dir(home, "/p")
	appendN(t, home, 0, 1)
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	s, err := New(Config{Endpoint: url, Timeout: time.Second}, nil, Identity{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Ship(context.Background(), dir)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("%q", err)
	}
}

// A line longer than the reader's buffer is read in pieces with the same id; one past 1 MB is
// malformed, skipped without being held, and the lines after it still go out.
func TestLongLines(t *testing.T) {
	home := t.TempDir()
	dir := audit.Dir(home, "/p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	long := `{"time":"2026-11-26T09:00:00Z","summary":"` + strings.Repeat("x", 200<<10) + `"}`
	huge := `{"time":"2026-11-26T09:00:01Z","summary":"` + strings.Repeat("y", 2<<20) + `"}`
	last := `{"time":"2026-11-26T09:00:02Z","summary":"after"}`
	appendRaw(t, dir, "2026-11-26.jsonl", long+"\n"+huge+"\n"+last+"\n")
	sk := &sink{}
	res, err := shipper(sk, 10).Ship(context.Background(), dir)
	if err != nil || res.Shipped != 2 || res.Skipped != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	recs := sk.records()
	if recs[0].Body().AsString() != long || attrs(recs[0])["harness.record.id"] != LineID([]byte(long)) {
		t.Errorf("the long line: id %s", attrs(recs[0])["harness.record.id"])
	}
	if recs[1].Body().AsString() != last || attrs(recs[1])["harness.chain.head"] != LineID([]byte(last)) {
		t.Errorf("the line after the huge one: %v", attrs(recs[1]))
	}
	// The checkpoint names the last line; a huge line as the checkpoint's is found by its id.
	appendRaw(t, dir, "2026-11-26.jsonl", huge+"\n")
	cp, _, _ := ReadCheckpoint(dir)
	if cp.ID != LineID([]byte(last)) {
		t.Errorf("checkpoint id %s", cp.ID)
	}
	res, err = shipper(sk, 10).Ship(context.Background(), dir)
	if err != nil || res.Shipped != 0 || res.Skipped != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	if cp, _, _ = ReadCheckpoint(dir); cp.ID != LineID([]byte(huge)) || cp.Skipped != 2 {
		t.Errorf("checkpoint after the huge line: %+v", cp)
	}
	os.Rename(filepath.Join(dir, "2026-11-26.jsonl"), filepath.Join(dir, "2026-11-26.1.jsonl"))
	appendRaw(t, dir, "2026-11-26.jsonl", last+"\n")
	if res, err = shipper(sk, 10).Ship(context.Background(), dir); err != nil || res.Shipped != 1 || res.Skipped != 0 || res.Note != "" {
		t.Fatalf("after rotation: %+v %v", res, err)
	}
}
