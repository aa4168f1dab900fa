package report

import (
	"bytes"
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/hookkit/harness/lib/audit"
)

// TestBrowser opens the report of a known set of records in headless Chromium: the counts it
// renders, the page's own script running under its policy, no planted script running and no
// request leaving the page; and keeps a screenshot (go test -run Browser -artifacts keeps it
// under -outputdir; the log names it). Skipped when chromium is not on PATH; .ci/run installs
// Debian's.
func TestBrowser(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not on PATH, so the report is not opened in a real browser here (.ci/run installs Debian's chromium package)")
	}
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { requests.Add(1) }))
	defer srv.Close()

	home := t.TempDir()
	knownLog(t, home)
	// A call whose command would mark the page, or call out, if any of it ran as markup.
	appendCall(t, home, audit.Record{Project: "/home/dev/web", Session: "s-hostile", Client: "claude", Tool: "Bash", ToolUseID: "toolu_h",
		Summary: `echo '<img src="` + srv.URL + `/img" onerror="document.body.setAttribute('data-pwned','img')">' ` +
			`'</script><script>document.body.setAttribute("data-pwned","script");fetch("` + srv.URL + `/fetch")</script>'`}, 30*time.Hour,
		audit.Record{Decision: "deny", Rule: "fs.rm-critical", Category: "fs", Radius: "high", Reason: `blocked <svg onload="fetch('` + srv.URL + `/svg')">`})
	d, page := build(t, week(home))
	if d.Total != (Counts{Calls: 7, Blocked: 3, Asked: 1, Allowed: 3}) {
		t.Fatalf("total %+v", d.Total)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) []byte {
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
		defer cancel()
		// No sandbox: CI runs as root, where Chromium's own sandbox cannot start.
		args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
			"--user-data-dir=" + t.TempDir(), "--window-size=1280,2200"}, args...)
		cmd := exec.CommandContext(ctx, chromium, append(args, "file://"+file)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, stderr.Bytes())
		}
		return out
	}

	dom, err := html.Parse(bytes.NewReader(run("--dump-dom")))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*html.Node{}
	var body *html.Node
	imgs := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if a.Key == "id" {
					byID[a.Val] = n
				}
			}
			switch n.Data {
			case "body":
				body = n
			case "img":
				imgs++
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(dom)
	text := func(id string) string {
		n := byID[id]
		if n == nil {
			t.Fatalf("no element #%s in the rendered page", id)
		}
		var b strings.Builder
		var collect func(*html.Node)
		collect = func(n *html.Node) {
			if n.Type == html.TextNode {
				b.WriteString(n.Data)
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				collect(c)
			}
		}
		collect(n)
		return b.String()
	}
	for id, want := range map[string]string{"total-calls": "7", "total-blocked": "3", "total-asked": "1", "total-allowed": "3", "sessions-shown": "4"} {
		if got := text(id); got != want {
			t.Errorf("#%s renders %q, want %q", id, got, want)
		}
	}
	for _, a := range byID["session-filter"].Attr {
		if a.Key == "disabled" {
			t.Error("the page's own script did not run (its hash is not the one the policy allows?): the filter is still disabled")
		}
	}
	for _, a := range body.Attr {
		if a.Key == "data-pwned" {
			t.Errorf("a planted script ran: %s", a.Val)
		}
	}
	if imgs != 0 {
		t.Errorf("%d planted <img> elements in the rendered page", imgs)
	}
	if !strings.Contains(text("sessions"), `'</script><script>document.body.setAttribute("data-pwned","script")`) {
		t.Error("the planted command is not shown as text")
	}

	shot := filepath.Join(t.ArtifactDir(), "report.png")
	run("--screenshot=" + shot)
	b, err := os.ReadFile(shot)
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || len(b) < 10<<10 {
		t.Fatalf("no screenshot at %s (%d bytes, %v)", shot, len(b), err)
	}
	if f := flag.Lookup("test.artifacts"); f != nil && f.Value.String() == "true" {
		t.Logf("screenshot of the report: %s", shot)
	} else {
		t.Logf("screenshot of the report: %s (removed after the test: -artifacts -outputdir DIR keeps it)", shot)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the page made %d request(s)", n)
	}
}
