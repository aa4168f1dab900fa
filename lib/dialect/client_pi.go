package dialect

import (
	"path/filepath"
	"time"

	"github.com/hookkit/harness/lib/event"
)

// Pi is pi (@mariozechner/pi-coding-agent on npm). It has no command hooks: the installer writes
// an extension into ~/.pi/agent/extensions that hands each tool call (its tool_call event) to
// the hooks, started with an argument vector, and returns {block, reason} to stop it
// (lib/settings/plugins/pi.js).
const Pi Client = "pi"

func init() { register(82, pi) }

func pi() *Dialect {
	return &Dialect{
		Client: Pi, Title: "pi", Tested: "0.73.1",
		// tool_call (can block) and tool_result, around every tool, an extension's included.
		// Its session events take no answer a hook could give, so nothing is wired on them.
		Events: names(event.PreToolUse, event.PostToolUse),
		// edit takes a list of replacements ({path, edits: [{oldText, newText}]}): Claude Code's
		// MultiEdit, whose file is all the hooks judge.
		Tools: map[string]string{"bash": "Bash", "write": "Write", "edit": "MultiEdit", "read": "Read",
			"grep": "Grep", "find": "Glob", "ls": "LS"},
		Args: map[string]map[string]string{
			"Write":     {"path": "file_path"},
			"MultiEdit": {"path": "file_path"},
			"Read":      {"path": "file_path"},
		},
		// An extension cannot ask the user headless: an ask is a block.
		NoAsk:   true,
		Aliases: true, RegexpAliases: true,
		// The extension runs an event's hooks one after another and stops at the first block.
		Sequential:     true,
		DefaultTimeout: 60 * time.Second,
		Files: Files{
			Kind: PluginFile, Binary: "pi", Dir: filepath.Join(".pi", "agent"), Env: "PI_CODING_AGENT_DIR",
			User:      filepath.Join("extensions", "harness.js"),
			NoProject: "a project's .pi/extensions runs only while that project is open; install in user scope, which every project gets",
			Template:  "pi.js",
		},
		FromProject: "not exclude the extension (`.pi/settings.json`); its own extensions run first, and the hooks judge what they made",
	}
}
