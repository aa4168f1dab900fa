package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/spell"
)

// Severity says whether a finding breaks a hook (Error) or only surprises (Warning).
type Severity string

const (
	// Error: a hook never runs, cannot start, or the file does not load as meant.
	Error Severity = "error"
	// Warning: the hooks run, but not as the file probably means.
	Warning Severity = "warning"
)

// Finding is one problem in one settings file.
type Finding struct {
	Severity Severity `json:"severity"`
	// Rule is a stable id such as "matcher.unanchored", for filtering and documentation.
	Rule string `json:"rule"`
	// Path is the JSON path of the value, e.g. hooks.PreToolUse[0].hooks[1].timeout ("" for the file).
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Report is every finding in one file, in document order.
type Report struct {
	File     string    `json:"file"`
	Findings []Finding `json:"findings"`
}

// Count returns how many findings have severity s.
func (r Report) Count(s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// File reads and checks the settings file at path; a file that cannot be read is an error finding.
func File(path string) Report {
	data, err := os.ReadFile(path)
	if err != nil {
		// The path is already the report's file name; keep only the reason.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return Report{File: path, Findings: []Finding{{Error, "file.unreadable", "", "cannot read the file: " + err.Error()}}}
	}
	return Bytes(path, data)
}

// Bytes checks data as the settings file called name. The name's directory stands in for
// ${CLAUDE_PROJECT_DIR} (its parent for a file inside .claude/) when commands are resolved.
func Bytes(name string, data []byte) Report {
	c := &checker{project: projectDir(name)}
	c.home, _ = os.UserHomeDir()
	c.settings(data)
	if c.findings == nil {
		c.findings = []Finding{}
	}
	return Report{File: name, Findings: c.findings}
}

// projectDir guesses the project root of a settings file: Claude Code runs hooks with
// CLAUDE_PROJECT_DIR set to the session's root, which for <root>/.claude/settings.json is <root>.
func projectDir(name string) string {
	dir, err := filepath.Abs(filepath.Dir(name))
	if err != nil {
		dir = filepath.Dir(name)
	}
	if filepath.Base(dir) == ".claude" {
		return filepath.Dir(dir)
	}
	return dir
}

type checker struct {
	project, home string
	findings      []Finding
}

func (c *checker) add(s Severity, rule, path, format string, args ...any) {
	c.findings = append(c.findings, Finding{s, rule, path, fmt.Sprintf(format, args...)})
}

func (c *checker) settings(data []byte) {
	if !gjson.ValidBytes(data) {
		c.syntax(data)
		return
	}
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		c.add(Error, "json.not-object", "", "settings must be a JSON object, not %s", kindOf(root))
		return
	}
	top := c.members(root, "")
	c.unknownKeys(top, "", topKeys, true, topElsewhere)
	if p, ok := get(top, "permissions"); ok && p.IsObject() {
		c.unknownKeys(c.members(p, "permissions"), "permissions", permissionKeys, true, nil)
	}
	hooks, ok := get(top, "hooks")
	if !ok || hooks.Type == gjson.Null {
		return
	}
	if !hooks.IsObject() {
		c.add(Error, "hooks.not-object", "hooks", "hooks must be an object of event names, not %s", kindOf(hooks))
		return
	}
	events := c.members(hooks, "hooks")
	if d, ok := get(top, "disableAllHooks"); ok && d.Type == gjson.True && len(events) > 0 {
		c.add(Warning, "hooks.disabled", "disableAllHooks", "disableAllHooks is true: none of the hooks in this file run (unless a higher settings level sets it false)")
	}
	for _, m := range events {
		c.event(m.key, m.val, join("hooks", m.key))
	}
}

// syntax reports where the JSON breaks. gjson only says that it does; encoding/json gives the
// offset, and the linter runs in the CLI, never in a per-call hook, so its cost does not matter.
func (c *checker) syntax(data []byte) {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		c.add(Error, "json.syntax", "", "not valid JSON")
		return
	}
	off := int(se.Offset)
	line, col := 1, 1
	for i := 0; i < off-1 && i < len(data); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	msg := se.Error()
	if off > 0 && off <= len(data) {
		switch b := data[off-1]; {
		case b == '}' || b == ']':
			if prev := lastNonSpace(data[:off-1]); prev == ',' {
				msg = "trailing comma before " + string(b) + " (JSON allows none)"
			}
		case b == '/' || b == '#':
			msg = "comments are not allowed in JSON"
		}
	}
	c.add(Error, "json.syntax", "", "invalid JSON at line %d, column %d: %s", line, col, msg)
}

