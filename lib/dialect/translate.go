package dialect

import (
	"bytes"
	"os"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/verdict"
)

// Translation of one payload and one answer. Claude Code's dialect touches neither, so a hook
// run by Claude Code does no work here.

// NoEventError says a payload names no event the dialect can read.
type NoEventError struct {
	Client Client
	// Hint says what to do, where the client's own format is the likely cause ("" when none).
	Hint string
}

func (e NoEventError) Error() string {
	msg := "the payload names no event (no hook_event_name)"
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// In rewrites a client's payload into Claude Code's: event and tool names, tool arguments, a
// shell command's own directory as cwd, an empty cwd filled in. Claude Code's payloads, and
// payloads that are not JSON objects (the parser says why), are returned as they are.
func (d *Dialect) In(data []byte) ([]byte, error) {
	if d.Identity || !gjson.ValidBytes(data) || !gjson.ParseBytes(data).IsObject() {
		return data, nil
	}
	out := data
	set := func(path string, raw string) {
		if b, err := sjson.SetRawBytes(out, path, []byte(raw)); err == nil {
			out = b
		}
	}
	del := func(path string) {
		if b, err := sjson.DeleteBytes(out, path); err == nil {
			out = b
		}
	}
	ev := gjson.GetBytes(out, "hook_event_name")
	if n := d.Native; !ev.Exists() && n != nil {
		switch {
		case n.EventKey != "":
			if e, ok := n.Event(gjson.GetBytes(out, n.EventKey).Str); ok {
				set("hook_event_name", quote(string(e)))
				del(n.EventKey)
			}
		case n.Infer != nil:
			if e, ok := n.Infer(gjson.ParseBytes(out)); ok {
				set("hook_event_name", quote(string(e)))
			}
		}
		ev = gjson.GetBytes(out, "hook_event_name")
	}
	if !ev.Exists() {
		e := NoEventError{Client: d.Client}
		if d.Native != nil {
			e.Hint = d.Native.Hint
		}
		return nil, e
	}
	if d.Native != nil {
		for _, f := range d.Native.Fields {
			v := gjson.GetBytes(out, f[0])
			if !v.Exists() || gjson.GetBytes(out, f[1]).Exists() {
				continue
			}
			raw := v.Raw
			if f[1] == "tool_input" && v.Type == gjson.String && gjson.Valid(v.Str) {
				raw = v.Str // the native format may send the arguments as a JSON string
			}
			set(f[1], raw)
			del(f[0])
		}
	}
	if ev.Type == gjson.String {
		if c := d.claudeEvent(ev.Str); string(c) != ev.Str {
			set("hook_event_name", quote(string(c)))
		}
	}
	if d.PromptParts {
		// The prompt as content parts: its text parts, joined, are the prompt a guard reads.
		if p := gjson.GetBytes(out, "prompt"); p.IsArray() {
			var texts []string
			for _, part := range p.Array() {
				if t := part.Get("text"); t.Type == gjson.String {
					texts = append(texts, t.Str)
				}
			}
			set("prompt", quote(strings.Join(texts, "\n")))
		}
	}
	if d.ErrorObject {
		if e := gjson.GetBytes(out, "error"); e.IsObject() {
			set("error", quote(e.Get("message").String()))
		}
	}
	if d.Source != "" && gjson.GetBytes(out, "hook_event_name").Str == string(event.SessionStart) && !gjson.GetBytes(out, "source").Exists() {
		set("source", quote(d.Source))
	}
	// An empty cwd first: the hook runs in the client's working directory.
	if cwd := gjson.GetBytes(out, "cwd"); !cwd.Exists() || cwd.Str == "" {
		if wd, err := os.Getwd(); err == nil {
			set("cwd", quote(wd))
		}
	}
	if d.Transcript.Path != nil && !gjson.GetBytes(out, "transcript_path").Exists() {
		// The payload names no transcript; the client's layout says where it is.
		r := gjson.GetManyBytes(out, "session_id", "cwd")
		if p := d.Transcript.Path(r[0].Str, r[1].Str); p != "" {
			set("transcript_path", quote(p))
		}
	}
	if tool := gjson.GetBytes(out, "tool_name"); tool.Type == gjson.String {
		name := tool.Str
		if c, ok := d.Tools[name]; ok && c != name {
			name = c
			set("tool_name", quote(c))
		} else if d.MCPUnprefixed && !ok && strings.Contains(name, "__") && !strings.HasPrefix(name, "mcp__") {
			name = "mcp__" + name // an MCP server's tool, as Claude Code names it
			set("tool_name", quote(name))
		}
		input := gjson.GetBytes(out, "tool_input")
		args := d.Args[name]
		for _, from := range sortedKeys(args) { // a fixed order: the same payload, the same bytes
			to := args[from]
			if v := input.Get(from); v.Exists() && !input.Get(to).Exists() {
				set("tool_input."+to, v.Raw)
				del("tool_input." + from)
			}
		}
		if name == "Bash" && d.Dir != "" {
			// The command runs in a directory of the model's choosing: judged as `cd DIR &&
			// command`, which the shell analysis follows. The payload's cwd stays the
			// session's, so the project is never what the model names.
			cmd := gjson.GetBytes(out, "tool_input.command")
			if dir := input.Get(d.Dir); dir.Type == gjson.String && dir.Str != "" && cmd.Type == gjson.String {
				set("tool_input.command", quote("cd -- "+shellQuote(dir.Str)+" && "+cmd.Str))
			}
		}
	}
	return out, nil
}

// shellQuote quotes a word for sh: in single quotes, each quote inside closed, escaped, reopened.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func quote(s string) string {
	b, _ := sjson.Set("", "v", s)
	return gjson.Get(b, "v").Raw
}

