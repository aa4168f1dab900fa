package report

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/hookkit/harness/lib/audit"
)

// genRecord is the record i of project number pi.
func genRecord(project string, pi, i int, t time.Time, prev string, perSession int) audit.Record {
	clients := []string{"claude", "codex", "gemini", ""}
	call := i / 3
	session := fmt.Sprintf("%08x-4735-8224-dc13-%012d", pi, call/perSession)
	r := audit.Record{Seq: int64(i + 1), Prev: prev, Time: t, Project: project, Session: session,
		PromptID: fmt.Sprintf("d88ef235-92a4-4138-9f2d-%012d", call/20), Client: clients[(call/perSession)%len(clients)],
		Tool: "Bash", ToolUseID: fmt.Sprintf("toolu_01ABCDEFGHIJ%010d", call)}
	switch i % 3 {
	case 0:
		r.Event, r.Hook, r.Summary = "PreToolUse", "AuditLog", fmt.Sprintf("go test ./lib/audit -run TestChain -count=%d", call)
	case 1:
		r.Event, r.Hook, r.Decision, r.TookMS = "PreToolUse", "SecurityValidator", "silent", 0.42
		switch {
		case call%40 == 7:
			r.Decision, r.Rule, r.Category, r.Radius = "deny", "fs.rm-critical", "fs", "high"
			r.Reason = fmt.Sprintf("SecurityValidator: blocked `rm -rf /home/dev/%d`: deletes a home folder [rule fs.rm-critical, fs, blast radius high].", call)
		case call%25 == 3:
			r.Decision, r.Rule, r.Category, r.Radius = "ask", "git.push-force", "git", "medium"
			r.Reason = "SecurityValidator: asks before `git push --force`: rewrites the remote's history [rule git.push-force, git, blast radius medium]."
		}
	case 2:
		r.Event, r.Hook, r.DurationMS = "PostToolUse", "AuditLog", int64(40+call%900)
		r.Summary = fmt.Sprintf("go test ./lib/audit -run TestChain -count=%d", call)
	}
	return r
}

func TestFastLine(t *testing.T) {
	home := t.TempDir()
	genLog(t, home, 3000, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), time.Second, 50)
	files, _ := filepath.Glob(filepath.Join(home, "projects", "*", "audit", "*.jsonl"))
	n := 0
	for _, name := range files {
		f, _ := os.Open(name)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var fs audit.Fields
			if !audit.ReadFields(sc.Bytes(), &fs) {
				t.Fatalf("%s: %s", name, sc.Bytes())
			}
			n++
		}
		f.Close()
	}
	d, err := Build(Options{HarnessHome: home, Since: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 11, 29, 0, 0, 1, 0, time.UTC)})
	if err != nil || n != 3000 || len(d.Problems) != 0 || d.Records != 3000 {
		t.Fatalf("%d lines; %v %v", n, err, d.Problems)
	}
	// Every kind of record genLog makes, against Line.
	for i := range 3 * 100 {
		r := genRecord("/home/dev/api", 1, i, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), "ab", 50)
		if got, want := string(fastLine(r)), string(r.Line()); got != want {
			t.Errorf("fastLine\n%s\nLine\n%s", got, want)
		}
	}
}

// fastLine is Record.Line for the records genLog makes, whose texts need no redaction: a
// million of them are written in seconds, not the minute the redaction patterns take.
// TestFastLine holds it to Line.
func fastLine(r audit.Record) []byte {
	b := make([]byte, 0, 512)
	str := func(k, v string) {
		if v != "" {
			b = append(b, ',', '"')
			b = append(b, k...)
			b = append(b, '"', ':')
			b = strconv.AppendQuote(b, v)
		}
	}
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, r.Seq, 10)
	str("prev", r.Prev)
	str("time", r.Time.UTC().Format(time.RFC3339Nano))
	str("project", r.Project)
	str("session", r.Session)
	str("prompt_id", r.PromptID)
	str("event", r.Event)
	str("hook", r.Hook)
	str("client", r.Client)
	str("tool", r.Tool)
	str("tool_use_id", r.ToolUseID)
	str("summary", r.Summary)
	if r.DurationMS > 0 {
		b = append(b, `,"duration_ms":`...)
		b = strconv.AppendInt(b, r.DurationMS, 10)
	}
	str("decision", r.Decision)
	str("rule", r.Rule)
	str("category", r.Category)
	str("radius", r.Radius)
	str("reason", r.Reason)
	if r.TookMS > 0 {
		b = append(b, `,"took_ms":`...)
		b = strconv.AppendFloat(b, r.TookMS, 'f', 2, 64)
	}
	return append(b, '}', '\n')
}

// genLog writes n chained records into harnessHome, spread over three projects and sessions of
// perSession calls, the last one at end and one every step before it: a day's tool calls by several clients, each
// call recorded by AuditLog (PreToolUse, PostToolUse) and SecurityValidator, one call in 25
// asked and one in 40 denied. Written straight to the files (Append takes a lock per record).
func genLog(tb testing.TB, harnessHome string, n int, end time.Time, step time.Duration, perSession int) {
	tb.Helper()
	projects := []string{"/home/dev/api", "/home/dev/web", "/home/dev/infra"}
	per := n / len(projects)
	for pi, project := range projects {
		dir := audit.Dir(harnessHome, project)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			tb.Fatal(err)
		}
		count := per
		if pi == len(projects)-1 {
			count = n - per*(len(projects)-1)
		}
		t := end.Add(-time.Duration(count) * step)
		var f *os.File
		var w *bufio.Writer
		day, prev := "", ""
		for i := 0; i < count; i++ {
			t = t.Add(step)
			if d := t.UTC().Format("2006-01-02"); d != day {
				if f != nil {
					w.Flush()
					f.Close()
				}
				day = d
				var err error
				if f, err = os.Create(filepath.Join(dir, d+".jsonl")); err != nil {
					tb.Fatal(err)
				}
				w = bufio.NewWriterSize(f, 1<<20)
			}
			r := genRecord(project, pi, i, t, prev, perSession)
			line := fastLine(r)
			w.Write(line)
			sum := sha256.Sum256(line[:len(line)-1])
			prev = hex.EncodeToString(sum[:])
		}
		w.Flush()
		f.Close()
	}
}
