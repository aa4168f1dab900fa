package dialect

import "time"

// Claude is Claude Code, whose protocol every hook speaks: nothing to translate.
const Claude Client = "claude"

// claude is built at start-up, unlike the others: it is the dialect of every hook run without
// --client, and has no maps.
var claude = &Dialect{
	Client: Claude, Title: "Claude Code", Tested: "2.1.332",
	Identity: true, Aliases: true,
	// The install features of Claude Code's alone: a managed drop-in, a Harness-style import.
	Flags:          []string{"from", "managed", "print", "prefix", "managed-dir"},
	DefaultTimeout: 600 * time.Second,
	Files: Files{
		// No Binary: Claude Code's settings are as often written before it is installed as after.
		Kind: HookGroups, Dir: ".claude", Env: "CLAUDE_CONFIG_DIR", User: "settings.json",
		Project: ".claude/settings.json", Local: ".claude/settings.local.json",
		Off: []Switch{{"disableAllHooks", true}},
	},
	Transcript: Transcript{Format: "claude", Glob: ".claude/projects/*/*.jsonl"},
}

func init() { register(0, func() *Dialect { return claude }) }
