package hook

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
)

// The runtime translates the client's payload before the hook sees it and renders the answer
// as the client reads it, for decisions and for fail-closed answers alike.
func TestClientDialect(t *testing.T) {
	var seen string
	decide := func(v answer.Answer) Func {
		return func(_ context.Context, in event.Input) (answer.Answer, error) {
			seen = string(in.Event()) + " " + in.Get("tool_name").Str + " " + in.Get("tool_input.command").Str
			return v, nil
		}
	}
	crash := func(context.Context, event.Input) (answer.Answer, error) { panic("boom") }
	fails := func(context.Context, event.Input) (answer.Answer, error) { return nil, errors.New("policy unreadable") }
	const gemini = `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"git push --force"}}`
	const codex = `{"hook_event_name":"PreToolUse","turn_id":"t","cwd":"/p","tool_name":"Bash","tool_input":{"command":"git push --force"}}`
	const copilot = `{"hook_event_name":"PreToolUse","timestamp":"2026-11-26T11:14:10.976Z","cwd":"/p","tool_name":"Bash","tool_input":{"command":"git push --force"}}`
	ask := answer.PreToolUse{Decision: answer.Ask, Reason: "G: force push"}
	tests := []struct {
		name    string
		args    []string
		in      string
		f       Func
		seen    string
		code    answer.Code
		stdout  string
		stderrs string // a substring of stderr
	}{
		{"gemini deny", []string{"--client=gemini"}, gemini, decide(answer.Block("no")), "PreToolUse Bash git push --force",
			answer.Blocked, `{"decision":"deny","reason":"G: no"}` + "\n", "G: no"},
		{"gemini ask blocks", []string{"--client=gemini", "--timeout=5"}, gemini, decide(ask), "PreToolUse Bash git push --force",
			answer.Blocked, `{"decision":"deny","reason":"G: force push\nThis needs the user's approval, and Gemini CLI cannot ask for it here, so it is blocked. To go ahead, the user can run it themselves, or allow it by policy (the rule's id in \"disable\" of $HARNESS_HOME/security.json)."}` + "\n",
			"G: force push\nThis needs the user's approval, and Gemini CLI cannot ask for it here"},
		{"codex ask blocks", []string{"--timeout=5", "--client=codex"}, codex, decide(ask), "PreToolUse Bash git push --force",
			answer.Blocked, "", "Codex CLI cannot ask for it here"},
		{"codex detected without --client", nil, codex, decide(ask), "PreToolUse Bash git push --force",
			answer.Blocked, "", "Codex CLI cannot ask for it here"},
		{"copilot crash is a JSON deny", []string{"--client=copilot"}, copilot, crash, "",
			answer.OK, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"G: blocked because the hook could not check this call: internal error: boom"}}` + "\n", ""},
		{"gemini failure blocks", []string{"--client=gemini"}, gemini, fails, "",
			answer.Blocked, `{"decision":"deny","reason":"G: blocked because the hook could not check this call: policy unreadable"}` + "\n", "policy unreadable"},
		{"unknown client blocks", []string{"--client=cursor"}, codex, decide(nil), "",
			answer.Blocked, "", "G: blocked because the hook could not check this call: --client=cursor: unknown client \"cursor\""},
		{"gemini event it lacks", []string{"--client=gemini"}, `{"hook_event_name":"BeforeModel","cwd":"/p"}`, decide(nil), "",
			answer.Blocked, `{"decision":"deny","reason":"G: blocked because the hook could not check this call: BeforeModel is not an event this hook handles (it handles PreToolUse, Stop)"}` + "\n", "BeforeModel"},
		{"copilot native format", []string{"--client=copilot"}, `{"sessionId":"s","cwd":"/p","toolName":"bash","toolArgs":{"command":"ls"}}`, decide(nil), "",
			answer.Blocked, "", "GitHub Copilot CLI payload not understood: the payload names no event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen = ""
			var out, errb bytes.Buffer
			code := Run(guardSpec(Closed), tt.f, tt.args, strings.NewReader(tt.in), &out, &errb)
			if seen != tt.seen {
				t.Errorf("the hook saw %q, want %q", seen, tt.seen)
			}
			if code != tt.code || out.String() != tt.stdout || !strings.Contains(errb.String(), tt.stderrs) {
				t.Errorf("got %d %q %q\nwant %d %q, stderr with %q", code, out.String(), errb.String(), tt.code, tt.stdout, tt.stderrs)
			}
		})
	}
}

// The call's client reaches the hook through Locate, for its records: the one --client names,
// else the one the payload's shape gives.
func TestWhereNamesTheClient(t *testing.T) {
	var got string
	f := func(ctx context.Context, in event.Input) (answer.Answer, error) {
		got = Locate(ctx, in).Client
		return nil, nil
	}
	const claude = `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`
	const codex = `{"hook_event_name":"PreToolUse","turn_id":"t","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`
	for _, tt := range []struct {
		args []string
		in   string
		want string
	}{
		{nil, claude, "claude"},
		{nil, codex, "codex"},
		{[]string{"--client=qwen"}, claude, "qwen"},
		{[]string{"--client=gemini"}, `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, "gemini"},
	} {
		got = ""
		var out, errb bytes.Buffer
		if code := Run(guardSpec(Closed), f, tt.args, strings.NewReader(tt.in), &out, &errb); code != answer.OK {
			t.Fatalf("%v: exit %d %s", tt.args, code, errb.String())
		}
		if got != tt.want {
			t.Errorf("%v %s: client %q, want %q", tt.args, tt.in, got, tt.want)
		}
	}
	if c := (Setup{}).Client(); c != "" {
		t.Errorf("a setup outside a call names client %q", c)
	}
}
