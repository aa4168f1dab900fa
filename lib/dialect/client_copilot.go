package dialect

import (
	"path/filepath"
	"time"

	"github.com/hookkit/harness/lib/event"
)

// Copilot is GitHub Copilot CLI (../shared/protocol/clients/copilot.md).
const Copilot Client = "copilot"

const copilotDir = ".copilot"

func init() {
	register(20, copilot)
	detectBy(Copilot,
		// Its own format names no hook_event_name.
		Mark{RankFormat, func(s *Shape) bool { return !s.Event.Exists() && (s.HookName.Exists() || s.SessionID.Exists()) }},
		Mark{RankTranscript, TranscriptIn(copilotDir)},
		Mark{RankField + 3, func(s *Shape) bool {
			return s.ToolResult.Exists() || s.StopReason.Exists() || (s.Timestamp.Exists() && !s.Transcript.Exists())
		}})
}

func copilot() *Dialect {
	return &Dialect{
		Client: Copilot, Title: "GitHub Copilot CLI", Tested: "1.0.102",
		Events: names(event.PreToolUse, event.PostToolUse, event.UserPromptSubmit,
			event.SessionStart, event.SessionEnd, event.Stop, event.PermissionRequest),
		// PermissionRequest fires too, with Copilot's own payload (translated in), but Copilot
		// denies the call when such a hook fails: the installer leaves it out, and validate
		// warns about one in a file.
		Unwired: map[event.Name]string{
			event.PermissionRequest: "Copilot CLI sends PermissionRequest hooks its own payload and denies the call when such a hook fails",
		},
		// In Claude Code's format Copilot sends Claude Code's tool names, with its own argument
		// names; Tools are the names of its own format.
		Tools: map[string]string{"bash": "Bash", "create": "Write", "edit": "Edit", "view": "Read",
			"grep": "Grep", "glob": "Glob", "task": "Agent", "str_replace_editor": "Edit"},
		Args: map[string]map[string]string{
			"Write": {"path": "file_path", "file_text": "content"},
			"Edit":  {"path": "file_path", "old_str": "old_string", "new_str": "new_string"},
			"Read":  {"path": "file_path"},
		},
		ClaudeToolNames: true,
		Native: &Native{
			EventKey: "hookName", Event: copilotEvent, Fields: copilotFields,
			Hint: "Copilot's own .github/hooks format sends none: install with `harness install --client copilot`, which writes Claude Code's format",
		},
		JSONDeny: true, JSONPromptBlock: true, TopContext: true, Aliases: true, Sequential: true,
		DefaultTimeout: 60 * time.Second,
		Sources:        []string{"new", "resume", "startup"},
		Files: Files{
			Kind: HookGroups, Binary: "copilot", Dir: copilotDir, User: filepath.Join("hooks", "harness.json"),
			NoProject: "Copilot CLI reads Claude Code's format in a project only from .claude/settings.json (and settings.local.json), which Claude Code reads too; " +
				"install in user scope (~/.copilot/hooks/harness.json), or use `harness install --scope project` for both clients",
			Switches: []Switch{
				{File: ".github/copilot/settings.json", Key: "disableAllHooks", Off: "true", When: "in a trusted folder"},
				{File: ".github/copilot/settings.local.json", Key: "disableAllHooks", Off: "true", When: "in a trusted folder"},
				{File: ".claude/settings.json", Key: "disableAllHooks", Off: "true", When: "in a trusted folder"},
				{File: ".claude/settings.local.json", Key: "disableAllHooks", Off: "true", When: "in a trusted folder"},
			},
		},
		FromProject: "switch them off (`\"disableAllHooks\": true` in `.github/copilot/settings*.json` or `.claude/settings*.json`); " +
			"not set their environment (`.env`, `env`) or break them (a bad `.github/hooks/*.json` is dropped alone)",
		Transcript: Transcript{Format: "copilot", Glob: ".copilot/session-state/*/events.jsonl"},
	}
}

// copilotEvent maps the event names of Copilot CLI's own format (hookName), which it also
// sends to PermissionRequest hooks of a Claude-format file. A switch, not a map: no start-up
// work in every hook.
func copilotEvent(name string) (event.Name, bool) {
	switch name {
	case "preToolUse":
		return event.PreToolUse, true
	case "postToolUse":
		return event.PostToolUse, true
	case "userPromptSubmitted":
		return event.UserPromptSubmit, true
	case "sessionStart":
		return event.SessionStart, true
	case "sessionEnd":
		return event.SessionEnd, true
	case "agentStop":
		return event.Stop, true
	case "subagentStop":
		return event.SubagentStop, true
	case "permissionRequest":
		return event.PermissionRequest, true
	case "preCompact":
		return event.PreCompact, true
	case "notification":
		return event.Notification, true
	}
	return "", false
}

// copilotFields renames the camelCase fields of Copilot CLI's own format.
var copilotFields = [][2]string{
	{"sessionId", "session_id"}, {"toolName", "tool_name"}, {"toolInput", "tool_input"},
	{"toolArgs", "tool_input"}, {"transcriptPath", "transcript_path"}, {"stopReason", "stop_reason"},
	{"initialPrompt", "initial_prompt"}, {"permissionSuggestions", "permission_suggestions"},
	{"toolResult", "tool_response"}, {"tool_result", "tool_response"},
}
