package dialect

import (
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/verdict"
)

// For every declaration whose client cannot ask, an ask on a tool call is rendered as a block
// that the client reads as one, with the reason and how to approve: generated from the
// declarations, so a client added with NoAsk is covered without a line here.
func TestNoAskIsABlock(t *testing.T) {
	const why = "SecurityValidator: needs your approval: `chmod -R 777 ./build`"
	ask := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"` + why + `"}}` + "\n"
	n := 0
	for _, d := range All() {
		if !d.NoAsk {
			continue
		}
		n++
		r := d.Out(event.PreToolUse, answer.Reply{Stdout: []byte(ask), Decision: verdict.Asked, Reason: why})
		got := d.Read(event.PreToolUse, int(r.Code), string(r.Stdout), r.Stderr)
		if got.Decision != "block" {
			t.Errorf("%s: an ask is read as %s (%s): %+v", d.Client, got.Decision, got.Why, r)
		}
		text := string(r.Stdout) + r.Stderr
		if !strings.Contains(text, "needs your approval") || !strings.Contains(text, d.Title+" cannot ask for it here") {
			t.Errorf("%s: the block does not carry the reason and how to approve: %q", d.Client, text)
		}
	}
	if n == 0 {
		t.Fatal("no declaration says its client cannot ask")
	}
}
