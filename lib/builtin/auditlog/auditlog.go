package auditlog

import (
	"context"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
)

var Spec = hook.Spec{
	Name:        "AuditLog",
	Description: "records every tool call, prompt, permission and session boundary, redacted",
	Policy:      hook.Open,
	Events: []hook.Binding{
		{Event: event.PreToolUse, Matcher: "*", Timeout: 5},
		{Event: event.PostToolUse, Matcher: "*", Timeout: 5},
		{Event: event.PostToolUseFailure, Matcher: "*", Timeout: 5},
		{Event: event.PermissionRequest, Matcher: "*", Timeout: 5},
		{Event: event.PermissionDenied, Matcher: "*", Timeout: 5},
		{Event: event.UserPromptSubmit, Timeout: 5},
		{Event: event.SessionStart, Matcher: "*", Timeout: 5},
		{Event: event.SessionEnd, Matcher: "*", Timeout: 1},
		{Event: event.Stop, Timeout: 5},
	},
}

func Run(ctx context.Context, in event.Input) (answer.Answer, error) {
	w := hook.Locate(ctx, in)
	r := audit.Record{Project: w.Project, Session: in.SessionID(), PromptID: in.PromptID(), Event: string(in.Event()), Hook: Spec.Name, Client: w.Client,
		Tool: in.Get("tool_name").Str, ToolUseID: in.Get("tool_use_id").Str, Summary: summary(in)}
	switch in.Event() {
	case event.PostToolUse:
		r.DurationMS = in.PostToolUse().DurationMS()
	case event.PostToolUseFailure:
		f := in.PostToolUseFailure()
		r.DurationMS, r.Error = f.DurationMS(), f.Error()
	case event.PermissionDenied:
		r.Error = in.PermissionDenied().Reason()
	}
	return nil, audit.Append(w.HarnessHome, r)
}

// summary is the short account of a call kept in the log (lib/audit redacts and caps it).
func summary(in event.Input) string {
	ti := in.Get("tool_input")
	switch in.Event() {
	case event.UserPromptSubmit:
		return in.UserPromptSubmit().Prompt()
	case event.SessionStart:
		return in.SessionStart().Source()
	case event.SessionEnd:
		return in.SessionEnd().Reason()
	case event.Stop:
		return in.Stop().LastAssistantMessage()
	}
	for _, k := range []string{"command", "file_path", "notebook_path", "url", "pattern", "query", "description"} {
		if v := ti.Get(k); v.Exists() {
			return v.String()
		}
	}
	return ti.Raw
}
