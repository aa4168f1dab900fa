package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkClientHookTime is a Bash tool call's four hooks (SecurityValidator, SecretGuard,
// WriteProtector, AuditLog) timed by the real client, from its own debug log, three ways in one
// run: the floor (the same four type "http" hooks answered by an empty HTTP server), serve mode
// (harness serve), and the binaries (wired by harness install). Each session makes 20 Bash
// calls; the metrics are the median and p90, over every call, of the time from the first hook's
// start to the last hook's end (the debug log's millisecond timestamps for HTTP hooks, each
// command hook's own duration for the binaries, which run in parallel: the longest of the four).
//
//	go test ./tests/e2e -run '^$' -bench ClientHookTime -benchtime 1x
func BenchmarkClientHookTime(b *testing.B) {
	needClient(b)
	const calls = 20
	var turns []turn
	for i := range calls {
		turns = append(turns, turn{tool: "Bash", toolUse: fmt.Sprintf("toolu_bench_%d", i), input: map[string]any{"command": fmt.Sprintf("echo bench-%d", i), "description": "print"}})
	}
	report := func(b *testing.B, times []time.Duration) {
		if len(times) < calls*b.N*9/10 {
			b.Fatalf("%d calls timed, want %d", len(times), calls*b.N)
		}
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "p90-ms")
	}
	b.Run("floor", func(b *testing.B) {
		var times []time.Duration
		for range b.N {
			s := newServeSession(b)
			s.srv.stop()
			ln, err := net.Listen("tcp", s.addr)
			if err != nil {
				b.Fatal(err)
			}
			empty := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) })}
			go empty.Serve(ln)
			os.Remove(filepath.Join(s.project, ".claude", "settings.local.json"))
			s.run(startModel(b, turns...), "print")
			empty.Close()
			times = append(times, httpHookTimes(b, s.session.debug)...)
		}
		report(b, times)
	})
	b.Run("serve", func(b *testing.B) {
		var times []time.Duration
		for range b.N {
			s := newServeSession(b)
			os.Remove(filepath.Join(s.project, ".claude", "settings.local.json"))
			s.run(startModel(b, turns...), "print")
			times = append(times, httpHookTimes(b, s.session.debug)...)
		}
		report(b, times)
	})
	b.Run("binaries", func(b *testing.B) {
		var times []time.Duration
		for range b.N {
			s := newSession(b)
			s.install()
			os.Remove(filepath.Join(s.project, ".claude", "settings.local.json"))
			s.run(startModel(b, turns...), "print")
			times = append(times, commandHookTimes(b, s.debug)...)
		}
		report(b, times)
	})
}

var (
	debugTime  = regexp.MustCompile(`^(\S+Z) \[DEBUG\] `)
	hookRan    = regexp.MustCompile(`Hooks: PreToolUse:Bash \[.*\] finished with status \d+ \((\d+)ms\)$`)
	httpPost   = "Hooks: HTTP hook POST to "
	httpAnswer = "Hooks: HTTP hook response status "
)

// httpHookTimes reads, per tool call, the time from the first of its four HTTP hook requests to
// the last answer. A PostToolUse's single AuditLog request is left out.
func httpHookTimes(b *testing.B, debug string) []time.Duration {
	var out []time.Duration
	var start, last time.Time
	posts, answers := 0, 0
	scanDebug(b, debug, func(ts time.Time, line string) {
		switch {
		case strings.Contains(line, httpPost):
			if posts == 0 {
				start = ts
			}
			posts++
		case strings.Contains(line, httpAnswer) && posts > 0:
			answers++
			last = ts
			if answers == posts {
				if posts == 4 {
					out = append(out, last.Sub(start))
				}
				posts, answers = 0, 0
			}
		}
	})
	return out
}

// commandHookTimes reads, per tool call, the longest of its four PreToolUse hooks' own
// durations (they run in parallel).
func commandHookTimes(b *testing.B, debug string) []time.Duration {
	var out []time.Duration
	var longest time.Duration
	n := 0
	scanDebug(b, debug, func(_ time.Time, line string) {
		m := hookRan.FindStringSubmatch(line)
		if m == nil {
			return
		}
		ms, _ := strconv.Atoi(m[1])
		longest = max(longest, time.Duration(ms)*time.Millisecond)
		if n++; n == 4 {
			out = append(out, longest)
			n, longest = 0, 0
		}
	})
	return out
}

func scanDebug(b *testing.B, debug string, each func(time.Time, string)) {
	f, err := os.Open(debug)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := debugTime.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ts, err := time.Parse(time.RFC3339Nano, m[1])
		if err != nil {
			continue
		}
		each(ts, sc.Text())
	}
}
