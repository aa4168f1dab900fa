package lint

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/settings"
)

// ClientFile checks another client's hook file in that client's own terms
// (../shared/protocol/clients/): its event names, its timeout unit, what its matchers can
// select, what it ignores, and for Codex the top-level keys it accepts and the trust each hook
// needs. VT Code's vtcode.toml is read with the TOML parser, docker-agent's agent YAML with the
// YAML parser.
func ClientFile(path string, d *dialect.Dialect) Report {
	r := Report{File: path, Findings: []Finding{}}
	c := &checker{}
	data, err := os.ReadFile(path)
	switch {
	case err != nil:
		c.add(Error, "file.unreadable", "", "%v", err)
	case d.Files.Kind == dialect.YAMLBlock:
		c.dockerAgent(path, data, d)
	case d.Files.Kind == dialect.TOMLBlock:
		c.vtcode(path, data, d)
	case d.Files.Kind == dialect.TOMLHooks:
		c.tomlHooks(path, data, d)
	case d.Files.Kind == dialect.PluginFile:
		c.plugin(data, d)
	case !gjson.ValidBytes(data):
		c.syntax(data)
	default:
		c.client(path, data, d)
	}
	r.Findings = append(r.Findings, c.findings...)
	return r
}

func (c *checker) client(path string, data []byte, d *dialect.Dialect) {
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		c.add(Error, "json.not-object", "", "the file must be a JSON object, not %s", kindOf(root))
		return
	}
	if keys := d.Files.TopKeys; keys != nil {
		root.ForEach(func(k, _ gjson.Result) bool {
			if !slices.Contains(keys, k.Str) {
				c.add(Error, id(d, "top-key"), k.Str, "%s accepts only %s at the top level: with %q it drops the whole file and runs no hook at all", d.Name(), d.Files.QuotedTopKeys(), k.Str)
			}
			return true
		})
	}
	if off := d.Files.OffIn(data); off != "" {
		c.add(Error, id(d, "hooks-off"), strings.SplitN(off, `"`, 3)[1], "%s is set: %s runs none of the hooks in this file (nor those of its other files)", off, d.Name())
	}
	var config map[string]any
	abs, _ := filepath.Abs(path)
	trustFile := settings.TrustFile(d, abs)
	if trustFile != "" {
		var err error
		if _, config, err = settings.ReadTOML(trustFile); err != nil {
			c.add(Error, id(d, "config"), "", "%v", err)
		}
	}
	root.Get("hooks").ForEach(func(ev, groups gjson.Result) bool {
		evPath := join("hooks", ev.Str)
		claude := d.ClaudeEvent(ev.Str)
		if n, ok := d.Event(claude); !ok || !claude.Known() || n != ev.Str {
			msg := fmt.Sprintf("%s has no event %q: its hooks never run", d.Title, ev.Str)
			if ok && n != ev.Str {
				msg += fmt.Sprintf(" (%s calls it %s)", d.Title, n)
			}
			c.add(Error, "client.event", evPath, "%s", msg)
			return true
		}
		for gi, g := range groups.Array() {
			gPath := index(evPath, gi)
			c.clientMatcher(d, claude, g.Get("matcher"), join(gPath, "matcher"))
			for hi, h := range g.Get("hooks").Array() {
				hPath := index(join(gPath, "hooks"), hi)
				c.clientHandler(d, claude, h, hPath)
				if config != nil {
					key := settings.TrustKey(abs, ev.Str, gi, hi)
					want := settings.TrustHash(ev.Str, []byte(g.Raw), hi)
					switch got, ok := settings.TrustedHash(config, key); {
					case !ok:
						c.add(Error, id(d, "untrusted"), hPath, "not trusted in %s: %s skips this hook without a word (`harness install --client %s` trusts its own)", trustFile, d.Name(), d.Client)
					case got != want:
						c.add(Error, id(d, "stale-trust"), hPath, "its trusted_hash in %s is for another command, timeout or matcher: %s skips it without a word until it is trusted again", trustFile, d.Name())
					}
				}
			}
		}
		if why, ok := d.Unwired[claude]; ok {
			c.add(Warning, id(d, kebab(string(claude))), evPath, "%s", why)
		}
		return true
	})
}

