package dialect

import (
	"time"

	"github.com/hookkit/harness/lib/event"
)

// Codex is Codex CLI (../shared/protocol/clients/codex.md).
const Codex Client = "codex"

const codexDir = ".codex"

func init() {
	register(10, codex)
	detectBy(Codex,
		Mark{RankTranscript, TranscriptIn(codexDir)},
		// A turn id is Codex's (MessageDisplay, Claude Code's, has one too).
		Mark{RankField, func(s *Shape) bool { return s.TurnID.Exists() && s.Event.Str != string(event.MessageDisplay) }})
}

func codex() *Dialect {
	return &Dialect{
		Client: Codex, Title: "Codex CLI", Tested: "0.171.0", Short: "Codex",
		Events: names(event.PreToolUse, event.PermissionRequest, event.PostToolUse, event.PreCompact,
			event.PostCompact, event.SessionStart, event.SessionEnd, event.SubagentStart,
			event.SubagentStop, event.UserPromptSubmit, event.Stop),
		// Files are written with apply_patch, whose patch text names them.
		PatchWrites: true,
		// Codex asks no one on a hook's ask: it would run the call.
		NoAsk: true,
		// Exit 2 with an empty stderr, or a deny without a reason, is a failed hook to Codex:
		// the call runs. Every block the harness renders carries its reason.
		ReasonRequired: true,
		Aliases:        true, RegexpAliases: true, RegexpMatchers: true,
		DefaultTimeout: 600 * time.Second,
		Sources:        []string{"startup", "resume", "clear", "compact"},
		Files: Files{
			// Codex runs a hook only when config.toml beside hooks.json trusts its hash.
			Kind: TrustedHookGroups, Binary: "codex", Dir: codexDir, Env: "CODEX_HOME", User: "hooks.json", Trust: "config.toml",
			NoProject:  "Codex's project hooks (.codex/) are documented but not verified, and would need the project trusted as well; install in user scope",
			NoSettings: "--client codex writes $CODEX_HOME/hooks.json and trusts it in $CODEX_HOME/config.toml: set CODEX_HOME instead of --settings",
			TopKeys:    []string{"hooks", "description"},
			Switches: []Switch{
				{File: codexDir + "/config.toml", Key: "features.codex_hooks", Off: "false", When: "once the user trusts the project"},
				{File: codexDir + "/config.toml", Key: "features.hooks", Off: "false", When: "once the user trusts the project"},
			},
		},
		FromProject: "switch them off once the user trusts the project (`[features] codex_hooks = false` or `hooks = false` in `.codex/config.toml`); " +
			"not set their environment or break them (a malformed `.codex/config.toml` stops Codex)",
		Transcript: Transcript{Format: "codex", Glob: ".codex/sessions/*/*/*/rollout-*.jsonl"},
	}
}
