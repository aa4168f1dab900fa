package answer

import (
	"fmt"
	"strings"

	"github.com/hookkit/harness/lib/event"
)

// HTTPBlock is the JSON a hook answering over HTTP gives instead of exit 2: Claude Code reads
// no exit code or status from an HTTP hook, only a 2xx body parsed like a command's stdout. A
// PreToolUse or PreSkillShellCommand block is permissionDecision "deny" (the reason goes to the
// model as exit 2's stderr does); PermissionRequest's is its deny; an event that takes
// decision:block gets that. reason is the exit-2 stderr, already signed with the hook's name.
func HTTPBlock(ev event.Name, reason string) ([]byte, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		reason = "blocked"
	}
	spec, ok := event.Lookup(ev)
	var a Answer
	switch {
	case !ok:
		return nil, fmt.Errorf("%q is not a hook event", ev)
	case ev == event.PreToolUse || ev == event.PreSkillShellCommand:
		a = PreToolUse{Decision: Deny, Reason: reason}
	case spec.Block == event.JSONOnly:
		a = PermissionRequest{Behavior: DenyRequest, Message: reason}
	case spec.Decision:
		d := newDoc(ev)
		d.block(reason)
		r, err := d.reply()
		return r.Stdout, err
	default:
		return nil, fmt.Errorf("%s cannot be blocked over HTTP", ev)
	}
	r, err := Render(a, ev, "")
	return r.Stdout, err
}
