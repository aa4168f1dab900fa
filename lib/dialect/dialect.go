package dialect

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// Client names a hook client, as written on a hook's command line (--client=codex). Each
// client's constant, and everything about it, is declared in its own file, client_<name>.go.
type Client string

// Dialect is the declaration of one client: what it does differently from Claude Code (names,
// units, the answers it honours), where its hook files live and what kind each is, what it
// cannot do and what the dialect does instead. The zero differences are Claude Code's own. The
// installer, linter, doctor, canaries and status read these fields; none of them names a client.
type Dialect struct {
	Client Client
	// Title and Tested name the client and the version its real-client tests run.
	Title, Tested string
	// Short is the client's name in a sentence ("Codex skips it"); Title when empty.
	Short string
	// Identity: the client speaks Claude Code's protocol itself, so nothing is translated and
	// the installer's manifest records its files under no client name.
	Identity bool
	// Events maps each Claude Code event the client fires to the client's name for it. An event
	// missing here is one the client does not have (the installer leaves it out).
	Events map[event.Name]string
	// Unwired are events the client fires that the installer leaves out all the same, each
	// with the reason (said by install, and warned about by validate where a file has one).
	Unwired map[event.Name]string
	// Dropped are events whose hooks the client runs but whose output it never hands the model,
	// each with the reason: the installer still wires them, and says so where a hook's context
	// is lost.
	Dropped map[event.Name]string
	// Tools maps the client's tool names to Claude Code's; Args renames tool_input fields, per
	// Claude Code tool, from the client's names to Claude Code's.
	Tools map[string]string
	Args  map[string]map[string]string
	// ClaudeToolNames: the client sends Claude Code's tool names in Claude Code's format (Tools
	// are the names of its own format), so Payload keeps them.
	ClaudeToolNames bool
	// PatchWrites: the client writes files with a patch tool (apply_patch: {"command": the
	// patch text}), so Payload renders a Write or an Edit as one.
	PatchWrites bool
	// MCPUnprefixed: the client names an MCP server's tool server__tool, without Claude Code's
	// mcp__ prefix: In adds it, and a matcher's mcp__ entries are written without it
	// (mcp__.* as .*__.*).
	MCPUnprefixed bool
	// RunnerEnv is a variable the client sets on every hook it starts ("" when none is known):
	// where it is set, a payload in Claude Code's own shape may be this client's.
	RunnerEnv string
	// Native is the client's own hook format, which it may send too (nil when it has none).
	Native *Native
	// NativeOnly: the client sends its own format only, so Payload renders that (its event key
	// and names, its fields) rather than Claude Code's shape with the client's names.
	NativeOnly bool
	// Dir names the shell tool's argument that runs the command in another directory; the
	// command is judged as `cd DIR && command`.
	Dir string
	// Millis: the client reads a hook's timeout in milliseconds.
	Millis bool
	// LegacyMillis: a timeout of 1000 or more is read as milliseconds (a legacy unit).
	LegacyMillis bool
	// DefaultTimeout is how long the client lets a handler without a timeout run.
	DefaultTimeout time.Duration
	// NoAsk: the client runs a call whose hook answered ask (or cannot ask headless), so an
	// ask is rendered as a block that says how to approve.
	NoAsk bool
	// ReasonRequired: the client takes a block without a reason (exit 2 with nothing on
	// stderr, a deny without permissionDecisionReason) for a failed hook, and runs the call.
	ReasonRequired bool
	// JSONDeny: a PreToolUse block is a JSON deny at exit 0 (exit 2 loses the reason).
	JSONDeny bool
	// JSONPromptBlock: a prompt is blocked only by {"decision":"block"} at exit 0.
	JSONPromptBlock bool
	// TopContext: context is read from a top-level additionalContext only.
	TopContext bool
	// TopDecision: a block is a top-level {"decision":"deny","reason"}; hookSpecificOutput's
	// permissionDecision is ignored.
	TopDecision bool
	// TopAsks are the top-level decisions the client reads as asking the user (with
	// TopDecision); another value but deny, block and allow decides nothing.
	TopAsks []string
	// TopAllow: with TopDecision, a PreToolUse answer without a decision is malformed and the
	// client fails closed on it (it asks), so an allow is written out: {"decision":"allow"}.
	TopAllow bool
	// ExitTwoDenies: with TopDecision, exit 2 denies even when stdout is JSON that decides
	// nothing (Gemini CLI reads such JSON alone).
	ExitTwoDenies bool
	// OnlyToolBlocks: only PreToolUse can block; the answer of a hook on any other event is
	// ignored (a prompt cannot be stopped), whatever it says.
	OnlyToolBlocks bool
	// AskAs is the top-level decision an ask is rendered as (with TopDecision, where the client
	// can ask): the one that asks every time.
	AskAs string
	// ExactSource: SessionStart matchers are compared whole, so one group per source.
	ExactSource bool
	// Anchored: tool matchers are unanchored regular expressions, so the installer anchors them.
	Anchored bool
	// ToolMatchersOnly: the client reads a matcher on tool events only and rejects one on the
	// others, so none is written there.
	ToolMatchersOnly bool
	// RegexpMatchers: the client compiles a tool matcher as a regular expression, and one that
	// does not compile is an error in its file.
	RegexpMatchers bool
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
	// NoStar: "*" is no matcher the client reads (an invalid regular expression, which selects
	// nothing), so the installer writes none where Claude Code's wiring says "*".
	NoStar bool
	// PromptParts: UserPromptSubmit's prompt is a list of content parts ([{"type":"text",
	// "text":...}]), joined into Claude Code's string.
	PromptParts bool
	// ErrorObject: PostToolUseFailure's error is an object ({code, message, retryable}), whose
	// message is Claude Code's string.
	ErrorObject bool
	// PlainPromptContext: a UserPromptSubmit hook's stdout reaches the model verbatim (Claude
	// Code's JSON is not unpacked), so context is written as the plain text.
	PlainPromptContext bool
	// StartOnPrompt: the client drops SessionStart's output (Dropped) but hands the model a
	// UserPromptSubmit hook's, so a context hook of SessionStart is wired on UserPromptSubmit
	// instead, and the runtime runs it as a SessionStart ("startup") at the session's first
	// prompt only: the briefing goes to the model once, with that prompt.
	StartOnPrompt bool
	// OnlyDeny: a block is exit 2 or permissionDecision "deny", on every event; a top-level
	// decision is ignored.
	OnlyDeny bool
	// MaxTimeout is the longest timeout, in seconds, the client's file accepts (0: no limit).
	MaxTimeout int
	// Sequential: the hooks of one event run one after another and the first deny stops the
	// rest, so record hooks go first.
	Sequential bool
	// Sources are the SessionStart sources the client sends.
	Sources []string
	// Source is the SessionStart source a payload that names none is read as ("" when the
	// client always names one).
	Source string
	// Snake: event names and answer fields are snake_case (pre_tool_use, hook_specific_output),
	// and only exit 2 blocks (Claude Code's camelCase JSON is not read).
	Snake bool
	// Files says where the client's hook files live and what kind of file each is.
	Files Files
	// FromProject says what a project's own files can do to the hooks installed for the user
	// (switch them off, set their environment, break their file), as the client's real-client
	// test shows it (tests/clients, Test<Client>ProjectFiles), or where the answer comes from
	// when the client does not run here. The README's client matrix shows it word for word.
	FromProject string
	// Transcript names the reader of the client's own session transcripts.
	Transcript Transcript
	// Flags are the install flags that belong to this client alone.
	Flags []string
	// FileEvents are the events the client's file takes, by their names there, where its
	// documentation names more than Events (newer versions' too): what a hook on each can do.
	FileEvents func() map[string]FileEvent
}

