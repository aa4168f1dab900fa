package transcript

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// gemini folds a line of Gemini CLI's chat file: a header, "$set" updates of the header, and
// messages {id, timestamp, type: user|gemini|info|error, content}. A gemini message holds its
// tool calls with their status and result, and is written again as they progress: a call is
// counted once, and its outcome folded when its status is final.
func (st *State) gemini(line []byte) {
	r := pick(gjson.ParseBytes(line), "type", "timestamp", "id", "content", "toolCalls", "startTime")
	if r[5].Exists() {
		st.at(r[5].Str)
		return
	}
	switch r[0].Str {
	case "user":
		st.at(r[1].Str)
		// Hooks' context comes before the prompt in the same text, in <hook_context> blocks.
		if t := strings.TrimSpace(strip(partsText(r[3]), "hook_context")); !strings.HasPrefix(t, "<session_context>") {
			st.prompt(t)
		}
	case geminiReply:
		st.at(r[1].Str)
		st.reply(partsText(r[3]))
		if id := r[2].Str; id != st.MsgID {
			st.MsgID, st.Calls = id, nil
		}
		r[4].ForEach(func(_, c gjson.Result) bool {
			st.geminiCall(c)
			return true
		})
	}
}

func (st *State) geminiCall(call gjson.Result) {
	// A message is written again as its calls progress: a call already folded is passed over
	// before its long result is read.
	id := call.Get("id").Str
	if st.Calls[id] == 2 {
		return
	}
	c := pick(call, "id", "name", "args", "status", "result", "timestamp", "resultDisplay")
	if st.Calls == nil {
		st.Calls = map[string]int{}
	}
	if st.Calls[id] == 0 && len(st.Calls) < MaxPending {
		st.Calls[id] = 1
		st.call(id, st.clientTool(c[1].Str, c[2], dialect.Gemini, dialect.Qwen))
	}
	status := c[3].Str
	if st.Calls[id] != 1 || (status != "success" && status != "error" && status != "cancelled") {
		return
	}
	st.Calls[id] = 2
	resp := c[4].Get("0.functionResponse.response")
	o := outcome{time: c[5].Str}
	out, errText := resp.Get("output").Str, resp.Get("error").Str
	switch {
	case status == "cancelled":
		o.failed, o.reason = true, "cancelled"
	case status == "error" && strings.HasPrefix(errText, "Tool execution blocked: "):
		o.by, o.reason = "hook", strings.TrimPrefix(errText, "Tool execution blocked: ")
	case status == "error":
		o.failed, o.reason = true, errText
	default:
		// A shell that exits non-zero is a success to Gemini, a failure to Claude Code.
		if n, ok := exitCode(out, "\nExit Code: "); ok && n != 0 && st.Pending[id].Tool == "Bash" {
			o.failed, o.reason = true, exited(n)
		}
		o.created = c[6].Get("isNewFile").Bool() || strings.HasPrefix(out, "Successfully created")
	}
	st.done(id, o)
}

// partsText is the text of a message's content: a string, or its text parts (not thoughts).
func partsText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var b strings.Builder
	c.ForEach(func(_, p gjson.Result) bool {
		if t := p.Get("text"); t.Exists() && !p.Get("thought").Bool() {
			b.WriteString(t.Str)
			b.WriteByte('\n')
		}
		return true
	})
	return b.String()
}

// qwen folds a line of Qwen Code's chat file: Claude Code's envelope (uuid, sessionId,
// timestamp, type, cwd) around Gemini's message parts, with tool results in lines of their
// own (toolCallResult).
func (st *State) qwen(line []byte) {
	r := pick(gjson.ParseBytes(line), "type", "timestamp", "cwd", "message", "toolCallResult", "provenance", "systemPayload")
	typ := r[0].Str
	if typ != "user" && typ != "assistant" && typ != "tool_result" {
		return // system lines: telemetry, attribution snapshots
	}
	st.at(r[1].Str)
	if r[2].Str != "" {
		st.Cwd = r[2].Str
	}
	r[3], r[6] = r[3].Get("parts"), r[6].Get("displayText")
	switch typ {
	case "user":
		if p := r[5].Str; p != "" && p != "real_user" {
			return
		}
		if r[6].Exists() {
			st.prompt(r[6].Str) // the prompt as typed, without the hooks' context
			return
		}
		var b strings.Builder
		r[3].ForEach(func(_, p gjson.Result) bool {
			if t := p.Get("text").Str; !contextBlock(t) {
				b.WriteString(t + "\n")
			}
			return true
		})
		st.prompt(b.String())
	case "assistant":
		st.reply(partsText(r[3]))
		r[3].ForEach(func(_, p gjson.Result) bool {
			if fc := p.Get("functionCall"); fc.Exists() {
				st.call(fc.Get("id").Str, st.clientTool(fc.Get("name").Str, fc.Get("args"), dialect.Gemini, dialect.Qwen))
			}
			return true
		})
	case "tool_result":
		res := r[4]
		id := res.Get("callId").Str
		resp := r[3].Get("0.functionResponse.response")
		out, errText := resp.Get("output").Str, resp.Get("error").Str
		o := outcome{time: r[1].Str}
		switch status := res.Get("status").Str; {
		case res.Get("errorType").Str == "execution_denied":
			// Headless, with every call approved, a denial is a hook's.
			o.by, o.reason = "hook", errText
		case status == "error" || status == "cancelled":
			o.failed, o.reason = true, errText
			if n := res.Get("resultDisplay.exitCode"); n.Type == gjson.Number && n.Int() != 0 {
				o.reason = exited(int(n.Int()))
			}
		default:
			o.created = strings.HasPrefix(out, "Successfully created")
		}
		st.done(id, o)
	}
}

// geminiReply is the type of the model's messages in Gemini CLI's chat file.
const geminiReply = "gemini"
