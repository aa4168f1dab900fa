package transcript

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// The formats a transcript can be in: one per client, named as on a hook's command line.
const (
	Claude  = "claude"  // Claude Code: ~/.claude/projects/<key>/<session>.jsonl
	Codex   = "codex"   // Codex CLI's rollout: ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl
	Gemini  = "gemini"  // Gemini CLI's chat: ~/.gemini/tmp/<dir>/chats/session-*.jsonl
	Qwen    = "qwen"    // Qwen Code's chat: ~/.qwen/projects/<key>/chats/<session>.jsonl
	Copilot = "copilot" // Copilot CLI's event log: ~/.copilot/session-state/<session>/events.jsonl
	Droid   = "droid"   // droid's session: ~/.factory/sessions/<key>/<session>.jsonl
	Kimi    = "kimi"    // Kimi Code's wire file: ~/.kimi-code/sessions/wd_<dir>_<hash>/<session>/agents/main/wire.jsonl
)

// readers fold one line of each format other than Claude Code's (Line's own).
var readers = map[string]func(*State, []byte){
	Codex: (*State).codex, Gemini: (*State).gemini, Qwen: (*State).qwen,
	Copilot: (*State).copilot, Droid: (*State).droid, Kimi: (*State).kimi,
}

// Line types that name their format on their own.
var (
	codexTypes  = set("session_meta", "response_item", "event_msg", "turn_context", "compacted", "world_state", "token_usage_record")
	claudeTypes = set("user", "assistant", "system", "attachment", "summary", "queue-operation", "file-history-snapshot",
		"custom-title", "ai-title", "last-prompt", "permission-mode", "tag", "agent-name", "pr-link", "progress")
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// detect is the format a line shows by its shape, "" when it shows none. Shapes are checked
// from the most specific: Qwen's lines look like Claude Code's but for their parts and
// provenance, and droid's hold Claude Code's content blocks in another envelope.
func detect(line []byte) string {
	r := gjson.GetManyBytes(line, "type", "payload", "$set", "projectHash", "provenance", "message.parts",
		"toolCallResult", "data", "message.role", "content", "message", "protocol_version", "agentId")
	typ := r[0].Str
	switch {
	case typ == "metadata" && r[11].Exists() || strings.Contains(typ, ".") && r[12].Exists() && !r[7].Exists():
		return Kimi
	case codexTypes[typ] && r[1].Exists():
		return Codex
	case r[2].Exists() || r[3].Exists() || typ == geminiReply || (typ == "user" && r[9].Exists() && !r[10].Exists()):
		return Gemini
	case r[4].Exists() || r[5].Exists() || r[6].Exists():
		return Qwen
	case strings.Contains(typ, ".") && r[7].IsObject():
		return Copilot
	case typ == "session_start" || (typ == "message" && r[8].Exists()):
		return Droid
	case claudeTypes[typ]:
		return Claude
	}
	return ""
}

// at widens the session's span to a line's time.
func (st *State) at(t string) {
	if t == "" {
		return
	}
	if st.Summary.Start == "" || t < st.Summary.Start {
		st.Summary.Start = t
	}
	if t > st.Summary.End {
		st.Summary.End = t
	}
}

func (st *State) prompt(s string) {
	if p, ok := prompt(s); ok {
		st.Summary.Prompts.add(p, MaxList)
	}
}

// reply keeps an assistant message as the last one, when it has text.
func (st *State) reply(s string) {
	if t := Clean(s, MaxLast); t != "" {
		st.Summary.LastMessage = t
	}
}

// call counts a tool call and keeps it until its result. Its tool is Claude Code's name when
// the client's tool is one of Claude Code's (a shell is Bash, a new file Write), so summaries
// read the same in every client.
func (st *State) call(id string, p Pending) {
	st.Summary.Tools[p.Tool]++
	st.Summary.ToolCalls++
	if p.Tool == "Bash" {
		st.Summary.Commands.add(p.Input, MaxList)
	}
	for i, f := range p.Files {
		p.Files[i] = Clean(f, MaxText)
	}
	for i, f := range p.New {
		p.New[i] = Clean(f, MaxText)
	}
	if id != "" && len(st.Pending) < MaxPending {
		st.Pending[id] = p
	}
}

// dir is the directory relative paths resolve against: the last cwd seen, else the project.
func (st *State) dir() string {
	if st.Cwd != "" {
		return st.Cwd
	}
	return st.Summary.Project
}

// shell is a shell command's call; in is a directory the client runs it in, if not the cwd.
func (st *State) shell(cmd, in string) Pending {
	cwd := st.dir()
	if in != "" {
		cwd = st.abs(in)
	}
	return Pending{Tool: "Bash", Input: firstLine(cmd, MaxText), Files: bashWrites(cmd, cwd, st.Home)}
}

// write is a call of a tool that writes the file at path.
func (st *State) write(tool, path string) Pending {
	path = st.abs(path)
	return Pending{Tool: tool, Input: Clean(path, MaxText), Files: []string{path}}
}

// other is a call of any other tool, described by the first of its usual arguments.
// clientTool is a call of a client's own tool in Claude Code's terms, read through the
// client's dialect: lib/dialect holds the one table of each client's tool and argument names.
// A format two clients share (Gemini's and Qwen's chats) passes both.
func (st *State) clientTool(name string, args gjson.Result, clients ...dialect.Client) Pending {
	var ds []*dialect.Dialect
	for _, c := range clients {
		if d, err := dialect.Lookup(string(c)); err == nil {
			ds = append(ds, d)
		}
	}
	for _, d := range ds {
		tool, ok := d.Tools[name]
		if !ok {
			continue
		}
		arg := func(claude string) string {
			for from, to := range d.Args[tool] {
				if v := args.Get(from); to == claude && v.Exists() {
					return v.Str
				}
			}
			return args.Get(claude).Str
		}
		switch tool {
		case "Bash":
			dir := ""
			for _, d := range ds {
				if dir == "" && d.Dir != "" {
					dir = args.Get(d.Dir).Str
				}
			}
			return st.shell(arg("command"), dir)
		case "Write", "Edit", "MultiEdit":
			return st.write(tool, arg("file_path"))
		}
		return other(tool, args)
	}
	return other(name, args)
}

func other(tool string, in gjson.Result) Pending {
	p := Pending{Tool: tool}
	for _, k := range []string{"file_path", "path", "absolute_path", "pattern", "url", "query", "dir_path", "description"} {
		if v := in.Get(k); v.Exists() {
			p.Input = firstLine(v.String(), MaxText)
			break
		}
	}
	if tool == "Agent" {
		p.Desc, p.Type = p.Input, in.Get("subagent_type").Str
	}
	return p
}

func (st *State) abs(p string) string {
	if p == "" || filepath.IsAbs(p) || st.dir() == "" {
		return p
	}
	return filepath.Join(st.dir(), p)
}

// outcome is how a tool call ended, in a format other than Claude Code's.
type outcome struct {
	time string
	// by says who blocked the call ("hook", "config"): it did not run.
	by     string
	failed bool
	reason string
	// created: the call's files are new.
	created bool
}

// done folds a call's outcome in: a block, a failure, or the files it wrote.
func (st *State) done(id string, o outcome) {
	p, known := st.Pending[id]
	delete(st.Pending, id)
	e := Event{Time: o.time, Tool: p.Tool, ToolUseID: id, Input: p.Input}
	switch {
	case o.by != "" || p.Hook:
		if e.By = o.by; e.By == "" {
			e.By = "hook"
		}
		st.block(e, o.reason)
	case o.failed:
		st.fail(e, o.reason)
	case known:
		for _, f := range p.New {
			st.file(f, true)
		}
		for _, f := range p.Files {
			st.file(f, o.created)
		}
	}
}

func (st *State) fail(e Event, reason string) {
	if len(st.Summary.Failures) < MaxList {
		e.Reason = firstLine(reason, MaxText)
		st.Summary.Failures = append(st.Summary.Failures, e)
	} else {
		st.Summary.Omitted++
	}
}

// exitCode is the number after marker in s (a shell's "Exit Code: 1"), ok when there is one.
func exitCode(s, marker string) (int, bool) {
	i := strings.Index(s, marker)
	if i < 0 {
		return 0, false
	}
	s = strings.TrimLeft(s[i+len(marker):], " ")
	j := 0
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || j == 0 && s[j] == '-') {
		j++
	}
	n, err := strconv.Atoi(s[:j])
	return n, err == nil
}