func lastNonSpace(b []byte) byte {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
			return b[i]
		}
	}
	return 0
}

func (c *checker) event(name string, groups gjson.Result, path string) {
	spec, ok := event.Lookup(event.Name(name))
	if !ok {
		// Since 2.1.101 an unknown event no longer invalidates the file: its hooks just never run.
		c.add(Error, "event.unknown", path, "%s", unknownEvent(name))
		return
	}
	if !groups.IsArray() {
		c.add(Error, "event.not-array", path, "%s must be an array of matcher groups, not %s", name, kindOf(groups))
		return
	}
	var seen []handlerRef
	for i, g := range groups.Array() {
		gpath := index(path, i)
		if !g.IsObject() {
			c.add(Error, "group.not-object", gpath, "a matcher group must be an object with matcher and hooks, not %s", kindOf(g))
			continue
		}
		ms := c.members(g, gpath)
		c.unknownKeys(ms, gpath, groupKeys, false, groupElsewhere)
		sel := c.matcher(spec, ms, join(gpath, "matcher"))
		hs, ok := get(ms, "hooks")
		switch {
		case !ok:
			c.add(Error, "group.no-hooks", gpath, "the group has no hooks array, so it runs nothing")
			continue
		case !hs.IsArray():
			c.add(Error, "group.no-hooks", join(gpath, "hooks"), "hooks must be an array of handlers, not %s", kindOf(hs))
			continue
		}
		for j, h := range hs.Array() {
			if ref, ok := c.handler(spec, h, index(join(gpath, "hooks"), j)); ok {
				ref.sel = sel
				c.duplicate(spec, seen, ref)
				seen = append(seen, ref)
			}
		}
	}
}

// unknownEvent explains a name that is not an event, with the nearest real one.
func unknownEvent(name string) string {
	msg := fmt.Sprintf("%q is not a hook event, so its hooks never run", name)
	best, dist := "", 3
	for _, s := range event.All() {
		n := string(s.Name)
		if strings.EqualFold(n, strings.TrimSpace(name)) {
			return msg + "; did you mean " + n + "? (names are case-sensitive)"
		}
		if d := spell.Distance(strings.ToLower(name), strings.ToLower(n)); d < dist {
			best, dist = n, d
		}
	}
	if best != "" {
		return msg + "; did you mean " + best + "?"
	}
	return msg + " (run 'harness events' for the list)"
}

// required returns the fields a handler type cannot do without (REFERENCE.md §2.3), and
// whether the type exists.
func required(typ string) ([]string, bool) {
	switch typ {
	case "command":
		return []string{"command"}, true
	case "http":
		return []string{"url"}, true
	case "mcp_tool":
		return []string{"server", "tool"}, true
	case "prompt", "agent":
		return []string{"prompt"}, true
	}
	return nil, false
}

// handler checks one handler and returns what the duplicate check needs.
func (c *checker) handler(spec event.Spec, h gjson.Result, path string) (handlerRef, bool) {
	if !h.IsObject() {
		c.add(Error, "handler.not-object", path, "a handler must be an object with a type, not %s", kindOf(h))
		return handlerRef{}, false
	}
	ms := c.members(h, path)
	t, _ := get(ms, "type")
	typ := t.Str
	fields, known := required(typ)
	if t.Type != gjson.String || !known {
		what := "has no type"
		if t.Exists() {
			what = "has type " + t.Raw
		}
		c.add(Error, "handler.type", join(path, "type"), "the handler %s; use command, http, mcp_tool, prompt or agent", what)
		return handlerRef{}, false
	}
	c.unknownKeys(ms, path, handlerKnown(typ), false, handlerElsewhere)
	if why := unsupported(spec.Name, typ); why != "" {
		c.add(Error, "handler.unsupported", join(path, "type"), "%s", why)
	}
	for _, f := range fields {
		if v, ok := get(ms, f); !ok || v.Type != gjson.String || v.Str == "" {
			c.add(Error, "handler.missing-field", join(path, f), "a %s handler needs a non-empty %s string", typ, f)
		}
	}
	c.timeout(spec, typ, ms, join(path, "timeout"))
	c.condition(spec, ms, join(path, "if"))
	c.onFailure(spec, typ, ms, join(path, "onFailure"))
	if typ == "command" {
		c.command(ms, path)
		c.guard(spec, ms, path)
	}
	return handlerRef{key: dedupKey(typ, ms), path: path}, true
}

