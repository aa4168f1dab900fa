package secret

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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
	n, err := ScrubFile(path, int64(len(before)+5))
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
	if n, err := ScrubFile(path, int64(len(before))); err != nil || n != 1 {
		t.Errorf("from a line start: %d, %v", n, err)
	}
	if _, err := ScrubFile(filepath.Join(t.TempDir(), "none"), 0); err == nil {
		t.Error("a missing file scrubbed without an error")
	}
}

func FuzzScrubJSON(f *testing.F) {
	f.Add(`{"content":"use my token ` + token + `"}`)
	f.Add(`{"p":"gh\u0070_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde\"","q":"\`)
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		ScrubJSON(b)
		if len(b) != len(s) {
			t.Fatal("length changed")
		}
		if json.Valid([]byte(s)) && !json.Valid(b) {
			t.Fatalf("valid JSON broken: %q -> %q", s, b)
		}
	})
}

// A transcript not written yet when the prompt is blocked is scrubbed whole on the second
// pass; a pass within Settle of the block keeps the file listed, the final one lets it go.
func TestScrubPending(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "hh", "s.json")
	transcript := filepath.Join(dir, "t.jsonl")
	if err := ScrubBlocked(record, 60, transcript, ""); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(record)
	if err != nil || strings.Contains(string(b), "ghp_") || !strings.Contains(string(b), `"from":0`) {
		t.Fatalf("record %s, %v", b, err)
	}
	os.WriteFile(transcript, []byte(`{"content":"`+token+`"}`+"\n"), 0o600)
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
