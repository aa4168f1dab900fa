package lint

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/settings"
)

// HarnessGuards are the hooks that fail closed: the ones whose failure must not let a call run.
var HarnessGuards = []string{"SecurityValidator", "WriteProtector", "SecretGuard"}

// dockerAgent checks the hooks of every agent in an agent file (a YAMLBlock file: docker-agent's),
// against the events its declaration documents.
func (c *checker) dockerAgent(path string, data []byte, d *dialect.Dialect) {
	doc, err := settings.DecodeYAML(path, data)
	if err != nil {
		c.add(Error, "yaml.syntax", "", "%v", err)
		return
	}
	root, _ := doc.(map[string]any)
	agents, _ := root["agents"].(map[string]any)
	if len(agents) == 0 {
		c.add(Error, id(d, "no-agents"), "agents", "the file defines no agents: it is not a %s agent file", d.Title)
		return
	}
	var events map[string]dialect.FileEvent
	if d.FileEvents != nil {
		events = d.FileEvents()
	}
	for _, name := range slices.Sorted(maps.Keys(agents)) {
		agent, _ := agents[name].(map[string]any)
		hooks, ok := agent["hooks"].(map[string]any)
		if !ok {
			continue
		}
		for _, ev := range slices.Sorted(maps.Keys(hooks)) {
			evPath := "agents." + name + ".hooks." + ev
			spec, known := events[ev]
			if !known {
				c.add(Error, "client.event", evPath, "%s has no event %q: it refuses the agent file", d.Title, ev)
				continue
			}
			if _, captured := d.Events[d.ClaudeEvent(ev)]; !captured {
				c.add(Warning, id(d, "newer-event"), evPath, "%q is documented for newer versions; %s %s never sends it", ev, d.Title, d.Tested)
			}
			list, _ := hooks[ev].([]any)
			for i, item := range list {
				group, _ := item.(map[string]any)
				gPath := index(evPath, i)
				if !spec.ToolMatched {
					if _, isGroup := group["hooks"]; isGroup {
						c.add(Error, id(d, "shape"), gPath, "%s takes a plain list of hooks, not matcher groups", ev)
						continue
					}
					c.dockerAgentHook(d, ev, spec, group, gPath)
					continue
				}
				if m, _ := group["matcher"].(string); m != "" && m != "*" {
					if _, err := regexp.Compile("^(?:" + m + ")$"); err != nil {
						c.add(Error, "matcher.invalid", join(gPath, "matcher"), "%q is not a Go regular expression: %v", m, err)
					}
				}
				hs, _ := group["hooks"].([]any)
				if len(hs) == 0 {
					c.add(Error, "group.no-hooks", gPath, "a matcher group needs hooks")
				}
				for j, h := range hs {
					hm, _ := h.(map[string]any)
					c.dockerAgentHook(d, ev, spec, hm, index(join(gPath, "hooks"), j))
				}
			}
		}
	}
}

// dockerAgentHook checks one handler: its type, command, timeout (seconds) and the per-hook
// options of newer versions (on_error, working_dir, env) against what harness needs.
func (c *checker) dockerAgentHook(d *dialect.Dialect, ev string, spec dialect.FileEvent, h map[string]any, path string) {
	typ, _ := h["type"].(string)
	switch typ {
	case "command", "builtin", "model":
	default:
		c.add(Error, "handler.type", join(path, "type"), "type must be command, builtin or model, not %q", typ)
	}
	cmd, _ := h["command"].(string)
	if typ == "command" && cmd == "" {
		c.add(Error, "handler.no-command", path, "a command hook needs a command")
	}
	if t, ok := h["timeout"].(int); ok && t >= 1000 {
		c.add(Warning, "client.timeout-unit", join(path, "timeout"), "%s reads timeout in seconds: %d is %s minutes", d.Title, t, num(float64(t)/60))
	}
	guard := false
	for _, g := range HarnessGuards {
		guard = guard || strings.Contains(cmd, g)
	}
	switch onErr, _ := h["on_error"].(string); {
	case h["on_error"] == nil:
	case onErr != "warn" && onErr != "ignore" && onErr != "block":
		c.add(Error, id(d, "on-error"), join(path, "on_error"), "on_error must be warn, ignore or block, not %v", h["on_error"])
	case onErr == "block" && !spec.CanBlock:
		c.add(Error, id(d, "on-error"), join(path, "on_error"), "%s cannot block: %s refuses on_error block there", ev, d.Title)
	case guard && onErr != "block" && ev != "pre_tool_use":
		c.add(Error, id(d, "guard-fails-open"), join(path, "on_error"), "a harness guard with on_error %s lets the action through when it crashes or times out: write block", onErr)
	}
	if _, ok := h["working_dir"]; ok && strings.Contains(cmd, "--client="+string(d.Client)) {
		c.add(Warning, id(d, "working-dir"), join(path, "working_dir"), "harness judges relative paths from the payload's cwd, or, where the version leaves it empty, from the hook's own directory: a working_dir moves that away from the agent's")
	}
	env, _ := h["env"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if k == "HARNESS_HOME" || k == "CLAUDE_PROJECT_DIR" || strings.HasPrefix(k, "HARNESS_") {
			c.add(Warning, id(d, "env"), join(join(path, "env"), k), "%s changes where harness keeps its records and policy for this hook alone", k)
		}
	}
}