// claudeTools are Claude Code's tool names, which clients without its aliases never send.
var claudeTools = []string{"Bash", "PowerShell", "Write", "Edit", "MultiEdit", "NotebookEdit", "Read", "NotebookRead", "Grep", "Glob", "WebFetch", "WebSearch", "Agent", "Task"}

func (c *checker) clientMatcher(d *dialect.Dialect, ev event.Name, m gjson.Result, path string) {
	spec, _ := event.Lookup(ev)
	switch {
	case !m.Exists() || m.Str == "":
		return
	case d.ToolMatchersOnly && spec.Matcher != "tool_name":
		c.add(Error, "client.event-matcher", path, "%s rejects a matcher on %s: leave it out (the group then runs on every %s)", d.Title, ev, ev)
		return
	case m.Str == "*" && d.NoStar:
		c.add(Error, "client.star-matcher", path, "\"*\" is no regular expression %s can use, so this group selects nothing: leave the matcher out", d.Title)
		return
	case m.Str == "*":
		return
	}
	if ev == event.SessionStart && d.ExactSource && strings.ContainsAny(m.Str, "|*.^$()") {
		c.add(Error, "client.source-matcher", path, "%s compares SessionStart matchers whole: %q matches no source; write one group per source (%s)", d.Title, m.Str, strings.Join(d.Sources, ", "))
		return
	}
	if spec.Matcher != "tool_name" {
		return
	}
	if d.Anchored || d.RegexpMatchers {
		if _, err := regexp.Compile(m.Str); err != nil {
			c.add(Error, "matcher.invalid", path, "%q is not a regular expression %s can use: %v", m.Str, d.Title, err)
			return
		}
	}
	if d.Aliases {
		return
	}
	for _, part := range strings.FieldsFunc(strings.Trim(m.Str, "^$()"), func(r rune) bool { return r == '|' }) {
		for _, t := range claudeTools {
			if part != t {
				continue
			}
			if _, own := d.Tools[t]; own {
				continue // the client has a tool of that name too
			}
			hint := ""
			if names := d.Matchers(ev, t); len(names) == 1 && names[0] != "" {
				hint = fmt.Sprintf(": write %s", names[0])
			}
			c.add(Error, "client.tool-name", path, "%s has no tool %q (it sends its own names, and has no Claude Code aliases), so this never fires%s", d.Title, t, hint)
		}
	}
}

func (c *checker) clientHandler(d *dialect.Dialect, ev event.Name, h gjson.Result, path string) {
	if a := h.Get("args"); a.Exists() {
		c.add(Error, "client.args", join(path, "args"), "%s ignores args: the command runs without them (write them into command)", d.Title)
	}
	if h.Get("onFailure").Exists() {
		c.add(Warning, "client.on-failure", join(path, "onFailure"), "%s has no onFailure: a guard that crashes or times out lets the call run, so its own deadline must answer first", d.Title)
	}
	t := h.Get("timeout")
	if name, installed := guardOf(strings.Fields(h.Get("command").Str)); name != "" && t.Exists() && (!d.Millis || t.Num >= 1000) {
		c.guardTimeout(name, ev, installed, d.HookTimeout(t.Num, true), fmt.Sprintf("%s as %s reads it, %v", t.Raw, d.Title, d.HookTimeout(t.Num, true)), join(path, "timeout"))
	}
	switch {
	case !t.Exists():
	case d.Millis && t.Num < 1000:
		c.add(Error, "client.timeout-unit", join(path, "timeout"), "%s reads timeout in milliseconds: %s is %s ms, which kills the hook before it answers (and the call runs); write %s", d.Title, t.Raw, t.Raw, num(t.Num*1000))
	case d.LegacyMillis && t.Num >= 1000:
		c.add(Warning, "client.timeout-unit", join(path, "timeout"), "%s takes a timeout of 1000 or more as milliseconds: %s is %s s", d.Title, t.Raw, num(t.Num/1000))
	}
}

