package hook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
)

// A client that drops SessionStart's output (Kimi Code) runs a SessionStart hook on its prompts:
// the first prompt of a session is that session's start, its context goes to the model with
// the prompt (as Kimi Code takes it, plain text), and every later prompt gets nothing and does
// not run the hook. A client without that difference is told the hook does not handle prompts.
func TestSessionStartOnFirstPrompt(t *testing.T) {
	spec := Spec{Name: "Brief", Description: "test", Policy: Open,
		Events: []Binding{{Event: event.SessionStart, Matcher: "startup", Timeout: 5}}}
	var seen []string
	brief := func(_ context.Context, in event.Input) (answer.Answer, error) {
		seen = append(seen, string(in.Event())+" "+in.SessionStart().Source()+" "+in.Get("prompt").Raw)
		return answer.SessionStart{Context: "the briefing\nline two"}, nil
	}
	home := t.TempDir()
	prompt := func(session, text string) string {
		return `{"hook_event_name":"UserPromptSubmit","session_id":"` + session + `","cwd":"/p","client_type":"kimi_code_cli",` +
			`"prompt":[{"type":"text","text":"` + text + `"}],"is_steer":false}`
	}
	run := func(args []string, in string) (answer.Code, string, string) {
		var out, errb bytes.Buffer
		code := Run(spec, brief, append([]string{"--home=" + home}, args...), strings.NewReader(in), &out, &errb)
		return code, out.String(), errb.String()
	}
	for _, tt := range []struct {
		name, session, text string
		args                []string
		seen                string
		code                answer.Code
		stdout, stderr      string
	}{
		{"first prompt briefs", "session_a", "fix the bug", []string{"--client=kimi"}, "SessionStart startup ", answer.OK, "the briefing\nline two\n", ""},
		{"second prompt is silent", "session_a", "and the test", []string{"--client=kimi"}, "", answer.OK, "", ""},
		{"another session briefs", "session_b", "hello", []string{"--client=kimi"}, "SessionStart startup ", answer.OK, "the briefing\nline two\n", ""},
		{"told by the payload's shape", "session_c", "hello", nil, "SessionStart startup ", answer.OK, "the briefing\nline two\n", ""},
		{"not for Claude Code", "session_d", "hello", []string{"--client=claude"}, "", answer.Failed, "",
			"Brief: skipped: UserPromptSubmit is not an event this hook handles (it handles SessionStart)\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seen = nil
			in := prompt(tt.session, tt.text)
			if tt.session == "session_d" {
				in = `{"hook_event_name":"UserPromptSubmit","session_id":"session_d","cwd":"/p","prompt":"hello"}`
			}
			code, stdout, stderr := run(tt.args, in)
			if got := strings.Join(seen, ";"); got != tt.seen {
				t.Errorf("the hook saw %q, want %q", got, tt.seen)
			}
			if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("got %d %q %q, want %d %q %q", code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
	// The claim is one file per session and hook, beside the session's other state.
	claims, _ := filepath.Glob(filepath.Join(home, "projects", "-p", "sessions", "*.prompted"))
	for i, c := range claims {
		claims[i] = filepath.Base(c)
	}
	if want := "session_a.Brief.prompted session_b.Brief.prompted session_c.Brief.prompted"; strings.Join(claims, " ") != want {
		t.Errorf("claims %v, want %s", claims, want)
	}
	// A claim that cannot be written is a failure said on stderr, not a briefing on every prompt.
	os.RemoveAll(filepath.Join(home, "projects"))
	os.WriteFile(filepath.Join(home, "projects"), nil, 0o600)
	seen = nil
	code, stdout, stderr := run([]string{"--client=kimi"}, prompt("session_e", "x"))
	if code != answer.Failed || stdout != "" || !strings.HasPrefix(stderr, "Brief: skipped: noting the session's first prompt: mkdir ") || len(seen) != 0 {
		t.Errorf("got %d %q %q (seen %q)", code, stdout, stderr, seen)
	}
}
