package transcript

import (
	"strings"

	"github.com/tidwall/gjson"
)

// codex folds a line of Codex CLI's rollout file: {"timestamp","type","payload"}, where the
// conversation is in response_item lines (messages, function_call and custom_tool_call with
// their outputs, matched by call_id) and the rest (event_msg, token counts, settings) repeats
// or adds nothing a summary shows.
func (st *State) codex(line []byte) {
	r := pick(gjson.ParseBytes(line), "type", "timestamp", "payload")
	typ, p := r[0].Str, r[2]
	st.at(r[1].Str)
	switch typ {
	case "session_meta", "turn_context":
		if cwd := p.Get("cwd").Str; cwd != "" {
			st.Cwd = cwd
		}
		return
	case "compacted":
		st.compaction(Compaction{Time: r[1].Str})
		return
	case "response_item":
	default:
		return
	}
	switch p.Get("type").Str {
	case "message":
		role := p.Get("role").Str
		var text strings.Builder
		p.Get("content").ForEach(func(_, c gjson.Result) bool {
			t := c.Get("text").Str
			// What the user typed comes in its own part; the client's context (environment,
			// AGENTS.md) in parts of their own.
			if role == "user" && contextBlock(t) {
				return true
			}
			text.WriteString(t)
			text.WriteByte('\n')
			return true
		})
		switch role {
		case "user":
			st.prompt(text.String())
		case "assistant":
			st.reply(text.String())
		}
	case "function_call":
		name, args := p.Get("name").Str, gjson.Parse(p.Get("arguments").Str)
		st.call(p.Get("call_id").Str, st.codexCall(name, args))
	case "local_shell_call":
		st.call(p.Get("call_id").Str, st.shell(argv(p.Get("action.command")), p.Get("action.working_directory").Str))
	case "custom_tool_call":
		name, in := p.Get("name").Str, p.Get("input").Str
		c := Pending{Tool: name}
		if name == "apply_patch" {
			c = st.patch(in)
		}
		st.call(p.Get("call_id").Str, c)
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		out := p.Get("output")
		text := out.Str
		if out.IsObject() {
			text = out.Get("content").Str
		}
		id := p.Get("call_id").Str
		st.done(id, codexOutcome(r[1].Str, st.Pending[id].Tool, text))
	}
}

// codexCall is a function call by its name and arguments: the shells are Bash, update_plan is
// the todo list.
func (st *State) codexCall(name string, args gjson.Result) Pending {
	switch name {
	case "exec_command":
		return st.shell(args.Get("cmd").Str, args.Get("workdir").Str)
	case "shell", "shell_command", "container.exec":
		return st.shell(argv(args.Get("command")), args.Get("workdir").Str)
	case "update_plan":
		st.Summary.Open = List{}
		for _, s := range args.Get("plan").Array() {
			if s.Get("status").Str != "completed" {
				st.Summary.Open.add(firstLine(s.Get("step").Str, MaxText), MaxList)
			}
		}
	}
	return other(name, args)
}

// argv is a command given as a string or as an argument list; a list that runs a shell
// script (bash -lc SCRIPT) is that script.
func argv(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	var args []string
	for _, a := range v.Array() {
		args = append(args, a.Str)
	}
	if n := len(args); n == 3 && (args[1] == "-lc" || args[1] == "-c") {
		return args[2]
	}
	return strings.Join(args, " ")
}

// patch is an apply_patch call: the files its headers add, update or move to, relative to the
// cwd. A deleted file is in neither list.
func (st *State) patch(in string) Pending {
	p := Pending{Tool: "apply_patch"}
	for _, l := range strings.Split(in, "\n") {
		var path string
		var added bool
		switch {
		case strings.HasPrefix(l, "*** Add File: "):
			path, added = strings.TrimPrefix(l, "*** Add File: "), true
		case strings.HasPrefix(l, "*** Update File: "):
			path = strings.TrimPrefix(l, "*** Update File: ")
		case strings.HasPrefix(l, "*** Move to: "):
			path = strings.TrimPrefix(l, "*** Move to: ")
		default:
			continue
		}
		path = st.abs(strings.TrimSpace(path))
		if p.Input == "" {
			p.Input = Clean(path, MaxText)
		}
		if added {
			p.New = append(p.New, path)
		} else {
			p.Files = append(p.Files, path)
		}
	}
	return p
}

// codexOutcome reads a call's output: a hook's block ("Command blocked by PreToolUse hook:
// REASON"), a command's exit code ("Process exited with code N", apply_patch's "Exit code: N").
func codexOutcome(time, tool, out string) outcome {
	o := outcome{time: time}
	if strings.HasPrefix(out, "Command blocked by ") && strings.Contains(out, " hook: ") {
		o.by, o.reason = "hook", after(out, " hook: ")
		return o
	}
	head := out
	if i := strings.Index(head, "\nOutput:"); i >= 0 {
		head = head[:i] // the command's own output may print anything
	}
	for _, m := range []string{"Process exited with code ", "Exit code: "} {
		if n, ok := exitCode(head, m); ok {
			if n != 0 {
				o.failed, o.reason = true, exited(n)
			}
			return o
		}
	}
	if tool == "apply_patch" && !strings.Contains(out, "Success.") {
		o.failed, o.reason = true, out
	}
	return o
}

func (st *State) compaction(c Compaction) {
	if len(st.Summary.Compactions) < MaxList {
		st.Summary.Compactions = append(st.Summary.Compactions, c)
	} else {
		st.Summary.Omitted++
	}
}
