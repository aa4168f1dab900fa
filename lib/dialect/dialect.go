package dialect

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hookkit/harness/lib/event"
)

// Client names a hook client, as written on a hook's command line (--client=codex).
type Client string

// The clients harness speaks to.
const (
	Claude  Client = "claude"
	Codex   Client = "codex"
	Copilot Client = "copilot"
	Qwen    Client = "qwen"
	Droid   Client = "droid"
	Gemini  Client = "gemini"
	// DockerAgent is docker/docker-agent (v1.32.3): not installable here, so its dialect rests
	// on the payloads it was seen sending and its documented answers.
	DockerAgent Client = "docker-agent"
	// VTCode is VT Code: not installable here, so its dialect rests on its documented hooks
	// (Claude Code's payloads and answers, its own vtcode.toml).
	VTCode Client = "vtcode"
)

// Dialect is what one client does differently from Claude Code: names, units and the answers
// it honours. The zero differences are Claude Code's own.
type Dialect struct {
	Client Client
	// Title and Tested name the client and the version its real-client tests run.
	Title, Tested string
	// Events maps each Claude Code event the client fires to the client's name for it. An event
	// missing here is one the client does not have (the installer leaves it out).
	Events map[event.Name]string
	// Tools maps the client's tool names to Claude Code's; Args renames tool_input fields, per
	// Claude Code tool, from the client's names to Claude Code's.
	Tools map[string]string
	Args  map[string]map[string]string
	// Dir names the shell tool's argument that runs the command in another directory; the
	// command is judged as `cd DIR && command`.
	Dir string
	// Millis: the client reads a hook's timeout in milliseconds.
	Millis bool
	// NoAsk: the client runs a call whose hook answered ask (or cannot ask headless), so an
	// ask is rendered as a block that says how to approve.
	NoAsk bool
	// JSONDeny: a PreToolUse block is a JSON deny at exit 0 (exit 2 loses the reason).
	JSONDeny bool
	// JSONPromptBlock: a prompt is blocked only by {"decision":"block"} at exit 0.
	JSONPromptBlock bool
	// TopContext: context is read from a top-level additionalContext only.
	TopContext bool
	// TopDecision: a block is a top-level {"decision":"deny","reason"}; hookSpecificOutput's
	// permissionDecision is ignored.
	TopDecision bool
	// ExactSource: SessionStart matchers are compared whole, so one group per source.
	ExactSource bool
	// Anchored: tool matchers are unanchored regular expressions, so the installer anchors them.
	Anchored bool
	// Aliases: tool matchers may use Claude Code's tool names; without them the installer
	// writes the client's own.
	Aliases bool
	// ListEntries: a tool matcher with a | that starts with neither ^ nor ( is a list first:
	// each entry is compared whole with the tool's name and its aliases, and only when none is
	// equal is the whole tried as a regular expression, on the tool's own name. A matcher that
	// starts with ^ or ( is a regular expression on the tool's own name only: it loses the
	// aliases, so the installer writes such a client the list (Qwen Code's matchesHookPattern).
	ListEntries bool
	// RegexpAliases: a regular expression is tested on the tool's name and on each of its
	// Claude Code aliases, as an exact list is (Codex CLI's matcher_inputs: apply_patch is
	// also Write and Edit).
	RegexpAliases bool
	// Sequential: the hooks of one event run one after another and the first deny stops the
	// rest, so record hooks go first.
	Sequential bool
	// Sources are the SessionStart sources the client sends.
	Sources []string
	// Snake: event names and answer fields are snake_case (pre_tool_use, hook_specific_output),
	// and only exit 2 blocks (Claude Code's camelCase JSON is not read).
	Snake bool
}

// claude is Claude Code: nothing to translate.
var claude = &Dialect{Client: Claude, Title: "Claude Code", Tested: "2.1.332", Aliases: true}

