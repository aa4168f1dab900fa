package dialect

import (
	"time"

	"github.com/hookkit/harness/lib/event"
)

// VTCode is VT Code: not installable here, so its dialect rests on its documented hooks
// (Claude Code's payloads and answers, its own vtcode.toml).
const VTCode Client = "vtcode"

func init() { register(70, vtcode) }

func vtcode() *Dialect {
	return &Dialect{
		// Claude Code's payloads, tool names and answers (an ask prompts; a timed-out hook
		// blocks); only the file differs: [hooks.lifecycle] in vtcode.toml, matchers anchored
		// by the client.
		Client: VTCode, Title: "VT Code", Tested: "documented hooks (not installable here)",
		Events: names(event.SessionStart, event.SessionEnd, event.UserPromptSubmit,
			event.PreToolUse, event.PostToolUse),
		Aliases:        true,
		DefaultTimeout: 60 * time.Second,
		Sources:        []string{"startup", "resume", "clear", "compact"},
		Files: Files{
			Kind: TOMLBlock, Binary: "vtcode", Project: "vtcode.toml", DefaultScope: "project", SnakeEvents: true,
			NoUser: "VT Code reads its hooks from the project's vtcode.toml; use --scope project (the default) or --settings FILE",
		},
		FromProject: "everything: the hooks are in the project's own `vtcode.toml` (not run here)",
	}
}