// exited is a shell's failure as Claude Code words it, "Exit code N".
func exited(n int) string { return "Exit code " + strconv.Itoa(n) }

// after is the text after the first sep in s, or s.
func after(s, sep string) string {
	if i := strings.Index(s, sep); i >= 0 {
		return s[i+len(sep):]
	}
	return s
}

// strip removes every <tag>...</tag> block from s: context a client or a hook added to a prompt.
func strip(s, tag string) string {
	open, end := "<"+tag+">", "</"+tag+">"
	for {
		i := strings.Index(s, open)
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], end)
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+j+len(end):]
	}
}

// contextBlock says whether a text is context a client adds to a conversation (an
// <environment_context> block, a system reminder), not what the user typed.
func contextBlock(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">") || strings.HasPrefix(s, "# AGENTS.md instructions")
}

// pick is the values of keys in a JSON object, read in one pass. gjson's GetMany reads the
// object once per key, and a key that is not there costs a read of the whole object: on lines
// dense with tool calls that was most of a reader's time. The values come back in an array,
// on the caller's stack: a slice per object was a third of a chat file's allocations.
func pick(obj gjson.Result, keys ...string) (out [maxPick]gjson.Result) {
	obj.ForEach(func(k, v gjson.Result) bool {
		for i, key := range keys {
			if k.Str == key {
				out[i] = v
				break
			}
		}
		return true
	})
	return out
}

// maxPick is the most keys pick reads at once (a caller asking for more panics in its tests).
const maxPick = 7