// all builds the table on first use: a hook run by Claude Code never pays for its maps at
// start-up.
var all = sync.OnceValue(func() []*Dialect {
	return []*Dialect{
		claude,
		{
			Client: Codex, Title: "Codex CLI", Tested: "0.171.0",
			Events: names(event.PreToolUse, event.PermissionRequest, event.PostToolUse, event.PreCompact,
				event.PostCompact, event.SessionStart, event.SessionEnd, event.SubagentStart,
				event.SubagentStop, event.UserPromptSubmit, event.Stop),
			NoAsk: true, Aliases: true, RegexpAliases: true,
			Sources: []string{"startup", "resume", "clear", "compact"},
		},
		{
			Client: Copilot, Title: "GitHub Copilot CLI", Tested: "1.0.102",
			// PermissionRequest fires too, with Copilot's own payload (translated in); the
			// installer leaves it out, since Copilot denies the call when such a hook fails.
			Events: names(event.PreToolUse, event.PostToolUse, event.UserPromptSubmit,
				event.SessionStart, event.SessionEnd, event.Stop, event.PermissionRequest),
			Tools: map[string]string{"bash": "Bash", "create": "Write", "edit": "Edit", "view": "Read",
				"grep": "Grep", "glob": "Glob", "task": "Agent", "str_replace_editor": "Edit"},
			Args: map[string]map[string]string{
				"Write": {"path": "file_path", "file_text": "content"},
				"Edit":  {"path": "file_path", "old_str": "old_string", "new_str": "new_string"},
				"Read":  {"path": "file_path"},
			},
			JSONDeny: true, JSONPromptBlock: true, TopContext: true, Aliases: true, Sequential: true,
			Sources: []string{"new", "resume", "startup"},
		},
		{
			Client: Qwen, Title: "Qwen Code", Tested: "0.24.4",
			Events: names(event.PreToolUse, event.PostToolUse, event.PostToolUseFailure,
				event.PermissionRequest, event.PermissionDenied, event.UserPromptSubmit, event.SessionStart,
				event.SessionEnd, event.Stop, event.StopFailure, event.SubagentStart, event.SubagentStop,
				event.PreCompact, event.PostCompact, event.Notification),
			Tools: map[string]string{"run_shell_command": "Bash", "write_file": "Write", "edit": "Edit",
				"read_file": "Read", "notebook_edit": "NotebookEdit", "grep_search": "Grep", "glob": "Glob",
				"agent": "Agent", "task": "Agent"},
			Dir:     "directory",
			Aliases: true, ListEntries: true,
			Sources: []string{"startup", "resume", "clear", "compact"},
		},
		{
			Client: Droid, Title: "Factory droid", Tested: "0.225.2",
			Events: names(event.PreToolUse, event.PostToolUse, event.UserPromptSubmit, event.SessionStart,
				event.SessionEnd, event.Stop, event.SubagentStop, event.PreCompact, event.Notification),
			// MultiEdit and ApplyPatch are in the binary, not offered in the tested runs.
			Tools: map[string]string{"Execute": "Bash", "Create": "Write", "Edit": "Edit",
				"MultiEdit": "MultiEdit", "ApplyPatch": "apply_patch", "Read": "Read", "Grep": "Grep",
				"Glob": "Glob", "Task": "Agent"},
			Args: map[string]map[string]string{
				"Edit": {"old_str": "old_string", "new_str": "new_string", "change_all": "replace_all"},
			},
			NoAsk:   true,
			Sources: []string{"startup", "resume", "clear", "compact"},
		},
		{
			Client: Gemini, Title: "Gemini CLI", Tested: "0.61.0",
			Events: map[event.Name]string{
				event.PreToolUse: "BeforeTool", event.PostToolUse: "AfterTool",
				event.UserPromptSubmit: "BeforeAgent", event.Stop: "AfterAgent",
				event.PreCompact: "PreCompress", event.SessionStart: "SessionStart",
				event.SessionEnd: "SessionEnd", event.Notification: "Notification",
			},
			Tools: map[string]string{"run_shell_command": "Bash", "write_file": "Write", "replace": "Edit",
				"read_file": "Read", "glob": "Glob", "grep_search": "Grep", "web_fetch": "WebFetch",
				"google_web_search": "WebSearch"},
			Args: map[string]map[string]string{
				"Edit": {"allow_multiple": "replace_all"},
			},
			Dir:    "dir_path",
			Millis: true, NoAsk: true, TopDecision: true, ExactSource: true, Anchored: true,
			Sources: []string{"startup", "resume", "clear"},
		},
		{
			Client: DockerAgent, Title: "docker-agent", Tested: "v1.32.3-19-g0d76412a",
			// The events of the version whose payloads were captured; newer versions' snake_case
			// names (user_prompt_submit, stop, ...) are read too (claudeEvent).
			Events: map[event.Name]string{
				event.PreToolUse: "pre_tool_use", event.PostToolUse: "post_tool_use",
				event.SessionStart: "session_start", event.SessionEnd: "session_end",
			},
			Tools: map[string]string{"shell": "Bash", "write_file": "Write", "edit_file": "MultiEdit",
				"read_file": "Read"},
			Args: map[string]map[string]string{
				"Bash":      {"cmd": "command"},
				"Write":     {"path": "file_path"},
				"MultiEdit": {"path": "file_path"},
				"Read":      {"path": "file_path"},
			},
			Dir:   "cwd",
			NoAsk: true, Snake: true,
		},
		{
			// Claude Code's payloads, tool names and answers (an ask prompts; a timed-out
			// hook blocks); only the file differs: [hooks.lifecycle] in vtcode.toml, matchers
			// anchored by the client.
			Client: VTCode, Title: "VT Code", Tested: "documented hooks (not installable here)",
			Events: names(event.SessionStart, event.SessionEnd, event.UserPromptSubmit,
				event.PreToolUse, event.PostToolUse),
			Aliases: true,
			Sources: []string{"startup", "resume", "clear", "compact"},
		},
	}
})

