package secret

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const token = "ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde"

func TestScrubJSON(t *testing.T) {
	tests := []struct {
		name, in, want string
		n              int
	}{
		{"queue line",
			`{"type":"queue-operation","content":"use my token ` + token + ` to open the pull request"}`,
			`{"type":"queue-operation","content":"use my token ` + strings.Repeat("*", len(token)) + ` to open the pull request"}`, 1},
		{"block notice with escapes",
			`{"content":"UserPromptSubmit operation blocked by hook:\nhas a key\n\nOriginal prompt: ` + token + `","level":"warning"}`,
			`{"content":"UserPromptSubmit operation blocked by hook:\nhas a key\n\nOriginal prompt: ` + strings.Repeat("*", len(token)) + `","level":"warning"}`, 1},
		{"escaped quotes around an assignment",
			`{"prompt":"set password=\"f8Kq2LmZ9xPw4RtY\" please"}`,
			`{"prompt":"set password=\"****************\" please"}`, 1},
		{"an escape inside the secret stays whole",
			`{"p":"gh\u0070_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde"}`,
			`{"p":"**\u0070` + strings.Repeat("*", len(token)-3) + `"}`, 1},
		{"private key over escaped newlines",
			`{"p":"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"}`,
			`{"p":"***********************************\n************************\n*********************************"}`, 1},
		{"a zero-width space inside the token, escaped, stays; the token is masked around it",
			`{"p":"` + token[:10] + `\u200b` + token[10:] + `"}`,
			`{"p":"` + strings.Repeat("*", 10) + `\u200b` + strings.Repeat("*", len(token)-10) + `"}`, 1},
		{"nothing to scrub", `{"a":"commit 3f786850e387550fdab836ed7e6dc881de23001b","b":[1,2]}`,
			`{"a":"commit 3f786850e387550fdab836ed7e6dc881de23001b","b":[1,2]}`, 0},
		{"not JSON at all", `plain ` + token, `plain ` + token, 0},
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		n := ScrubJSON(b)
		if string(b) != tt.want || n != tt.n {
			t.Errorf("%s:\n got %s (%d)\nwant %s (%d)", tt.name, b, n, tt.want, tt.n)
		}
		if json.Valid([]byte(tt.in)) && !json.Valid(b) {
			t.Errorf("%s: no longer valid JSON: %s", tt.name, b)
		}
	}
}

// ScrubFile rewrites only the secret's bytes from the offset on: earlier lines and a line the
// offset falls inside are left alone, and what a writer appends meanwhile is kept.
func TestScrubFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	line := func(s string) string { return `{"content":"` + s + `"}` + "\n" }
	before := line("earlier: " + token)
	mid := line("the line the offset falls in: " + token)
	after := line("Original prompt: " + token)
	os.WriteFile(path, []byte(before+mid+after), 0o600)

	appender, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer appender.Close()
	n, err := ScrubFile(path, int64(len(before)+5), nil)
	if err != nil || n != 1 {
		t.Fatalf("ScrubFile: %d, %v", n, err)
	}
	appender.WriteString(line("appended later"))

	got, _ := os.ReadFile(path)
	want := before + mid + line("Original prompt: "+strings.Repeat("*", len(token))) + line("appended later")
	if string(got) != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}

	// From the start of a line, that line is scrubbed; a missing file is an error.
	if n, err := ScrubFile(path, int64(len(before)), nil); err != nil || n != 1 {
		t.Errorf("from a line start: %d, %v", n, err)
	}
	if _, err := ScrubFile(filepath.Join(t.TempDir(), "none"), 0, nil); err == nil {
		t.Error("a missing file scrubbed without an error")
	}
}

