package dialect

import (
	"strings"
	"time"

	"github.com/hookkit/harness/lib/event"
)

// Droid is Factory droid (../shared/protocol/clients/droid.md).
const Droid Client = "droid"

const droidDir = ".factory"

func init() {
	register(40, droid)
	detectBy(Droid,
		Mark{RankTranscript, TranscriptIn(droidDir)},
		Mark{RankField + 1, func(s *Shape) bool {
			t := s.Tool.Str
			return t == "Execute" || t == "Create" || t == "ApplyPatch" || strings.HasPrefix(s.Mode.Str, "auto-") ||
				s.EnvFile.Exists() || (s.MessageID.Exists() && s.Event.Str != string(event.MessageDisplay))
		}})
}

func droid() *Dialect {
	return &Dialect{
		Client: Droid, Title: "Factory droid", Tested: "0.225.2",
		Events: names(event.PreToolUse, event.PostToolUse, event.UserPromptSubmit, event.SessionStart,
			event.SessionEnd, event.Stop, event.SubagentStop, event.PreCompact, event.Notification),
		// MultiEdit and ApplyPatch are in the binary, not offered in the tested runs.
		Tools: map[string]string{"Execute": "Bash", "Create": "Write", "Edit": "Edit",
			"MultiEdit": "MultiEdit", "ApplyPatch": "apply_patch", "Read": "Read", "Grep": "Grep",
			"Glob": "Glob", "Task": "Agent"},
		Args: map[string]map[string]string{
			"Edit": {"old_str": "old_string", "new_str": "new_string", "change_all": "replace_all"},
		},
		NoAsk:          true,
		DefaultTimeout: 60 * time.Second,
		Sources:        []string{"startup", "resume", "clear", "compact"},
		Files: Files{
			Kind: HookGroups, Binary: "droid", Dir: droidDir, User: "settings.json",
			NoProject: "droid's project settings are not documented as reading hooks; install in user scope",
			Switches:  []Switch{{File: droidDir + "/settings.json", Key: "hooks.hooksDisabled", Off: "true"}},
		},
		FromProject: "switch them off (`\"hooks\": {\"hooksDisabled\": true}` in `.factory/settings.json`; not `settings.local.json`); " +
			"not break them or set their environment",
		Transcript: Transcript{Format: "droid", Glob: ".factory/sessions/*/*.jsonl"},
	}
}
