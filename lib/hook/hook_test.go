package hook

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/event"
)

func guardSpec(p Policy) Spec {
	return Spec{Name: "G", Description: "test", Policy: p,
		Events: []Binding{{Event: event.PreToolUse, Matcher: "Bash", Timeout: 5}, {Event: event.Stop, Timeout: 5}}}
}

func payload(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../event/testdata/captured/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func run(spec Spec, f Func, stdin io.Reader, args ...string) (string, string, answer.Code) {
	var out, errb bytes.Buffer
	code := Run(spec, f, args, stdin, &out, &errb)
	return out.String(), errb.String(), code
}

func TestBadInput(t *testing.T) {
	decide := func(context.Context, event.Input) (answer.Answer, error) { return answer.Block("decided"), nil }
	const closedPrefix = "G: blocked because the hook could not check this call: "
	tests := []struct {
		name, in, reason string
		args             []string
	}{
		{name: "empty", in: "", reason: "invalid hook input: stdin is empty"},
		{name: "whitespace", in: " \n\t\n", reason: "invalid hook input: stdin is empty"},
		{name: "not json", in: "rm -rf /\n", reason: "invalid hook input: not a JSON object (starts with 'r')"},
		{name: "array", in: `[1,2]`, reason: "invalid hook input: not a JSON object (starts with '[')"},
		{name: "string", in: `"PreToolUse"`, reason: `invalid hook input: not a JSON object (starts with '"')`},
		{name: "truncated", in: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"comm`, reason: "invalid hook input: not valid JSON (truncated or malformed)"},
		{name: "invalid utf8", in: "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"\xc3\x28\"}}", reason: "invalid hook input: not valid UTF-8"},
		{name: "wrong types", in: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":["rm","-rf","/"]}`, reason: "invalid hook input: PreToolUse: field tool_input is array, want object"},
		{name: "no event", in: `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, reason: "invalid hook input: hook_event_name is missing"},
		{name: "unhandled event", in: `{"hook_event_name":"SessionStart","source":"startup"}`, reason: "SessionStart is not an event this hook handles (it handles PreToolUse, Stop)"},
		{name: "unknown event", in: `{"hook_event_name":"FutureEvent"}`, reason: "FutureEvent is not an event this hook handles (it handles PreToolUse, Stop)"},
		{name: "over the cap", in: `{"hook_event_name":"Stop","x":"` + strings.Repeat("a", 100) + `"}`, args: []string{"--max-input=64"}, reason: "input is larger than 64 bytes"},
		{name: "bad deadline", in: `{"hook_event_name":"Stop"}`, args: []string{"--deadline=soon"}, reason: `--deadline=soon is not a positive duration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := run(guardSpec(Closed), decide, strings.NewReader(tt.in), tt.args...)
			if out != "" || code != answer.Blocked || errs != closedPrefix+tt.reason+"\n" {
				t.Errorf("closed: %q %q %d\nwant stderr %q", out, errs, code, closedPrefix+tt.reason)
			}
			out, errs, code = run(guardSpec(Open), decide, strings.NewReader(tt.in), tt.args...)
			if out != "" || code != answer.Failed || errs != "G: skipped: "+tt.reason+"\n" {
				t.Errorf("open: %q %q %d", out, errs, code)
			}
		})
	}
}

// The real default cap: a payload over 64 MiB is refused after reading at most cap+1 bytes.
func TestDefaultCapReadsNoMoreThanItNeeds(t *testing.T) {
	src := &countingReader{left: DefaultMaxInput + 10<<20}
	_, errs, code := run(guardSpec(Closed), nil, src)
	if code != answer.Blocked || !strings.Contains(errs, "input is larger than 67108864 bytes") {
		t.Fatalf("%q %d", errs, code)
	}
	if src.read > DefaultMaxInput+64<<10 {
		t.Errorf("read %d bytes of an oversized payload", src.read)
	}
}

type countingReader struct{ left, read int }

func (r *countingReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.left)
	for i := range p[:n] {
		p[i] = ' '
	}
	r.left -= n
	r.read += n
	return n, nil
}

func TestFailuresOfTheHook(t *testing.T) {
	pre := payload(t, "PreToolUse.json")
	args := []string{"--deadline=100ms"}
	tests := []struct {
		name   string
		f      Func
		reason string
	}{
		{"panic", func(context.Context, event.Input) (answer.Answer, error) { panic("boom") }, "internal error: boom"},
		{"error", func(context.Context, event.Input) (answer.Answer, error) {
			return nil, errors.New("reading policy:\nno such file")
		}, "reading policy: no such file"},
		{"deadline", func(context.Context, event.Input) (answer.Answer, error) { select {} }, "no decision before the hook's deadline"},
		{"invalid answer", func(context.Context, event.Input) (answer.Answer, error) {
			return answer.Feedback{Block: "x"}, nil
		}, "the hook's answer is not valid: PreToolUse answer: this answer is for [PostToolUseFailure PostToolBatch Stop SubagentStop], not PreToolUse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			out, errs, code := run(guardSpec(Closed), tt.f, bytes.NewReader(pre), args...)
			if want := "G: blocked because the hook could not check this call: " + tt.reason + "\n"; out != "" || errs != want || code != answer.Blocked {
				t.Errorf("closed: %q %q %d, want %q", out, errs, code, want)
			}
			out, errs, code = run(guardSpec(Open), tt.f, bytes.NewReader(pre), args...)
			if want := "G: skipped: " + tt.reason + "\n"; out != "" || errs != want || code != answer.Failed {
				t.Errorf("open: %q %q %d", out, errs, code)
			}
			if time.Since(start) > 5*time.Second {
				t.Error("the runtime waited for a hook past its deadline")
			}
		})
	}
}

