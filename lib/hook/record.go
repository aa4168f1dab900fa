package hook

import (
	"os"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/audit"
)

// recordVerdict appends a guard's verdict on one call to the audit log. A log that cannot be
// written costs the record, never the answer, which is already out.
func recordVerdict(spec Spec, rec *recording, code answer.Code) {
	if os.Getenv("HARNESS_AUDIT") == "0" {
		return
	}
	w := Locate(rec.in)
	decision, reason := verdict(rec.reply, code)
	audit.Append(w.HarnessHome, audit.Record{
		Project: w.Project, Session: rec.in.SessionID(), Event: string(rec.in.Event()), Hook: spec.Name,
		Tool: rec.in.Get("tool_name").Str, ToolUseID: rec.in.Get("tool_use_id").Str,
		Decision: decision, Reason: reason, TookMS: float64(time.Since(rec.start).Microseconds()) / 1000,
	})
}

// verdict reads the decision back from the reply the hook wrote.
func verdict(r answer.Reply, code answer.Code) (string, string) {
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
