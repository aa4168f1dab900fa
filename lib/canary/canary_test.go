package canary

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness"
	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/lint"
	"github.com/hookkit/harness/lib/settings"
)

// Every guard has canaries, and on each event it has them for, at least one it must stop and
// one it must stay silent on: a guard that blocks everything fails as surely as one that
// blocks nothing. Every payload, filled in, is the JSON its client sends for that event.
func TestCases(t *testing.T) {
	project := "/work/a \"quoted\" project"
	for _, g := range lint.HarnessGuards {
		if len(Cases[g]) == 0 {
			t.Errorf("%s has no canaries", g)
		}
	}
	ids := map[string]string{}
	for hook, cases := range Cases {
		wants := map[string]map[string]int{} // event -> want -> count
		names := map[string]bool{}
		for _, c := range cases {
			where := hook + " " + c.Name
			if names[c.Name] {
				t.Errorf("%s: two canaries have this name", where)
			}
			names[c.Name] = true
			if c.Want != "stop" && c.Want != "silent" {
				t.Errorf("%s: Want is %q, not stop or silent", where, c.Want)
			}
			if wants[c.Event] == nil {
				wants[c.Event] = map[string]int{}
			}
			wants[c.Event][c.Want]++
			if !event.Name(c.Event).Known() {
				t.Errorf("%s: %q is not an event of Claude Code", where, c.Event)
			}
			p := fill(c.Payload, project)
			if !gjson.Valid(p) || !gjson.Parse(p).IsObject() {
				t.Errorf("%s: the filled payload is not a JSON object: %s", where, p)
				continue
			}
			j := gjson.Parse(p)
			if got := j.Get("hook_event_name").Str; got != c.Event {
				t.Errorf("%s: hook_event_name is %q, want %q", where, got, c.Event)
			}
			if got := j.Get("cwd").Str; got != project {
				t.Errorf("%s: cwd is %q, want the scratch project %q", where, got, project)
			}
			if strings.Contains(p, "{{") {
				t.Errorf("%s: a placeholder is left: %s", where, p)
			}
			if _, err := event.Parse([]byte(p)); err != nil {
				t.Errorf("%s: the payload does not parse as %s: %v", where, c.Event, err)
			}
			if id := j.Get("tool_use_id").Str; id != "" {
				if other, ok := ids[id]; ok {
					t.Errorf("%s: tool_use_id %q is also %s's", where, id, other)
				}
				ids[id] = where
			}
		}
		for ev, w := range wants {
			if w["stop"] == 0 || w["silent"] == 0 {
				t.Errorf("%s on %s: %d to stop and %d to stay silent on; want at least one of each", hook, ev, w["stop"], w["silent"])
			}
		}
	}
}

// Every canary reaches its guard: the default wiring runs that hook on the canary's event,
// with a matcher that selects the canary's tool. A canary of an event the guard is not wired
// for would never run, and doctor would call a guard proven that was never tried.
func TestCasesAreWired(t *testing.T) {
	wiring, err := settings.ParseWiring(harness.Settings)
	if err != nil {
		t.Fatal(err)
	}
	for hook, cases := range Cases {
		for _, c := range cases {
			tool := gjson.Get(c.Payload, "tool_name").Str
			wired := false
			for _, w := range wiring {
				if w.Hook == hook && w.Event == c.Event && (tool == "" || dialect.Default().Selects(w.Matcher, tool)) {
					wired = true
				}
			}
			if !wired {
				t.Errorf("%s %q: settings.json does not run %s on %s for tool %q", hook, c.Name, hook, c.Event, tool)
			}
		}
	}
}

// fill puts the project and the home into the payload as JSON string content, whatever
// characters they hold, and leaves the rest of the payload alone.
func TestFill(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	payload := `{"cwd":"{{PROJECT}}","file_path":"{{PROJECT}}/x","key":"{{HOME}}/.ssh/id","other":"{{OTHER}}"}`
	for _, project := range []string{
		"/tmp/p",
		"/tmp/with space",
		`/tmp/a "quoted" name`,
		`C:\Users\me\project`,
		"/tmp/tab\there",
		"/tmp/ünïcödé",
		"",
	} {
		got := fill(payload, project)
		if !gjson.Valid(got) {
			t.Errorf("fill(%q) is not JSON: %s", project, got)
			continue
		}
		j := gjson.Parse(got)
		for field, want := range map[string]string{"cwd": project, "file_path": project + "/x", "key": home + "/.ssh/id", "other": "{{OTHER}}"} {
			if v := j.Get(field).Str; v != want {
				t.Errorf("fill(%q): %s is %q, want %q", project, field, v, want)
			}
		}
	}
}