// Out renders a hook's reply (in Claude Code's terms, for Claude Code event ev) the way the
// client reads it. Every block stays a block in Claude Code's reading too, so a dialect chosen
// by mistake never lets a blocked call through there.
func (d *Dialect) Out(ev event.Name, r answer.Reply) answer.Reply {
	if d.Identity {
		return r
	}
	var js gjson.Result
	if r.Code == answer.OK && len(r.Stdout) > 0 {
		js = gjson.ParseBytes(r.Stdout)
	}
	if r.Code == answer.Blocked {
		return d.block(ev, strings.TrimSpace(r.Stderr), r)
	}
	// What the answer decided, and why, are the reply's typed fields: only the rest of the
	// JSON (context, event names, keys) is rewritten below.
	switch dec := r.Decision; {
	case ev == event.PreToolUse && (dec == verdict.Asked || dec == verdict.Deferred) && d.NoAsk:
		return d.block(ev, r.Reason+"\n"+d.approval(), answer.Reply{})
	case ev == event.PreToolUse && (dec == verdict.Asked || dec == verdict.Deferred) && d.AskAs != "":
		// The client's own decision that asks the user every time, whatever they allowed before.
		out, _ := sjson.SetBytes([]byte(`{"decision":"`+d.AskAs+`"}`), "reason", r.Reason)
		return answer.Reply{Stdout: append(out, '\n'), Code: answer.OK}
	case ev == event.PreToolUse && d.TopAllow && r.Code == answer.OK && (dec == "" || dec == verdict.Allowed):
		// Silence would be a malformed answer, on which the client asks: no objection is said.
		return answer.Reply{Stdout: []byte(`{"decision":"allow"}` + "\n"), Code: answer.OK}
	case ev == event.PreToolUse && dec == verdict.Denied && (d.TopDecision || d.Snake):
		return d.block(ev, r.Reason, answer.Reply{})
	case dec == verdict.Blocked && (d.TopDecision || d.Snake):
		return d.block(ev, r.Reason, answer.Reply{})
	}
	if d.Snake && len(r.Stdout) > 0 && js.IsObject() {
		r.Stdout = d.snake(js)
		return r
	}
	ctx := js.Get("hookSpecificOutput.additionalContext")
	switch {
	case ev == event.UserPromptSubmit && d.PlainPromptContext && js.IsObject():
		// The client hands the model stdout as it is: the context alone, as text.
		r.Stdout = nil
		if ctx.Str != "" {
			r.Stdout = []byte(strings.TrimRight(ctx.Str, "\n") + "\n")
		}
	case ctx.Exists() && d.TopContext:
		out, err := sjson.SetRawBytes(r.Stdout, "additionalContext", []byte(ctx.Raw))
		if err == nil {
			out, err = sjson.DeleteBytes(out, "hookSpecificOutput.additionalContext")
		}
		if err == nil {
			if spec := gjson.GetBytes(out, "hookSpecificOutput"); spec.IsObject() && len(spec.Map()) <= 1 {
				out, err = sjson.DeleteBytes(out, "hookSpecificOutput")
			}
		}
		if err == nil {
			r.Stdout = append(bytes.TrimRight(out, "\n"), '\n')
		}
	case js.Get("hookSpecificOutput.hookEventName").Exists():
		if n, ok := d.Event(ev); ok && n != string(ev) {
			if out, err := sjson.SetBytes(r.Stdout, "hookSpecificOutput.hookEventName", n); err == nil {
				r.Stdout = out
			}
		}
	}
	return r
}

