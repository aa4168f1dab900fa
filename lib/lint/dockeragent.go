package lint

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/settings"
)

// DockerAgentEvent is what docker-agent's documentation (seed 003, a version newer than the
// one whose payloads were captured) says of one event: whether a hook there can block, and
// whether its hooks come in matcher groups (tool events) or as a plain list.
type DockerAgentEvent struct{ CanBlock, ToolMatched bool }

// DockerAgentEvents are docker-agent's hook events, by their names in the agent file.
func DockerAgentEvents() map[string]DockerAgentEvent {
	block, tool := DockerAgentEvent{CanBlock: true}, DockerAgentEvent{CanBlock: true, ToolMatched: true}
	m := map[string]DockerAgentEvent{
		"pre_tool_use": tool, "post_tool_use": tool, "permission_request": tool,
		"tool_response_transform": {ToolMatched: true},
	}
	for _, e := range []string{"user_prompt_submit", "user_steering_messages_submit", "user_followup_submit",
		"before_llm_call", "pre_compact", "before_compaction", "worktree_create"} {
		m[e] = block
	}
	for _, e := range []string{"session_start", "session_end", "turn_start", "turn_end", "after_llm_call",
		"after_compaction", "subagent_stop", "on_user_input", "stop", "notification", "on_error",
		"on_max_iterations", "on_agent_switch", "on_session_resume", "on_tool_approval_decision"} {
		m[e] = DockerAgentEvent{}
	}
	return m
}

// HarnessGuards are the hooks that fail closed: the ones whose failure must not let a call run.
var HarnessGuards = []string{"SecurityValidator", "WriteProtector", "SecretGuard"}

// dockerAgent checks the hooks of every agent in a docker-agent agent file.
func (c *checker) dockerAgent(path string, data []byte, d *dialect.Dialect) {
	doc, err := settings.DecodeYAML(path, data)
	if err != nil {
		c.add(Error, "yaml.syntax", "", "%v", err)
		return
	}
	root, _ := doc.(map[string]any)
	agents, _ := root["agents"].(map[string]any)
	if len(agents) == 0 {
		c.add(Error, "docker-agent.no-agents", "agents", "the file defines no agents: it is not a docker-agent agent file")
		return
	}
	events := DockerAgentEvents()
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
				c.add(Warning, "docker-agent.newer-event", evPath, "%q is documented for newer versions; %s %s never sends it", ev, d.Title, d.Tested)
			}
			list, _ := hooks[ev].([]any)
			for i, item := range list {
				group, _ := item.(map[string]any)
				gPath := index(evPath, i)
				if !spec.ToolMatched {
					if _, isGroup := group["hooks"]; isGroup {
						c.add(Error, "docker-agent.shape", gPath, "%s takes a plain list of hooks, not matcher groups", ev)
						continue
					}
					c.dockerAgentHook(ev, spec, group, gPath)
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
					c.dockerAgentHook(ev, spec, hm, index(join(gPath, "hooks"), j))
				}
			}
		}
	}
}

// dockerAgentHook checks one handler: its type, command, timeout (seconds) and the per-hook
// options of newer versions (on_error, working_dir, env) against what harness needs.
func (c *checker) dockerAgentHook(ev string, spec DockerAgentEvent, h map[string]any, path string) {
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
		c.add(Warning, "client.timeout-unit", join(path, "timeout"), "docker-agent reads timeout in seconds: %d is %s minutes", t, num(float64(t)/60))
	}
	guard := false
	for _, g := range HarnessGuards {
		guard = guard || strings.Contains(cmd, g)
	}
	switch onErr, _ := h["on_error"].(string); {
	case h["on_error"] == nil:
	case onErr != "warn" && onErr != "ignore" && onErr != "block":
		c.add(Error, "docker-agent.on-error", join(path, "on_error"), "on_error must be warn, ignore or block, not %v", h["on_error"])
	case onErr == "block" && !spec.CanBlock:
		c.add(Error, "docker-agent.on-error", join(path, "on_error"), "%s cannot block: docker-agent refuses on_error block there", ev)
	case guard && onErr != "block" && ev != "pre_tool_use":
		c.add(Error, "docker-agent.guard-fails-open", join(path, "on_error"), "a harness guard with on_error %s lets the action through when it crashes or times out: write block", onErr)
	}
	if _, ok := h["working_dir"]; ok && strings.Contains(cmd, "--client=docker-agent") {
		c.add(Warning, "docker-agent.working-dir", join(path, "working_dir"), "harness judges relative paths from the payload's cwd, or, where the version leaves it empty, from the hook's own directory: a working_dir moves that away from the agent's")
	}
	env, _ := h["env"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if k == "HARNESS_HOME" || k == "CLAUDE_PROJECT_DIR" || strings.HasPrefix(k, "HARNESS_") {
			c.add(Warning, "docker-agent.env", join(join(path, "env"), k), "%s changes where harness keeps its records and policy for this hook alone", k)
		}
	}
}
