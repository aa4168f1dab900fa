package dialect

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookkit/harness/lib/event"
)

// How each client reads a tool matcher, and the matcher the installer writes for it, so that
// a hook runs on every call of the client's tools that Claude Code's matcher names
// (../shared/protocol/clients/: Codex's matches_matcher and matcher_inputs, Qwen Code's
// matchesHookPattern, Gemini's unanchored RegExp).

// Matchers returns the matchers to write for a Claude Code matcher on an event: the client's
// tool names where it has no aliases, the unanchored list where an anchored one would lose the
// aliases, and one per source where SessionStart compares exactly.
func (d *Dialect) Matchers(ev event.Name, m string) []string {
	if d.NoStar && m == "*" {
		m = "" // no matcher selects everything there
	}
	if d.ToolMatchersOnly {
		if spec, ok := event.Lookup(ev); !ok || spec.Matcher != "tool_name" {
			return []string{""}
		}
	}
	if ev == event.SessionStart {
		if !d.ExactSource {
			return []string{m}
		}
		var out []string
		for _, s := range d.Sources {
			if m == "" || m == "*" || slices.Contains(strings.Split(m, "|"), s) {
				out = append(out, s)
			}
		}
		return out
	}
	spec, ok := event.Lookup(ev)
	if !ok || spec.Matcher != "tool_name" || m == "" || m == "*" {
		return []string{m}
	}
	entries, anchored := listEntries(m)
	if entries == nil {
		return []string{m} // a regular expression of its author's: as written
	}
	if d.Aliases {
		if anchored && d.ListEntries {
			return []string{strings.Join(entries, "|")}
		}
		return []string{m}
	}
	var out []string
	for _, name := range entries {
		for _, c := range d.clientTools(name) {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	if d.Anchored {
		return []string{"^(" + strings.Join(out, "|") + ")$"}
	}
	return []string{strings.Join(out, "|")}
}

// listEntries splits a matcher that lists tools, bare (Write|Edit|mcp__.*) or anchored
// (^(Write|Edit|mcp__.*)$), into its entries: names, and patterns of MCP tools; nil for any
// other regular expression.
func listEntries(m string) (entries []string, anchored bool) {
	if inner, ok := strings.CutPrefix(m, "^("); ok {
		if inner, ok = strings.CutSuffix(inner, ")$"); ok {
			m, anchored = inner, true
		}
	}
	for _, e := range strings.Split(m, "|") {
		if !listRE().MatchString(e) && !mcpRE().MatchString(e) {
			return nil, false
		}
		entries = append(entries, e)
	}
	return entries, anchored
}

// mcpRE is an entry that names MCP tools by a pattern (mcp__.*, mcp__github__.*): they keep
// the server's names in every client.
var mcpRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^mcp__[A-Za-z0-9_-]*(\.\*)?$`) })

// Selects says whether the client runs a group with matcher m for a call of the client's tool
// tool: "", "*" and ".*" select all; a list of names (with "|") selects those names, and
// Claude Code's names where the client takes them as aliases; anything else is an unanchored
// regular expression, tested on the tool's name (and its aliases, where the client does so).
func (d *Dialect) Selects(m, tool string) bool {
	if d.NoStar && m == "*" {
		return false
	}
	if m == "" || m == "*" || m == ".*" {
		return true
	}
	names := []string{tool}
	if d.Aliases {
		names = append(names, d.aliases(tool)...)
	}
	switch {
	case d.ListEntries && strings.Contains(m, "|") && !strings.HasPrefix(m, "^") && !strings.HasPrefix(m, "("):
		var entries []string
		for _, e := range strings.Split(m, "|") {
			if e = strings.TrimSpace(e); e != "" {
				entries = append(entries, e)
			}
		}
		for _, e := range entries {
			if e == "*" || e == ".*" || slices.Contains(names, e) {
				return true
			}
		}
		m = strings.Join(entries, "|")
	case d.ListEntries && slices.Contains(names, m):
		return true
	case !d.Anchored && listRE().MatchString(m):
		for _, name := range strings.Split(m, "|") {
			if slices.Contains(names, name) {
				return true
			}
		}
		return false
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return false
	}
	if !d.RegexpAliases {
		names = names[:1]
	}
	return slices.ContainsFunc(names, re.MatchString)
}

// listRE is compiled on first use: every hook links this package, and only doctor needs it.
var listRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$`) })

// aliases returns the Claude Code names a matcher may use for the client's tool: its own
// entry in Tools, and Write and Edit for a patch tool.
func (d *Dialect) aliases(tool string) []string {
	var out []string
	if c, ok := d.Tools[tool]; ok && c != tool && c != "apply_patch" {
		out = append(out, c)
	}
	if tool == "apply_patch" || d.Tools[tool] == "apply_patch" {
		out = append(out, "Write", "Edit")
	}
	return out
}
