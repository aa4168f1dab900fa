// Package otelcol runs the OpenTelemetry Collector that tests/collector/install.sh builds (OTLP
// receiver, debug exporter) on 127.0.0.1 and reads back the log records its debug exporter
// prints, for the tests that ship the audit trail to it.
package otelcol

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hookkit/harness/lib/sandbox"
)

// Version is the collector install.sh builds.
const Version = "0.165.0"

// Bin is the built collector, or a skip (a failure with HARNESS_E2E=1) saying how to build it.
func Bin(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("HARNESS_COLLECTOR_DIR")
	if dir == "" {
		dir = filepath.Join(sandbox.Cache(), "harness")
	}
	bin := filepath.Join(dir, "otelcol-"+Version, "otelcol-harness")
	if st, err := os.Stat(bin); err == nil && st.Mode()&0o111 != 0 {
		return bin
	}
	why := fmt.Sprintf("the OpenTelemetry Collector %s is not built at %s: run tests/collector/install.sh (about 4 minutes, from the Go module proxy)", Version, bin)
	if os.Getenv("HARNESS_E2E") == "1" {
		t.Fatal(why)
	}
	t.Skip(why + " (HARNESS_E2E=1 makes this a failure)")
	return ""
}

// FreePort is a port on 127.0.0.1 nothing listens on.
func FreePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Collector is a running collector whose output is gathered.
type Collector struct {
	cmd  *exec.Cmd
	Port int
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

// Start runs bin with the configuration config (YAML) and its OTLP HTTP receiver on
// 127.0.0.1:port, waits until it listens, and kills it when the test ends.
func Start(t *testing.T, bin, config string, port int) *Collector {
	t.Helper()
	file := filepath.Join(t.TempDir(), "otelcol.yaml")
	if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &Collector{Port: port, done: make(chan struct{})}
	c.cmd = exec.Command(bin, "--config", "file:"+file, fmt.Sprintf("--set=receivers.otlp.protocols.http.endpoint=127.0.0.1:%d", port),
		// The debug exporter prints through its own logger: the collector's logger samples, and
		// dropped a batch now and then when the machine was loaded.
		"--set=exporters.debug.use_internal_logger=false")
	c.cmd.Stdout, c.cmd.Stderr = c, c
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.cmd.Wait(); close(c.done) }()
	t.Cleanup(c.Kill)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			conn.Close()
			return c
		}
		select {
		case <-c.done:
			t.Fatalf("the collector exited:\n%s", c.Output())
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("the collector did not listen on %d within 20 s:\n%s", port, c.Output())
	return nil
}

func (c *Collector) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(p)
}

// Output is everything the collector printed so far.
func (c *Collector) Output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.String()
}

// Kill kills the collector (SIGKILL: no flush, no goodbye) and waits for it.
func (c *Collector) Kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.done
}

// Endpoint is the OTLP/HTTP base URL.
func (c *Collector) Endpoint() string { return fmt.Sprintf("http://127.0.0.1:%d", c.Port) }

// Record is one log record as the debug exporter printed it.
type Record struct {
	Body, Event string
	Attrs       map[string]string
	Resource    map[string]string
}

// Records reads the debug exporter's detailed output: each LogRecord with its body, event
// name, attributes and its resource's attributes.
func (c *Collector) Records() []Record {
	var out []Record
	var res map[string]string
	var cur *Record
	inResource := false
	sc := bufio.NewScanner(strings.NewReader(c.Output()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, "ResourceLog #"):
			res, inResource, cur = map[string]string{}, false, nil
		case line == "Resource attributes:":
			inResource = true
		case strings.HasPrefix(line, "ScopeLogs #"):
			inResource = false
		case strings.HasPrefix(line, "LogRecord #"):
			out = append(out, Record{Attrs: map[string]string{}, Resource: res})
			cur = &out[len(out)-1]
		case strings.HasPrefix(line, "     -> "):
			k, v, _ := strings.Cut(strings.TrimPrefix(line, "     -> "), ": ")
			if inResource && res != nil {
				res[k] = value(v)
			} else if cur != nil {
				cur.Attrs[k] = value(v)
			}
		case cur != nil && strings.HasPrefix(line, "Body: "):
			cur.Body = value(strings.TrimPrefix(line, "Body: "))
		case cur != nil && strings.HasPrefix(line, "EventName: "):
			cur.Event = strings.TrimPrefix(line, "EventName: ")
		}
	}
	return out
}

// value unwraps the debug exporter's Str(...), Int(...), Double(...).
func value(v string) string {
	if i := strings.IndexByte(v, '('); i > 0 && strings.HasSuffix(v, ")") {
		return v[i+1 : len(v)-1]
	}
	return v
}

// Wait waits up to timeout for the collector to have printed at least n records and returns
// what it has.
func (c *Collector) Wait(n int, timeout time.Duration) []Record {
	deadline := time.Now().Add(timeout)
	for {
		recs := c.Records()
		if len(recs) >= n || time.Now().After(deadline) {
			return recs
		}
		time.Sleep(50 * time.Millisecond)
	}
}
