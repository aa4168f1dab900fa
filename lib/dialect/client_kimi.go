package dialect

import (
	"time"

	"github.com/hookkit/harness/lib/event"
)

// Kimi is Kimi Code (../shared/protocol/clients/kimi.md).
const Kimi Client = "kimi"

const kimiDir = ".kimi-code"

func init() {
	register(35, kimi)
	detectBy(Kimi, Mark{RankField - 1, func(s *Shape) bool { return s.ClientType.Str == "kimi_code_cli" }})
}

func kimi() *Dialect {
	return &Dialect{
		Client: Kimi, Title: "Kimi Code", Tested: "2.1.0",
		Events: names(event.PreToolUse, event.PostToolUse, event.PostToolUseFailure,
			event.PermissionRequest, event.UserPromptSubmit, event.Stop, event.StopFailure,
			event.SessionStart, event.SessionEnd, event.SubagentStart, event.SubagentStop,
			event.PreCompact, event.PostCompact, event.Notification),
		Dropped: map[event.Name]string{
			event.SessionStart: "Kimi Code drops SessionStart hooks' output, so its context never reaches the model " +
				"(the hook still runs the guards' canary and notes the repository's state for PromptContext)",
		},
		// Claude Code's names, but its own tools: a matcher names only these (no aliases), and
		// the file tools take path where Claude Code's take file_path.
		Tools: map[string]string{"Bash": "Bash", "Write": "Write", "Edit": "Edit", "Read": "Read",
			"Grep": "Grep", "Glob": "Glob", "FetchURL": "WebFetch", "Agent": "Agent"},
		Args: map[string]map[string]string{
			"Write": {"path": "file_path"},
			"Edit":  {"path": "file_path"},
			"Read":  {"path": "file_path"},
		},
		Dir: "cwd",
		// An ask runs the call; only exit 2 or a deny blocks. Matchers are unanchored regular
		// expressions, and "*" is not one: it selects nothing.
		NoAsk: true, OnlyDeny: true, Anchored: true, RegexpMatchers: true, NoStar: true,
		// The prompt comes as content parts, a failure's error as an object; a prompt hook's
		// stdout goes to the model verbatim.
		PromptParts: true, ErrorObject: true, PlainPromptContext: true,
		DefaultTimeout: 30 * time.Second,
		MaxTimeout:     600,
		Sources:        []string{"startup", "resume", "clear", "compact"},
		Files: Files{
			Kind: TOMLHooks, Binary: "kimi", Dir: kimiDir, Env: "KIMI_CODE_HOME", User: "config.toml",
			NoProject: "Kimi Code reads hooks only from ~/.kimi-code/config.toml (a project's .kimi-code/config.toml, " +
				".kimi-code/local.toml and .claude/settings.json are not read); install in user scope",
		},
		FromProject: "nothing: neither switch them off, nor break their file, nor set their environment (it reads no project file)",
		FileEvents:  kimiEvents,
	}
}

// kimiEvents are every event Kimi Code's [[hooks]] take (HOOK_EVENT_TYPES): any other name
// makes it ignore every hook of the file.
func kimiEvents() map[string]FileEvent {
	tool := FileEvent{CanBlock: true, ToolMatched: true}
	plain := FileEvent{}
	return map[string]FileEvent{
		"PreToolUse": tool, "PostToolUse": {ToolMatched: true}, "PostToolUseFailure": {ToolMatched: true},
		"PermissionRequest": tool, "PermissionResult": {ToolMatched: true},
		"UserPromptSubmit": {CanBlock: true}, "UserPromptQueued": plain, "TurnStarted": plain,
		"Stop": {CanBlock: true}, "StopFailure": plain, "Interrupt": plain, "SessionStart": plain,
		"SessionEnd": plain, "SessionHeartbeat": plain, "SubagentStart": plain, "SubagentStop": plain,
		"TaskStarted": plain, "PreCompact": plain, "PostCompact": plain, "Notification": plain,
	}
}
