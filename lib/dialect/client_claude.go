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
		Off: []OffSetting{{"disableAllHooks", true}},
		Switches: []Switch{
			{File: ".claude/settings.json", Key: "disableAllHooks", Off: "true"},
			{File: ".claude/settings.local.json", Key: "disableAllHooks", Off: "true"},
		},
	},
	FromProject: "switch them off (`\"disableAllHooks\": true` in `.claude/settings*.json`; not a managed install's); " +
		"set their `env` (harness's hooks take their home from their command line)",
	Transcript: Transcript{Format: "claude", Glob: ".claude/projects/*/*.jsonl"},
}

func init() { register(0, func() *Dialect { return claude }) }
