package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// generate writes a transcript of at least size bytes from real transcript lines: the fixtures
// of one format (Claude Code's: every session in testdata; another client's: its session in
// testdata/<client>), repeated, each round with fresh ids so calls pair with their own results.
func generate(tb testing.TB, format, path string, size int64) {
	tb.Helper()
	pattern := filepath.Join("testdata", format, "*.jsonl")
	if format == Claude {
		pattern = "testdata/*.jsonl"
	}
	files, _ := filepath.Glob(pattern)
	var src []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		src = append(src, b...)
	}
	if len(src) == 0 {
		tb.Fatalf("no transcript in %s", pattern)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	for round := 0; n < size; round++ {
		tag := []byte("r" + strconv.Itoa(round) + "_")
		for _, l := range lines {
			// Claude Code's ids (toolu_, msg_), and the call ids the scripted model gave the
			// other clients (call_).
			for _, p := range []string{"toolu_", "msg_", "call_"} {
				l = bytes.ReplaceAll(l, []byte(p), append([]byte(p), tag...))
			}
			m, _ := w.Write(l)
			n += int64(m)
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
}

// peakRSS is the process's high-water resident set size in MB (Linux), 0 elsewhere.
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			kb, _ := strconv.ParseFloat(strings.Fields(l)[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkFold summarises transcripts of real lines from the start: Claude Code's at 10 and
// 100 MB (targets: 100 MB in at most 1 s, peak RSS at most 64 MB, ns/MB the same at both
// sizes), each other client's at 100 MB. MB/s is the reader's speed.
//
//	go test ./lib/transcript -run '^$' -bench Fold -benchtime 3x
func BenchmarkFold(b *testing.B) {
	sizes := []struct {
		format string
		mb     int64
	}{{Claude, 10}, {Claude, 100}, {Codex, 100}, {Gemini, 100}, {Qwen, 100}, {Copilot, 100}, {Droid, 100}}
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("%s/%dMB", sz.format, sz.mb), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "t.jsonl")
			generate(b, sz.format, path, sz.mb<<20)
			fi, _ := os.Stat(path)
			runtime.GC()
			b.SetBytes(fi.Size())
			cpu0 := cpuTime()
			b.ResetTimer()
			var s Summary
			for i := 0; i < b.N; i++ {
				var err error
				s, _, err = Fold(path, nil, fresh)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			// CPU time, steadier than wall time on a shared machine.
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			if s.ToolCalls == 0 || s.Skipped != 0 || s.Format != sz.format {
				b.Fatalf("summary of the generated transcript: %s, %d tool calls, %d skipped lines", s.Format, s.ToolCalls, s.Skipped)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(fi.Size()>>20), "ns/MB")
			b.ReportMetric(peakRSS(), "peak-RSS-MB")
		})
	}
}

// BenchmarkProcess runs the real SessionSummary binary, as the client does at a Stop, on a
// 100 MB transcript of each client's real lines with no checkpoint: the whole process (start,
// read, fold, write the summary, its checkpoint and the index). Targets: at most 1 s wall time
// and 64 MB peak RSS. (Stop, whose deadline is 8 s: at SessionEnd the hook's own deadline is
// 750 ms, and a first read that misses it leaves the summary of the last Stop.)
//
//	go test ./lib/transcript -run '^$' -bench Process -benchtime 3x
func BenchmarkProcess(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "SessionSummary")
	if out, err := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "../../hooks/SessionSummary").CombinedOutput(); err != nil {
		b.Fatalf("building SessionSummary: %v\n%s", err, out)
	}
	for _, format := range []string{Claude, Codex, Gemini, Qwen, Copilot, Droid} {
		b.Run(format, func(b *testing.B) {
			path := filepath.Join(dir, format+".jsonl")
			generate(b, format, path, 100<<20)
			defer os.Remove(path)
			fi, _ := os.Stat(path)
			b.SetBytes(fi.Size())
			b.ResetTimer()
			var wall time.Duration
			var rss int64
			for i := 0; i < b.N; i++ {
				hh := filepath.Join(dir, "harness"+strconv.Itoa(i)) // no checkpoint: a first read
				payload, _ := json.Marshal(map[string]any{"session_id": "s1", "transcript_path": path, "cwd": dir,
					"hook_event_name": "Stop", "stop_hook_active": false})
				cmd := exec.Command(bin, "--home="+hh)
				cmd.Stdin = bytes.NewReader(payload)
				cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+dir)
				start := time.Now()
				out, err := cmd.CombinedOutput()
				wall += time.Since(start)
				if err != nil {
					b.Fatalf("SessionSummary: %v\n%s", err, out)
				}
				rss = max(rss, maxRSS(cmd.ProcessState))
				docs, _ := filepath.Glob(filepath.Join(hh, "projects", "*", "sessions", "s1.json"))
				if len(docs) != 1 {
					b.Fatalf("no summary written under %s\n%s", hh, out)
				}
				if doc, _ := os.ReadFile(docs[0]); gjson.GetBytes(doc, "format").Str != format {
					b.Fatalf("the summary is not of a %s transcript:\n%.400s", format, doc)
				}
				b.StopTimer()
				os.RemoveAll(hh)
				b.StartTimer()
			}
			b.ReportMetric(wall.Seconds()/float64(b.N), "s/process")
			b.ReportMetric(float64(rss)/1024, "peak-RSS-MB")
		})
	}
}
