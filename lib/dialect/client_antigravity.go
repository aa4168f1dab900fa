package dialect

import (
	"path/filepath"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// Antigravity is Antigravity CLI (Google's `agy`, Gemini CLI's successor). It cannot be
// installed here (a binary from Google's own site, in no registry this machine reaches), and its
// hooks guide ships inside the binary (builtin/skills/agy-customizations/docs/hooks.md), so its
// dialect rests on what others documented of it:
//
//   - https://developers.googleblog.com/an-important-update-transitioning-gemini-cli-to-antigravity-cli/
//     (the successor, and Gemini CLI kept for paid and API-key users);
//   - https://medium.com/google-cloud/a-developers-guide-to-agent-hooks-in-antigravity-cli-4c1440febd11
//     (its hooks: matchers as regular expressions, Gemini CLI's subsystem carried over);
//   - https://github.com/michaeldhopkins/safe-chains/blob/main/HARNESS-BEHAVIORS.md, run against
//     agy 1.1.2: ~/.gemini/config/hooks.json, matchers on the tool's name (run_command), the
//     payload (toolCall.args.CommandLine, workspacePaths, conversationId, transcriptPath), the
//     answer {"decision","reason"} with allow, deny, ask and force_ask (ask honours the user's
//     "always allow", force_ask asks every time; allow grants nothing), and a missing or
//     malformed decision failing closed (it asks);
//   - https://github.com/websentry-ai/setup/pull/104, run against agy 1.0.5: only PreToolUse
//     and PostToolUse fire (UserPromptSubmit and SessionStart are dropped), the payload
//     {conversationId, stepIdx, toolCall: {name, args}, transcriptPath, workspacePaths,
//     artifactDirectoryPath}, PostToolUse's adding error, tool names (run_command, view_file,
//     edit_file, write_to_file, ...) with PascalCase arguments;
//   - https://cisco-ai-defense.github.io/defenseclaw/docs/connectors/antigravity/ (the same
//     file, in Claude Code's nested {"hooks": {...}} form).
//
// Not documented, and chosen: which event a payload is (it names none): PostToolUse where it
// has an error member, PreToolUse otherwise; the meaning of the exit code: a block is the deny
// on stdout with exit 2 as well (Gemini CLI's block), so it is a deny whichever agy reads, and
// a prompt at worst; the timeout's unit: milliseconds (Gemini CLI's), so a reading in seconds
// only lengthens it, and each hook's own --timeout holds either way; the arguments of its file
// tools but CommandLine (TargetFile, CodeContent, AbsolutePath, as its sessions show them);
// the project's file (.agents/hooks.json in one source, .antigravitycli/hooks.json in
// another): project scope is refused; how several hooks' decisions on one call combine (a
// deny first, as in Gemini CLI, is assumed). The file's top level is said to be hook names in one
// source and {"hooks": ...} in others: {"hooks": {...}} is both (a hook named "hooks").
const Antigravity Client = "antigravity"

func init() {
	register(91, antigravity)
	// Its own format: a toolCall and a conversationId, no event name.
	detectBy(Antigravity, Mark{RankFormat - 1, func(s *Shape) bool {
		return !s.Event.Exists() && !s.HookEventName.Exists() && (s.ToolCall.Exists() || s.ConversationID.Exists())
	}})
}

func antigravity() *Dialect {
	return &Dialect{
		Client: Antigravity, Title: "Antigravity CLI", Short: "Antigravity",
		Tested: "documented hooks (not installable here)",
		Events: names(event.PreToolUse, event.PostToolUse),
		Tools: map[string]string{"run_command": "Bash", "view_file": "Read", "write_to_file": "Write",
			"replace_file_content": "Edit", "edit_file": "Edit", "multi_replace_file_content": "MultiEdit",
			"grep_search": "Grep", "find_by_name": "Glob", "read_url_content": "WebFetch", "search_web": "WebSearch"},
		Args: map[string]map[string]string{
			"Bash":      {"CommandLine": "command"},
			"Read":      {"AbsolutePath": "file_path"},
			"Write":     {"TargetFile": "file_path", "CodeContent": "content"},
			"Edit":      {"TargetFile": "file_path"},
			"MultiEdit": {"TargetFile": "file_path"},
		},
		Dir: "Cwd",
		Native: &Native{
			Infer: antigravityEvent,
			Fields: [][2]string{{"conversationId", "session_id"}, {"toolCall.name", "tool_name"},
				{"toolCall.args", "tool_input"}, {"transcriptPath", "transcript_path"}, {"workspacePaths.0", "cwd"}},
		},
		NativeOnly: true,
		// Its own decisions: a deny (on stdout, and exit 2), force_ask for an ask (ask would
		// honour an earlier "always allow"), and an allow said out loud: silence is a malformed
		// answer, on which it asks.
		TopDecision: true, TopAsks: []string{"ask", "force_ask"}, AskAs: "force_ask", TopAllow: true,
		OnlyToolBlocks: true,
		Anchored:       true, RegexpMatchers: true, Millis: true,
		DefaultTimeout: 60 * time.Second,
		Files: Files{
			Kind: HookGroups, Binary: "agy", Dir: filepath.Join(".gemini", "config"), User: "hooks.json",
			NoProject: "Antigravity CLI's project hook file is documented in two places (.agents/hooks.json, .antigravitycli/hooks.json); " +
				"install in user scope (~/.gemini/config/hooks.json), which every project gets",
		},
		FromProject: "not known (not installable here): a project's hook file (documented in two places) runs beside the user's; no switch that turns the user's off is documented",
	}
}

// antigravityEvent tells the event of a payload, which names none: PostToolUse's adds an error.
func antigravityEvent(p gjson.Result) (event.Name, bool) {
	if p.Get("error").Exists() {
		return event.PostToolUse, true
	}
	return event.PreToolUse, true
}