// stdin that never closes is a failure at the deadline, not a hang.
func TestStdinNeverClosed(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(`{"hook_event_name":"Stop"`))
	_, errs, code := run(guardSpec(Closed), nil, r, "--deadline=100ms")
	if code != answer.Blocked || !strings.HasSuffix(errs, "stdin was not closed before the deadline\n") {
		t.Errorf("%q %d", errs, code)
	}
}

// On PermissionRequest exit 2 means nothing, so failing closed is a JSON deny.
func TestClosedFailureOnPermissionRequest(t *testing.T) {
	spec := Spec{Name: "G", Policy: Closed, Events: []Binding{{Event: event.PermissionRequest, Matcher: "Bash", Timeout: 5}}}
	for _, in := range []string{"", `{"hook_event_name":"PermissionRequest","tool_name":"Bash"`} {
		out, errs, code := run(spec, nil, strings.NewReader(in))
		if !strings.HasPrefix(out, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"G: blocked because the hook could not check this call: invalid hook input: `) || errs != "" || code != answer.OK {
			t.Errorf("%q: %q %q %d", in, out, errs, code)
		}
	}
}

func TestAnswers(t *testing.T) {
	pre := payload(t, "PreToolUse.json")
	f := func(_ context.Context, in event.Input) (answer.Answer, error) {
		b, err := in.PreToolUse().ToolInput().Bash()
		return answer.PreToolUse{Decision: answer.Deny, Reason: "no " + b.Command}, err
	}
	out, errs, code := run(guardSpec(Closed), f, bytes.NewReader(pre))
	if want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no echo hi"}}` + "\n"; out != want || errs != "" || code != answer.OK {
		t.Errorf("%q %q %d", out, errs, code)
	}
	silent := func(context.Context, event.Input) (answer.Answer, error) { return nil, nil }
	out, errs, code = run(guardSpec(Closed), silent, bytes.NewReader(pre))
	if out != "" || errs != "" || code != answer.OK {
		t.Errorf("silence: %q %q %d", out, errs, code)
	}
}

func TestDeadline(t *testing.T) {
	for _, tt := range []struct {
		timeouts []int
		want     time.Duration
	}{
		{[]int{5}, 4 * time.Second},
		{[]int{10, 1}, 750 * time.Millisecond},
		{[]int{60}, 48 * time.Second},
		{nil, 50 * time.Millisecond},
	} {
		var s Spec
		for _, to := range tt.timeouts {
			s.Events = append(s.Events, Binding{Event: event.Stop, Timeout: to})
		}
		if got := Deadline(s); got != tt.want {
			t.Errorf("Deadline(%v) = %v, want %v", tt.timeouts, got, tt.want)
		}
	}
}

