package dialect

import (
	"path/filepath"
	"time"

	"github.com/hookkit/harness/lib/event"
)

// Qwen is Qwen Code (../shared/protocol/clients/qwen.md).
const Qwen Client = "qwen"

const qwenDir = ".qwen"

func init() {
	register(30, qwen)
	detectBy(Qwen,
		Mark{RankTranscript, TranscriptIn(qwenDir)},
		Mark{RankField + 2, func(s *Shape) bool {
			t := s.Tool.Str
			return s.ToolCallID.Exists() || t == "run_shell_command" || t == "write_file" || t == "edit" || s.Mode.Str == "yolo"
		}},
		Mark{RankFallback, func(s *Shape) bool { return s.Timestamp.Exists() && s.Mode.Exists() }})
}

func qwen() *Dialect {
	return &Dialect{
		Client: Qwen, Title: "Qwen Code", Tested: "0.24.4",
		Events: names(event.PreToolUse, event.PostToolUse, event.PostToolUseFailure,
			event.PermissionRequest, event.PermissionDenied, event.UserPromptSubmit, event.SessionStart,
			event.SessionEnd, event.Stop, event.StopFailure, event.SubagentStart, event.SubagentStop,
			event.PreCompact, event.PostCompact, event.Notification),
		Tools: map[string]string{"run_shell_command": "Bash", "write_file": "Write", "edit": "Edit",
			"read_file": "Read", "notebook_edit": "NotebookEdit", "grep_search": "Grep", "glob": "Glob",
			"agent": "Agent", "task": "Agent"},
		Dir:     "directory",
		Aliases: true, ListEntries: true,
		// A timeout of 1000 or more is Qwen Code's legacy milliseconds.
		LegacyMillis:   true,
		DefaultTimeout: 60 * time.Second,
		Sources:        []string{"startup", "resume", "clear", "compact"},
		Files: Files{
			Kind: HookGroups, Binary: "qwen", Dir: qwenDir, User: "settings.json",
			Project:  filepath.Join(".qwen", "settings.json"),
			Switches: []Switch{{File: filepath.Join(".qwen", "settings.json"), Key: "disableAllHooks", Off: "true", When: "in a trusted folder"}},
		},
		FromProject: "switch them off (`\"disableAllHooks\": true` in `.qwen/settings.json`); set their environment " +
			"(`.qwen/.env`, `env`: harness's hooks take their home from their command line); not break them",
		Transcript: Transcript{Format: "qwen", Glob: ".qwen/projects/*/chats/*.jsonl"},
	}
}
