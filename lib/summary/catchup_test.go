package summary

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/transcript"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.*")

// qwenFixture is the real transcript of Qwen Code's session in the client tests: seven tool
// calls, the assistant's calls on lines 4, 8, 12, 16, 21, 25 and 29 of 33.
const qwenFixture = "../transcript/testdata/qwen/a02c5976-e498-43a4-8d11-f6876d7f08d6.jsonl"

// stop is what SessionSummary does at Stop: fold from the checkpoint, save it and the summary
// with the last message of the payload.
func stop(t *testing.T, s Store, id, path, home string) Doc {
	t.Helper()
	sum, cp, err := transcript.Fold(path, s.Checkpoint(id), func() *transcript.State { return transcript.New(id, "/home/dev/proj", home) })
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveCheckpoint(id, cp); err != nil {
		t.Fatal(err)
	}
	d := Doc{Summary: sum, Transcript: path, TranscriptBytes: cp.Size, DurationS: sum.Duration().Seconds(), Agents: s.Agents(id)}
	d.LastMessage = "Done."
	if err := s.Save(d); err != nil {
		t.Fatal(err)
	}
	return d
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func appendFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// A client writes its transcript behind its last hook (Qwen Code at Stop): the summary
// written then has 5 of the 7 tool calls. The next CatchUp folds the rest from the checkpoint
// and rewrites the summary and the index, with the same bytes as a summary written after the
// whole transcript; nothing grown, nothing read.
func TestCatchUpGrownTranscript(t *testing.T) {
	full := read(t, qwenFixture)
	lines := bytes.SplitAfter(full, []byte("\n"))
	// Stop sees 24 lines and half of the 25th, still being written.
	cut := len(bytes.Join(lines[:24], nil)) + len(lines[24])/2
	dir := t.TempDir()
	path := filepath.Join(dir, "chat.jsonl")
	if err := os.WriteFile(path, full[:cut], 0o600); err != nil {
		t.Fatal(err)
	}
	s := Open(filepath.Join(dir, "harness"), "/home/dev/proj", 0)
	const id = "a02c5976-e498-43a4-8d11-f6876d7f08d6"
	first := stop(t, s, id, path, "/home/dev")
	if first.ToolCalls != 5 || first.TranscriptBytes != int64(cut) {
		t.Fatalf("at Stop: %d tool calls, %d bytes covered", first.ToolCalls, first.TranscriptBytes)
	}
	if first.Behind() {
		t.Fatal("a summary just written is behind its transcript")
	}
	if cp := s.Checkpoint(id); cp.Offset != int64(len(bytes.Join(lines[:24], nil))) {
		t.Fatalf("the checkpoint is at %d, not after the last whole line", cp.Offset)
	}
	if _, done, err := s.CatchUp(context.Background(), id, "/home/dev"); done || err != nil {
		t.Fatalf("caught up a summary not behind: %v %v", done, err)
	}

	appendFile(t, path, full[cut:])
	if d, _ := s.Load(id); !d.Behind() {
		t.Fatal("the grown transcript is not seen")
	}
	d, done, err := s.CatchUp(context.Background(), id, "/home/dev")
	if err != nil || !done {
		t.Fatalf("CatchUp: %v %v", done, err)
	}
	if d.ToolCalls != 7 || d.TranscriptBytes != int64(len(full)) || d.Behind() {
		t.Errorf("after the catch-up: %d tool calls, %d of %d bytes covered", d.ToolCalls, d.TranscriptBytes, len(full))
	}
	es, err := s.Index()
	if err != nil || len(es) != 1 || es[0].ToolCalls != 7 || es[0].End != d.End {
		t.Errorf("index: %+v %v", es, err)
	}
	gotMD, gotJS := read(t, s.md(id)), read(t, s.js(id))
	for name, got := range map[string][]byte{"catchup.golden.md": gotMD, "catchup.golden.json": gotJS} {
		got = bytes.ReplaceAll(got, []byte(dir), []byte("$WORK"))
		golden := filepath.Join("testdata", name)
		if *update {
			os.WriteFile(golden, got, 0o644)
		}
		if want := read(t, golden); !bytes.Equal(got, want) {
			t.Errorf("%s differs:\n%s", golden, got)
		}
	}

	// The same bytes as the summary of the whole transcript read at once.
	fresh := Open(filepath.Join(dir, "fresh"), "/home/dev/proj", 0)
	stop(t, fresh, id, path, "/home/dev")
	if !bytes.Equal(read(t, fresh.js(id)), gotJS) || !bytes.Equal(read(t, fresh.md(id)), gotMD) {
		t.Errorf("the caught-up summary differs from one read at once:\n%s\n%s", gotJS, read(t, fresh.js(id)))
	}

	// Nothing grown: a stat, no read. A file of the same size but other bytes would, read,
	// be folded afresh into a summary of nothing.
	if err := os.WriteFile(path, bytes.Repeat([]byte(" "), len(full)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, done, err := s.CatchUp(context.Background(), id, "/home/dev"); done || err != nil {
		t.Errorf("a transcript of the same size was read: %v %v", done, err)
	}
	if !bytes.Equal(read(t, s.js(id)), gotJS) {
		t.Error("the summary changed")
	}
}

// Out of time: the summary stays as it was, the checkpoint keeps the lines read, and the next
// catch-up goes on from there to the summary of the whole transcript.
func TestCatchUpBudget(t *testing.T) {
	full := read(t, qwenFixture)
	dir := t.TempDir()
	path := filepath.Join(dir, "chat.jsonl")
	os.WriteFile(path, full, 0o600)
	s := Open(filepath.Join(dir, "harness"), "/home/dev/proj", 0)
	const id = "s1"
	first := stop(t, s, id, path, "/home/dev")
	before := read(t, s.js(id))
	// Thousands of lines more, so the fold looks at its context on the way.
	appendFile(t, path, bytes.Repeat(full, 100))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, done, err := s.CatchUp(ctx, id, "/home/dev")
	if !errors.Is(err, ErrBudget) || done || d.ToolCalls != first.ToolCalls {
		t.Fatalf("CatchUp out of time: %v %v, %d tool calls", done, err, d.ToolCalls)
	}
	if !strings.Contains(err.Error(), "not brought up to date within the time budget") {
		t.Errorf("error: %v", err)
	}
	if !bytes.Equal(read(t, s.js(id)), before) {
		t.Error("the summary changed")
	}
	cp := s.Checkpoint(id)
	if cp == nil || cp.Offset <= first.TranscriptBytes || cp.Offset >= int64(101*len(full)) {
		t.Fatalf("the checkpoint did not keep the lines read: %+v", cp)
	}
	d, done, err = s.CatchUp(context.Background(), id, "/home/dev")
	if err != nil || !done || d.ToolCalls != 101*7 || d.TranscriptBytes != int64(101*len(full)) {
		t.Errorf("the next catch-up: %v %v, %d tool calls, %d bytes", done, err, d.ToolCalls, d.TranscriptBytes)
	}
}
