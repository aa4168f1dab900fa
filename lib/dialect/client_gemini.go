package dialect

import (
	"path/filepath"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// Gemini is Gemini CLI (../shared/protocol/clients/gemini.md).
const Gemini Client = "gemini"

const geminiDir = ".gemini"

func init() {
	register(50, gemini)
	detectBy(Gemini,
		// Its own event names.
		Mark{RankFormat + 1, func(s *Shape) bool { return s.Event.Type == gjson.String && isGeminiEvent(s.Event.Str) }},
		Mark{RankTranscript, TranscriptIn(geminiDir)},
		Mark{RankFallback + 1, func(s *Shape) bool { return s.Timestamp.Exists() }})
}

func isGeminiEvent(name string) bool {
	switch name {
	case "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "PreCompress", "BeforeModel",
		"AfterModel", "BeforeToolSelection":
		return true
	}
	return false
}

func gemini() *Dialect {
	return &Dialect{
		Client: Gemini, Title: "Gemini CLI", Tested: "0.61.0",
		Events: map[event.Name]string{
			event.PreToolUse: "BeforeTool", event.PostToolUse: "AfterTool",
			event.UserPromptSubmit: "BeforeAgent", event.Stop: "AfterAgent",
			event.PreCompact: "PreCompress", event.SessionStart: "SessionStart",
			event.SessionEnd: "SessionEnd", event.Notification: "Notification",
		},
		Tools: map[string]string{"run_shell_command": "Bash", "write_file": "Write", "replace": "Edit",
			"read_file": "Read", "glob": "Glob", "grep_search": "Grep", "web_fetch": "WebFetch",
			"google_web_search": "WebSearch"},
		Args: map[string]map[string]string{
			"Edit": {"allow_multiple": "replace_all"},
		},
		Dir:    "dir_path",
		Millis: true, NoAsk: true, TopDecision: true, TopAsks: []string{"ask"}, ExactSource: true, Anchored: true, RegexpMatchers: true,
		DefaultTimeout: 60 * time.Second,
		Sources:        []string{"startup", "resume", "clear"},
		Files: Files{
			Kind: HookGroups, Binary: "gemini", Dir: geminiDir, User: "settings.json",
			Project: filepath.Join(".gemini", "settings.json"),
			// HookRegistry runs hooks only while hooksConfig.enabled, true by default (gemini.md).
			Off: []OffSetting{{"hooksConfig.enabled", false}},
			Switches: []Switch{
				{File: filepath.Join(".gemini", "settings.json"), Key: "hooksConfig.enabled", Off: "false", When: "in a trusted folder"},
				{File: filepath.Join(".gemini", "settings.json"), Key: "hooksConfig.disabled", When: "in a trusted folder"},
			},
		},
		FromProject: "switch them off (`hooksConfig.enabled: false` in `.gemini/settings.json`), or one hook by its command (`hooksConfig.disabled`); " +
			"set their environment (`.gemini/.env`); not break them (a malformed file stops Gemini)",
		Transcript: Transcript{Format: "gemini", Glob: ".gemini/tmp/*/chats/session-*.jsonl"},
	}
}
