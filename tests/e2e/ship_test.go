package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/ship"
	"github.com/hookkit/harness/tests/internal/otelcol"
)

// In the real client, with the default wiring and audit.ship.endpoint set: the AuditShip hook
// (Stop, SessionEnd) ships the session's records to a real OpenTelemetry Collector as the
// session runs. When claude exits the collector has every record but the ones AuditLog wrote
// while the last AuditShip ran (the SessionEnd record), each under the session's session.id;
// harness audit ship then sends the rest, and every id arrives with one body.
func TestAuditShippedToCollector(t *testing.T) {
	needClient(t)
	bin := otelcol.Bin(t)
	s := newSession(t)
	s.install()
	cfg, err := exec.Command(filepath.Join(binDir, "harness"), "audit", "collector-config", "--receivers", "otlp").Output()
	if err != nil {
		t.Fatal(err)
	}
	col := otelcol.Start(t, bin, string(cfg), otelcol.FreePort(t))
	if err := os.WriteFile(filepath.Join(s.harnessHome, "config.json"), fmt.Appendf(nil, `{"audit": {"ship": {"endpoint": %q}}}`, col.Endpoint()), 0o600); err != nil {
		t.Fatal(err)
	}
	m := startModel(t,
		turn{tool: "Bash", toolUse: "toolu_e2e_ship", input: map[string]any{"command": "echo shipped", "description": "echo"}},
		turn{text: "Done."},
	)
	out := s.run(m, "echo something")
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf(format+"\nclaude:\n%s\nhooks:\n%s\ncollector:\n%s", append(args, out, s.hookLines(), col.Output())...)
	}
	files, _ := filepath.Glob(filepath.Join(s.harnessHome, "projects", "*", "audit", "*.jsonl"))
	var lines []string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines = append(lines, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")...)
	}
	var want []string // the records the hook must have shipped
	for _, l := range lines {
		if gjson.Get(l, "event").Str != "SessionEnd" {
			want = append(want, l)
		}
	}
	if len(want) < 5 || !strings.Contains(strings.Join(want, "\n"), `"tool_use_id":"toolu_e2e_ship"`) {
		fail("the session left too few records:\n%s", strings.Join(lines, "\n"))
	}
	got := map[string]otelcol.Record{}
	for _, r := range col.Wait(len(want), 10*time.Second) {
		got[r.Attrs["harness.record.id"]] = r
	}
	for _, l := range want {
		r, ok := got[ship.LineID([]byte(l))]
		switch {
		case !ok:
			fail("AuditShip did not ship %s", l)
		case r.Body != l || r.Attrs["session.id"] != gjson.Get(l, "session").Str || r.Attrs["session.id"] == "":
			fail("record %s arrived as %+v", l, r)
		}
	}

	// The rest, by hand (a timer's job): every line's id has arrived, each with one body.
	cmd := exec.Command(filepath.Join(binDir, "harness"), "audit", "ship")
	cmd.Env = append(os.Environ(), "HOME="+s.home, "HARNESS_HOME="+s.harnessHome)
	if b, err := cmd.CombinedOutput(); err != nil {
		fail("harness audit ship: %v\n%s", err, b)
	}
	all := col.Wait(len(lines), 10*time.Second)
	bodies := map[string]string{}
	for _, r := range all {
		id := r.Attrs["harness.record.id"]
		if b, ok := bodies[id]; ok && b != r.Body {
			fail("two bodies for %s", id)
		}
		bodies[id] = r.Body
	}
	for _, l := range lines {
		if _, ok := bodies[ship.LineID([]byte(l))]; !ok {
			fail("never shipped: %s", l)
		}
	}
	t.Logf("%d records, %d arrived during the session, %d log records in all", len(lines), len(want), len(all))
}
