package dispatch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Matchers as REFERENCE.md §2.5 describes them.
func TestMatchers(t *testing.T) {
	cases := []struct {
		ev, matcher, value string
		want               bool
	}{
		{"PreToolUse", "", "Bash", true},
		{"PreToolUse", "*", "anything", true},
		{"PreToolUse", "Bash", "Bash", true},
		{"PreToolUse", "bash", "Bash", false}, // case-sensitive
		{"PreToolUse", "Edit|Write", "Write", true},
		{"PreToolUse", "Edit, Write", "Write", true},
		{"PreToolUse", "Edit", "NotebookEdit", false},  // exact
		{"PreToolUse", "Edit.*", "NotebookEdit", true}, // regex, unanchored
		{"PreToolUse", "^Edit$", "NotebookEdit", false},
		{"PreToolUse", "mcp__memory", "mcp__memory__create", false}, // exact chars: nothing
		{"PreToolUse", "mcp__memory__.*", "mcp__memory__create", true},
		{"PreToolUse", "Task", "Agent", true}, // legacy alias
		{"PreToolUse", "(?<=x)y", "xy", true}, // JavaScript lookbehind
		{"PreToolUse", "([", "([", false},     // invalid regex: no match
		{"PreToolUse", "code-reviewer", "code-reviewer", true},
		{"FileChanged", "a-b", "xa-bx", true}, // narrow set: - makes it a regex
		{"Stop", "Bash", "", true},            // no matcher on Stop: every group runs
		{"SessionStart", "startup|resume", "resume", true},
		{"SessionStart", "startup|resume", "clear", false},
	}
	for _, c := range cases {
		s := &Settings{Events: map[string][]Group{c.ev: {{Matcher: c.matcher, Hooks: []Handler{{Command: "true"}}}}}}
		field := map[string]string{"PreToolUse": "tool_name", "FileChanged": "file_path", "SessionStart": "source", "Stop": "x"}[c.ev]
		payload := fmt.Sprintf(`{"hook_event_name":%q,%q:%q}`, c.ev, field, c.value)
		if got := len(s.Select(c.ev, []byte(payload))) == 1; got != c.want {
			t.Errorf("%s matcher %q on %q: %v, want %v", c.ev, c.matcher, c.value, got, c.want)
		}
	}
}

// A payload without the field the event's matcher is compared against (a hand-written one:
// the client always sends it) is matched only by groups that match every value; a name
// without a legacy alias never matches the empty value.
func TestMissingMatchField(t *testing.T) {
	for _, c := range []struct {
		ev, matcher, payload string
		want                 bool
	}{
		{"PreToolUse", "Write|Edit", `{"hook_event_name":"PreToolUse"}`, false},
		{"PreToolUse", "Bash", `{"hook_event_name":"PreToolUse"}`, false},
		{"PreToolUse", "Task", `{"hook_event_name":"PreToolUse"}`, false},
		{"PreToolUse", ".*", `{"hook_event_name":"PreToolUse"}`, false},
		{"PreToolUse", "*", `{"hook_event_name":"PreToolUse"}`, true},
		{"PreToolUse", "", `{"hook_event_name":"PreToolUse"}`, true},
		{"PreToolUse", "Write|Edit", `{"hook_event_name":"PreToolUse","tool_name":""}`, false},
		{"SessionStart", "startup", `{"hook_event_name":"SessionStart"}`, false},
		{"Stop", "", `{"hook_event_name":"Stop"}`, true},
	} {
		s := &Settings{Events: map[string][]Group{c.ev: {{Matcher: c.matcher, Hooks: []Handler{{Command: "true"}}}}}}
		if got := len(s.Select(c.ev, []byte(c.payload))) == 1; got != c.want {
			t.Errorf("%s matcher %q on %s: %v, want %v", c.ev, c.matcher, c.payload, got, c.want)
		}
	}
}

func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hook.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t *testing.T, ev, payload string, hs ...Handler) Verdict {
	t.Helper()
	for i := range hs {
		if hs[i].Timeout == 0 {
			hs[i].Timeout = 10 * time.Second
		}
	}
	return Run(context.Background(), ev, []byte(payload), []Match{{Group: Group{Hooks: hs}}}, Env{Project: t.TempDir(), SessionID: "s"})
}

const pre = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status && FOO=1 rm -rf build"}}`

