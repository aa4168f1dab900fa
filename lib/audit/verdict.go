package audit

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/hook"
)

// Verdict appends a guard's verdict on one call to the log; guards set it as their
// hook.Spec.Record. A log that cannot be written costs the record, never the answer, which is
// already out. The doctor's canary calls (session "canary", a name only lib/canary gives: a
// client names its sessions itself) are not tool calls and leave no record.
func Verdict(v hook.Verdict) {
	if v.In.SessionID() == canarySession {
		return
	}
	w := v.Setup.Where(v.In)
	decision, reason := decide(v.Reply, v.Code)
	rule, category, radius := ruleOf(reason)
	Append(w.HarnessHome, Record{
		Project: w.Project, Session: v.In.SessionID(), PromptID: v.In.PromptID(), Event: string(v.In.Event()), Hook: v.Hook,
		Tool: v.In.Get("tool_name").Str, ToolUseID: v.In.Get("tool_use_id").Str,
		Decision: decision, Reason: reason, Rule: rule, Category: category, Radius: radius,
		TookMS: float64(v.Took.Microseconds()) / 1000, Problems: v.Problems,
	})
}

// ruleOf reads the rule a guard names at the end of its reason: "[rule fs.rm-critical,
// filesystem destruction, blast radius high]" (SecurityValidator: rule, category, radius) or
// "[rule read-only.system]" (WriteProtector, whose category is the rule's tier).
func ruleOf(reason string) (rule, category, radius string) {
	i := strings.LastIndex(reason, "[rule ")
	if i < 0 {
		return "", "", ""
	}
	inner, _, ok := strings.Cut(reason[i+len("[rule "):], "]")
	if !ok {
		return "", "", ""
	}
	parts := strings.Split(inner, ", ")
	rule = strings.TrimSpace(parts[0])
	for _, p := range parts[1:] {
		if r, ok := strings.CutPrefix(p, "blast radius "); ok {
			radius = strings.TrimSpace(r)
		} else if category == "" {
			category = p
		}
	}
	if category == "" {
		category, _, _ = strings.Cut(rule, ".")
	}
	return rule, category, radius
}

// decide reads the decision back from the reply the hook wrote.
func decide(r answer.Reply, code answer.Code) (string, string) {
	out := gjson.ParseBytes(r.Stdout)
	firstLine := func(s string) string { l, _, _ := strings.Cut(strings.TrimSpace(s), "\n"); return l }
	switch {
	case code == answer.Blocked:
		return "deny", firstLine(r.Stderr)
	case out.Get("hookSpecificOutput.decision.behavior").Str == "deny":
		return "deny", firstLine(out.Get("hookSpecificOutput.decision.message").Str)
	case out.Get("hookSpecificOutput.permissionDecision").Exists():
		return out.Get("hookSpecificOutput.permissionDecision").Str, firstLine(out.Get("hookSpecificOutput.permissionDecisionReason").Str)
	case out.Get("decision").Str == "block":
		return "block", firstLine(out.Get("reason").Str)
	case code == answer.Failed:
		return "failed", firstLine(r.Stderr)
	}
	return "silent", ""
}

// canarySession is the session id of lib/canary's payloads.
const canarySession = "canary"