// FileEvent is what a client's documentation says of one event of its file: whether a hook
// there can block, and whether its hooks come in matcher groups (tool events) or as a plain
// list.
type FileEvent struct{ CanBlock, ToolMatched bool }

// FileKind is the kind of file a client keeps its hooks in; lib/settings edits each kind.
type FileKind string

// The kinds of hook file.
const (
	// HookGroups is Claude Code's JSON: {"hooks": {"Event": [groups]}}.
	HookGroups FileKind = "hook groups"
	// TrustedHookGroups is HookGroups whose every handler must also be trusted, by its hash,
	// in a TOML file beside it (Companion), or the client skips it without a word.
	TrustedHookGroups FileKind = "trusted hook groups"
	// TOMLBlock is a TOML file of the user's, into which the installer appends one block of
	// tables it owns.
	TOMLBlock FileKind = "TOML block"
	// YAMLBlock is a YAML file of the user's, into which the installer puts one hooks block,
	// under a named agent.
	YAMLBlock FileKind = "YAML block"
	// TOMLHooks is a TOML file of the user's whose top-level array of [[hooks]] tables (event,
	// matcher, command, timeout: one handler each) the installer appends one block of its own
	// to; one invalid table makes the client drop every one, the user's own included.
	TOMLHooks FileKind = "TOML hooks"
	// PluginFile is a file the installer owns whole: a plugin (Files.Template, rendered with
	// the hooks' argument vectors) for a client that has no command hooks, only plugins.
	PluginFile FileKind = "plugin file"
)