func names(evs ...event.Name) map[event.Name]string {
	m := make(map[event.Name]string, len(evs))
	for _, e := range evs {
		m[e] = string(e)
	}
	return m
}

// Lookup returns the dialect of a client by its name on the command line.
func Lookup(name string) (*Dialect, error) {
	for _, d := range all() {
		if string(d.Client) == name {
			return d, nil
		}
	}
	return nil, fmt.Errorf("unknown client %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the clients, Claude Code first.
func Names() []string {
	out := make([]string, len(all()))
	for i, d := range all() {
		out[i] = string(d.Client)
	}
	return out
}

// All returns every dialect, Claude Code first.
func All() []*Dialect { return append([]*Dialect(nil), all()...) }

// Event returns the client's name for a Claude Code event, and whether the client has it.
func (d *Dialect) Event(ev event.Name) (string, bool) {
	if d.Events == nil {
		return string(ev), true
	}
	n, ok := d.Events[ev]
	return n, ok
}

// claudeEvent returns the Claude Code event for the client's name (the name itself when the
// client uses Claude Code's).
func (d *Dialect) claudeEvent(name string) event.Name {
	for ev, n := range d.Events {
		if n == name {
			return ev
		}
	}
	if d.Snake {
		if ev := pascal(name); ev.Known() {
			return ev
		}
	}
	return event.Name(name)
}

// pascal turns a snake_case event name into Claude Code's (user_prompt_submit:
// UserPromptSubmit).
func pascal(name string) event.Name {
	var b strings.Builder
	for part := range strings.SplitSeq(name, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return event.Name(b.String())
}

// Timeout converts a timeout in seconds into the client's unit.
func (d *Dialect) Timeout(secs int) int {
	if d.Millis {
		return secs * 1000
	}
	return secs
}

// clientTools returns the client's names for a Claude Code tool (the name itself when the
// client has none of its own).
func (d *Dialect) clientTools(claudeTool string) []string {
	if strings.HasPrefix(claudeTool, "mcp__") {
		return []string{claudeTool} // MCP tools keep the server's names in every client
	}
	var out []string
	for _, c := range sortedKeys(d.Tools) {
		if d.Tools[c] == claudeTool {
			out = append(out, c)
		}
	}
	if claudeTool == "Write" || claudeTool == "Edit" {
		// A patch tool writes like Write and Edit do.
		for _, c := range sortedKeys(d.Tools) {
			if d.Tools[c] == "apply_patch" && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 && d.Tools == nil {
		out = append(out, claudeTool)
	}
	return out // a client with its own tool names and none for this one has no such tool
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// Default is Claude Code's dialect, which translates nothing.
func Default() *Dialect { return claude }
