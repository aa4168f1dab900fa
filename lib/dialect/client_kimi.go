package dialect

import (
	"os"
	"path/filepath"
	"strings"
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
		// SessionStart's output never reaches the model, a prompt hook's does (verbatim, in the
		// first user message): the briefing goes with the session's first prompt.
		Dropped: map[event.Name]string{
			event.SessionStart: "Kimi Code drops SessionStart hooks' output, so its context never reaches the model",
		},
		StartOnPrompt: true,
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
		// No transcript_path in its payloads: the session's wire file is found by Kimi's own
		// layout. SubagentStop names the agent but not its wire file.
		Transcript: Transcript{Format: "kimi", Glob: ".kimi-code/sessions/*/*/agents/main/wire.jsonl", Path: kimiTranscript,
			NoAgents: "Kimi Code's SubagentStop names neither the subagent's id nor its transcript"},
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

// kimiTranscript is the main agent's wire file of a session: $KIMI_CODE_HOME (or ~/.kimi-code)
// /sessions/<work dir key>/<session>/agents/main/wire.jsonl.
func kimiTranscript(session, cwd string) string {
	if session == "" || cwd == "" || session == "." || session == ".." || strings.ContainsAny(session, `/\`) {
		return ""
	}
	home := os.Getenv("KIMI_CODE_HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		home = filepath.Join(h, kimiDir)
	}
	key := kimiWorkDirKey(cwd)
	if key == "" {
		return ""
	}
	return filepath.Join(home, "sessions", key, session, "agents", "main", "wire.jsonl")
}

// Sum256Hex is the SHA-256 of a text in hex, which Kimi Code's folder names hold. lib/transcript
// sets it: only the hooks that read transcripts link crypto, whose initialisation is a
// measurable part of a guard's start-up. Unset, no Kimi transcript path is filled (no guard
// reads one).
var Sum256Hex func(string) string

// kimiWorkDirKey is Kimi Code's folder name for a work directory (encodeWorkDirKey):
// wd_<slug of its last element, 40 at most>_<the first 12 hex digits of the path's SHA-256>;
// "" where Sum256Hex is not linked.
func kimiWorkDirKey(dir string) string {
	norm := strings.TrimRight(strings.ReplaceAll(dir, `\`, "/"), "/")
	name := norm[strings.LastIndexByte(norm, '/')+1:]
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' {
			b.WriteRune(c)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	slug := strings.Trim(b.String(), "-")
	if len(slug) > 40 {
		slug = strings.Trim(slug[:40], "-")
	}
	if slug == "" || slug == "." || slug == ".." {
		slug = "workspace"
	}
	if Sum256Hex == nil {
		return ""
	}
	return "wd_" + slug + "_" + Sum256Hex(norm)[:12]
}