// Files says where a client's hook files are and what kind of file each is.
type Files struct {
	Kind FileKind
	// Binary is the client's command, looked up on PATH (or its folder, or its project file,
	// looked for) to tell whether it is installed; "" when the install does not ask.
	Binary string
	// Dir is the client's configuration folder under the home directory, and Env a variable
	// that moves it.
	Dir, Env string
	// User is the user's hook file, relative to Dir ("" when the client has none; NoUser
	// says why).
	User, NoUser string
	// Project is the project's hook file, relative to the project ("" when the client reads no
	// project file of its own; NoProject says why). Local is a project file kept out of version
	// control ("" when none).
	Project, NoProject, Local string
	// ClaudeFiles: the client also runs the hooks of Claude Code's own settings files (user
	// and project), so a hook installed for Claude Code runs there too.
	ClaudeFiles bool
	// Trust is the TOML file beside the hook file that trusts its handlers (TrustedHookGroups).
	Trust string
	// DefaultScope is the scope an install takes when none is named ("user" when empty).
	DefaultScope string
	// NoSettings says why --settings FILE cannot name the file ("" when it can).
	NoSettings string
	// Paste: the file is the user's own and has no fixed place: without --settings the
	// installer prints the block to paste into it, with these instructions, and writes nothing.
	Paste string
	// Switches are the settings of a project's own files that switch off hooks the user
	// installed (seen in the real client): doctor and status warn where the project they run in
	// sets one, and WriteProtector asks before the agent writes such a file (lib/paths).
	Switches []Switch
	// TopKeys are the only top-level keys the client accepts in the file (any when nil): with
	// another one it drops the whole file and runs no hook.
	TopKeys []string
	// SnakeEvents: the file's event keys are snake_case (pre_tool_use).
	SnakeEvents bool
	// Off are the settings that switch every hook of the client off when one of its JSON
	// files (the user's or a project's) sets them: the harness's hooks go with the rest.
	Off []OffSetting
	// Template names the plugin lib/settings renders for a PluginFile; PluginTools are the
	// client's own tools with no Claude Code name, which the plugin must not take for an MCP
	// server's (those it also calls mcp__<name>).
	Template    string
	PluginTools []string
}

// OffSetting is a setting of a hook file that turns all of a client's hooks off: the JSON path
// and the value that does it.
type OffSetting struct {
	Path  string
	Value bool
}

// OffIn says which of the client's Off settings a JSON document sets ("" when none), as it
// reads in the file: "disableAllHooks": true.
//
// A key given twice is read both ways: JSON.parse and most readers keep the last, some the
// first ({"disableAllHooks": false, "disableAllHooks": true} switches the hooks off).
func (f Files) OffIn(doc []byte) string {
	for _, s := range f.Off {
		for _, v := range every(gjson.ParseBytes(doc), s.Path) {
			if (v.Type == gjson.True || v.Type == gjson.False) && v.Bool() == s.Value {
				return fmt.Sprintf("%q: %v", s.Path, s.Value)
			}
		}
	}
	return ""
}

// every is each value at a dotted path of an object, following every key given more than once.
func every(doc gjson.Result, path string) []gjson.Result {
	key, rest, more := strings.Cut(path, ".")
	var out []gjson.Result
	doc.ForEach(func(k, v gjson.Result) bool {
		if k.String() == key {
			if more {
				out = append(out, every(v, rest)...)
			} else {
				out = append(out, v)
			}
		}
		return true
	})
	return out
}