// Decisions aggregate as the client does: deny > defer > ask > allow; reasons and contexts
// are collected; updatedInput comes with an allow.
func TestAggregation(t *testing.T) {
	allow := script(t, `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"},"additionalContext":"A"}}'`)
	ask := script(t, `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check","additionalContext":"B"}}'`)
	deny := script(t, `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'`)
	exit2 := script(t, `cat >/dev/null; echo "blocked by exit 2" >&2; exit 2`)
	v := run(t, "PreToolUse", pre, Handler{Command: allow, Args: []string{}}, Handler{Command: ask, Args: []string{}})
	if v.Decision != "ask" || v.Context != "A\nB" || string(v.UpdatedInput) != `{"command":"ls"}` || strings.Join(v.Reasons, "|") != "check" {
		t.Errorf("allow+ask: %+v", v)
	}
	v = run(t, "PreToolUse", pre, Handler{Command: allow, Args: []string{}}, Handler{Command: deny, Args: []string{}}, Handler{Command: exit2, Args: []string{}})
	if v.Decision != "deny" || !v.Blocked() || strings.Join(v.Reasons, "|") != "no|blocked by exit 2" && strings.Join(v.Reasons, "|") != "blocked by exit 2|no" {
		t.Errorf("deny: %+v", v)
	}
	// Exit 2 is ignored on PermissionRequest; only the JSON behavior denies.
	v = run(t, "PermissionRequest", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{}}`, Handler{Command: exit2, Args: []string{}})
	if v.Decision != "" {
		t.Errorf("exit 2 on PermissionRequest: %+v", v)
	}
	// Exit 1 with deny JSON still denies; exit 1 with text is a non-blocking error.
	deny1 := script(t, `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}'; exit 1`)
	text1 := script(t, `cat >/dev/null; echo oops; exit 1`)
	if v = run(t, "PreToolUse", pre, Handler{Command: deny1, Args: []string{}}); v.Decision != "deny" {
		t.Errorf("deny JSON with exit 1: %+v", v)
	}
	if v = run(t, "PreToolUse", pre, Handler{Command: text1, Args: []string{}}); v.Decision != "" || v.Blocked() {
		t.Errorf("exit 1 text: %+v", v)
	}
	// continue:false stops; plain stdout is context on UserPromptSubmit only.
	stop := script(t, `cat >/dev/null; echo '{"continue":false,"stopReason":"budget"}'`)
	plain := script(t, `cat >/dev/null; echo "plain context"`)
	if v = run(t, "Stop", `{"hook_event_name":"Stop"}`, Handler{Command: stop, Args: []string{}}); !v.Stop || v.StopReason != "budget" {
		t.Errorf("continue false: %+v", v)
	}
	if v = run(t, "UserPromptSubmit", `{"hook_event_name":"UserPromptSubmit","prompt":"x"}`, Handler{Command: plain, Args: []string{}}); v.Context != "plain context" {
		t.Errorf("plain on UserPromptSubmit: %+v", v)
	}
	if v = run(t, "PostToolUse", `{"hook_event_name":"PostToolUse","tool_name":"Bash"}`, Handler{Command: plain, Args: []string{}}); v.Context != "" {
		t.Errorf("plain on PostToolUse: %+v", v)
	}
}

// Legacy answers map to the current ones.
func TestLegacyAnswers(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{`{"decision":"approve","reason":"fine"}`, "allow"},
		{`{"decision":"block","reason":"no"}`, "deny"},
		{`{"decision":"block","message":"The Harness style"}`, "deny"},
		{`{"hook_specific_output":{"permission_decision":"deny","permission_decision_reason":"snake"}}`, "deny"},
	} {
		h := script(t, "cat >/dev/null; echo '"+c.out+"'")
		v := run(t, "PreToolUse", pre, Handler{Command: h, Args: []string{}})
		if v.Decision != c.want {
			t.Errorf("%s: %+v", c.out, v)
		}
		if c.want == "deny" && len(v.Reasons) != 1 {
			t.Errorf("%s: reasons %v", c.out, v.Reasons)
		}
	}
}

