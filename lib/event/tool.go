package event

import (
	"strings"

	"github.com/tidwall/gjson"
)

// ToolInput is a tool call's tool_input. The typed accessors read the built-in tools' fields;
// Raw and Get reach everything else, including MCP tools' arguments.
type ToolInput struct{ gjson.Result }

// Bash is the input of the Bash (and PowerShell) tool.
type Bash struct {
	Command         string
	Description     string
	TimeoutMS       int64
	RunInBackground bool
}

type Write struct{ FilePath, Content string }

type Edit struct {
	FilePath   string
	OldString  string
	NewString  string
	ReplaceAll bool
}

type MultiEdit struct {
	FilePath string
	Edits    []Edit
}

type NotebookEdit struct {
	NotebookPath string
	CellID       string
	NewSource    string
	CellType     string
	EditMode     string
}

type Read struct {
	FilePath      string
	Offset, Limit int64
}

type Glob struct{ Pattern, Path string }

type Grep struct {
	Pattern, Path, Glob, Type, OutputMode string
	CaseInsensitive, Multiline            bool
}

type WebFetch struct{ URL, Prompt string }

type WebSearch struct {
	Query                          string
	AllowedDomains, BlockedDomains []string
}

// Agent is the input of the Agent tool (formerly Task).
type Agent struct {
	Prompt, Description, SubagentType, Model string
	RunInBackground                          bool
}

func (t ToolInput) s(k string) string { return t.Get(k).String() }

// need checks that the named fields are strings: a guard must not read a missing or mistyped
// field as "" and let the call through.
func (t ToolInput) need(fields ...string) error {
	for _, f := range fields {
		v := t.Get(f)
		if !v.Exists() || v.Type == gjson.Null {
			return &InputError{Reason: "tool_input." + f + " is missing"}
		}
		if v.Type != gjson.String {
			return &InputError{Reason: "tool_input." + f + " is " + kindOf(v) + ", not a string"}
		}
	}
	return nil
}

// Bash returns the Bash (or PowerShell) input; command must be a string.
func (t ToolInput) Bash() (Bash, error) {
	return Bash{t.s("command"), t.s("description"), t.Get("timeout").Int(), t.Get("run_in_background").Bool()}, t.need("command")
}

// Write returns the Write input; file_path and content must be strings.
func (t ToolInput) Write() (Write, error) {
	return Write{t.s("file_path"), t.s("content")}, t.need("file_path", "content")
}

// Edit returns the Edit input; file_path, old_string and new_string must be strings.
func (t ToolInput) Edit() (Edit, error) {
	return edit(t.Result, t.s("file_path")), t.need("file_path", "old_string", "new_string")
}

func edit(r gjson.Result, path string) Edit {
	return Edit{path, r.Get("old_string").String(), r.Get("new_string").String(), r.Get("replace_all").Bool()}
}

// MultiEdit returns the edits, each carrying the call's file_path; edits must be an array.
func (t ToolInput) MultiEdit() (MultiEdit, error) {
	m := MultiEdit{FilePath: t.s("file_path")}
	for _, e := range t.Get("edits").Array() {
		m.Edits = append(m.Edits, edit(e, m.FilePath))
	}
	if err := t.need("file_path"); err != nil {
		return m, err
	}
	if !t.Get("edits").IsArray() {
		return m, &InputError{Reason: "tool_input.edits is not an array"}
	}
	return m, nil
}

// NotebookEdit returns the NotebookEdit input; notebook_path must be a string.
func (t ToolInput) NotebookEdit() (NotebookEdit, error) {
	return NotebookEdit{t.s("notebook_path"), t.s("cell_id"), t.s("new_source"), t.s("cell_type"), t.s("edit_mode")}, t.need("notebook_path")
}

// Read returns the Read input; file_path must be a string.
func (t ToolInput) Read() (Read, error) {
	return Read{t.s("file_path"), t.Get("offset").Int(), t.Get("limit").Int()}, t.need("file_path")
}

// Glob returns the Glob input; pattern must be a string.
func (t ToolInput) Glob() (Glob, error) { return Glob{t.s("pattern"), t.s("path")}, t.need("pattern") }

// Grep returns the Grep input; pattern must be a string.
func (t ToolInput) Grep() (Grep, error) {
	return Grep{Pattern: t.s("pattern"), Path: t.s("path"), Glob: t.s("glob"), Type: t.s("type"),
		OutputMode: t.s("output_mode"), CaseInsensitive: t.Get("-i").Bool(), Multiline: t.Get("multiline").Bool()}, t.need("pattern")
}

// WebFetch returns the WebFetch input; url must be a string.
func (t ToolInput) WebFetch() (WebFetch, error) {
	return WebFetch{t.s("url"), t.s("prompt")}, t.need("url")
}

// WebSearch returns the WebSearch input; query must be a string.
func (t ToolInput) WebSearch() (WebSearch, error) {
	return WebSearch{t.s("query"), stringList(t.Get("allowed_domains")), stringList(t.Get("blocked_domains"))}, t.need("query")
}

// Agent returns the Agent (formerly Task) input; prompt must be a string.
func (t ToolInput) Agent() (Agent, error) {
	return Agent{t.s("prompt"), t.s("description"), t.s("subagent_type"), t.s("model"), t.Get("run_in_background").Bool()}, t.need("prompt")
}

func stringList(r gjson.Result) []string {
	var out []string
	for _, v := range r.Array() {
		out = append(out, v.String())
	}
	return out
}

// aliases are the legacy tool names Claude Code still matches to the renamed tools.
var aliases = map[string]string{
	"Task":               "Agent",
	"KillShell":          "TaskStop",
	"KillBash":           "TaskStop",
	"ListPeers":          "ListAgents",
	"Brief":              "SendUserMessage",
	"ListMcpResources":   "ListMcpResourcesTool",
	"ReadMcpResource":    "ReadMcpResourceTool",
	"ReadMcpResourceDir": "ReadMcpResourceDirTool",
	"ProposeGoal":        "SetGoal",
}

// CanonicalTool maps a legacy tool name (Task, KillShell, ...) to its current name.
func CanonicalTool(name string) string {
	if c, ok := aliases[name]; ok {
		return c
	}
	return name
}

// MCPTool splits an MCP tool name mcp__<server>__<tool>; ok is false for any other name.
func MCPTool(name string) (server, tool string, ok bool) {
	rest, found := strings.CutPrefix(name, "mcp__")
	if !found {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}
