package dialect

import (
	"path/filepath"
	"time"

	"github.com/hookkit/harness/lib/event"
)

// OpenCode is OpenCode (opencode-ai on npm). It has no command hooks: the installer writes a
// plugin into its plugin folder that hands each tool call to the hooks, started with an
// argument vector, and throws to block (lib/settings/plugins/opencode.js).
const OpenCode Client = "opencode"

func init() { register(80, opencode) }

func opencode() *Dialect {
	return &Dialect{
		Client: OpenCode, Title: "OpenCode", Tested: "1.18.33",
		// tool.execute.before and tool.execute.after, the plugin hooks every tool runs through,
		// MCP tools and the subagent's task included. The session events carry no prompt to
		// stop and read no answer, so nothing is wired on them.
		Events: names(event.PreToolUse, event.PostToolUse),
		Tools:  openCodeTools(),
		Args:   openCodeArgs(),
		Dir:    "workdir",
		// A plugin cannot ask the user: it lets the call run or throws. An ask is a block.
		NoAsk: true,
		// The plugin tests a matcher on the tool's own name, its Claude Code name and its
		// aliases (apply_patch is Write and Edit; a tool the client does not ship, an MCP
		// server's, is also mcp__<name>).
		Aliases: true, RegexpAliases: true,
		// The plugin runs an event's hooks one after another and stops at the first block: the
		// record goes first, or it never sees a blocked call.
		Sequential: true,
		// The plugin's own deadline for a hook that gives no timeout.
		DefaultTimeout: 60 * time.Second,
		Files: Files{
			Kind: PluginFile, Binary: "opencode", Dir: filepath.Join(".config", "opencode"),
			User:      filepath.Join("plugins", "harness.js"),
			NoProject: "a project's .opencode/plugins runs only while that project is open; install in user scope, which every project gets",
			Template:  "opencode.js",
			PluginTools: []string{"apply_patch", "batch", "invalid", "list", "lsp", "plan_exit", "question",
				"skill", "todoread"},
		},
		FromProject: "not switch the plugin off (`\"plugin\": []`); its own plugins run after it, and find a judged call's arguments frozen",
	}
}

// openCodeTools are OpenCode's built-in tools by Claude Code's names. apply_patch keeps its
// name: its patchText is Codex's patch, which the hooks read as apply_patch's command.
func openCodeTools() map[string]string {
	return map[string]string{"bash": "Bash", "write": "Write", "edit": "Edit", "read": "Read",
		"glob": "Glob", "grep": "Grep", "task": "Agent", "webfetch": "WebFetch", "todowrite": "TodoWrite"}
}

func openCodeArgs() map[string]map[string]string {
	return map[string]map[string]string{
		"Write":       {"filePath": "file_path"},
		"Edit":        {"filePath": "file_path", "oldString": "old_string", "newString": "new_string", "replaceAll": "replace_all"},
		"Read":        {"filePath": "file_path"},
		"apply_patch": {"patchText": "command"},
	}
}