// block renders a block with its reason. orig is the Claude Code reply being rendered (its
// stdout kept where the client reads exit 2 as Claude Code does).
func (d *Dialect) block(ev event.Name, reason string, orig answer.Reply) answer.Reply {
	if reason == "" {
		reason = "blocked"
	}
	switch {
	case d.TopDecision:
		// The client reads stdout as JSON first and exit 2 with stderr otherwise: both say deny.
		out, _ := sjson.SetBytes([]byte(`{"decision":"deny"}`), "reason", reason)
		return answer.Reply{Stdout: append(out, '\n'), Stderr: reason + "\n", Code: answer.Blocked}
	case d.JSONDeny && ev == event.PreToolUse:
		out, _ := sjson.SetBytes([]byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`),
			"hookSpecificOutput.permissionDecisionReason", reason)
		return answer.Reply{Stdout: append(out, '\n'), Code: answer.OK}
	case d.JSONPromptBlock && ev == event.UserPromptSubmit:
		out, _ := sjson.SetBytes([]byte(`{"decision":"block"}`), "reason", reason)
		return answer.Reply{Stdout: append(out, '\n'), Code: answer.OK}
	}
	if orig.Code == answer.Blocked {
		return orig
	}
	return answer.Reply{Stderr: reason + "\n", Code: answer.Blocked}
}

// snakeKeys are Claude Code's answer fields in snake_case.
var snakeKeys = [][2]string{
	{"hookSpecificOutput", "hook_specific_output"}, {"hookEventName", "hook_event_name"},
	{"additionalContext", "additional_context"}, {"permissionDecision", "permission_decision"},
	{"permissionDecisionReason", "permission_decision_reason"}, {"updatedInput", "updated_input"},
	{"systemMessage", "system_message"}, {"stopReason", "stop_reason"},
	{"suppressOutput", "suppress_output"},
}

// snake renders a JSON answer with snake_case keys (two levels: the answer and its
// hookSpecificOutput) and the client's event name.
func (d *Dialect) snake(js gjson.Result) []byte {
	key := func(k string) string {
		for _, p := range snakeKeys {
			if p[0] == k {
				return p[1]
			}
		}
		return k
	}
	out := []byte("{}")
	js.ForEach(func(k, v gjson.Result) bool {
		raw := v.Raw
		if k.Str == "hookSpecificOutput" && v.IsObject() {
			inner := []byte("{}")
			v.ForEach(func(ik, iv gjson.Result) bool {
				iraw := iv.Raw
				if ik.Str == "hookEventName" {
					if n, ok := d.Event(event.Name(iv.Str)); ok {
						iraw = quote(n)
					}
				}
				inner, _ = sjson.SetRawBytes(inner, key(ik.Str), []byte(iraw))
				return true
			})
			raw = string(inner)
		}
		out, _ = sjson.SetRawBytes(out, key(k.Str), []byte(raw))
		return true
	})
	return append(out, '\n')
}

// approval says how to approve a call the client cannot ask about.
func (d *Dialect) approval() string {
	return "This needs the user's approval, and " + d.Title + " cannot ask for it here, so it is blocked. " +
		"To go ahead, the user can run it themselves, or allow it by policy (the rule's id in \"disable\" of $HARNESS_HOME/security.json)."
}
