package transcript

import (
	"regexp"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// kimi folds a line of Kimi Code's wire file (agents/<agent>/wire.jsonl): {"type", "agentId",
// "time" in Unix milliseconds, ...}, opened by a metadata line. turn.prompt holds what the user
// typed (origin kind "user"; a hook's or a stop hook's text has another kind), and the loop's
// events (context.append_loop_event) each tool call, its result and the reply's text parts as
// they happen. The agent.message.appended lines repeat the conversation at the turn's end, and
// the rest (requests, usage, file history) adds nothing a summary shows.
func (st *State) kimi(line []byte) {
	r := pick(gjson.ParseBytes(line), "type", "time", "event", "input", "origin")
	st.at(kimiTime(r[1]))
	switch r[0].Str {
	case "turn.prompt":
		if r[4].Get("kind").Str != "user" {
			return
		}
		st.prompt(resultText(r[3]))
	case "context.append_loop_event":
		e := r[2]
		switch e.Get("type").Str {
		case "tool.call":
			st.call(e.Get("toolCallId").Str, st.clientTool(e.Get("name").Str, e.Get("args"), dialect.Kimi))
		case "tool.result":
			id := e.Get("toolCallId").Str
			st.done(id, kimiOutcome(kimiTime(r[1]), st.Pending[id].Tool, e.Get("result")))
		case "content.part":
			if p := e.Get("part"); p.Get("type").Str == "text" {
				st.reply(p.Get("text").Str)
			}
		}
	}
}

// kimiTime is a line's Unix milliseconds as the summaries write a time.
func kimiTime(ms gjson.Result) string {
	if ms.Type != gjson.Number || ms.Int() <= 0 {
		return ""
	}
	return time.UnixMilli(ms.Int()).UTC().Format(time.RFC3339Nano)
}

var (
	// kimiExit is the shell's failure as Kimi words it.
	kimiExit = "Command failed with exit code: "
	// guardReason is a harness guard's block as the model reads it ("SecurityValidator:
	// blocked ...", "... needs your approval ..."): Kimi's wire keeps a hook's veto as the
	// call's error result with the hook's reason and nothing to tell it from a failure, so a
	// veto is known by the reason's shape; another hook's veto counts as a failure.
	guardReason = regexp.MustCompile(`^[A-Z][A-Za-z]+: (blocked|needs your approval)\b`)
	// Kimi's own refusals: its permission policy's, and the user's.
	kimiPolicy = regexp.MustCompile(`^Tool "[^"]*" was denied by permission policy\.`)
	kimiUser   = regexp.MustCompile(`^Tool "[^"]*" was not run because the (user rejected|approval request was cancelled)`)
)

// kimiOutcome reads a tool.result: {output (text, or content parts), isError}.
func kimiOutcome(t, tool string, res gjson.Result) outcome {
	o := outcome{time: t}
	out := resultText(res.Get("output"))
	if !res.Get("isError").Bool() {
		o.created = tool == "Write" // Kimi's Write makes or replaces the whole file
		return o
	}
	text := strings.TrimSpace(out)
	switch {
	case guardReason.MatchString(text):
		o.by, o.reason = "hook", text
	case kimiPolicy.MatchString(text):
		o.by, o.reason = "config", text
	case kimiUser.MatchString(text):
		o.by, o.reason = "user", text
	default:
		o.failed, o.reason = true, text
		if n, ok := exitCode(text, kimiExit); ok && n != 0 {
			o.reason = exited(n)
		}
	}
	return o
}
