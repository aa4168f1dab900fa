package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/verdict"
)

// A guard's record takes the decision, the reason's first line and the rule from the reply's
// typed fields: the radius is the rule's own, whatever the reason says about other findings.
func TestVerdictRecordsTheTypedRuling(t *testing.T) {
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	for _, tt := range []struct {
		name  string
		reply answer.Reply
		want  map[string]string
	}{
		{"deny", answer.Reply{Code: answer.Blocked, Decision: verdict.Denied,
			Reason: "SecurityValidator: blocked `npm publish`: by CI [rule policy.deny, policy, blast radius medium; 1 more finding(s)].\nInstead: ask.",
			Tag:    verdict.Tag{Rule: "policy.deny", Pack: "policy", Radius: verdict.Medium}},
			map[string]string{"decision": "deny", "rule": "policy.deny", "category": "policy", "radius": "medium",
				"reason": "SecurityValidator: blocked `npm publish`: by CI [rule policy.deny, policy, blast radius medium; 1 more finding(s)]."}},
		{"ask by a tier", answer.Reply{Stdout: []byte("{}\n"), Decision: verdict.Asked, Reason: "WriteProtector: asks before writing `.env`",
			Tag: verdict.Tag{Rule: "ask.env", Pack: "ask"}},
			map[string]string{"decision": "ask", "rule": "ask.env", "category": "ask", "radius": ""}},
		{"silent", answer.Reply{}, map[string]string{"decision": "silent", "rule": "", "reason": ""}},
		{"failed", answer.Reply{Code: answer.Failed, Decision: verdict.Failed, Reason: "G: skipped: x"},
			map[string]string{"decision": "failed", "reason": "G: skipped: x"}},
	} {
		home, cwd := t.TempDir(), t.TempDir()
		payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": cwd,
			"tool_name": "Bash", "tool_input": map[string]string{"command": "x"}})
		in, err := event.Parse(payload)
		if err != nil {
			t.Fatal(err)
		}
		Verdict(hook.Verdict{Hook: "G", In: in, Setup: hook.Setup{Home: home}, Reply: tt.reply, Code: tt.reply.Code})
		files, _ := filepath.Glob(filepath.Join(Dir(home, cwd), "*.jsonl"))
		if len(files) != 1 {
			t.Fatalf("%s: %d log files", tt.name, len(files))
		}
		b, _ := os.ReadFile(files[0])
		for k, v := range tt.want {
			if got := gjson.GetBytes(b, k).Str; got != v {
				t.Errorf("%s: %s is %q, want %q (%s)", tt.name, k, got, v, b)
			}
		}
	}
}
