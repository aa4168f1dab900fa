// Hook: AuditLog
// Event: PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied,
// UserPromptSubmit, SessionStart, SessionEnd, Stop
// Matcher: * (where the event has one)
// Failure policy: open
//
// The flight recorder: one compact, redacted JSON line per event into the project's daily log
// under $HARNESS_HOME (lib/audit). The guards record their own verdicts there too, so
// `harness audit why <tool_use_id>` shows every hook's answer on a call.
package main

import (
	"github.com/hookkit/harness/lib/builtin/auditlog"
	"github.com/hookkit/harness/lib/hook"
)

func main() { hook.Main(auditlog.Spec, auditlog.Run) }