// unsupported says why a handler type cannot be used on an event (REFERENCE.md §2.4), or "".
func unsupported(ev event.Name, typ string) string {
	switch ev {
	case event.PreModelSwitch, event.PostModelSwitch:
		return "" // not documented: do not guess
	case event.PermissionRequest:
		if typ == "agent" {
			return "agent handlers cannot answer PermissionRequest (Claude Code rejects them); use prompt or command"
		}
		return ""
	case event.SessionStart, event.Setup:
		if typ == "command" || typ == "mcp_tool" {
			return ""
		}
		return fmt.Sprintf("%s takes only command and mcp_tool handlers, not %s", ev, typ)
	}
	if typ != "prompt" && typ != "agent" {
		return ""
	}
	switch ev {
	case event.PreToolUse, event.PermissionDenied, event.PostToolUse, event.PostToolUseFailure,
		event.PostToolBatch, event.Stop, event.SubagentStop, event.TaskCreated, event.TaskCompleted,
		event.TeammateIdle, event.UserPromptSubmit, event.UserPromptExpansion:
		return ""
	}
	return fmt.Sprintf("%s takes only command, http and mcp_tool handlers, not %s", ev, typ)
}

func (c *checker) timeout(spec event.Spec, typ string, ms []member, path string) {
	t, ok := get(ms, "timeout")
	if !ok || t.Type == gjson.Null {
		if typ == "prompt" || typ == "agent" {
			return // their defaults (30 s, 60 s) are short already
		}
		switch spec.Name {
		case event.SessionEnd:
			c.add(Warning, "timeout.missing", path, "no timeout: SessionEnd hooks share a 1.5 s budget that only settings timeouts raise (up to 60 s)")
		case event.UserPromptSubmit:
			c.add(Warning, "timeout.missing", path, "no timeout: the prompt waits up to the 30 s default; set the time this hook needs")
		case event.MessageDisplay:
			c.add(Warning, "timeout.missing", path, "no timeout: the default is 10 s; set the time this hook needs")
		default:
			c.add(Warning, "timeout.missing", path, "no timeout: a stuck hook holds Claude Code for the 600 s default; set the time it needs")
		}
		return
	}
	if t.Type != gjson.Number {
		c.add(Error, "timeout.invalid", path, "timeout must be a number of seconds, not %s %s", kindOf(t), t.Raw)
		return
	}
	v := t.Float()
	if v <= 0 {
		c.add(Error, "timeout.invalid", path, "timeout must be a positive number of seconds, not %s", t.Raw)
		return
	}
	if v >= 1000 {
		c.add(Warning, "timeout.milliseconds", path, "timeout is in seconds: %s is %s; did you mean %s?", t.Raw, minutes(v), num(v/1000))
	}
	if spec.Name == event.SessionEnd && v > 60 {
		c.add(Warning, "timeout.session-end", path,
			"SessionEnd hooks share one budget (1.5 s, raised by settings timeouts up to 60 s): this hook is cut off at 60 s, not %s s, unless CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS is set", t.Raw)
	}
}

func minutes(sec float64) string {
	if sec < 7200 {
		return num(sec/60) + " minutes"
	}
	return num(sec/3600) + " hours"
}

// num prints a number with at most one decimal.
func num(f float64) string {
	return strconv.FormatFloat(float64(int64(f*10+0.5))/10, 'f', -1, 64)
}

// toolEvent reports whether ev is one of the five events whose matcher sees a tool name and
// where "if" is evaluated.
func toolEvent(ev event.Name) bool {
	spec, _ := event.Lookup(ev)
	return spec.Matcher == "tool_name"
}

func (c *checker) condition(spec event.Spec, ms []member, path string) {
	v, ok := get(ms, "if")
	if !ok {
		return
	}
	if v.Type != gjson.String {
		c.add(Error, "if.invalid", path, "if must be one permission rule string such as \"Bash(git *)\", not %s", kindOf(v))
		return
	}
	if !toolEvent(spec.Name) {
		c.add(Error, "if.never-runs", path, "if is only evaluated on tool events (PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied): on %s this handler never runs", spec.Name)
	}
}

