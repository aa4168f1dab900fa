package answer

import (
	"testing"

	"github.com/hookkit/harness/lib/event"
)

func TestHTTPBlock(t *testing.T) {
	tests := []struct {
		ev   event.Name
		want string
	}{
		{event.PreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"G: no"}}` + "\n"},
		{event.PreSkillShellCommand, `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"G: no"}}` + "\n"},
		{event.PermissionRequest, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"G: no"}}}` + "\n"},
		{event.UserPromptSubmit, `{"decision":"block","reason":"G: no"}` + "\n"},
		{event.Stop, `{"decision":"block","reason":"G: no"}` + "\n"},
	}
	for _, tt := range tests {
		got, err := HTTPBlock(tt.ev, "G: no\n")
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.ev, got, err, tt.want)
		}
	}
	if got, err := HTTPBlock(event.SessionEnd, "G: no"); err == nil {
		t.Errorf("SessionEnd: got %q, want an error (it cannot be blocked)", got)
	}
}