// Only the lines the filter picks are scrubbed; a last line without its newline waits until
// it is complete JSON; a line cut off by the read cap is never touched.
func TestScrubFileLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	prompt := `{"type":"queue-operation","content":"` + token + `"}` + "\n"
	result := `{"type":"user","message":{"content":[{"type":"tool_result","content":"` + token + `"}]}}` + "\n"
	partial := `{"type":"queue-operation","content":"` + token
	os.WriteFile(path, []byte(prompt+result+partial), 0o600)
	if n, err := ScrubFile(path, 0, PromptLine); err != nil || n != 1 {
		t.Fatalf("ScrubFile: %d, %v", n, err)
	}
	masked := strings.Replace(prompt, token, strings.Repeat("*", len(token)), 1)
	if got, _ := os.ReadFile(path); string(got) != masked+result+partial {
		t.Errorf("got\n%s", got)
	}
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`"}`)
	f.Close()
	if n, err := ScrubFile(path, 0, PromptLine); err != nil || n != 1 {
		t.Errorf("the completed last line: %d, %v", n, err)
	}

	// A line longer than the read cap ends in the middle of an escape: left alone.
	big := `{"type":"queue-operation","content":"` + strings.Repeat("x", MaxScrub-60) + ` token=Zq8vLr2mXk9pWt4yH3\u0041more"}` + "\n"
	os.WriteFile(path, []byte(big), 0o600)
	if n, err := ScrubFile(path, 0, nil); err != nil || n != 0 {
		t.Errorf("a cut line: %d, %v", n, err)
	}
	if got, _ := os.ReadFile(path); string(got) != big {
		t.Error("a cut line was changed")
	}
}

func FuzzScrubJSON(f *testing.F) {
	f.Add(`{"content":"use my token `+token+`"}`, 10)
	f.Add(`{"p":"gh\u0070_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde\"","q":"\`, 9)
	f.Add(`{"p":"token=Zq8vLr2mXk9pWt4yH3\u0041more"}`, 40)
	f.Fuzz(func(t *testing.T, s string, cut int) {
		b := []byte(s)
		ScrubJSON(b)
		if len(b) != len(s) {
			t.Fatal("length changed")
		}
		if json.Valid([]byte(s)) && !json.Valid(b) {
			t.Fatalf("valid JSON broken: %q -> %q", s, b)
		}
		// Scrubbing a prefix (a line still being written) never breaks the whole.
		b = []byte(s)
		if cut < 0 || cut > len(b) {
			return
		}
		ScrubJSON(b[:cut])
		if json.Valid([]byte(s)) && !json.Valid(b) {
			t.Fatalf("valid JSON broken by scrubbing its first %d bytes: %q -> %q", cut, s, b)
		}
	})
}

// A transcript not written yet when the prompt is blocked is scrubbed whole on the second
// pass; a pass within Settle of the block keeps the file listed, the final one lets it go.
func TestScrubPending(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "hh", "s.json")
	transcript := filepath.Join(dir, "t.jsonl")
	if err := ScrubBlocked(record, "s", 60, transcript, ""); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(record)
	if err != nil || strings.Contains(string(b), "ghp_") || !strings.Contains(string(b), `"from":0`) {
		t.Fatalf("record %s, %v", b, err)
	}
	os.WriteFile(transcript, []byte(`{"type":"queue-operation","content":"`+token+`"}`+"\n"), 0o600)
	if err := ScrubPending(record, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(transcript); strings.Contains(string(got), token) {
		t.Errorf("not scrubbed: %s", got)
	}
	if _, err := os.Stat(record); err != nil {
		t.Errorf("the record went before Settle: %v", err)
	}
	if err := ScrubPending(record, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(record); err == nil {
		t.Error("the final pass kept the record")
	}
	if err := ScrubPending(record, true); err != nil {
		t.Errorf("no record: %v", err)
	}
}

// Parallel calls of one session keep every file they list: the record is updated under a lock.
func TestPendingUnderParallelCalls(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "records", "s.json")
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := ScrubBlocked(record, "s", 10, filepath.Join(dir, fmt.Sprintf("t%d.jsonl", i)), ""); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if err := ScrubPending(record, false); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	p, err := readPending(record)
	if err != nil || len(p.Files) != 16 {
		t.Errorf("%d files listed, want 16 (%v)", len(p.Files), err)
	}
}
