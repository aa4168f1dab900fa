package server

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/builtin"
)

// fourHooks are the hooks Claude Code runs on a Bash tool call, in the order they are wired.
var fourHooks = []string{"SecurityValidator", "WriteProtector", "SecretGuard", "AuditLog"}

// BenchmarkToolCall is one Bash tool call's four hooks (PreToolUse, the captured payload)
// three ways, side by side: the floor (an empty HTTP server on loopback, four requests), serve
// mode (the same four requests answered by Handler, audit records written), and the binaries
// (four processes, as Claude Code starts them). Each reports the median and p99 time of the
// whole set. The server's heap after the run is reported as heap-MB: run with -benchtime
// 25000x for the 100,000 calls the issue names.
//
//	go test ./lib/server -run '^$' -bench ToolCall -benchtime 2000x
func BenchmarkToolCall(b *testing.B) {
	payload, err := os.ReadFile("../event/testdata/captured/PreToolUse.json")
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	home, user := filepath.Join(root, "harness"), filepath.Join(root, "user")
	proj := filepath.Join(user, "proj")
	os.MkdirAll(proj, 0o755)
	// The captured payload's session, registered as its SessionStart would.
	session := gjson.GetBytes(payload, "session_id").Str
	if err := Register(home, session, Session{Project: proj, Home: user}); err != nil {
		b.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	post := func(url string) {
		req, _ := http.NewRequest("POST", url, bytes.NewReader(payload))
		req.Header.Set(SecretHeader, secret)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("%s: %d", url, resp.StatusCode)
		}
	}
	measure := func(b *testing.B, set func()) {
		set() // warm: connections, policy files
		times := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for range b.N {
			t0 := time.Now()
			set()
			times = append(times, time.Since(t0))
		}
		b.StopTimer()
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
	}

	b.Run("floor", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) }))
		defer srv.Close()
		measure(b, func() {
			for _, h := range fourHooks {
				post(srv.URL + "/hook/" + h)
			}
		})
	})
	b.Run("serve", func(b *testing.B) {
		srv := httptest.NewUnstartedServer(nil)
		srv.Start()
		defer srv.Close()
		srv.Config.Handler = Handler(Config{Home: home, SystemDir: filepath.Join(root, "system"), Secret: secret,
			Host: srv.Listener.Addr().String(), Hooks: builtin.Hooks})
		measure(b, func() {
			for _, h := range fourHooks {
				post(srv.URL + "/hook/" + h)
			}
		})
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
		b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MB")
	})
	b.Run("binaries", func(b *testing.B) {
		bin := filepath.Join(root, "bin")
		for _, h := range fourHooks {
			if out, err := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(bin, h), "../../hooks/"+h).CombinedOutput(); err != nil {
				b.Fatalf("building %s: %v\n%s", h, err, out)
			}
		}
		measure(b, func() {
			for _, h := range fourHooks {
				cmd := exec.Command(filepath.Join(bin, h), "--home="+home, "--system-dir="+filepath.Join(root, "system"))
				cmd.Env = []string{"HOME=" + user, "CLAUDE_PROJECT_DIR=" + proj}
				cmd.Stdin = bytes.NewReader(payload)
				if err := cmd.Run(); err != nil {
					b.Fatalf("%s: %v", h, err)
				}
			}
		})
	})
}
