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
	case d.Client == dialect.DockerAgent:
		c.dockerAgent(path, data, d)
	case d.Client == dialect.VTCode:
		c.vtcode(path, data, d)
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
	if d.Client == dialect.Codex {
		root.ForEach(func(k, _ gjson.Result) bool {
			if k.Str != "hooks" && k.Str != "description" {
				c.add(Error, "codex.top-key", k.Str, "Codex accepts only \"hooks\" and \"description\" at the top level: with %q it drops the whole file and runs no hook at all", k.Str)
			}
			return true
		})
	}
	var config map[string]any
	abs, _ := filepath.Abs(path)
	if d.Client == dialect.Codex {
		var err error
		if _, config, err = settings.ReadTOML(settings.CodexConfig(abs)); err != nil {
			c.add(Error, "codex.config", "", "%v", err)
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
						c.add(Error, "codex.untrusted", hPath, "not trusted in %s: Codex skips this hook without a word (`harness install --client codex` trusts its own)", settings.CodexConfig(abs))
					case got != want:
						c.add(Error, "codex.stale-trust", hPath, "its trusted_hash in %s is for another command, timeout or matcher: Codex skips it without a word until it is trusted again", settings.CodexConfig(abs))
					}
				}
			}
		}
		if d.Client == dialect.Copilot && claude == event.PermissionRequest {
			c.add(Warning, "copilot.permission-request", evPath, "Copilot CLI sends PermissionRequest hooks its own payload and denies the call when such a hook fails")
		}
		return true
	})
}

// claudeTools are Claude Code's tool names, which clients without its aliases never send.
var claudeTools = []string{"Bash", "PowerShell", "Write", "Edit", "MultiEdit", "NotebookEdit", "Read", "NotebookRead", "Grep", "Glob", "WebFetch", "WebSearch", "Agent", "Task"}

func (c *checker) clientMatcher(d *dialect.Dialect, ev event.Name, m gjson.Result, path string) {
	if !m.Exists() || m.Str == "" || m.Str == "*" {
		return
	}
	if ev == event.SessionStart && d.ExactSource && strings.ContainsAny(m.Str, "|*.^$()") {
		c.add(Error, "client.source-matcher", path, "%s compares SessionStart matchers whole: %q matches no source; write one group per source (%s)", d.Title, m.Str, strings.Join(d.Sources, ", "))
		return
	}
	spec, _ := event.Lookup(ev)
	if spec.Matcher != "tool_name" {
		return
	}
	if d.Anchored || d.Client == dialect.Gemini || d.Client == dialect.Codex {
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
	case d.Client == dialect.Qwen && t.Num >= 1000:
		c.add(Warning, "client.timeout-unit", join(path, "timeout"), "Qwen Code takes a timeout of 1000 or more as milliseconds: %s is %s s", t.Raw, num(t.Num/1000))
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
					c.add(Error, "matcher.invalid", join(gPath, "matcher"), "%q is not a regular expression: VT Code refuses the whole file at load (%v)", m, err)
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
					c.add(Warning, "client.timeout-key", join(hPath, "timeout"), "VT Code reads timeout_seconds, not timeout: this hook gets the default 60 s")
				}
			}
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
