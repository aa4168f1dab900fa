package ship

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookkit/harness/lib/audit"
)

// BenchmarkShip sends a backlog of chained records (the size of real ones) to a local OTLP/HTTP
// sink that reads and discards each request, in the default batches, and reports records/s
// and the peak heap in use while shipping: it follows the batch, not the backlog (compare
// the two backlogs).
//
//	go test -run '^$' -bench Ship -benchtime 3x ./lib/ship
func BenchmarkShip(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("backlog=%d", n), func(b *testing.B) {
			home := b.TempDir()
			dir := audit.Dir(home, "/p")
			writeBacklog(b, dir, n)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
			}))
			defer srv.Close()
			var peak atomic.Uint64
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				os.Remove(filepath.Join(dir, CheckpointFile))
				runtime.GC()
				s, err := New(Config{Endpoint: srv.URL, Batch: DefaultBatch, Timeout: DefaultTimeout}, nil, Identity{Host: "h", User: "u"})
				if err != nil {
					b.Fatal(err)
				}
				stop := sample(&peak)
				b.StartTimer()
				res, err := s.Ship(context.Background(), dir)
				b.StopTimer()
				stop()
				s.Close()
				if err != nil || res.Shipped != n {
					b.Fatalf("%+v %v", res, err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
			b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
		})
	}
}

// sample records the highest HeapInuse until stop is called.
func sample(peak *atomic.Uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// writeBacklog writes n records as lib/audit renders them, with a seq and a prev as the
// chained log has.
func writeBacklog(b *testing.B, dir string, n int) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "2026-11-26.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	prev := ""
	for i := range n {
		r := audit.Record{Time: t0.Add(time.Duration(i) * time.Millisecond), Project: "/home/dev/proj", Session: "0f918300-c686-4735-8224-dc1346d57197",
			Event: "PreToolUse", Hook: "AuditLog", Tool: "Bash", ToolUseID: fmt.Sprintf("toolu_01ABCDEFGHJKMNPQRST%06d", i),
			Summary: fmt.Sprintf("go test ./lib/... -run TestSomething%d -count=1", i)}
		line := r.Line()
		line = append(line[:len(line)-2], fmt.Sprintf(`,"seq":%d,"prev":%q}`, i+1, prev)...)
		prev = LineID(line)
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
}
