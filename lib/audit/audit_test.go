package audit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

func TestLineIsRedactedAndCapped(t *testing.T) {
	r := Record{Time: time.Date(2026, 11, 22, 1, 2, 3, 0, time.UTC), Project: "/p", Event: "PreToolUse", Tool: "Bash",
		Summary: "curl -H 'Authorization: token ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde'\nhttps://api.github.com " + strings.Repeat("x", 300)}
	line := string(r.Line())
	if strings.Contains(line, "ghp_R4nd") || !strings.Contains(line, "[REDACTED:github-token]") {
		t.Errorf("not redacted: %s", line)
	}
	if strings.Count(line, "\n") != 1 || !gjson.Valid(line) {
		t.Errorf("not one JSON line: %q", line)
	}
	if s := gjson.Get(line, "summary").Str; len([]rune(s)) != 200 {
		t.Errorf("summary is %d runes", len([]rune(s)))
	}
}

// Rotation: past MaxFile the day's file moves to .1 and a new one starts; nothing is lost.
func TestRotation(t *testing.T) {
	home := t.TempDir()
	old := MaxFile
	MaxFile = 2000
	defer func() { MaxFile = old }()
	for i := range 100 {
		if err := Append(home, Record{Project: "/p", Event: "PreToolUse", Summary: fmt.Sprint("n=", i)}); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(Dir(home, "/p"), "*.jsonl"))
	if len(files) < 3 {
		t.Errorf("expected rotated files, got %v", files)
	}
	recs, err := Read(home, "/p")
	if err != nil || len(recs) != 100 {
		t.Fatalf("read %d records: %v", len(recs), err)
	}
}

// TestConcurrentProcesses: 64 processes append 1,000 records each into one log, rotating it
// every 256 KB: none is lost, no line is torn, and the records form one chain.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("64 processes; skipped with -short")
	}
	home := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for p := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAppend$")
			cmd.Env = append(os.Environ(), "AUDIT_HELPER_HOME="+home, "AUDIT_HELPER_ID="+strconv.Itoa(p))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("process %d: %v\n%s", p, err, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	recs, err := Read(home, "/p")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		seen[r.Get("summary").Str] = true
	}
	if len(recs) != 64000 || len(seen) != 64000 {
		t.Errorf("%d records, %d distinct; want 64000", len(recs), len(seen))
	}
	files, _ := filepath.Glob(filepath.Join(Dir(home, "/p"), "*.jsonl"))
	if len(files) < 20 {
		t.Errorf("%d files, want 20 or more: rotation under load is not tested", len(files))
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if !gjson.Valid(line) {
				t.Fatalf("%s line %d is torn: %q", f, i+1, line)
			}
		}
	}
	checkChain(t, home, "/p", 64000)
}

// TestHelperAppend is the body of one writer process of TestConcurrentProcesses.
func TestHelperAppend(t *testing.T) {
	home, id := os.Getenv("AUDIT_HELPER_HOME"), os.Getenv("AUDIT_HELPER_ID")
	if home == "" {
		t.Skip("helper process only")
	}
	MaxFile = 256 << 10
	for i := range 1000 {
		if err := Append(home, Record{Project: "/p", Event: "PostToolUse", Tool: "Bash", Summary: "p" + id + "-" + strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
}

// A guard's problems (a project policy file it ignored) are a list in its record, redacted;
// a record without any has no such key.
func TestLineCarriesProblems(t *testing.T) {
	r := Record{Time: time.Date(2026, 11, 22, 1, 2, 3, 0, time.UTC), Project: "/p", Hook: "SecurityValidator", Decision: "silent",
		Problems: []string{"project policy file /p/.claude/harness/security.json is ignored: not valid JSON", "token ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde"}}
	line := string(r.Line())
	ps := gjson.Get(line, "problems").Array()
	if len(ps) != 2 || ps[0].Str != r.Problems[0] || strings.Contains(line, "ghp_R4nd") {
		t.Errorf("problems: %s", line)
	}
	r.Problems = nil
	if line := string(r.Line()); strings.Contains(line, "problems") {
		t.Errorf("an empty list is written: %s", line)
	}
}

// A record names its client; one written before records kept it reads as unknown.
func TestClientOf(t *testing.T) {
	for line, want := range map[string]string{
		`{"seq":1,"hook":"AuditLog","client":"gemini"}`: "gemini",
		`{"seq":1,"hook":"AuditLog"}`:                   "unknown",
		`{"seq":1,"hook":"AuditLog","client":""}`:       "unknown",
	} {
		if got := ClientOf(gjson.Parse(line)); got != want {
			t.Errorf("ClientOf(%s) = %q, want %q", line, got, want)
		}
	}
}