func TestSpecCheck(t *testing.T) {
	good := guardSpec(Closed)
	for _, tt := range []struct {
		name   string
		mutate func(*Spec)
		want   string
	}{
		{"no name", func(s *Spec) { s.Name = "" }, "the spec has no name"},
		{"no policy", func(s *Spec) { s.Policy = 0 }, "the spec sets no failure policy (hook.Closed or hook.Open)"},
		{"no events", func(s *Spec) { s.Events = nil }, "the spec binds no events"},
		{"unknown event", func(s *Spec) { s.Events = []Binding{{Event: "PreToolUes", Timeout: 5}} }, `"PreToolUes" is not a hook event`},
		{"no timeout", func(s *Spec) { s.Events = []Binding{{Event: event.Stop}} }, "Stop has no timeout (seconds)"},
		{"matcher on Stop", func(s *Spec) { s.Events = []Binding{{Event: event.Stop, Matcher: "x", Timeout: 5}} }, "Stop takes no matcher"},
		{"open WorktreeCreate", func(s *Spec) {
			s.Policy = Open
			s.Events = []Binding{{Event: event.WorktreeCreate, Timeout: 5}}
		}, "WorktreeCreate fails on any non-zero exit, so a fail-open hook cannot run there"},
	} {
		s := good
		s.Events = append([]Binding(nil), good.Events...)
		tt.mutate(&s)
		if err := s.Check(); err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v", tt.name, err)
		}
		// A broken spec blocks everything, whatever its (missing) policy says.
		out, errs, code := run(s, nil, strings.NewReader(`{"hook_event_name":"Stop"}`))
		if out != "" || code != answer.Blocked || !strings.Contains(errs, "this hook is built wrong and blocks everything: "+tt.want) {
			t.Errorf("%s: %q %q %d", tt.name, out, errs, code)
		}
	}
	if err := good.Check(); err != nil {
		t.Error(err)
	}
}

// --deadline may shorten the deadline, never lengthen it past the installed timeout.
func TestDeadlineOverrideIsCapped(t *testing.T) {
	for flag, want := range map[string]time.Duration{"--deadline=1h": 4 * time.Second, "--deadline=100ms": 100 * time.Millisecond, "--timeout=5": 4 * time.Second} {
		s, _, err := parseSetup([]string{flag})
		r := runner{spec: guardSpec(Closed), setup: &s}
		if d := r.deadline(""); err != nil || d != want {
			t.Errorf("%s: %v %v", flag, d, err)
		}
	}
}

// --timeout=N (the installed timeout) pulls the deadline below it; a bad value fails closed.
func TestInstalledTimeout(t *testing.T) {
	hang := func(context.Context, event.Input) (answer.Answer, error) { select {} }
	var out, errb bytes.Buffer
	start := time.Now()
	code := Run(guardSpec(Closed), hang, []string{"--timeout=1"}, bytes.NewReader(payload(t, "PreToolUse.json")), &out, &errb)
	if d := time.Since(start); code != answer.Blocked || d > 900*time.Millisecond || !strings.Contains(errb.String(), "no decision before the hook's deadline") {
		t.Errorf("--timeout=1: code %d after %v: %q", code, d, errb.String())
	}
	errb.Reset()
	code = Run(guardSpec(Closed), hang, []string{"--timeout=soon"}, bytes.NewReader(nil), &out, &errb)
	if code != answer.Blocked || !strings.Contains(errb.String(), "--timeout=soon: the timeout must be a positive number of seconds") {
		t.Errorf("--timeout=soon: %d %q", code, errb.String())
	}
}

// A guard bound to PermissionRequest and PreToolUse that cannot tell which event it got
// answers both ways at once: the PermissionRequest deny JSON, and exit 2.
func TestUnknownEventWithPermissionRequestBinding(t *testing.T) {
	spec := Spec{Name: "G", Policy: Closed, Events: []Binding{
		{Event: event.PreToolUse, Matcher: "Bash", Timeout: 5}, {Event: event.PermissionRequest, Matcher: "Bash", Timeout: 5}}}
	out, errs, code := run(spec, nil, strings.NewReader(""))
	want := `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"G: blocked because the hook could not check this call: invalid hook input: stdin is empty"}}}` + "\n"
	if out != want || code != answer.Blocked || errs != "G: blocked because the hook could not check this call: invalid hook input: stdin is empty\n" {
		t.Errorf("%q %q %d", out, errs, code)
	}
	// An oversized PermissionRequest payload still names its event in its first bytes.
	big := `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("x", 200) + `"}}`
	out, _, code = run(spec, nil, strings.NewReader(big), "--max-input=100")
	if !strings.Contains(out, `"behavior":"deny"`) || code != answer.OK {
		t.Errorf("oversized: %q %d", out, code)
	}
}