// vtcode checks [hooks.lifecycle] of a vtcode.toml.
func (c *checker) vtcode(path string, data []byte, d *dialect.Dialect) {
	doc, err := settings.DecodeTOML(path, data)
	if err != nil {
		c.add(Error, "toml.syntax", "", "%v", err)
		return
	}
	hooks, _ := doc["hooks"].(map[string]any)
	life, _ := hooks["lifecycle"].(map[string]any)
	for _, ev := range slices.Sorted(maps.Keys(life)) {
		v := life[ev]
		evPath := "hooks.lifecycle." + ev
		claude := pascalEvent(ev)
		if _, ok := d.Event(claude); !ok {
			c.add(Error, "client.event", evPath, "%s has no event %q: its hooks never run", d.Title, ev)
			continue
		}
		groups, ok := v.([]map[string]any)
		if !ok {
			if list, isList := v.([]any); isList {
				for _, g := range list {
					if m, isMap := g.(map[string]any); isMap {
						groups = append(groups, m)
					}
				}
			}
		}
		for gi, g := range groups {
			gPath := index(evPath, gi)
			if m, _ := g["matcher"].(string); m != "" && m != "*" {
				if _, err := regexp.Compile("^(?:" + m + ")$"); err != nil {
					c.add(Error, "matcher.invalid", join(gPath, "matcher"), "%q is not a regular expression: %s refuses the whole file at load (%v)", m, d.Title, err)
				}
			}
			hs, _ := g["hooks"].([]any)
			if len(hs) == 0 {
				c.add(Error, "group.no-hooks", gPath, "the group has no hooks")
			}
			for hi, h := range hs {
				hm, _ := h.(map[string]any)
				hPath := index(join(gPath, "hooks"), hi)
				if cmd, _ := hm["command"].(string); cmd == "" {
					c.add(Error, "handler.no-command", hPath, "a hook needs a command")
				}
				if _, ok := hm["timeout"]; ok {
					c.add(Warning, "client.timeout-key", join(hPath, "timeout"), "%s reads timeout_seconds, not timeout: this hook gets the default %d s", d.Title, int(d.DefaultTimeout.Seconds()))
				}
			}
		}
	}
}

// tomlHooks checks a TOMLHooks file (Kimi Code's config.toml) by the client's rules: one
// invalid [[hooks]] table and the client runs none of them, so each is an error; a matcher that
// is not a regular expression ("*" among them) selects nothing.
func (c *checker) tomlHooks(path string, data []byte, d *dialect.Dialect) {
	doc, err := settings.DecodeTOML(path, data)
	if err != nil {
		c.add(Error, "toml.syntax", "", "%v", err)
		return
	}
	for _, p := range settings.HooksProblems(d, doc) {
		at, what, _ := strings.Cut(p, ": ")
		c.add(Error, id(d, "hooks"), at, "%s: %s ignores every [[hooks]] table of the file while one is invalid, so no hook runs", what, d.Title)
	}
	tables, _ := doc["hooks"].([]map[string]any)
	for i, t := range tables {
		m, ok := t["matcher"].(string)
		if !ok || m == "" {
			continue
		}
		if _, err := regexp.Compile(m); err != nil || m == "*" {
			c.add(Warning, "matcher.invalid", index("hooks", i)+".matcher", "%q is not a regular expression: %s runs this hook on nothing (leave the matcher out to select everything)", m, d.Title)
		}
	}
}

// pascalEvent turns vtcode.toml's snake_case event keys into Claude Code's names.
func pascalEvent(name string) event.Name {
	var b strings.Builder
	for _, part := range strings.Split(name, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return event.Name(b.String())
}

// id is a finding's id for what is the client's own: its name, then what.
func id(d *dialect.Dialect, what string) string { return string(d.Client) + "." + what }

// kebab writes an event name in kebab-case (PermissionRequest: permission-request).
func kebab(name string) string {
	var b strings.Builder
	for i, r := range name {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
