package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/verdict"
)

// t0 is the hour the known records are written in.
var t0 = time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC)

// appendCall appends the records of one tool call: AuditLog's, then each guard's verdict.
func appendCall(t testing.TB, home string, r audit.Record, at time.Duration, verdicts ...audit.Record) {
	t.Helper()
	r.Time, r.Event, r.Hook = t0.Add(at), "PreToolUse", "AuditLog"
	if err := audit.Append(home, r); err != nil {
		t.Fatal(err)
	}
	for _, v := range verdicts {
		v.Time, v.Event, v.Project, v.Session, v.Client, v.Tool, v.ToolUseID = t0.Add(at), "PreToolUse", r.Project, r.Session, r.Client, r.Tool, r.ToolUseID
		v.Hook = or(v.Hook, "SecurityValidator")
		v.Decision = or(v.Decision, "silent")
		if err := audit.Append(home, v); err != nil {
			t.Fatal(err)
		}
	}
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// knownLog writes six tool calls in two projects by three clients: two blocked, one asked,
// three allowed; and one prompt.
func knownLog(t testing.TB, home string) {
	api, web := "/home/dev/api", "/home/dev/web"
	audit.Append(home, audit.Record{Time: t0, Project: api, Session: "s-claude", Client: "claude", Event: "UserPromptSubmit", Hook: "AuditLog",
		Summary: "please tidy the home folder"})
	appendCall(t, home, audit.Record{Project: api, Session: "s-claude", Client: "claude", Tool: "Bash", ToolUseID: "toolu_1", Summary: "ls -la"}, time.Minute,
		audit.Record{})
	appendCall(t, home, audit.Record{Project: api, Session: "s-claude", Client: "claude", Tool: "Bash", ToolUseID: "toolu_2", Summary: "rm -rf /home/dev"}, 2*time.Minute,
		audit.Record{Decision: "deny", Rule: "fs.rm-critical", Category: "fs", Radius: "high", Reason: "SecurityValidator: blocked `rm -rf /home/dev`"},
		audit.Record{Hook: "WriteProtector"})
	appendCall(t, home, audit.Record{Project: api, Session: "s-claude", Client: "claude", Tool: "Write", ToolUseID: "toolu_3", Summary: "/home/dev/api/.env"}, 3*time.Hour,
		audit.Record{Hook: "WriteProtector", Decision: "ask", Rule: "ask.env", Category: "ask", Reason: "WriteProtector: asks before writing `.env`"})
	appendCall(t, home, audit.Record{Project: web, Session: "s-codex", Client: "codex", Tool: "Bash", ToolUseID: "call_1", Summary: "git push --force origin main"}, 26*time.Hour,
		audit.Record{Decision: "deny", Rule: "git.push-force", Category: "git", Radius: "medium", Reason: "SecurityValidator: blocked `git push --force`"})
	appendCall(t, home, audit.Record{Project: web, Session: "s-codex", Client: "codex", Tool: "Bash", ToolUseID: "call_2", Summary: "npm test"}, 26*time.Hour+time.Minute,
		audit.Record{})
	appendCall(t, home, audit.Record{Project: web, Session: "s-old", Tool: "Read", ToolUseID: "toolu_9", Summary: "/home/dev/web/README.md"}, 27*time.Hour)
}

func build(t *testing.T, o Options) (*Data, string) {
	t.Helper()
	d, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := d.Write(&b); err != nil {
		t.Fatal(err)
	}
	return d, b.String()
}

func week(home string) Options {
	return Options{HarnessHome: home, Since: t0.Add(-24 * time.Hour), Until: t0.Add(6 * 24 * time.Hour), Generated: t0.Add(7 * 24 * time.Hour), Version: "test",
		Catalog: []verdict.Entry{{ID: "fs.rm-critical", Pack: "fs", Radius: verdict.High, Instead: "delete the one folder you mean, by its full path"}}}
}

func TestKnownRecords(t *testing.T) {
	home := t.TempDir()
	knownLog(t, home)
	d, page := build(t, week(home))
	if d.Total != (Counts{Calls: 6, Blocked: 2, Asked: 1, Allowed: 3}) {
		t.Errorf("total %+v", d.Total)
	}
	want := []Named{{"claude", Counts{3, 1, 1, 1}}, {"codex", Counts{2, 1, 0, 1}}, {"unknown", Counts{1, 0, 0, 1}}}
	if fmt.Sprint(d.Clients) != fmt.Sprint(want) {
		t.Errorf("clients %+v, want %+v", d.Clients, want)
	}
	want = []Named{{"/home/dev/api", Counts{3, 1, 1, 1}}, {"/home/dev/web", Counts{3, 1, 0, 2}}}
	if fmt.Sprint(d.Projects) != fmt.Sprint(want) {
		t.Errorf("projects %+v, want %+v", d.Projects, want)
	}
	if len(d.Sessions) != 3 || d.Sessions[0].ID != "s-old" || d.Sessions[1].ID != "s-codex" || d.Sessions[2].ID != "s-claude" {
		t.Fatalf("sessions newest first: %+v", d.Sessions)
	}
	if c := d.Sessions[2].Listed; len(c) != 2 || c[0].Text != "rm -rf /home/dev" || c[0].Decision != "deny" || c[0].Rule != "fs.rm-critical" ||
		c[1].Text != "/home/dev/api/.env" || c[1].Decision != "ask" {
		t.Errorf("s-claude's blocked and asked calls: %+v", c)
	}
	if len(d.Rules) != 3 || d.Rules[0].ID != "ask.env" || d.Rules[1].ID != "fs.rm-critical" ||
		d.Rules[1].Advice != "delete the one folder you mean, by its full path" || d.Rules[1].Example != "rm -rf /home/dev" || d.Rules[1].Radius != "high" {
		t.Errorf("rules %+v", d.Rules)
	}
	if d.Step != time.Hour || len(d.Buckets) != 7*24+1 {
		t.Errorf("chart: step %v, %d buckets", d.Step, len(d.Buckets))
	}
	if b := d.Buckets[24+0]; b.Blocked != 1 || b.Asked != 0 {
		t.Errorf("the block at t0: %+v", b)
	}
	if b := d.Buckets[24+3]; b.Asked != 1 {
		t.Errorf("the ask at t0+3h: %+v", b)
	}
	if len(d.Chains) != 2 || !d.Chains[0].Intact || d.Chains[0].Seq != 8 || d.Chains[1].Seq != 5 || len(d.Problems) != 0 {
		t.Errorf("chains %+v problems %v", d.Chains, d.Problems)
	}
	for _, s := range []string{
		`<span class="n" id="total-calls">6</span>`, `<span class="n" id="total-blocked">2</span>`,
		`<span class="n" id="total-asked">1</span>`, `<span class="n" id="total-allowed">3</span>`,
		`<tr class="count" data-name="codex"><td>codex</td><td class="num">2</td><td class="num">1</td><td class="num">0</td><td class="num">1</td></tr>`,
		`<li><span class="deny">deny</span> Bash 2026-11-25 14:02 <code>fs.rm-critical</code>: <code>rm -rf /home/dev</code></li>`,
		`<title>2026-11-25 14:00: 1 blocked, 0 asked</title>`,
		`<code>ok /home/dev/api: 8 records, seq 1-8, head ` + d.Chains[0].Head + `</code>`,
		`What an intact chain proves:`, `What it does not prove:`, `Not checked.`,
	} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %s", s)
		}
	}
	for _, s := range []string{"please tidy", `id="problems"`, `id="empty"`, "http://", "https://"} {
		if strings.Contains(page, s) && !(strings.HasPrefix(s, "http://") && strings.Count(page, s) == strings.Count(page, `xmlns="http://www.w3.org/2000/svg"`)) {
			t.Errorf("the page holds %q", s)
		}
	}
}

