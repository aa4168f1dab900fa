package dialect

import (
	"os"
	"path/filepath"
	"time"

	"github.com/hookkit/harness/lib/event"
)

// Qoder is Qoder CLI. It cannot run here: every run, -p included, needs a Qoder account
// ("Not logged in · Please run /login"; a personal access token is exchanged over the
// network), so its dialect rests on its bundle, read (bundle/qodercli.js of
// @qoder-ai/qodercli 1.1.52: createBaseInput, firePreToolUseEvent, ...) and its own hook guide
// (bundle/builtin/hook-config/SKILL.md): Claude Code's payloads, tool names and answers, in
// ~/.qoder/settings.json and the project's .qoder/.
const Qoder Client = "qoder"

const qoderDir = ".qoder"

func init() {
	register(38, qoder)
	detectBy(Qoder, Mark{RankTranscript, TranscriptIn(qoderDir)},
		// A payload in Claude Code's shape in a hook Qoder started (the report: it reads
		// Claude Code's files too; its bundle sets QODER_PROJECT_DIR on every hook): answered in
		// Qoder's form, an ask as a block, which Claude Code reads as a block too.
		Mark{RankRunner, func(*Shape) bool { return os.Getenv(qoderRunner) != "" }})
}

// qoderRunner is set by Qoder CLI on every hook it starts (bundle/qodercli.js).
const qoderRunner = "QODER_PROJECT_DIR"

func qoder() *Dialect {
	return &Dialect{
		Client: Qoder, Title: "Qoder CLI", Short: "Qoder",
		Tested: "1.1.52, read from its bundle (it needs a Qoder login, so it does not run here)",
		Events: names(event.PreToolUse, event.PostToolUse, event.PostToolUseFailure,
			event.PermissionRequest, event.UserPromptSubmit, event.SessionStart, event.SessionEnd,
			event.Stop, event.StopFailure, event.SubagentStart, event.SubagentStop, event.PreCompact,
			event.PostCompact, event.Notification),
		// Claude Code's tool names and arguments (Bash, Write and Edit with file_path, ...). An
		// ask is handed to its permission flow, which was not seen headless: rendered as a
		// block, which every client that reads these files honours.
		NoAsk: true, Aliases: true, RunnerEnv: qoderRunner,
		DefaultTimeout: 60 * time.Second,
		Sources:        []string{"startup", "resume", "clear", "compact"},
		Files: Files{
			Kind: HookGroups, Binary: "qodercli", Dir: qoderDir, User: "settings.json", ClaudeFiles: true,
			Project: filepath.Join(".qoder", "settings.json"), Local: filepath.Join(".qoder", "settings.local.json"),
			// Hooks run when the merged settings say `disableAllHooks !== true &&
			// hooksConfig.enabled` (its bundle): either, in any of its files, turns every hook off.
			Off: []OffSetting{{"disableAllHooks", true}, {"hooksConfig.enabled", false}},
			Switches: []Switch{
				{File: filepath.Join(".qoder", "settings.json"), Key: "disableAllHooks", Off: "true"},
				{File: filepath.Join(".qoder", "settings.json"), Key: "hooksConfig.enabled", Off: "false"},
				{File: filepath.Join(".qoder", "settings.local.json"), Key: "disableAllHooks", Off: "true"},
				{File: filepath.Join(".qoder", "settings.local.json"), Key: "hooksConfig.enabled", Off: "false"},
			},
		},
		FromProject: "switch them off (`\"disableAllHooks\": true` or `hooksConfig.enabled: false` in `.qoder/settings*.json`; read from its bundle, not run)",
	}
}