// Switch is a setting of a project's file that switches off hooks the user installed.
type Switch struct {
	// File is the file, relative to the project; Key the setting, a dotted path in it (JSON,
	// or TOML for a .toml file).
	File, Key string
	// Off is the value, as JSON, that switches every hook off ("true", "false"); "" for a list
	// each of whose entries switches off the hook it names (any entry is warned about).
	Off string
	// When says when the client reads the file ("" when always).
	When string
}

// QuotedTopKeys writes TopKeys for a sentence: "hooks" and "description".
func (f Files) QuotedTopKeys() string {
	q := make([]string, len(f.TopKeys))
	for i, k := range f.TopKeys {
		q[i] = fmt.Sprintf("%q", k)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// Transcript is the reader of a client's own session transcripts.
type Transcript struct {
	// Format is lib/transcript's name for the format ("" when it reads none of this client's,
	// so the hooks that read a transcript are left out).
	Format string
	// Glob is where the client writes them, under the home directory.
	Glob string
	// Path is where the client writes a session's transcript, for a client whose payloads name
	// none (no transcript_path): In fills transcript_path with it ("" when it cannot tell).
	// nil when the payloads name it.
	Path func(session, cwd string) string
	// NoAgents says why a subagent's own transcript cannot be read ("" when it can): the
	// hooks that read one (AgentOutputCapture) are left out.
	NoAgents string
}

// Native is a client's own hook format, beside Claude Code's: its payloads name their event
// with another key, in the client's words, and their fields in camelCase.
type Native struct {
	// EventKey is the key that names the event.
	EventKey string
	// Event returns the Claude Code event for the format's name of it (a function: no map is
	// built at a hook's start).
	Event func(name string) (event.Name, bool)
	// Name returns the format's name for a Claude Code event (for Payload, with NativeOnly).
	Name func(ev event.Name) string
	// Infer returns the event of a payload of a format that names none (EventKey ""), from its
	// fields.
	Infer func(payload gjson.Result) (event.Name, bool)
	// Fields renames the format's fields to Claude Code's, in order: gjson paths
	// (toolCall.name), each moved to Claude Code's key.
	Fields [][2]string
	// Hint says what to do when a payload names no event at all.
	Hint string
}

// registry holds each client's declaration, built on first use: a hook run by Claude Code never
// pays for the maps of the others at start-up.
var registry []entry

type entry struct {
	order int
	build func() *Dialect
}

// register adds a client's declaration; order places it in Names (Claude Code first).
func register(order int, build func() *Dialect) { registry = append(registry, entry{order, build}) }

var all = sync.OnceValue(func() []*Dialect {
	es := slices.Clone(registry)
	slices.SortStableFunc(es, func(a, b entry) int { return a.order - b.order })
	out := make([]*Dialect, len(es))
	for i, e := range es {
		out[i] = e.build()
	}
	return out
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

// snakeName is a Claude Code event's name in snake_case (PreToolUse: pre_tool_use).
func snakeName(ev event.Name) string {
	var b strings.Builder
	for i, r := range string(ev) {
		if 'A' <= r && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
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
	if rest, ok := strings.CutPrefix(claudeTool, "mcp__"); ok {
		if d.MCPUnprefixed {
			if rest == ".*" {
				rest = ".*__.*"
			}
			return []string{rest}
		}
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

// Name is a short name of the client for a sentence.
func (d *Dialect) Name() string {
	if d.Short != "" {
		return d.Short
	}
	return d.Title
}

// Recorded is the client's name in the installer's manifest: "" for Claude Code's own files.
func (d *Dialect) Recorded() string {
	if d.Identity {
		return ""
	}
	return string(d.Client)
}

// Unwire says why the installer leaves a hook on event ev out for the client ("" when it
// wires it).
func (d *Dialect) Unwire(ev event.Name) string {
	if why, ok := d.Unwired[ev]; ok {
		return why
	}
	if _, ok := d.Event(ev); !ok {
		return d.Title + " has no such event"
	}
	return ""
}