// The page's script and style are the ones its policy names by hash, and nothing else runs.
func TestPolicyHashesThePage(t *testing.T) {
	home := t.TempDir()
	knownLog(t, home)
	_, page := build(t, week(home))
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]+)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no policy")
	}
	policy := strings.ReplaceAll(m[1], "&#39;", "'")
	for _, tag := range []string{"script", "style"} {
		bodies := regexp.MustCompile(`(?s)<`+tag+`>(.*?)</`+tag+`>`).FindAllStringSubmatch(page, -1)
		if len(bodies) != 1 {
			t.Fatalf("%d <%s> elements without a type", len(bodies), tag)
		}
		sum := sha256.Sum256([]byte(bodies[0][1]))
		if want := tag + "-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(policy, want) {
			t.Errorf("policy %q lacks %s", policy, want)
		}
	}
	if !strings.HasPrefix(policy, "default-src 'none';") || strings.Contains(policy, "unsafe") {
		t.Errorf("policy %q", policy)
	}
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%d script elements, want the data and the page's own", n)
	}
}

// Prompts are left out unless asked for, and then shown redacted as recorded.
func TestPromptsOnlyWhenAsked(t *testing.T) {
	home := t.TempDir()
	knownLog(t, home)
	o := week(home)
	o.IncludePrompts = true
	d, page := build(t, o)
	if !strings.Contains(page, "<code>please tidy the home folder</code>") || d.Sessions[2].Prompts[0] != "please tidy the home folder" {
		t.Errorf("prompts not shown with IncludePrompts")
	}
}

