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

func (t ToolInput) Bash() Bash {
	return Bash{t.s("command"), t.s("description"), t.Get("timeout").Int(), t.Get("run_in_background").Bool()}
}

func (t ToolInput) Write() Write { return Write{t.s("file_path"), t.s("content")} }

func (t ToolInput) Edit() Edit { return edit(t.Result, t.s("file_path")) }

func edit(r gjson.Result, path string) Edit {
	return Edit{path, r.Get("old_string").String(), r.Get("new_string").String(), r.Get("replace_all").Bool()}
}

// MultiEdit returns the edits; each carries the call's file_path.
func (t ToolInput) MultiEdit() MultiEdit {
	m := MultiEdit{FilePath: t.s("file_path")}
	for _, e := range t.Get("edits").Array() {
		m.Edits = append(m.Edits, edit(e, m.FilePath))
	}
	return m
}

func (t ToolInput) NotebookEdit() NotebookEdit {
	return NotebookEdit{t.s("notebook_path"), t.s("cell_id"), t.s("new_source"), t.s("cell_type"), t.s("edit_mode")}
}

func (t ToolInput) Read() Read {
	return Read{t.s("file_path"), t.Get("offset").Int(), t.Get("limit").Int()}
}

func (t ToolInput) Glob() Glob { return Glob{t.s("pattern"), t.s("path")} }

func (t ToolInput) Grep() Grep {
	return Grep{Pattern: t.s("pattern"), Path: t.s("path"), Glob: t.s("glob"), Type: t.s("type"),
		OutputMode: t.s("output_mode"), CaseInsensitive: t.Get("-i").Bool(), Multiline: t.Get("multiline").Bool()}
}

func (t ToolInput) WebFetch() WebFetch { return WebFetch{t.s("url"), t.s("prompt")} }

func (t ToolInput) WebSearch() WebSearch {
	return WebSearch{t.s("query"), stringList(t.Get("allowed_domains")), stringList(t.Get("blocked_domains"))}
}

func (t ToolInput) Agent() Agent {
	return Agent{t.s("prompt"), t.s("description"), t.s("subagent_type"), t.s("model"), t.Get("run_in_background").Bool()}
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