func TestInstalledSecs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, 0},
		{[]string{"--home=/h"}, 0},
		{[]string{"--timeout=5"}, 5},
		{[]string{"--home=/h", "--timeout=12", "--system-dir=/s"}, 12},
		{[]string{"--timeout=x"}, 0},
		{[]string{"--timeout", "5"}, 0}, // the installer writes --timeout=N only
	} {
		if got := installedSecs(tc.args); got != tc.want {
			t.Errorf("installedSecs(%q) = %d, want %d", tc.args, got, tc.want)
		}
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"PreToolUse":   "PreToolUse",
		"pre_tool_use": "pre_tool_use",
		"a.b":          `a\.b`,
		"*?|#@":        `\*\?\|\#\@`,
	} {
		if got := escape(in); got != want {
			t.Errorf("escape(%q) = %q, want %q", in, got, want)
		}
	}
}

// Run reads a guard's answer as Claude Code would and says whether it did a guard's job: the
// guard here is a shell script standing in for the binary.
func TestRun(t *testing.T) {
	stop := Case{Name: "stop", Event: "PreToolUse", Want: "stop", Payload: Cases["SecurityValidator"][0].Payload}
	silent := Case{Name: "silent", Event: "PreToolUse", Want: "silent", Payload: Cases["SecurityValidator"][0].Payload}
	deny := `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'`
	ask := `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}'`
	for _, tc := range []struct {
		name    string
		script  string
		program string // "" for /bin/sh
		timeout time.Duration
		c       Case
		got     string
		problem string // "" for none, else a part of it
	}{
		{name: "exit 2 stops", script: `cat >/dev/null; echo blocked >&2; exit 2`, c: stop, got: "block"},
		{name: "a JSON deny stops", script: deny, c: stop, got: "deny"},
		{name: "an ask stops", script: ask, c: stop, got: "ask"},
		{name: "nothing said on a safe call", script: `cat >/dev/null; exit 0`, c: silent, got: "silent"},
		{name: "nothing said on a dangerous call", script: `cat >/dev/null; exit 0`, c: stop, got: "silent", problem: "let a dangerous call through"},
		{name: "an error exit lets it through", script: `cat >/dev/null; exit 1`, c: stop, got: "silent", problem: "let a dangerous call through"},
		{name: "a deny of a safe call", script: deny, c: silent, got: "deny", problem: "did not stay silent"},
		{name: "broken JSON", script: `cat >/dev/null; echo '{"hookSpecificOutput":'`, c: silent, problem: "cannot use"},
		{name: "too slow", script: `cat >/dev/null; exec sleep 30`, timeout: 300 * time.Millisecond, c: stop, got: "allow", problem: "no answer within"},
		{name: "no such program", program: "/nonexistent/guard", c: stop, got: "allow", problem: "does not start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			program, args := tc.program, []string{}
			if program == "" {
				program, args = "/bin/sh", []string{"-c", tc.script}
			}
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 10 * time.Second
			}
			r := Run(program, args, timeout, t.TempDir(), tc.c)
			if tc.got != "" && r.Got != tc.got {
				t.Errorf("Got = %q, want %q (problem: %q)", r.Got, tc.got, r.Problem)
			}
			switch {
			case tc.problem == "" && !r.OK():
				t.Errorf("a working guard failed the canary: %s", r.Problem)
			case tc.problem != "" && !strings.Contains(r.Problem, tc.problem):
				t.Errorf("Problem = %q, want one saying %q", r.Problem, tc.problem)
			}
		})
	}
}

// Serve mode's HTTP hooks are listed with their URL and no program, and the session-start
// canaries (Guards) leave them to serve-register and doctor: no "does not start" for them.
func TestInstalledHTTP(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(t.TempDir(), "settings.json")
	group := `{"matcher":"Bash","hooks":[{"type":"http","url":"http://127.0.0.1:9/hook/SecurityValidator","timeout":10,"onFailure":"block"}]}`
	if _, err := settings.Install(settings.Plan{File: file, Home: home, Groups: []settings.Entry{
		{Hook: "SecurityValidator", Event: "PreToolUse", Matcher: "Bash", Group: []byte(group)}}}); err != nil {
		t.Fatal(err)
	}
	hs, err := Installed(home)
	if err != nil || len(hs) != 1 || hs[0].URL != "http://127.0.0.1:9/hook/SecurityValidator" || hs[0].Program != "" || hs[0].Timeout != 10*time.Second {
		t.Fatalf("Installed: %+v, %v", hs, err)
	}
	fails, err := Guards(home, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fails {
		if strings.Contains(f, file) {
			t.Errorf("Guards ran the HTTP hook as a program: %s", f)
		}
	}
}
