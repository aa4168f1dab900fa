package report

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookkit/harness/lib/audit"
)

// genLog writes n chained records into harnessHome, spread over three projects and sessions of
// perSession calls, the last one at end and one every step before it: a day's tool calls by several clients, each
// call recorded by AuditLog (PreToolUse, PostToolUse) and SecurityValidator, one call in 25
// asked and one in 40 denied. Written straight to the files (Append takes a lock per record).
func genLog(tb testing.TB, harnessHome string, n int, end time.Time, step time.Duration, perSession int) {
	tb.Helper()
	projects := []string{"/home/dev/api", "/home/dev/web", "/home/dev/infra"}
	clients := []string{"claude", "codex", "gemini", ""}
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
			line := r.Line()
			w.Write(line)
			prev = audit.LineHash(line[:len(line)-1])
		}
		w.Flush()
		f.Close()
	}
}