// On a real pipe the cap holds: the runtime stops reading at the cap, and the writer is cut off.
func TestCapOnARealPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	written := make(chan int64, 1)
	go func() {
		var n int64
		chunk := bytes.Repeat([]byte(" "), 1<<20)
		for n < 512<<20 {
			m, err := w.Write(chunk)
			n += int64(m)
			if err != nil {
				break
			}
		}
		w.Close()
		written <- n
	}()
	_, errs, code := run(guardSpec(Closed), nil, r, "--max-input=8388608")
	r.Close()
	n := <-written
	if code != answer.Blocked || !strings.Contains(errs, "input is larger than 8388608 bytes") {
		t.Fatalf("%q %d", errs, code)
	}
	if n > 8<<20+4<<20 {
		t.Errorf("the writer got %d bytes into the pipe; the cap is 8 MiB", n)
	}
}

func TestFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Run(guardSpec(Closed), nil, []string{"--describe"}, nil, &out, &errb); code != answer.OK {
		t.Fatalf("--describe: %d %s", code, errb.String())
	}
	want := `{
  "name": "G",
  "description": "test",
  "version": "devel",
  "policy": "closed",
  "deadline": "4s",
  "events": [
    {
      "event": "PreToolUse",
      "matcher": "Bash",
      "timeout": 5,
      "deadline": "4s"
    },
    {
      "event": "Stop",
      "timeout": 5,
      "deadline": "4s"
    }
  ]
}
`
	if out.String() != want {
		t.Errorf("--describe:\n%s", out.String())
	}
	out.Reset()
	Run(guardSpec(Closed), nil, []string{"--version"}, nil, &out, &errb)
	if out.String() != "G devel\n" {
		t.Errorf("--version: %q", out.String())
	}
	out.Reset()
	code := Run(guardSpec(Closed), nil, []string{"--bogus"}, nil, &out, &errb)
	if code != answer.Blocked || !strings.Contains(errb.String(), `unknown arguments "--bogus"`) {
		t.Errorf("--bogus: %d %q", code, errb.String())
	}
}

func BenchmarkParseDecideRender(b *testing.B) {
	pre := payload(b, "PreToolUse.json")
	spec := guardSpec(Closed)
	f := func(_ context.Context, in event.Input) (answer.Answer, error) {
		if b, _ := in.PreToolUse().ToolInput().Bash(); strings.Contains(b.Command, "rm") {
			return answer.Block("no rm"), nil
		}
		return answer.PreToolUse{Decision: answer.Allow, Reason: "ok"}, nil
	}
	b.ReportAllocs()
	for b.Loop() {
		Run(spec, f, nil, bytes.NewReader(pre), io.Discard, io.Discard)
	}
}

// On a real pipe: a payload already written and closed is read at once; one that arrives in
// pieces is waited for; one whose writer never closes fails at the deadline.
func TestRealPipeTimings(t *testing.T) {
	full := payload(t, "PreToolUse.json")
	silent := func(ctx context.Context, in event.Input) (answer.Answer, error) { return nil, nil }
	pipe := func(write func(w *os.File)) *os.File {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go write(w)
		return r
	}
	r := pipe(func(w *os.File) { w.Write(full); w.Close() })
	time.Sleep(20 * time.Millisecond) // the writer is done before the hook reads
	if _, errs, code := run(guardSpec(Closed), silent, r); code != answer.OK {
		t.Errorf("ready payload: %q %d", errs, code)
	}
	r = pipe(func(w *os.File) {
		w.Write(full[:len(full)/2])
		time.Sleep(50 * time.Millisecond)
		w.Write(full[len(full)/2:])
		w.Close()
	})
	if _, errs, code := run(guardSpec(Closed), silent, r); code != answer.OK {
		t.Errorf("payload in two pieces: %q %d", errs, code)
	}
	keep := make(chan *os.File, 1)
	r = pipe(func(w *os.File) { w.Write(full[:10]); keep <- w })
	_, errs, code := run(guardSpec(Closed), silent, r, "--deadline=100ms")
	if code != answer.Blocked || !strings.HasSuffix(errs, "stdin was not closed before the deadline\n") {
		t.Errorf("never closed: %q %d", errs, code)
	}
	(<-keep).Close()
}

