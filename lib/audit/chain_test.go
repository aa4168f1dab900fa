package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// chainLines reads every line of a project's log in chain order, with where it is.
func chainLines(t *testing.T, dir string) (lines [][]byte, at []string) {
	t.Helper()
	list, err := files(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range list {
		b, err := os.ReadFile(f.name)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range bytes.Split(bytes.TrimSuffix(b, []byte{'\n'}), []byte{'\n'}) {
			lines = append(lines, l)
			at = append(at, fmt.Sprintf("%s:%d", f.name, i+1))
		}
	}
	return lines, at
}

// checkChain asserts that a project's log is one chain of want records, seq 1 to want, each
// prev the hash of the line before, and that Verify and Head agree.
func checkChain(t *testing.T, home, project string, want int) {
	t.Helper()
	dir := Dir(home, project)
	lines, at := chainLines(t, dir)
	if len(lines) != want {
		t.Fatalf("%d lines, want %d", len(lines), want)
	}
	for i, l := range lines {
		seq, prev := gjson.GetBytes(l, "seq").Int(), gjson.GetBytes(l, "prev")
		if seq != int64(i+1) {
			t.Fatalf("%s: seq %d, want %d", at[i], seq, i+1)
		}
		if i == 0 && prev.Exists() {
			t.Fatalf("%s: seq 1 has a prev", at[i])
		}
		if i > 0 && prev.Str != LineHash(lines[i-1]) {
			t.Fatalf("%s: prev %q is not the hash of the line before", at[i], prev.Str)
		}
	}
	rep, err := Verify(dir)
	if err != nil || rep.Break != nil || rep.Records != want || rep.Malformed != 0 {
		t.Fatalf("Verify: %+v %v; want %d whole records", rep, err, want)
	}
	seq, id, err := Head(home, project)
	if err != nil || seq != int64(want) || id != LineHash(lines[want-1]) || rep.ID != id {
		t.Fatalf("Head: %d %s %v, want %d %s", seq, id, err, want, LineHash(lines[want-1]))
	}
}

func smallFiles(t *testing.T, size int64) {
	old := MaxFile
	MaxFile = size
	t.Cleanup(func() { MaxFile = old })
}

func TestLineGolden(t *testing.T) {
	r := Record{Seq: 7, Prev: strings.Repeat("ab", 32), Time: time.Date(2026, 11, 22, 1, 2, 3, 400, time.UTC),
		Project: "/p", Session: "s1", PromptID: "d88ef235", Event: "PreToolUse", Hook: "SecurityValidator",
		Client: "codex", Tool: "Bash", ToolUseID: "toolu_1", Decision: "deny", Reason: "blocked [rule fs.rm-critical, filesystem destruction, blast radius high].",
		Rule: "fs.rm-critical", Category: "filesystem destruction", Radius: "high", TookMS: 0.42}
	want := `{"seq":7,"prev":"` + strings.Repeat("ab", 32) + `","time":"2026-11-22T01:02:03.0000004Z","project":"/p","session":"s1",` +
		`"prompt_id":"d88ef235","event":"PreToolUse","hook":"SecurityValidator","client":"codex","tool":"Bash","tool_use_id":"toolu_1",` +
		`"decision":"deny","rule":"fs.rm-critical","category":"filesystem destruction","radius":"high",` +
		`"reason":"blocked [rule fs.rm-critical, filesystem destruction, blast radius high].","took_ms":0.42}` + "\n"
	if got := string(r.Line()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := LineHash([]byte("abc")); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("LineHash(abc) = %s", got)
	}
}

// The chain runs on through rotations: seq is consecutive across the .N files.
func TestChainAcrossRotation(t *testing.T) {
	home := t.TempDir()
	smallFiles(t, 2000)
	for i := range 100 {
		if err := Append(home, Record{Project: "/p", Event: "PreToolUse", Summary: fmt.Sprint("n=", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if list, _ := files(Dir(home, "/p")); len(list) < 5 {
		t.Fatalf("expected 5 files or more, got %d", len(list))
	}
	checkChain(t, home, "/p", 100)
}

// The chain runs on across midnight, and a record dated before the newest file (a clock set
// back) goes into the newest file, so the files stay in chain order.
func TestChainAcrossDays(t *testing.T) {
	home := t.TempDir()
	smallFiles(t, 500)
	day1 := time.Date(2026, 11, 25, 23, 59, 0, 0, time.UTC)
	day2 := time.Date(2026, 11, 26, 0, 0, 1, 0, time.UTC)
	for i, tm := range []time.Time{day1, day1, day1, day1, day1, day1, day1, day2, day2, day1, day2, day1} {
		if err := Append(home, Record{Project: "/p", Event: "Stop", Time: tm.Add(time.Duration(i) * time.Millisecond)}); err != nil {
			t.Fatal(err)
		}
	}
	dir := Dir(home, "/p")
	_, at := chainLines(t, dir)
	for _, i := range []int{9, 11} {
		if !strings.Contains(at[i], "/2026-11-26") {
			t.Errorf("seq %d, dated the day before the newest file, is at %s", i+1, at[i])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "2026-11-25.1.jsonl")); err != nil {
		t.Errorf("the first day did not rotate: %v", err)
	}
	checkChain(t, home, "/p", 12)

	// Without the lock file's note, the newest file is found by listing the folder.
	os.Remove(filepath.Join(dir, ".lock"))
	if err := Append(home, Record{Project: "/p", Event: "Stop", Time: day1}); err != nil {
		t.Fatal(err)
	}
	checkChain(t, home, "/p", 13)
}

// Many goroutines appending at once, with rotations, keep one contiguous chain.
func TestChainParallelGoroutines(t *testing.T) {
	home := t.TempDir()
	smallFiles(t, 8000)
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				if err := Append(home, Record{Project: "/p", Event: "PostToolUse", Summary: fmt.Sprint(g, "-", i)}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	checkChain(t, home, "/p", 1600)
}

// Lines written before records were chained stay where they are; the first chained record
// has seq 1 and the hash of the last of them as its prev.
func TestChainAfterLegacyLines(t *testing.T) {
	home := t.TempDir()
	dir := Dir(home, "/p")
	os.MkdirAll(dir, 0o700)
	legacy := `{"time":"2026-11-24T10:00:00Z","project":"/p","event":"Stop"}` + "\n" + `{"time":"2026-11-24T10:00:01Z","project":"/p","event":"Stop"}` + "\n"
	os.WriteFile(filepath.Join(dir, "2026-11-24.jsonl"), []byte(legacy), 0o600)
	for range 3 {
		if err := Append(home, Record{Project: "/p", Event: "Stop"}); err != nil {
			t.Fatal(err)
		}
	}
	lines, _ := chainLines(t, dir)
	if len(lines) != 5 || gjson.GetBytes(lines[2], "seq").Int() != 1 || gjson.GetBytes(lines[2], "prev").Str != LineHash(lines[1]) {
		t.Fatalf("the chain does not start after the legacy lines:\n%s", bytes.Join(lines, []byte{'\n'}))
	}
	rep, err := Verify(dir)
	if err != nil || rep.Break != nil || rep.Legacy != 2 || rep.Records != 3 || rep.Project != "/p" {
		t.Fatalf("Verify: %+v %v", rep, err)
	}
}

// A file left without its final newline: the next record goes on a line of its own, in one
// write, and its prev is the hash of the torn line.
func TestAppendAfterTornLine(t *testing.T) {
	home := t.TempDir()
	Append(home, Record{Project: "/p", Event: "Stop", Time: time.Date(2026, 11, 26, 1, 0, 0, 0, time.UTC)})
	name := filepath.Join(Dir(home, "/p"), "2026-11-26.jsonl")
	f, _ := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"seq":2,"ti`)
	f.Close()
	if err := Append(home, Record{Project: "/p", Event: "Stop", Time: time.Date(2026, 11, 26, 1, 0, 1, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	lines, _ := chainLines(t, Dir(home, "/p"))
	if len(lines) != 3 || gjson.GetBytes(lines[2], "seq").Int() != 2 || gjson.GetBytes(lines[2], "prev").Str != LineHash([]byte(`{"seq":2,"ti`)) {
		t.Fatalf("lines:\n%s", bytes.Join(lines, []byte{'\n'}))
	}
	rep, _ := Verify(Dir(home, "/p"))
	if rep.Break == nil || rep.Break.Kind != Malformed || rep.Break.Line != 2 || rep.Malformed != 1 {
		t.Fatalf("Verify: %+v %+v", rep, rep.Break)
	}
}

func TestFilesInChainOrder(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"2026-11-26.jsonl", "2026-11-25.10.jsonl", "2026-11-25.jsonl", "2026-11-25.2.jsonl",
		"2026-11-25.1.jsonl", "2026-11-24.jsonl", "2026-11-26.1.jsonl", "notes.jsonl", "2026-11-25.02.jsonl", "2026-11-25.x.jsonl", ".lock"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o600)
	}
	list, err := files(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range list {
		got = append(got, filepath.Base(f.name))
	}
	want := "2026-11-24.jsonl 2026-11-25.1.jsonl 2026-11-25.2.jsonl 2026-11-25.10.jsonl 2026-11-25.jsonl 2026-11-26.1.jsonl 2026-11-26.jsonl"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestHeadOfNoLog(t *testing.T) {
	seq, id, err := Head(t.TempDir(), "/nowhere")
	if seq != 0 || id != "" || err != nil {
		t.Errorf("Head: %d %q %v", seq, id, err)
	}
}

// Verify tells each kind of tampering apart and names the first place it shows.
func TestVerifyFindsTampering(t *testing.T) {
	// Ten records over two days: 2026-11-25.jsonl holds seq 1-5, 2026-11-26.jsonl seq 6-10.
	build := func(t *testing.T) (dir string, lines [][]byte) {
		home := t.TempDir()
		for i := range 10 {
			tm := time.Date(2026, 11, 25+i/5, 12, 0, i, 0, time.UTC)
			if err := Append(home, Record{Project: "/p", Event: "PreToolUse", Tool: "Bash", Summary: fmt.Sprint("echo ", i+1), Time: tm}); err != nil {
				t.Fatal(err)
			}
		}
		dir = Dir(home, "/p")
		lines, _ = chainLines(t, dir)
		return dir, lines
	}
	day1, day2 := "2026-11-25.jsonl", "2026-11-26.jsonl"
	// write puts the lines back into the two files, the first n1 into day 1.
	write := func(dir string, lines [][]byte, n1 int) {
		join := func(ls [][]byte) []byte {
			if len(ls) == 0 {
				return nil
			}
			return append(bytes.Join(ls, []byte{'\n'}), '\n')
		}
		os.WriteFile(filepath.Join(dir, day1), join(lines[:n1]), 0o600)
		os.WriteFile(filepath.Join(dir, day2), join(lines[n1:]), 0o600)
	}
	with := func(lines [][]byte, i int, line []byte) [][]byte {
		return append(append(append([][]byte{}, lines[:i]...), line), lines[i:]...)
	}
	without := func(lines [][]byte, i int) [][]byte {
		return append(append([][]byte{}, lines[:i]...), lines[i+1:]...)
	}
	forge := func(seq int, prev []byte) []byte {
		return []byte(fmt.Sprintf(`{"seq":%d,"prev":"%s","time":"2026-11-25T12:00:09Z","project":"/p","event":"PreToolUse","summary":"forged"}`, seq, LineHash(prev)))
	}
	for _, tt := range []struct {
		name   string
		tamper func(lines [][]byte) ([][]byte, int)
		file   string
		line   int
		kind   string
		detail string
	}{
		{"whole", func(l [][]byte) ([][]byte, int) { return l, 5 }, "", 0, "", ""},
		{"tail truncated (not provable here)", func(l [][]byte) ([][]byte, int) { return l[:8], 5 }, "", 0, "", ""},
		{"edited line", func(l [][]byte) ([][]byte, int) {
			l[3] = bytes.Replace(l[3], []byte("echo 4"), []byte("echo 0"), 1)
			return l, 5
		}, day1, 4, Edited, "seq 4 does not match the prev of seq 5 (DIR/" + day1 + ":5)"},
		{"edited across files", func(l [][]byte) ([][]byte, int) {
			l[4] = bytes.Replace(l[4], []byte("echo 5"), []byte("echo 0"), 1)
			return l, 5
		}, day1, 5, Edited, "seq 5 does not match the prev of seq 6 (DIR/" + day2 + ":1)"},
		{"edited seq", func(l [][]byte) ([][]byte, int) {
			l[3] = bytes.Replace(l[3], []byte(`"seq":4`), []byte(`"seq":40`), 1)
			return l, 5
		}, day1, 4, Edited, "it follows seq 3 but says seq 40: its seq was changed"},
		{"deleted line", func(l [][]byte) ([][]byte, int) { return without(l, 4), 4 }, day2, 1, Removed,
			"seq 5 missing: seq 6 follows seq 4 (DIR/" + day1 + ":4)"},
		{"deleted lines", func(l [][]byte) ([][]byte, int) { return append(l[:2:2], l[5:]...), 2 }, day2, 1, Removed,
			"seq 3-5 missing: seq 6 follows seq 2 (DIR/" + day1 + ":2)"},
		{"deleted first line", func(l [][]byte) ([][]byte, int) { return l[1:], 4 }, day1, 1, Removed,
			"seq 1 missing: the chain starts at seq 2"},
		{"swapped pair", func(l [][]byte) ([][]byte, int) {
			l[5], l[6] = l[6], l[5]
			return l, 5
		}, day2, 1, Reordered, "seq 7 comes before seq 6 (DIR/" + day2 + ":2)"},
		{"swapped across files", func(l [][]byte) ([][]byte, int) {
			l[4], l[5] = l[5], l[4]
			return l, 5
		}, day1, 5, Reordered, "seq 6 comes before seq 5 (DIR/" + day2 + ":1)"},
		{"moved later", func(l [][]byte) ([][]byte, int) { return with(without(l, 2), 7, l[2]), 5 }, day1, 3, Reordered,
			"seq 3 was moved to DIR/" + day2 + ":3"},
		{"moved earlier", func(l [][]byte) ([][]byte, int) { return with(without(l, 7), 2, l[7]), 5 }, day1, 3, Reordered,
			"seq 8 was moved here from before seq 9 (DIR/" + day2 + ":4)"},
		{"inserted line without seq", func(l [][]byte) ([][]byte, int) {
			return with(l, 3, []byte(`{"time":"2026-11-25T12:00:09Z","project":"/p","event":"Stop"}`)), 6
		}, day1, 4, Inserted, "a line without seq after seq 3 (DIR/" + day1 + ":3)"},
		{"inserted line with a seq that fits nowhere", func(l [][]byte) ([][]byte, int) { return with(l, 3, forge(40, l[2])), 6 },
			day1, 4, Inserted, "seq 40 does not belong between seq 3 and seq 4 (DIR/" + day1 + ":5)"},
		{"inserted line that claims the next seq", func(l [][]byte) ([][]byte, int) { return with(l, 3, forge(4, l[2])), 6 },
			day1, 4, Inserted, "seq 4 appears twice and the chain goes on from the other one (DIR/" + day1 + ":5)"},
		{"duplicated line", func(l [][]byte) ([][]byte, int) { return with(l, 3, l[2]), 6 },
			day1, 4, Inserted, "seq 3 appears twice (also at DIR/" + day1 + ":3)"},
		{"malformed line", func(l [][]byte) ([][]byte, int) {
			l[6] = []byte(`{"seq":7,"prev":"x", oops`)
			return l, 5
		}, day2, 2, Malformed, "not a JSON record"},
		{"blank line", func(l [][]byte) ([][]byte, int) { return with(l, 8, nil), 5 }, day2, 4, Malformed, "not a JSON record"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, lines := build(t)
			l, n1 := tt.tamper(lines)
			write(dir, l, n1)
			rep, err := Verify(dir)
			if err != nil {
				t.Fatal(err)
			}
			if tt.kind == "" {
				if rep.Break != nil {
					t.Fatalf("whole chain reported broken: %v", rep.Break)
				}
				return
			}
			want := Break{File: filepath.Join(dir, tt.file), Line: tt.line, Kind: tt.kind, Detail: strings.ReplaceAll(tt.detail, "DIR", dir)}
			if rep.Break == nil || *rep.Break != want {
				t.Fatalf("got  %v\nwant %v", rep.Break, want)
			}
		})
	}
}

// A malformed line is counted wherever it is, also after the first break.
func TestVerifyCountsMalformed(t *testing.T) {
	home := t.TempDir()
	for range 4 {
		Append(home, Record{Project: "/p", Event: "Stop", Time: time.Date(2026, 11, 26, 1, 0, 0, 0, time.UTC)})
	}
	dir := Dir(home, "/p")
	name := filepath.Join(dir, "2026-11-26.jsonl")
	b, _ := os.ReadFile(name)
	lines := strings.SplitAfter(string(b), "\n")
	os.WriteFile(name, []byte(lines[0]+"garbage\n"+lines[1]+lines[2]+"[1,2]\n"+lines[3]), 0o600)
	rep, err := Verify(dir)
	if err != nil || rep.Malformed != 2 || rep.Break == nil || rep.Break.Line != 2 || rep.Break.Kind != Malformed {
		t.Fatalf("Verify: %+v %v", rep, err)
	}
}

// Lines longer than the first read from a file's end (a reason in a script of multi-byte
// letters, long ids) are found whole.
func TestChainLongLines(t *testing.T) {
	home := t.TempDir()
	project := "/p"
	for range 5 {
		if err := Append(home, Record{Project: project, Event: "PreToolUse", Hook: "SecurityValidator", Reason: strings.Repeat("é€", 150),
			Session: strings.Repeat("s", 2000), ToolUseID: strings.Repeat("t", 2000)}); err != nil {
			t.Fatal(err)
		}
	}
	lines, _ := chainLines(t, Dir(home, project))
	if len(lines[4]) < 4<<10 {
		t.Fatalf("a line of %d bytes does not test reads past 4 KB", len(lines[4]))
	}
	checkChain(t, home, project, 5)
}

// A line without seq after the chain has started (a binary from before the chain, still
// running): the next record goes on from the last chained one, and verify reports the line.
func TestChainAfterUnchainedLine(t *testing.T) {
	home := t.TempDir()
	tm := time.Date(2026, 11, 26, 1, 0, 0, 0, time.UTC)
	Append(home, Record{Project: "/p", Event: "Stop", Time: tm})
	Append(home, Record{Project: "/p", Event: "Stop", Time: tm})
	name := filepath.Join(Dir(home, "/p"), "2026-11-26.jsonl")
	f, _ := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"time":"2026-11-26T01:00:00Z","project":"/p","event":"Stop"}` + "\n")
	f.Close()
	Append(home, Record{Project: "/p", Event: "Stop", Time: tm})
	lines, _ := chainLines(t, Dir(home, "/p"))
	if len(lines) != 4 || gjson.GetBytes(lines[3], "seq").Int() != 3 || gjson.GetBytes(lines[3], "prev").Str != LineHash(lines[2]) {
		t.Fatalf("lines:\n%s", bytes.Join(lines, []byte{'\n'}))
	}
	if seq, id, _ := Head(home, "/p"); seq != 3 || id != LineHash(lines[3]) {
		t.Errorf("Head: %d %s", seq, id)
	}
	rep, _ := Verify(Dir(home, "/p"))
	if rep.Break == nil || rep.Break.Kind != Inserted || rep.Break.Line != 3 {
		t.Fatalf("Verify: %+v", rep.Break)
	}
}

// Files gives the chain order lib/ship reads in; DayOf the day a log's name carries.
func TestFilesOrder(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"2026-11-26.jsonl", "2026-11-25.jsonl", "2026-11-26.10.jsonl", "2026-11-26.2.jsonl",
		"2026-11-26.1.jsonl", "2026-11-26.01.jsonl", "notes.jsonl", "shipped.json"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Files(dir)
	want := []string{"2026-11-25.jsonl", "2026-11-26.1.jsonl", "2026-11-26.2.jsonl", "2026-11-26.10.jsonl", "2026-11-26.jsonl"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Files = %q, %v; want %q", got, err, want)
	}
	for name, day := range map[string]string{"2026-11-26.3.jsonl": "2026-11-26", "2026-11-26.jsonl": "2026-11-26", "notes.jsonl": "", "2026-11-26.txt": ""} {
		if got := DayOf(name); got != day {
			t.Errorf("DayOf(%q) = %q, want %q", name, got, day)
		}
	}
}
