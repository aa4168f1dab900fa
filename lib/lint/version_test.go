package lint

import (
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/event"
)

func TestForClient(t *testing.T) {
	data := []byte(`{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/bin/true", "timeout": 0}]}],
  "PreSkillShellCommand": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/bin/true", "timeout": 0}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "/bin/true", "timeout": 0}]}]
}}`)
	show := func(r Report) string {
		var lines []string
		for _, f := range r.Findings {
			lines = append(lines, string(f.Severity)+" "+f.Rule+" "+f.Path)
		}
		return strings.Join(lines, "\n")
	}
	if got, want := show(forClient(Bytes("s.json", data), data, event.Version{2, 1, 332})), show(Bytes("s.json", data)); got != want {
		t.Errorf("2.1.332 has every event:\n%s\nwant:\n%s", got, want)
	}
	// In document order: before the findings about the event's own entries.
	want := `error timeout.invalid hooks.PreToolUse[0].hooks[0].timeout
warning event.newer hooks.PreSkillShellCommand
error timeout.invalid hooks.PreSkillShellCommand[0].hooks[0].timeout
error timeout.invalid hooks.Stop[0].hooks[0].timeout`
	if got := show(forClient(Bytes("s.json", data), data, event.Version{2, 1, 330})); got != want {
		t.Errorf("2.1.330:\n%s\nwant:\n%s", got, want)
	}
	r := forClient(Report{File: "s.json"}, []byte(`{"hooks":{"Stop":[],"PreSkillShellCommand":[]}}`), event.Version{2, 1, 330})
	if len(r.Findings) != 1 || r.Findings[0].Message != "PreSkillShellCommand came in Claude Code 2.1.332 and the installed claude is 2.1.330: it never runs these hooks; update Claude Code" {
		t.Errorf("message: %+v", r.Findings)
	}
	// A much older client is also told about the model-switch events (2.1.251).
	old := forClient(Report{File: "s.json"}, []byte(`{"hooks":{"PreModelSwitch":[],"PreSkillShellCommand":[]}}`), event.Version{2, 1, 200})
	if got := show(old); got != "warning event.newer hooks.PreModelSwitch\nwarning event.newer hooks.PreSkillShellCommand" {
		t.Errorf("2.1.200:\n%s", got)
	}
}
