package dialect

import (
	"os"
	"path/filepath"
	"time"

	"github.com/hookkit/harness/lib/event"
)

// Grok is Grok Build (xAI's `grok`). It cannot be installed here (no package in any registry
// this machine reaches), so its dialect rests on its documented hooks:
//
//   - https://docs.x.ai/build/features/hooks (files, events, the script contract);
//   - its user guide, https://github.com/xai-org/grok-build/blob/main/crates/codegen/xai-grok-pager/docs/user-guide/10-hooks.md
//     (locations and trust, Claude Code's tool names mapped in matchers, the payload, the
//     answer, exit codes, fail-open, MCP tools named server__tool, the variables every hook
//     gets), and 22-permissions-and-safety.md beside it (a hook's allow skips no check).
//
// Documented: Claude Code's hook groups in ~/.grok/hooks/*.json ($GROK_HOME) and the project's
// .grok/hooks/*.json (run once the folder is trusted), and Claude Code's own
// .claude/settings.json, user and project, read as well; Claude Code's event names in the file
// but a payload of its own, {"hookEventName":"pre_tool_use","sessionId","cwd","workspaceRoot",
// "toolName":"run_terminal_command","toolInput":{"command"},"toolUseId",...}; matchers are
// regular expressions on its tool names (Bash, Read, Edit, ... mapped), rejected on
// SessionStart, SessionEnd, Stop and UserPromptSubmit; the answer is {"decision":"allow"} or
// {"decision":"deny","reason"} on stdout (honoured whatever the exit code) or exit 2, and no
// ask; only PreToolUse can block, every other hook's stdout is ignored; a crash, a timeout or
// malformed output lets the call run; timeouts are seconds, 5 by default.
//
// Not documented, and chosen: the arguments of its file tools (search_replace, write_file,
// read_file): Claude Code's file_path, and path, which its sources show, are both read; the
// snake_case names of events other than pre_tool_use (Claude Code's, in snake_case); whether
// session_start names a source (none is read as startup); whether hooks from
// .claude/settings.json get the same payload (assumed; where one in Claude Code's shape comes
// from a hook Grok started, which GROK_HOOK_EVENT says, it is answered in Grok's form, which
// blocks in Claude Code too: the RankRunner mark); its transcripts (none is read).
const Grok Client = "grok"

const grokDir = ".grok"

func init() {
	register(90, grok)
	detectBy(Grok,
		// Its own format: hookEventName, not hook_event_name.
		Mark{RankFormat - 1, func(s *Shape) bool { return !s.Event.Exists() && s.HookEventName.Exists() }},
		// A payload in Claude Code's shape in a hook Grok started (it reads Claude Code's files
		// and sets GROK_HOOK_EVENT on every hook): answered in Grok's form, which blocks in
		// Claude Code too, so an ask never becomes an allow in either.
		Mark{RankRunner, func(*Shape) bool { return os.Getenv(grokRunner) != "" }})
}

// grokRunner is set by Grok Build on every hook it starts (its guide: reserved, always the
// real value).
const grokRunner = "GROK_HOOK_EVENT"

func grok() *Dialect {
	return &Dialect{
		Client: Grok, Title: "Grok Build", Short: "Grok",
		Tested: "documented hooks (not installable here)",
		Events: names(event.SessionStart, event.SessionEnd, event.UserPromptSubmit, event.PreToolUse,
			event.PostToolUse, event.PostToolUseFailure, event.PermissionDenied, event.Stop,
			event.StopFailure, event.Notification, event.SubagentStart, event.SubagentStop,
			event.PreCompact, event.PostCompact),
		// A prompt hook's answer and output are ignored: SecretGuard would stop nothing and
		// PromptContext would tell the model nothing, so nothing is wired there.
		Unwired: map[event.Name]string{
			event.UserPromptSubmit: "Grok Build ignores a UserPromptSubmit hook's answer and output: a prompt cannot be stopped or given context there",
		},
		Dropped: map[event.Name]string{
			event.SessionStart: "Grok Build ignores the output of every hook but PreToolUse's, so LoadContext's briefing never reaches the model " +
				"(the hook still runs the guards' canary and notes the repository's state)",
			event.PreCompact: "Grok Build ignores a PreCompact hook's output",
		},
		// Its own tools, by the aliases its guide lists (Edit, Write and MultiEdit are all
		// search_replace; Glob is list_dir), and write_file, which its sources show.
		Tools: map[string]string{"run_terminal_command": "Bash", "read_file": "Read", "search_replace": "Edit",
			"write_file": "Write", "grep": "Grep", "list_dir": "Glob", "web_search": "WebSearch",
			"spawn_subagent": "Agent"},
		Args: map[string]map[string]string{
			"Read":  {"path": "file_path"},
			"Edit":  {"path": "file_path"},
			"Write": {"path": "file_path"},
		},
		Native: &Native{
			EventKey: "hookEventName", Event: grokEvent, Name: snakeName,
			Fields: [][2]string{{"sessionId", "session_id"}, {"toolName", "tool_name"},
				{"toolInput", "tool_input"}, {"toolUseId", "tool_use_id"}},
			Hint: "Grok Build names its event in hookEventName",
		},
		NativeOnly: true, RunnerEnv: grokRunner,
		// An MCP server's tool is server__tool (linear__save_issue).
		MCPUnprefixed: true,
		// No ask: {"decision":"deny"} on stdout and exit 2, which Claude Code reads as a block
		// too. Matchers name its own tools, anchored; "*" is no regular expression, and a
		// lifecycle event takes no matcher at all.
		NoAsk: true, TopDecision: true, ExitTwoDenies: true, OnlyToolBlocks: true,
		Anchored: true, RegexpMatchers: true, NoStar: true, ToolMatchersOnly: true,
		DefaultTimeout: 5 * time.Second,
		// Whether session_start names its source is not documented: none is read as startup.
		Source: "startup",
		Files: Files{
			// A file of its own among ~/.grok/hooks/*.json, never the user's.
			Kind: HookGroups, Binary: "grok", Dir: grokDir, Env: "GROK_HOME", ClaudeFiles: true,
			User:    filepath.Join("hooks", "harness.json"),
			Project: filepath.Join(grokDir, "hooks", "harness.json"),
		},
		FromProject: "not known (not installable here): it runs the project's own `.grok/hooks/*.json` and `.claude/settings.json` hooks beside the user's, as documented; whether a project's settings switch them off is not documented",
	}
}

// grokEvent reads Grok Build's snake_case event names (pre_tool_use: PreToolUse). A function,
// not a map: no start-up work in every hook.
func grokEvent(name string) (event.Name, bool) {
	ev := pascal(name)
	return ev, ev.Known()
}
