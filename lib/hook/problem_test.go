package hook

import (
	"bytes"
	"context"
	"testing"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
)

// A problem the hook works around is one line on stderr, prefixed with the hook's name, and
// leaves the answer as it is.
func TestProblemIsOnStderr(t *testing.T) {
	var got []string
	f := func(ctx context.Context, in event.Input) (answer.Answer, error) {
		Problem(ctx, "project policy file /p/.claude/harness/security.json is ignored: not valid JSON")
		got = ctx.Value(problemsKey{}).(*problems).all()
		return answer.Block("no"), nil
	}
	_, stderr, code := run(guardSpec(Closed), f, bytes.NewReader(payload(t, "PreToolUse.json")))
	want := "G: project policy file /p/.claude/harness/security.json is ignored: not valid JSON\nG: no\n"
	if code != answer.Blocked || stderr != want {
		t.Errorf("code %v, stderr %q, want %q", code, stderr, want)
	}
	if len(got) != 1 {
		t.Errorf("kept for the verdict: %q", got)
	}
}