func (c *checker) onFailure(spec event.Spec, typ string, ms []member, path string) {
	v, ok := get(ms, "onFailure")
	if !ok {
		return
	}
	if v.Type != gjson.String || (v.Str != "continue" && v.Str != "block") {
		c.add(Error, "onfailure.invalid", path, "onFailure must be \"continue\" or \"block\", not %s", v.Raw)
		return
	}
	async := false
	for _, k := range []string{"async", "asyncRewake"} {
		if a, ok := get(ms, k); ok && a.Type == gjson.True {
			async = true
		}
	}
	switch {
	case async:
		c.add(Warning, "onfailure.ignored", path, "onFailure is ignored on async hooks: nothing waits for them, so nothing can be blocked")
	case typ == "prompt" || typ == "agent":
		c.add(Warning, "onfailure.ignored", path, "onFailure is ignored on %s handlers (only command, http and mcp_tool have it)", typ)
	case spec.Name == event.Stop || spec.Name == event.SubagentStop || spec.Name == event.TaskCompleted || spec.Name == event.TeammateIdle,
		typ == "mcp_tool" && (spec.Name == event.Setup || spec.Name == event.SessionStart):
		c.add(Warning, "onfailure.ignored", path, "onFailure is ignored on %s", spec.Name)
	}
}

// handlerRef is what the duplicate check remembers about a handler.
type handlerRef struct {
	key  string
	path string
	sel  selection
}

// dedupKey identifies a handler the way Claude Code de-duplicates them (REFERENCE.md §3.1).
func dedupKey(typ string, ms []member) string {
	s := func(k string) string { v, _ := get(ms, k); return v.Raw }
	switch typ {
	case "command":
		var args []string
		if a, ok := get(ms, "args"); ok {
			for _, x := range a.Array() {
				args = append(args, x.String())
			}
		}
		cmd, _ := get(ms, "command")
		return typ + "\x00" + cmd.Str + "\x00" + strconv.FormatBool(len(args) > 0) + "\x00" + strings.Join(args, "\x00")
	case "http":
		return typ + "\x00" + s("url")
	case "mcp_tool":
		return typ + "\x00" + s("server") + "\x00" + s("tool") + "\x00" + s("input")
	}
	return typ + "\x00" + s("prompt") + "\x00" + s("if")
}

func (c *checker) duplicate(spec event.Spec, seen []handlerRef, h handlerRef) {
	for _, o := range seen {
		if o.key == h.key && overlap(spec, o.sel, h.sel) {
			what := "handler"
			if strings.HasPrefix(h.key, "command\x00") {
				what = "command"
			}
			c.add(Warning, "handler.duplicate", h.path,
				"same %s as %s and the matchers overlap: Claude Code runs it once where both match, so merge the two entries", what, o.path)
			return
		}
	}
}

// member is one key of a JSON object with its value.
type member struct {
	key string
	val gjson.Result
}

// members returns an object's keys in order, each at its last occurrence: JSON.parse keeps the
// last of two equal keys, so an earlier copy (often a pasted second "PreToolUse") is dropped.
func (c *checker) members(v gjson.Result, path string) []member {
	var all []member
	count := map[string]int{}
	v.ForEach(func(k, val gjson.Result) bool {
		all = append(all, member{k.Str, val})
		count[k.Str]++
		return true
	})
	var out []member
	seen := map[string]int{}
	for _, m := range all {
		seen[m.key]++
		if seen[m.key] == 1 && count[m.key] > 1 {
			c.add(Error, "json.duplicate-key", join(path, m.key), "%q appears %d times in this object: JSON keeps only the last, so the earlier ones are ignored", m.key, count[m.key])
		}
		if seen[m.key] == count[m.key] {
			out = append(out, m)
		}
	}
	return out
}

func get(ms []member, key string) (gjson.Result, bool) {
	for _, m := range ms {
		if m.key == key {
			return m.val, true
		}
	}
	return gjson.Result{}, false
}

// join appends a key to a JSON path, bracketed and quoted unless it is a plain identifier.
func join(path, key string) string {
	plain := key != ""
	for i := 0; i < len(key); i++ {
		if b := key[i]; !(b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || i > 0 && b >= '0' && b <= '9') {
			plain = false
		}
	}
	switch {
	case !plain:
		return path + "[" + strconv.Quote(key) + "]"
	case path == "":
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// kindOf names a JSON value's type for messages.
func kindOf(v gjson.Result) string {
	switch {
	case v.IsObject():
		return "an object"
	case v.IsArray():
		return "an array"
	}
	switch v.Type {
	case gjson.String:
		return "a string"
	case gjson.Number:
		return "a number"
	case gjson.True, gjson.False:
		return "a boolean"
	case gjson.Null:
		return "null"
	}
	return "nothing"
}
