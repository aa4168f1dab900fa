package transcript

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// copilot folds a line of Copilot CLI's event log: {"type","data","id","timestamp"}, where
// user.message holds a prompt, assistant.message a reply and its tool requests, and
// tool.execution_complete each call's outcome; hook, usage and turn events add nothing.
func (st *State) copilot(line []byte) {
	r := pick(gjson.ParseBytes(line), "type", "timestamp", "data")
	d := r[2]
	switch r[0].Str {
	case "session.start":
		st.at(d.Get("startTime").Str)
		if cwd := d.Get("context.cwd").Str; cwd != "" {
			st.Cwd = cwd
		}
	case "user.message":
		st.prompt(d.Get("content").Str)
	case "assistant.message":
		st.reply(d.Get("content").Str)
		d.Get("toolRequests").ForEach(func(_, t gjson.Result) bool {
			st.call(t.Get("toolCallId").Str, st.clientTool(t.Get("name").Str, t.Get("arguments"), dialect.Copilot))
			return true
		})
	case "tool.execution_complete":
		o := outcome{time: r[1].Str}
		c := pick(d, "toolCallId", "success", "error", "shellExecution", "fileEdits")
		msg := c[2].Get("message").Str
		switch {
		case c[2].Get("code").Str == "denied":
			// "Denied by preToolUse hook (unable to ask user for confirmation): REASON"
			o.by, o.reason = "config", msg
			if i := strings.Index(msg, " hook"); i >= 0 {
				o.by, o.reason = "hook", after(msg[i:], ": ")
			}
		case !c[1].Bool():
			o.failed, o.reason = true, msg
		default:
			if n := c[3].Get("exitCode").Int(); n != 0 {
				o.failed, o.reason = true, exited(int(n))
			}
			c[4].ForEach(func(_, e gjson.Result) bool {
				o.created = o.created || e.Get("kind").Str == "create"
				return true
			})
		}
		st.done(c[0].Str, o)
	}
	st.at(r[1].Str)
}
