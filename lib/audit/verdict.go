package audit

import (
	"cmp"
	"strings"

	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/verdict"
)

// Verdict appends a guard's verdict on one call to the log; guards set it as their
// hook.Spec.Record. The decision, its reason and the rule behind it are the typed fields of
// the hook's own reply: nothing is read back out of what it printed. A log that cannot be
// written costs the record, never the answer, which is already out. The doctor's canary calls
// (session "canary", a name only lib/canary gives: a client names its sessions itself) are not
// tool calls and leave no record.
func Verdict(v hook.Verdict) {
	if v.In.SessionID() == canarySession {
		return
	}
	w := v.Setup.Where(v.In)
	r := v.Reply
	decision, reason := cmp.Or(r.Decision, verdict.Silent), firstLine(r.Reason)
	if decision == verdict.Silent {
		reason = ""
	}
	Append(w.HarnessHome, Record{
		Project: w.Project, Session: v.In.SessionID(), PromptID: v.In.PromptID(), Event: string(v.In.Event()), Hook: v.Hook,
		Client: w.Client, Tool: v.In.Get("tool_name").Str, ToolUseID: v.In.Get("tool_use_id").Str,
		Decision: string(decision), Reason: reason, Rule: r.Tag.Rule, Category: r.Tag.Pack, Radius: string(r.Tag.Radius),
		TookMS: float64(v.Took.Microseconds()) / 1000, Problems: v.Problems,
	})
}

// firstLine is a reason's first line: what it decided and why, without its advice.
func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// canarySession is the session id of lib/canary's payloads.
const canarySession = "canary"
