package report

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// BenchmarkReport writes the report of a million records (three projects, a week, a call a
// second in each), chain check included, and reports the page's size and the heap's peak,
// sampled every millisecond, and the CPU time per report, which a busy machine moves less
// than the wall clock (go test ./lib/report -run '^$' -bench Report -benchtime 5x).
func BenchmarkReport(b *testing.B) {
	home := b.TempDir()
	end := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	genLog(b, home, 1_000_000, end, 1800*time.Millisecond, 400)
	o := Options{HarnessHome: home, Since: end.Add(-7 * 24 * time.Hour), Until: end.Add(time.Second), Generated: end}
	out := filepath.Join(b.TempDir(), "report.html")
	runtime.GC()

	peak := peakHeap()
	b.ReportAllocs()
	var size int64
	cpu := cpuTime()
	for b.Loop() {
		d, err := Build(o)
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(out)
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Write(f); err != nil {
			b.Fatal(err)
		}
		f.Close()
		if d.Records != 1_000_000 || len(d.Problems) > 0 {
			b.Fatalf("%d records in the range, problems %q", d.Records, d.Problems)
		}
		st, _ := os.Stat(out)
		size = st.Size()
	}
	if cpu := cpuTime() - cpu; cpu > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
	b.ReportMetric(float64(peak()>>20), "peak-heap-MB")
	b.ReportMetric(float64(size>>10), "page-KB")
	if size > 5<<20 {
		b.Errorf("the page is %d bytes, over 5 MB", size)
	}
}

// peakHeap samples the heap (its objects, live and not yet collected) until the returned
// function is called, which gives the highest sample.
func peakHeap() func() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var mu sync.Mutex
	var top uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			mu.Lock()
			top = max(top, s[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		return top
	}
}