// Filters: one project, one client, a range that holds nothing.
func TestFilters(t *testing.T) {
	home := t.TempDir()
	knownLog(t, home)
	o := week(home)
	o.Project = "/home/dev/web"
	d, _ := build(t, o)
	if d.Total != (Counts{3, 1, 0, 2}) || len(d.Chains) != 1 || len(d.Sessions) != 2 {
		t.Errorf("project: %+v %d chains %d sessions", d.Total, len(d.Chains), len(d.Sessions))
	}
	o = week(home)
	o.Client = "unknown"
	d, _ = build(t, o)
	if d.Total != (Counts{1, 0, 0, 1}) || len(d.Sessions) != 1 || d.Sessions[0].ID != "s-old" {
		t.Errorf("client unknown: %+v %+v", d.Total, d.Sessions)
	}
	o = week(home)
	o.Since, o.Until = t0.Add(-48*time.Hour), t0.Add(-24*time.Hour)
	d, page := build(t, o)
	if !d.Empty() || !strings.Contains(page, `<p class="empty" id="empty">No records between 2026-11-23 14:00:00 and 2026-11-24 14:00:00.`) {
		t.Errorf("an empty range does not say so")
	}
	if d.Chains[0].Seq != 8 {
		t.Errorf("the chain is checked whole whatever the range: %+v", d.Chains[0])
	}
	o = week(home)
	o.Since, o.Until = t0.Add(-300*24*time.Hour), t0
	if d, _ = build(t, o); d.Step != 24*time.Hour || len(d.Buckets) != 301 {
		t.Errorf("a long range: step %v, %d buckets", d.Step, len(d.Buckets))
	}
	if _, err := Build(Options{HarnessHome: home, Since: t0, Until: t0}); err == nil {
		t.Error("an empty range is accepted")
	}
}

