package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// generate writes a transcript of at least size bytes: the real session's lines repeated with
// fresh ids, every tenth round with a 256 KB tool output, the way long sessions grow.
func generate(tb testing.TB, path string, size int64) {
	tb.Helper()
	src, err := os.ReadFile("testdata/main-session.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	big := strings.Repeat("output line of a long build log\\n", 8000)
	var n int64
	for round := 0; n < size; round++ {
		tag := []byte("r" + strconv.Itoa(round) + "_")
		for _, l := range lines {
			l = bytes.ReplaceAll(l, []byte("toolu_fake_"), append([]byte("toolu_"), tag...))
			l = bytes.ReplaceAll(l, []byte("msg_fake_"), append([]byte("msg_"), tag...))
			m, _ := w.Write(l)
			n += int64(m)
		}
		if round%10 == 0 {
			m, _ := fmt.Fprintf(w, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%sbig","content":"%s","is_error":false}]},"toolUseResult":{"stdout":"%s"}}`+"\n", tag, big, big)
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

// BenchmarkFold summarises generated transcripts of 10 and 100 MB from the start. Targets: the
// 100 MB one in at most 1 s, peak RSS at most 64 MB, ns/MB the same at both sizes (linear).
//
//	go test ./lib/transcript -run '^$' -bench Fold -benchtime 3x
func BenchmarkFold(b *testing.B) {
	for _, mb := range []int64{10, 100} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "t.jsonl")
			generate(b, path, mb<<20)
			fi, _ := os.Stat(path)
			runtime.GC()
			b.SetBytes(fi.Size())
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
			if s.ToolCalls == 0 || s.Skipped != 0 {
				b.Fatalf("summary of the generated transcript: %d tool calls, %d skipped lines", s.ToolCalls, s.Skipped)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(fi.Size()>>20), "ns/MB")
			b.ReportMetric(peakRSS(), "peak-RSS-MB")
		})
	}
}
