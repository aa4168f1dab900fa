package hook

import (
	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
)

// noAsk turns an ask into a deny where nobody will be asked: in bypassPermissions mode
// (--dangerously-skip-permissions) Claude Code hands a hook's ask to its own permission check,
// which that mode passes, so the call would run. Like a client that cannot ask, the safe
// answer is the block, saying why and how to go ahead.
func noAsk(in event.Input, a answer.Answer) answer.Answer {
	p, ok := a.(answer.PreToolUse)
	if !ok || p.Decision != answer.Ask || in.PermissionMode() != "bypassPermissions" {
		return a
	}
	p.Decision = answer.Deny
	p.Reason += "\nThis needs the user's approval, and this session runs with every permission bypassed " +
		"(bypassPermissions), so nobody would be asked and the call would run: it is blocked. To go ahead, " +
		"the user can run it themselves, or allow it by policy (the rule's id in \"disable\" of the harness's security.json)."
	return p
}