// A payload in a regular file is read directly, and still capped.
func TestStdinFromFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "payload.json")
	os.WriteFile(path, payload(t, "PreToolUse.json"), 0o600)
	block := func(context.Context, event.Input) (answer.Answer, error) { return answer.Block("no"), nil }
	for _, tt := range []struct {
		max  string
		code answer.Code
		err  string
	}{{"", answer.Blocked, "G: no\n"}, {"100", answer.Blocked, "input is larger than 100 bytes"}} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		var args []string
		if tt.max != "" {
			args = []string{"--max-input=" + tt.max}
		}
		code := Run(guardSpec(Closed), block, args, f, &out, &errb)
		f.Close()
		if code != tt.code || !strings.Contains(errb.String(), tt.err) {
			t.Errorf("max %q: code %d, stderr %q", tt.max, code, errb.String())
		}
	}
}

// A hook bound to events with different timeouts gets the deadline of the event it is called
// for, not the shortest of them.
func TestDeadlinePerEvent(t *testing.T) {
	spec := Spec{Name: "R", Policy: Open, Events: []Binding{{Event: event.Stop, Timeout: 10}, {Event: event.SessionEnd, Timeout: 1}}}
	r := runner{spec: spec, setup: &Setup{}}
	for ev, want := range map[event.Name]time.Duration{event.Stop: 8 * time.Second, event.SessionEnd: 750 * time.Millisecond, "": 750 * time.Millisecond} {
		if d := r.deadline(ev); d != want {
			t.Errorf("%q: %v, want %v", ev, d, want)
		}
	}
	slow := func(ctx context.Context, in event.Input) (answer.Answer, error) {
		time.Sleep(time.Second) // past SessionEnd's deadline, well inside Stop's
		return nil, nil
	}
	var out, errb bytes.Buffer
	if code := Run(spec, slow, nil, strings.NewReader(`{"hook_event_name":"Stop"}`), &out, &errb); code != answer.OK {
		t.Errorf("Stop: code %d, stderr %q", code, errb.String())
	}
}

// The harness's folders come from the command line only: a variable of the same name, as a
// project's settings could set, moves nothing.
func TestSetupReadsNoEnvironment(t *testing.T) {
	t.Setenv("HARNESS_HOME", "/repo/evil")
	t.Setenv("HARNESS_SYSTEM_DIR", "/repo/evil/system")
	t.Setenv("HARNESS_DEADLINE", "1ns")
	t.Setenv("HOME", "/home/u")
	in, _ := event.Parse([]byte(`{"hook_event_name":"Stop","cwd":"/home/u/p"}`))
	defer func(old string) { passwdFile = old }(passwdFile)
	passwdFile = filepath.Join(t.TempDir(), "absent")
	var s Setup
	s.settle()
	if w := s.Where(in); (runtime.GOOS != "windows" && w.HarnessHome != "/home/u/.claude/harness") || w.SystemDir != config.DefaultSystemDir() {
		t.Errorf("no flags: home %q, system %q", w.HarnessHome, w.SystemDir)
	}
	// Where the password database names the account's home, a moved HOME moves nothing.
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		passwdFile = filepath.Join(t.TempDir(), "passwd")
		os.WriteFile(passwdFile, []byte(fmt.Sprintf("me:x:%d:%d::/home/owner:/bin/sh\n", os.Getuid(), os.Getgid())), 0o644)
		if w := s.Where(in); w.HarnessHome != "/home/owner/.claude/harness" {
			t.Errorf("HOME moved by a project: harness home %q, want the account's", w.HarnessHome)
		}
	}
	s, rest, err := parseSetup([]string{"--home=/opt/h", "--system-dir=/srv/policy", "--explain", "x"})
	if err != nil || len(rest) != 2 {
		t.Fatalf("parse: %v, rest %q", err, rest)
	}
	if w := s.Where(in); w.HarnessHome != "/opt/h" || w.SystemDir != "/srv/policy" {
		t.Errorf("flags: home %q, system %q", w.HarnessHome, w.SystemDir)
	}
	if _, _, err := parseSetup([]string{"--home=relative/dir"}); err == nil {
		t.Error("a relative --home was taken")
	}
}

// A project root from the environment that would widen the guards beyond any real project
// gives way to the payload's cwd.
func TestProjectDirNarrowest(t *testing.T) {
	for dir, want := range map[string]string{"/home/u/p": "/home/u/p", "/": "", "/home": "", "/home/u": "", "/home/u/": "", "rel": "", "": "", "/srv/x/": "/srv/x"} {
		if got := projectDir(dir, "/home/u"); got != want {
			t.Errorf("projectDir(%q) = %q, want %q", dir, got, want)
		}
	}
}