// A malformed line and an edited record: the page is still written, with both at its top,
// and the chain section says broken.
func TestBrokenLog(t *testing.T) {
	home := t.TempDir()
	knownLog(t, home)
	files, _ := filepath.Glob(filepath.Join(audit.Dir(home, "/home/dev/api"), "*.jsonl"))
	b, _ := os.ReadFile(files[0])
	b = bytes.Replace(b, []byte(`"summary":"ls -la"`), []byte(`"summary":"ls -l"`), 1)
	os.WriteFile(files[0], b, 0o600)
	f, _ := os.OpenFile(filepath.Join(audit.Dir(home, "/home/dev/web"), "2026-11-26.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not json at all </script><script>alert(1)</script>\n")
	f.Close()
	d, page := build(t, week(home))
	if len(d.Problems) != 3 {
		t.Fatalf("problems: %q", d.Problems)
	}
	problems := strings.Index(page, `id="problems"`)
	if problems < 0 || problems > strings.Index(page, `id="headline"`) {
		t.Fatal("the problems are not at the top of the page")
	}
	for _, s := range []string{"/home/dev/api: the chain is broken at ", ": edited: seq 2 does not match the prev of seq 3",
		"/home/dev/web: the chain is broken at ", ": malformed: not a JSON record", "/home/dev/web: 1 malformed line(s)",
		`<span class="broken">broken</span>`} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	if strings.Contains(page, "alert(1)") {
		t.Error("a malformed line's text reached the page")
	}
	if d.Total.Calls != 6 {
		t.Errorf("the readable records are still counted: %+v", d.Total)
	}
}

// The last shipped head is compared with the chain's.
func TestShippedHead(t *testing.T) {
	home := t.TempDir()
	knownLog(t, home)
	dir := audit.Dir(home, "/home/dev/api")
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	b, _ := os.ReadFile(files[0])
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	id := audit.LineHash([]byte(lines[4]))
	os.WriteFile(filepath.Join(dir, "shipped.json"), []byte(`{"id":"`+id+`","seq":5,"shipped":5}`), 0o600)
	d, _ := build(t, week(home))
	if want := "last shipped seq 5 (" + id[:12] + "…); 3 record(s) since are not shipped yet"; d.Chains[0].Shipped != want {
		t.Errorf("shipped: %q, want %q", d.Chains[0].Shipped, want)
	}
	os.WriteFile(filepath.Join(dir, "shipped.json"), []byte(`{"id":"`+strings.Repeat("0", 64)+`","seq":5,"shipped":5}`), 0o600)
	if d, _ = build(t, week(home)); !strings.Contains(d.Chains[0].Shipped, "is not in the log as it was shipped") {
		t.Errorf("a shipped record since changed: %q", d.Chains[0].Shipped)
	}
	if d.Chains[1].Shipped != "" {
		t.Errorf("a project never shipped: %q", d.Chains[1].Shipped)
	}
}

// Past the newest SessionsShown, sessions are summed per day; the page stays small.
func TestOlderSessionsSummed(t *testing.T) {
	home := t.TempDir()
	end := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	const perProject = SessionsShown/3 + 7 // sessions of 4 calls, 3 records each
	genLog(t, home, 3*perProject*4*3, end, 2*time.Minute, 4)
	d, page := build(t, Options{HarnessHome: home, Since: end.Add(-7 * 24 * time.Hour), Until: end.Add(time.Second)})
	if len(d.Sessions) != SessionsShown || d.OlderN != 3*perProject-SessionsShown || len(d.Older) == 0 {
		t.Fatalf("%d sessions shown, %d older in %d days", len(d.Sessions), d.OlderN, len(d.Older))
	}
	sum := d.OlderSum
	for _, s := range d.Sessions {
		sum.merge(s.Counts)
	}
	if sum != d.Total {
		t.Errorf("shown and older sessions add up to %+v, the total is %+v", sum, d.Total)
	}
	if !strings.Contains(page, fmt.Sprintf("<h3>%d older session(s), per day of their last record</h3>", d.OlderN)) {
		t.Error("the older sessions are not summed on the page")
	}
	if len(page) > 5<<20 {
		t.Errorf("the page is %d bytes", len(page))
	}
}

// Texts that escape to several times their length cannot push the page past MaxPage: fewer
// sessions are then shown one by one, the rest summed per day.
func TestPageStaysUnderMaxPage(t *testing.T) {
	long := strings.Repeat(`<"&'`, 60) // 240 characters, 1,200 bytes escaped
	d := &Data{Options: Options{Since: t0, Until: t0.Add(time.Hour)}, Step: time.Hour, Records: 1}
	for i := range SessionsShown {
		s := Session{ID: fmt.Sprint("s", i, long), Project: "/p/" + long, Client: "claude", Last: t0.Add(-time.Duration(i) * time.Hour),
			Counts: Counts{Calls: 12, Blocked: 12}}
		for range CallsListed {
			s.Listed = append(s.Listed, Call{Time: t0, Tool: "Bash", Decision: "deny", Rule: "r", Text: long})
		}
		for range PromptsListed {
			s.Prompts = append(s.Prompts, long)
		}
		d.Sessions = append(d.Sessions, s)
	}
	d.Older = []Day{{Day: "2026-01-01", Sessions: 1, Counts: Counts{Calls: 1, Allowed: 1}}}
	d.OlderN, d.OlderSum = 1, Counts{Calls: 1, Allowed: 1}
	var b bytes.Buffer
	if err := d.Write(&b); err != nil {
		t.Fatal(err)
	}
	if b.Len() > MaxPage || len(d.Sessions) >= SessionsShown || len(d.Sessions) == 0 {
		t.Fatalf("%d bytes with %d sessions shown", b.Len(), len(d.Sessions))
	}
	sum := d.OlderSum
	for _, s := range d.Sessions {
		sum.merge(s.Counts)
	}
	if sum != (Counts{Calls: 12*SessionsShown + 1, Blocked: 12 * SessionsShown, Allowed: 1}) || d.OlderN != SessionsShown-len(d.Sessions)+1 {
		t.Errorf("the sessions no longer add up: %+v, %d older", sum, d.OlderN)
	}
	if last := d.Older[len(d.Older)-1]; last.Day != "2026-01-01" || d.Older[0].Day < d.Older[1].Day {
		t.Errorf("days out of order: %v", d.Older)
	}
	if !strings.Contains(b.String(), fmt.Sprintf("Beyond the newest %d, sessions", len(d.Sessions))) {
		t.Error("the page does not say how many sessions it shows")
	}
}

// A PermissionRequest (whose payload has no tool_use_id) is part of the session's last call of
// its tool, never a call of its own; a client that sends no tool_use_id has its records joined
// by session, tool and second.
func TestCallsWithoutID(t *testing.T) {
	home := t.TempDir()
	knownLog(t, home)
	add := func(r audit.Record) {
		if err := audit.Append(home, r); err != nil {
			t.Fatal(err)
		}
	}
	// The asked write of knownLog: the client then asks the user, and AuditLog records that.
	add(audit.Record{Time: t0.Add(3*time.Hour + time.Second), Project: "/home/dev/api", Session: "s-claude", Client: "claude",
		Event: "PermissionRequest", Hook: "AuditLog", Tool: "Write", Summary: "/home/dev/api/.env"})
	// A client without ids: two calls, the second denied by the guard, then a permission
	// request for a tool the session's last call was not.
	at := t0.Add(40 * time.Hour)
	for i, decision := range []string{"silent", "deny"} {
		tm := at.Add(time.Duration(i) * time.Minute)
		add(audit.Record{Time: tm, Project: "/home/dev/web", Session: "s-noid", Client: "gemini", Event: "PreToolUse", Hook: "AuditLog",
			Tool: "Bash", Summary: fmt.Sprint("make ", i)})
		add(audit.Record{Time: tm.Add(300 * time.Millisecond), Project: "/home/dev/web", Session: "s-noid", Client: "gemini", Event: "PreToolUse",
			Hook: "SecurityValidator", Tool: "Bash", Decision: decision, Rule: map[bool]string{true: "fs.rm-critical"}[decision == "deny"]})
	}
	add(audit.Record{Time: at.Add(2 * time.Minute), Project: "/home/dev/web", Session: "s-noid", Client: "gemini", Event: "PermissionRequest",
		Hook: "SecurityValidator", Tool: "Write", Decision: "deny", Rule: "fs.rm-critical"})
	d, _ := build(t, week(home))
	if d.Total != (Counts{Calls: 8, Blocked: 3, Asked: 1, Allowed: 4}) {
		t.Errorf("total %+v", d.Total)
	}
	for _, s := range d.Sessions {
		if s.ID == "s-noid" && (s.Counts != Counts{Calls: 2, Blocked: 1, Allowed: 1} || len(s.Listed) != 1 || s.Listed[0].Text != "make 1") {
			t.Errorf("s-noid: %+v", s)
		}
	}
}
