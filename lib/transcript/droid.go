package transcript

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// droid folds a line of droid's session file: a session_start header, then {"type":"message",
// "message":{role, content}} with Claude Code's content blocks (text, tool_use, tool_result).
// A hook's run is a message of its own, logged before the call's result: a PreToolUse hook
// that exited 2 marks the call as blocked.
func (st *State) droid(line []byte) {
	r := pick(gjson.ParseBytes(line), "type", "timestamp", "message", "cwd")
	if r[0].Str == "session_start" {
		if r[3].Str != "" {
			st.Cwd = r[3].Str
		}
		return
	}
	if r[0].Str != "message" {
		return
	}
	st.at(r[1].Str)
	m := pick(r[2], "role", "content", "hookEventName", "hookToolCallId", "hookResults")
	if m[2].Str == "PreToolUse" {
		id := m[3].Str
		m[4].ForEach(func(_, c gjson.Result) bool {
			if p, ok := st.Pending[id]; ok && c.Get("exitCode").Int() == 2 {
				p.Hook = true
				st.Pending[id] = p
			}
			return true
		})
		return
	}
	switch m[0].Str {
	case "user":
		var text strings.Builder
		m[1].ForEach(func(_, b gjson.Result) bool {
			switch b.Get("type").Str {
			case "text":
				if t := b.Get("text").Str; !contextBlock(t) && !strings.HasPrefix(strings.TrimSpace(t), "<system-reminder>") {
					text.WriteString(t + "\n")
				}
			case "tool_result":
				st.droidResult(r[1].Str, b)
			}
			return true
		})
		st.prompt(text.String())
	case "assistant":
		var text strings.Builder
		m[1].ForEach(func(_, b gjson.Result) bool {
			switch b.Get("type").Str {
			case "text":
				text.WriteString(b.Get("text").Str + "\n")
			case "tool_use":
				st.call(b.Get("id").Str, st.clientTool(b.Get("name").Str, b.Get("input"), dialect.Droid))
			}
			return true
		})
		st.reply(text.String())
	}
}

func (st *State) droidResult(time string, b gjson.Result) {
	id := b.Get("tool_use_id").Str
	text := resultText(b.Get("content"))
	o := outcome{time: time}
	if b.Get("is_error").Bool() {
		o.failed, o.reason = true, strings.TrimPrefix(text, "Error: ")
		if n, ok := exitCode(text, "[Process exited with code "); ok && n != 0 {
			o.reason = exited(n)
		}
	} else {
		o.created = st.Pending[id].Tool == "Write"
	}
	st.done(id, o)
}