// An ask in a session whose permissions are bypassed would run unasked: it is a deny there,
// with the reason and the way to go ahead; elsewhere it stays an ask.
func TestAskIsDenyWhenPermissionsAreBypassed(t *testing.T) {
	ask := func(context.Context, event.Input) (answer.Answer, error) {
		return answer.PreToolUse{Decision: answer.Ask, Reason: "G: force push"}, nil
	}
	for mode, want := range map[string]string{
		"bypassPermissions": `"permissionDecision":"deny","permissionDecisionReason":"G: force push\nThis needs the user's approval, and this session runs with every permission bypassed`,
		"default":           `"permissionDecision":"ask","permissionDecisionReason":"G: force push"`,
		"acceptEdits":       `"permissionDecision":"ask"`,
	} {
		in := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push -f"},"permission_mode":"` + mode + `"}`
		out, errs, code := run(guardSpec(Closed), ask, strings.NewReader(in))
		if code != answer.OK || !strings.Contains(out, want) {
			t.Errorf("%s: code %d, stdout %q, stderr %q", mode, code, out, errs)
		}
	}
}

// The account's home comes from the password database: the first line with its uid, its
// sixth field, cleaned; nothing for an account the file does not list, a line too short or a
// home that is no absolute path.
func TestOwnerHomeFromPasswd(t *testing.T) {
	for uid, want := range map[string]string{"0": "/root", "1": "/usr/sbin", "1000": "/home/u", "1001": "/srv/noshell", "7": "", "8": "", "42": "", "": ""} {
		f, err := os.Open("testdata/passwd")
		if err != nil {
			t.Fatal(err)
		}
		if got := homeOf(bufio.NewScanner(f), uid); got != want {
			t.Errorf("uid %q: home %q, want %q", uid, got, want)
		}
		f.Close()
	}
	long := "x:x:1:1:" + strings.Repeat("g", 5000) + ":/home/x:/bin/sh\nu:x:1000:1000::/home/u:/bin/sh\n"
	if got := homeOf(bufio.NewScanner(strings.NewReader(long)), "1000"); got != "" {
		t.Errorf("past an over-long line: %q, want nothing", got)
	}
}

// A HOME that a project's settings set does not move the account's own home: Where names it
// besides, and a project root at it or above it is not taken.
func TestWhereKeepsOwnerHome(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("no password database file here")
	}
	fixture := filepath.Join(t.TempDir(), "passwd")
	os.WriteFile(fixture, []byte(fmt.Sprintf("daemon:x:100000:1::/usr/sbin:/bin/sh\nme:x:%d:%d::/home/u:/bin/sh\n", os.Getuid(), os.Getgid())), 0o644)
	defer func(old string) { passwdFile = old }(passwdFile)
	passwdFile = fixture
	in, _ := event.Parse([]byte(`{"hook_event_name":"Stop","cwd":"/repo"}`))
	s := Setup{Home: "/opt/h", SystemDir: "/etc/harness"}
	for _, c := range []struct{ home, project, owner, projectWant string }{
		{"/repo/fake", "/home/u", "/home/u", "/repo"},
		{"/repo/fake", "/home", "/home/u", "/repo"},
		{"/repo/fake", "/home/u/proj", "/home/u", "/home/u/proj"},
		{"/home/u", "/home/u/proj", "", "/home/u/proj"},
		{"/home/u/", "/repo", "", "/repo"},
	} {
		t.Setenv("HOME", c.home)
		t.Setenv("CLAUDE_PROJECT_DIR", c.project)
		if w := s.Where(in); w.Home != c.home || w.OwnerHome != c.owner || w.Project != c.projectWant {
			t.Errorf("HOME=%s CLAUDE_PROJECT_DIR=%s: home %q, owner home %q, project %q; want owner %q, project %q", c.home, c.project, w.Home, w.OwnerHome, w.Project, c.owner, c.projectWant)
		}
	}
	passwdFile = filepath.Join(t.TempDir(), "absent")
	t.Setenv("HOME", "/repo/fake")
	if w := s.Where(in); w.OwnerHome != "" {
		t.Errorf("no password file: owner home %q", w.OwnerHome)
	}
}

// The lookup runs on every call of every hook: it must cost microseconds.
func BenchmarkOwnerHome(b *testing.B) {
	for b.Loop() {
		ownerHome()
	}
}