// A hook that hangs is terminated at its timeout: the action goes ahead, unless onFailure is
// block (and the event honours it).
func TestTimeouts(t *testing.T) {
	hang := script(t, `cat >/dev/null; exec sleep 30`)
	h := Handler{Command: hang, Args: []string{}, Timeout: 300 * time.Millisecond}
	start := time.Now()
	v := run(t, "PreToolUse", pre, h)
	if !v.Results[0].TimedOut || v.Blocked() || time.Since(start) > 5*time.Second {
		t.Errorf("timeout, open: %+v in %v", v, time.Since(start))
	}
	h.OnFailure = "block"
	if v = run(t, "PreToolUse", pre, h); v.Decision != "deny" {
		t.Errorf("timeout, onFailure block: %+v", v)
	}
	if v = run(t, "Stop", `{"hook_event_name":"Stop"}`, h); v.Blocked() {
		t.Errorf("onFailure is ignored on Stop: %+v", v)
	}
	missing := Handler{Command: "/nonexistent/hook", Args: []string{}, OnFailure: "block", Timeout: time.Second}
	if v = run(t, "PreToolUse", pre, missing); v.Decision != "deny" {
		t.Errorf("missing binary, onFailure block: %+v", v)
	}
}

// Matching hooks run in parallel: ten that each take 200 ms finish far sooner than ten in a row.
func TestParallel(t *testing.T) {
	var hs []Handler
	for i := 0; i < 10; i++ {
		hs = append(hs, Handler{Command: script(t, fmt.Sprintf("cat >/dev/null; sleep 0.2; echo %d >/dev/null", i)), Args: []string{}})
	}
	start := time.Now()
	v := run(t, "PreToolUse", pre, hs...)
	if took := time.Since(start); took > 1500*time.Millisecond || len(v.Results) != 10 {
		t.Errorf("10 hooks of 200 ms took %v (in a row: 2 s)", took)
	}
}

// Identical handlers (in two scopes) run once; an if filter runs a handler only on the tool
// calls it names, and never on other events.
func TestDedupAndIf(t *testing.T) {
	log := filepath.Join(t.TempDir(), "runs")
	h := script(t, "cat >/dev/null; echo run >> "+log)
	groups := []Match{{Group: Group{Hooks: []Handler{{Command: h, Timeout: 5 * time.Second}}}}, {Group: Group{Hooks: []Handler{{Command: h, Timeout: 5 * time.Second}}}}}
	Run(context.Background(), "PreToolUse", []byte(pre), groups, Env{Project: t.TempDir()})
	if b, _ := os.ReadFile(log); strings.Count(string(b), "run") != 1 {
		t.Errorf("identical handlers ran %d times", strings.Count(string(b), "run"))
	}
	for _, c := range []struct {
		ev, rule string
		want     bool
	}{
		{"PreToolUse", "Bash(git *)", true},
		{"PreToolUse", "Bash(rm -rf *)", true}, // the subcommand after VAR=x
		{"PreToolUse", "Bash(npm *)", false},
		{"PreToolUse", "Edit", false},
		{"Stop", "Bash", false}, // if on a non-tool event: never runs
	} {
		os.Remove(log)
		run(t, c.ev, strings.Replace(pre, "PreToolUse", c.ev, 1), Handler{Command: h, If: c.rule})
		_, err := os.Stat(log)
		if got := err == nil; got != c.want {
			t.Errorf("if %q on %s: ran %v, want %v", c.rule, c.ev, got, c.want)
		}
	}
}

// Settings files load in order; http and other handler types are not run here.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.json")
	os.WriteFile(user, []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"a","timeout":5,"onFailure":"block"},{"type":"http","url":"http://x"}]}]}}`), 0o644)
	proj := filepath.Join(dir, "proj.json")
	os.WriteFile(proj, []byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"b","args":["--x"]}]}]}}`), 0o644)
	s, err := Load(user, proj, filepath.Join(dir, "missing.json"))
	if err != nil {
		t.Fatal(err)
	}
	g := s.Events["PreToolUse"]
	if len(g) != 2 || len(g[0].Hooks) != 1 || g[0].Hooks[0].Timeout != 5*time.Second || !g[0].Hooks[0].TimeoutSet || g[0].Hooks[0].OnFailure != "block" ||
		g[0].Hooks[0].Args != nil || g[1].Hooks[0].Args[0] != "--x" || g[1].Hooks[0].Timeout != DefaultTimeout {
		t.Errorf("loaded %+v", g)
	}
}

