package dialect

import (
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// DockerAgent is docker/docker-agent (v1.32.3): not installable here, so its dialect rests on
// the payloads it was seen sending and its documented answers.
const DockerAgent Client = "docker-agent"

func init() {
	register(60, dockerAgent)
	detectBy(DockerAgent,
		// Its snake_case event names.
		Mark{RankFormat + 2, func(s *Shape) bool {
			ev := s.Event
			return ev.Type == gjson.String && strings.Contains(ev.Str, "_") && strings.ToLower(ev.Str) == ev.Str
		}})
}

// dockerAgentTested is the version whose payloads were captured.
const dockerAgentTested = "v1.32.3-19-g0d76412a"

func dockerAgent() *Dialect {
	return &Dialect{
		Client: DockerAgent, Title: "docker-agent", Tested: dockerAgentTested,
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
		DefaultTimeout: 60 * time.Second,
		// Hooks live per agent in the agent's YAML, which the user owns and lays out: the
		// installer puts its block under one agent of a file named with --settings, or prints it
		// to paste. Not installable here, so the install does not look for it.
		Files: Files{Kind: YAMLBlock,
			Paste: "paste this under your agent in the agent file (agents: <name>:), at the agent's indentation,\n" +
				"or let harness put it there: harness install --client docker-agent --settings AGENT.yaml [--agent NAME].\n" +
				"Written for docker-agent " + dockerAgentTested + " (its captured payloads: it is not installable here).",
		},
		// No Transcript: lib/transcript reads none of docker-agent's, so the hooks that read one
		// are left out.
		FromProject: "whatever the agent's YAML says: the hooks are in it (not run here)",
		Flags:       []string{"agent", "on-error"},
		FileEvents:  dockerAgentEvents,
	}
}

// dockerAgentEvents are docker-agent's hook events, by their names in the agent file, as its
// documentation (seed 003, a version newer than the one whose payloads were captured) says.
func dockerAgentEvents() map[string]FileEvent {
	block, tool := FileEvent{CanBlock: true}, FileEvent{CanBlock: true, ToolMatched: true}
	m := map[string]FileEvent{
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
		m[e] = FileEvent{}
	}
	return m
}