// Go callbacks, scoped hooks and progress, under concurrent fire, register and unregister.
func TestRunnerScopedAndCallbacks(t *testing.T) {
	r := NewRunner(nil)
	r.Register("PreToolUse", "Bash", "no-rm", time.Second, func(ctx context.Context, ev string, payload []byte) (string, int) {
		if strings.Contains(string(payload), "rm -rf") {
			return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"callback says no"}}`, 0
		}
		return "", 0
	})
	r.Register("PreToolUse", "Bash", "panics", time.Second, func(context.Context, string, []byte) (string, int) { panic("boom") })
	ask := script(t, `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}'`)
	scope := &Settings{Events: map[string][]Group{"PreToolUse": {{Matcher: "*", Hooks: []Handler{{Command: ask, Args: []string{}, Timeout: 5 * time.Second}}}}}}

	progress := make(chan Progress, 100)
	v := r.Fire(context.Background(), "PreToolUse", []byte(pre), Env{Project: t.TempDir(), Progress: progress})
	if v.Decision != "deny" || len(v.Results) != 2 || v.Reasons[0] != "callback says no" {
		t.Fatalf("base callbacks: %+v", v)
	}
	close(progress)
	kinds := map[string]int{}
	for p := range progress {
		kinds[p.Kind+"/"+p.Outcome]++
	}
	if kinds["started/"] != 2 || kinds["finished/success"] != 1 || kinds["finished/error"] != 1 {
		t.Errorf("progress: %v", kinds)
	}

	r.RegisterScoped("agent-1", scope)
	safe := []byte(strings.Replace(pre, "git status && FOO=1 rm -rf build", "ls", 1))
	if v = r.Fire(context.Background(), "PreToolUse", safe, Env{Project: t.TempDir()}); v.Decision != "ask" {
		t.Errorf("with the scope: %+v", v)
	}
	r.UnregisterScoped("agent-1")
	if v = r.Fire(context.Background(), "PreToolUse", safe, Env{Project: t.TempDir()}); v.Decision != "" {
		t.Errorf("after the scope is gone: %+v", v)
	}

	// Concurrent fire, register and unregister (run with -race).
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func(i int) {
			defer wg.Done()
			r.Fire(context.Background(), "PreToolUse", safe, Env{Project: os.TempDir()})
		}(i)
		go func(i int) {
			defer wg.Done()
			id := fmt.Sprintf("agent-%d", i)
			r.RegisterScoped(id, &Settings{Events: map[string][]Group{}})
			r.UnregisterScoped(id)
		}(i)
	}
	wg.Wait()
}

// A hook that answers {"async": true, "asyncTimeout": N} is run again with that timeout.
func TestAsyncTwoPhase(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "first")
	h := script(t, `cat >/dev/null
if [ ! -e `+marker+` ]; then : > `+marker+`; echo '{"async": true, "asyncTimeout": 5}'; exit 0; fi
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"second phase"}}'`)
	v := run(t, "PreToolUse", pre, Handler{Command: h, Args: []string{}, Timeout: time.Second})
	if v.Decision != "deny" || !v.Results[0].Async || v.Results[0].Handler.Timeout != 5*time.Second {
		t.Errorf("async: %+v", v)
	}
}

// UserPromptSubmit's first group defaults to 30 s, other groups and set timeouts keep theirs.
func TestFirstGroupTimeout(t *testing.T) {
	s := &Settings{Events: map[string][]Group{"UserPromptSubmit": {
		{Hooks: []Handler{{Command: "a", Timeout: DefaultTimeout}, {Command: "b", Timeout: 7 * time.Second, TimeoutSet: true}}},
		{Hooks: []Handler{{Command: "c", Timeout: DefaultTimeout}}},
	}}}
	m := s.Select("UserPromptSubmit", []byte(`{"hook_event_name":"UserPromptSubmit","prompt":"x"}`))
	if m[0].Hooks[0].Timeout != 30*time.Second || m[0].Hooks[1].Timeout != 7*time.Second || m[1].Hooks[0].Timeout != DefaultTimeout {
		t.Errorf("timeouts: %v %v %v", m[0].Hooks[0].Timeout, m[0].Hooks[1].Timeout, m[1].Hooks[0].Timeout)
	}
	if s.Events["UserPromptSubmit"][0].Hooks[0].Timeout != DefaultTimeout {
		t.Error("Select changed the settings it reads")
	}
}
