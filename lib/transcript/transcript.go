package transcript

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/secret"
	"github.com/hookkit/harness/lib/shell"
)

// Caps keep a summary's memory and size bounded on any transcript: lists keep their first
// entries and count the rest.
const (
	MaxList    = 200   // prompts, commands, failures, blocks, subagents, compactions
	MaxFiles   = 500   // files created, files edited
	MaxPending = 10000 // tool calls waiting for their result
	MaxText    = 300   // one entry's text, in runes
	MaxLast    = 2000  // the last assistant message, in runes
	// MaxLine is the longest line read; a longer one (a huge tool output) is skipped whole.
	MaxLine = 16 << 20
)

// Summary is what a transcript says about its session. Every text in it has passed the
// secret redaction.
type Summary struct {
	Session string `json:"session_id"`
	Project string `json:"project"`
	// Format is the transcript's format (Claude, Codex, ...), "" until a line shows it.
	Format string `json:"format"`
	// Unreadable says why the transcript could not be summarised (a format this package does
	// not know), with its path: the rest of the summary is then empty, not a true zero.
	Unreadable string         `json:"unreadable,omitempty"`
	Start      string         `json:"start,omitempty"`
	End        string         `json:"end,omitempty"`
	Prompts    List           `json:"prompts"`
	Tools      map[string]int `json:"tools"`
	ToolCalls  int            `json:"tool_calls"`
	Created    List           `json:"files_created"`
	Edited     List           `json:"files_edited"`
	Commands   List           `json:"commands"`
	Failures   []Event        `json:"failures"`
	Blocked    []Event        `json:"blocked"`
	Subagents  []Subagent     `json:"subagents"`
	// Open are the items of the session's last todo list (TodoWrite) not marked completed:
	// what was left.
	Open        List         `json:"open_todos,omitzero"`
	Compactions []Compaction `json:"compactions"`
	// Omitted counts failures, blocks, subagents and compactions past MaxList.
	Omitted     int    `json:"omitted,omitempty"`
	LastMessage string `json:"last_assistant_message,omitempty"`
	// Lines is the number of lines read; Skipped those that were not JSON or were too long.
	Lines   int `json:"lines"`
	Skipped int `json:"skipped_lines"`
}

// List is a capped list of texts with the count of all that were seen.
type List struct {
	Items []string `json:"items"`
	Total int      `json:"total"`
}

func (l *List) add(s string, max int) {
	l.Total++
	if len(l.Items) < max {
		l.Items = append(l.Items, s)
	}
}

// Event is a tool call that failed or was blocked, or a hook that blocked the session.
type Event struct {
	Time      string `json:"time,omitempty"`
	Tool      string `json:"tool,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	// Input is the call's short description: the command, the file.
	Input string `json:"input,omitempty"`
	// By says who blocked: "hook", "config" (a permission rule), "user"; or the hook event
	// (Stop, ...) for a hook that blocked outside a tool call.
	By     string `json:"by,omitempty"`
	Reason string `json:"reason"`
}

// Subagent is an Agent (Task) call and what it returned.
type Subagent struct {
	ToolUseID   string `json:"tool_use_id"`
	AgentID     string `json:"agent_id,omitempty"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
	Status      string `json:"status,omitempty"`
	DurationMS  int64  `json:"duration_ms,omitempty"`
	ToolUses    int64  `json:"tool_uses,omitempty"`
	Result      string `json:"result,omitempty"`
}

// Compaction is a compact_boundary line.
type Compaction struct {
	Time      string `json:"time,omitempty"`
	Trigger   string `json:"trigger,omitempty"`
	PreTokens int64  `json:"pre_tokens,omitempty"`
}

// Duration is End minus Start, zero when either is unknown.
func (s *Summary) Duration() time.Duration {
	a, err1 := time.Parse(time.RFC3339Nano, s.Start)
	b, err2 := time.Parse(time.RFC3339Nano, s.End)
	if err1 != nil || err2 != nil || b.Before(a) {
		return 0
	}
	return b.Sub(a)
}

// State is a fold in progress: the summary so far and what it needs to go on (calls waiting
// for their result, the assistant message being assembled, the files already listed). It is
// plain data, so it can be saved as a checkpoint and resumed.
type State struct {
	Summary Summary            `json:"summary"`
	Pending map[string]Pending `json:"pending"`
	Files   map[string]bool    `json:"files"`
	// MsgID is the assistant message whose lines are being joined; MsgText its text so far.
	MsgID   string `json:"msg_id"`
	MsgText string `json:"msg_text"`
	// Home resolves ~ in Bash write targets.
	Home string `json:"home"`
	// Cwd is the working directory of the last line that gave one: Bash targets resolve
	// against it.
	Cwd string `json:"cwd,omitempty"`
	// Agent folds a subagent's own transcript, whose lines are all sidechain lines.
	Agent bool `json:"agent,omitempty"`
	// Calls are the tool calls of the message being read whose record a client rewrites as the
	// calls progress (Gemini CLI): 1 counted, 2 finished.
	Calls map[string]int `json:"calls,omitempty"`
}

// Pending is a tool call seen without its result yet.
type Pending struct {
	Tool  string   `json:"tool"`
	Input string   `json:"input,omitempty"`
	Files []string `json:"files,omitempty"`
	// Desc and Type describe an Agent call.
	Desc string `json:"desc,omitempty"`
	Type string `json:"type,omitempty"`
	// New are files the call creates whatever its result says (a patch's Add File).
	New []string `json:"new,omitempty"`
	// Hook: a hook blocked the call before its result came (droid logs the hook first).
	Hook bool `json:"hook,omitempty"`
}

// New starts a fold for a session.
func New(session, project, home string) *State {
	return &State{Summary: Summary{Session: session, Project: project, Tools: map[string]int{},
		Prompts: List{Items: []string{}}, Created: List{Items: []string{}}, Edited: List{Items: []string{}},
		Commands: List{Items: []string{}}, Failures: []Event{}, Blocked: []Event{}, Subagents: []Subagent{},
		Compactions: []Compaction{}}, Pending: map[string]Pending{}, Files: map[string]bool{}, Home: home}
}

// Clean redacts secrets, folds whitespace and caps a text at max runes.
func Clean(s string, max int) string {
	s = strings.Join(strings.Fields(secret.Redact(s)), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// firstLine is a text's first non-empty line, cleaned.
func firstLine(s string, max int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return Clean(s, max)
}

// Line folds one transcript line in. Lines that are not JSON objects are counted as skipped;
// lines of kinds it does not know are ignored.
func (st *State) Line(line []byte) {
	st.Summary.Lines++
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' || !gjson.ValidBytes(line) {
		st.Summary.Skipped++
		return
	}
	if st.Summary.Format == "" {
		// Lines before the first that shows the format are ones no reader folds.
		if st.Summary.Format = detect(line); st.Summary.Format == "" {
			return
		}
	}
	if fold := readers[st.Summary.Format]; fold != nil {
		fold(st, line)
		return
	}
	var f fields
	gjson.ParseBytes(line).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "type":
			f.typ = v.Str
		case "subtype":
			f.subtype = v.Str
		case "isSidechain":
			f.sidechain = v.Bool()
		case "isMeta":
			f.meta = v.Bool()
		case "isCompactSummary":
			f.compactSummary = v.Bool()
		case "timestamp":
			f.time = v.Str
		case "cwd":
			f.cwd = v.Str
		case "message":
			f.message = v
		case "toolUseResult":
			f.result = v
		case "permissionDecision":
			f.decision = v
		case "attachment":
			f.attachment = v
		case "compactMetadata":
			f.compact = v
		case "promptSource":
			f.system = v.Str == "system"
		}
		return true
	})
	switch f.typ {
	case "user", "assistant", "system", "attachment":
	default:
		return // bookkeeping and metadata lines
	}
	if f.sidechain && !st.Agent {
		return // subagent lines in older transcripts: the Agent call's result stands for them
	}
	if f.cwd != "" {
		st.Cwd = f.cwd
	}
	if f.time != "" {
		if st.Summary.Start == "" || f.time < st.Summary.Start {
			st.Summary.Start = f.time
		}
		if f.time > st.Summary.End {
			st.Summary.End = f.time
		}
	}
	switch f.typ {
	case "user":
		st.user(&f)
	case "assistant":
		st.assistant(&f)
	case "system":
		if f.subtype == "compact_boundary" {
			st.compaction(Compaction{Time: f.time, Trigger: f.compact.Get("trigger").Str, PreTokens: f.compact.Get("preTokens").Int()})
		}
	case "attachment":
		if f.attachment.Get("type").Str == "hook_blocking_error" {
			st.block(Event{Time: f.time, By: f.attachment.Get("hookEvent").Str}, f.attachment.Get("blockingError.blockingError").Str)
		}
	}
}

type fields struct {
	typ, subtype, time, cwd                        string
	sidechain, meta, compactSummary, system        bool
	message, result, decision, attachment, compact gjson.Result
}

func (st *State) user(f *fields) {
	content := f.message.Get("content")
	if content.Type == gjson.String {
		if strings.HasPrefix(strings.TrimSpace(content.Str), "<task-notification>") {
			st.notification(content.Str)
			return
		}
		if !f.meta && !f.compactSummary && !f.system {
			if p, ok := prompt(content.Str); ok {
				st.Summary.Prompts.add(p, MaxList)
			}
		}
		return
	}
	text := ""
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "tool_result":
			st.result(f, b)
		case "text":
			text += b.Get("text").Str + "\n"
		}
		return true
	})
	if text != "" && !f.meta && !f.compactSummary && !f.system {
		if p, ok := prompt(text); ok {
			st.Summary.Prompts.add(p, MaxList)
		}
	}
}

// notification folds a background agent's task-notification (the client's message when an
// agent launched in the background finishes) into the Agent call that started it.
func (st *State) notification(s string) {
	id := between(s, "<tool-use-id>", "</tool-use-id>")
	for i := range st.Summary.Subagents {
		a := &st.Summary.Subagents[i]
		if a.ToolUseID != id || id == "" {
			continue
		}
		a.Status = between(s, "<status>", "</status>")
		a.Result = Clean(between(s, "<result>", "</result>"), MaxText)
		if n, err := strconv.ParseInt(between(s, "<duration_ms>", "</duration_ms>"), 10, 64); err == nil {
			a.DurationMS = n
		}
		if n, err := strconv.ParseInt(between(s, "<tool_uses>", "</tool_uses>"), 10, 64); err == nil {
			a.ToolUses = n
		}
	}
}

// prompt is what the user typed, as a summary shows it: the first line of a prompt, a slash
// command as "/name args"; local command output is not a prompt.
func prompt(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "<local-command-") {
		return "", false
	}
	if i := strings.Index(s, "<command-name>"); i >= 0 {
		name := between(s[i:], "<command-name>", "</command-name>")
		args := between(s, "<command-args>", "</command-args>")
		return firstLine(strings.TrimSpace(name+" "+args), MaxText), true
	}
	p := firstLine(s, MaxText)
	return p, p != ""
}

func between(s, open, close string) string {
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	s = s[i+len(open):]
	if j := strings.Index(s, close); j >= 0 {
		return s[:j]
	}
	return s
}

func (st *State) assistant(f *fields) {
	id := f.message.Get("id").Str
	if id == "" || id != st.MsgID {
		st.MsgID, st.MsgText = id, ""
	}
	f.message.Get("content").ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			// Redacted before it is kept: the text being joined is saved in the checkpoint.
			if t := strings.TrimSpace(secret.Redact(b.Get("text").Str)); t != "" {
				if st.MsgText != "" {
					st.MsgText += "\n"
				}
				st.MsgText += t
				if r := []rune(st.MsgText); len(r) > 4*MaxLast {
					st.MsgText = string(r[:4*MaxLast])
				}
				st.Summary.LastMessage = Clean(st.MsgText, MaxLast)
			}
		case "tool_use":
			st.toolUse(f, b)
		}
		return true
	})
}

func (st *State) toolUse(f *fields, b gjson.Result) {
	name, in := b.Get("name").Str, b.Get("input")
	st.Summary.Tools[name]++
	st.Summary.ToolCalls++
	p := Pending{Tool: name}
	switch name {
	case "Bash":
		cmd := in.Get("command").Str
		p.Input = firstLine(cmd, MaxText)
		st.Summary.Commands.add(p.Input, MaxList)
		p.Files = bashWrites(cmd, st.Cwd, st.Home)
	case "Write", "Edit", "MultiEdit":
		p.Input = Clean(in.Get("file_path").Str, MaxText)
		p.Files = []string{p.Input}
	case "NotebookEdit":
		p.Input = Clean(in.Get("notebook_path").Str, MaxText)
		p.Files = []string{p.Input}
	case "Agent", "Task":
		p.Desc, p.Type = firstLine(in.Get("description").Str, MaxText), in.Get("subagent_type").Str
		p.Input = p.Desc
	case "TodoWrite":
		// Each call writes the whole list: the last one says what is still open.
		st.Summary.Open = List{}
		for _, t := range in.Get("todos").Array() {
			if t.Get("status").Str != "completed" {
				st.Summary.Open.add(firstLine(t.Get("content").Str, MaxText), MaxList)
			}
		}
	default:
		for _, k := range []string{"file_path", "path", "pattern", "url", "query"} {
			if v := in.Get(k); v.Exists() {
				p.Input = firstLine(v.String(), MaxText)
				break
			}
		}
	}
	for i, f := range p.Files {
		p.Files[i] = Clean(f, MaxText)
	}
	if id := b.Get("id").Str; id != "" && len(st.Pending) < MaxPending {
		st.Pending[id] = p
	}
}

// bashWrites lists the files a command writes, through the shell analysis the guards use;
// a command that cannot be analysed writes nothing the summary can name.
func bashWrites(cmd, cwd, home string) []string {
	a, err := shell.Analyze(cmd, shell.World{Cwd: cwd, Home: home}, shell.Limits{})
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range a.Cmds {
		for _, t := range c.Writes(home) {
			if !strings.HasPrefix(t.Path, "/dev/") && shell.Known(t.Path) {
				out = append(out, t.Path)
			}
		}
	}
	return out
}

func (st *State) result(f *fields, b gjson.Result) {
	id := b.Get("tool_use_id").Str
	p, known := st.Pending[id]
	delete(st.Pending, id)
	if !known {
		p = Pending{}
	}
	text := resultText(b.Get("content"))
	if d := f.decision.Get("decision").Str; d == "reject" || d == "deny" {
		by := f.decision.Get("source").Str
		st.block(Event{Time: f.time, Tool: p.Tool, ToolUseID: id, Input: p.Input, By: by}, text)
		return
	}
	if b.Get("is_error").Bool() {
		st.fail(Event{Time: f.time, Tool: p.Tool, ToolUseID: id, Input: p.Input}, strings.TrimPrefix(text, "Error: "))
		return
	}
	if !known {
		return
	}
	for _, file := range p.Files {
		st.file(file, p.Tool == "Write" && f.result.Get("type").Str == "create")
	}
	if p.Tool == "Agent" || p.Tool == "Task" {
		r := f.result
		out := ""
		r.Get("content").ForEach(func(_, c gjson.Result) bool {
			if c.Get("type").Str == "text" {
				out += c.Get("text").Str + "\n"
			}
			return true
		})
		if out == "" {
			out = text
		}
		s := Subagent{ToolUseID: id, AgentID: r.Get("agentId").Str, Type: p.Type, Description: p.Desc,
			Status: r.Get("status").Str, DurationMS: r.Get("totalDurationMs").Int(), ToolUses: r.Get("totalToolUseCount").Int(),
			Result: Clean(out, MaxText)}
		if t := r.Get("agentType").Str; t != "" {
			s.Type = t
		}
		if len(st.Summary.Subagents) < MaxList {
			st.Summary.Subagents = append(st.Summary.Subagents, s)
		} else {
			st.Summary.Omitted++
		}
	}
}

// file lists a written file once: as created when its first write created it, else as edited.
func (st *State) file(path string, created bool) {
	if path == "" || st.Files[path] {
		return
	}
	if len(st.Files) < 2*MaxFiles {
		st.Files[path] = true
	}
	if created {
		st.Summary.Created.add(path, MaxFiles)
	} else {
		st.Summary.Edited.add(path, MaxFiles)
	}
}

// block and fail keep an event with the first line of its reason, cleaned only when the list
// has room: redacting the reason of an event not kept is most of the cost of a long session.
func (st *State) block(e Event, reason string) {
	if len(st.Summary.Blocked) < MaxList {
		e.Reason = firstLine(reason, MaxText)
		st.Summary.Blocked = append(st.Summary.Blocked, e)
	} else {
		st.Summary.Omitted++
	}
}

// resultText is a tool_result's content as text: a string, or its text blocks joined.
func resultText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var b strings.Builder
	c.ForEach(func(_, x gjson.Result) bool {
		if x.Get("type").Str == "text" {
			b.WriteString(x.Get("text").Str)
			b.WriteByte('\n')
		}
		return true
	})
	return b.String()
}

// Result is the summary the fold has reached, with its lists in a stable order.
func (st *State) Result() Summary {
	s := st.Summary
	if s.Tools == nil {
		s.Tools = map[string]int{}
	}
	return s
}

// Checkpoint is where a fold stopped: the offset just past its last complete line, a hash of
// the bytes before it (so a rewritten file is not resumed), and the state.
type Checkpoint struct {
	Path   string `json:"path"`
	Offset int64  `json:"offset"`
	Tail   string `json:"tail"`
	State  *State `json:"state"`
	// Size is how much of the file the fold read: its size when the fold reached the end
	// (Offset and a last line still being written), Offset when it stopped before. A file
	// whose size is no longer Size has changed since.
	Size int64 `json:"size"`
}

const tailLen = 4096

// Fold reads the transcript at path from the checkpoint cp (nil: from the start) and returns
// the new checkpoint: FoldContext with no deadline.
func Fold(path string, cp *Checkpoint, fresh func() *State) (Summary, *Checkpoint, error) {
	return FoldContext(context.Background(), path, cp, fresh)
}

// checkEvery is how many lines FoldContext reads between two looks at its context.
const checkEvery = 1024

// FoldContext reads the transcript at path from the checkpoint cp (nil: from the start) and
// returns the new checkpoint. When ctx ends first, it stops at a line boundary and returns the
// checkpoint reached, valid to resume from, with ctx's error: the summary is then only
// as far as that checkpoint. A checkpoint that does not match the file (another path, a file now
// shorter, different bytes before the offset) is dropped and the file read from the start.
// A last line without its newline is still being written: it is folded into the returned
// summary when it is complete JSON, but the checkpoint stops before it. A missing file gives
// the checkpoint's summary (or an empty one): the transcript may lag behind the hook.
func FoldContext(ctx context.Context, path string, cp *Checkpoint, fresh func() *State) (Summary, *Checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			if cp == nil || cp.Path != path {
				cp = &Checkpoint{Path: path, State: fresh()}
			}
			return cp.State.Result(), cp, nil
		}
		return Summary{}, nil, err
	}
	defer f.Close()
	if cp == nil || cp.Path != path || cp.State == nil || !tailMatches(f, cp) {
		cp = &Checkpoint{Path: path, State: fresh()}
	}
	if _, err := f.Seek(cp.Offset, io.SeekStart); err != nil {
		return Summary{}, nil, err
	}
	st := cp.State
	if st.Pending == nil {
		st.Pending = map[string]Pending{}
	}
	if st.Files == nil {
		st.Files = map[string]bool{}
	}
	r := bufio.NewReaderSize(f, 256<<10)
	off, n := cp.Offset, 0
	var long []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if !tooLong {
				long = append(long, chunk...)
				if len(long) > MaxLine {
					long, tooLong = nil, true
				}
			}
			off += int64(len(chunk))
			continue
		}
		off += int64(len(chunk))
		if err == nil {
			if n++; n%checkEvery == 0 && ctx.Err() != nil {
				// Stop before this line: the checkpoint is at the one before it.
				cp.Tail, cp.Size = tailHash(f, cp.Offset), cp.Offset
				return unreadable(st.Result(), path), cp, ctx.Err()
			}
			switch {
			case tooLong || len(long)+len(chunk) > MaxLine:
				st.Summary.Lines++
				st.Summary.Skipped++
			case long != nil:
				st.Line(append(long, chunk...))
			default:
				st.Line(chunk)
			}
			long, tooLong = nil, false
			cp.Offset = off
			continue
		}
		if !errors.Is(err, io.EOF) {
			return Summary{}, nil, err
		}
		// The unterminated tail: checkpoint first, then fold a copy if it is whole.
		last := append(long, chunk...)
		cp.Tail, cp.Size = tailHash(f, cp.Offset), off
		out := st.Result()
		if len(bytes.TrimSpace(last)) > 0 && !tooLong && gjson.ValidBytes(bytes.TrimSpace(last)) {
			saved, err := cp.Encode()
			if err != nil {
				return Summary{}, nil, err
			}
			st.Line(last)
			out = st.Result()
			cp, err = Decode(saved)
			if err != nil {
				return Summary{}, nil, err
			}
		}
		return unreadable(out, path), cp, nil
	}
}

// unreadable marks a summary of a file whose lines showed no known format: its zeros are not
// the session's.
func unreadable(s Summary, path string) Summary {
	if s.Format == "" && s.Lines > 0 {
		s.Unreadable = "transcript format not supported: " + path
	}
	return s
}

// Encode saves a checkpoint.
func (cp *Checkpoint) Encode() ([]byte, error) { return json.Marshal(cp) }

// Decode loads a checkpoint saved by Encode.
func Decode(b []byte) (*Checkpoint, error) {
	var cp Checkpoint
	if err := json.Unmarshal(b, &cp); err != nil {
		return nil, err
	}
	return &cp, nil
}

// tailHash hashes up to tailLen bytes before off.
func tailHash(f *os.File, off int64) string {
	start := off - tailLen
	if start < 0 {
		start = 0
	}
	b := make([]byte, off-start)
	if _, err := f.ReadAt(b, start); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func tailMatches(f *os.File, cp *Checkpoint) bool {
	fi, err := f.Stat()
	if err != nil || fi.Size() < cp.Offset {
		return false
	}
	return cp.Offset == 0 || tailHash(f, cp.Offset) == cp.Tail
}

// ToolsByCount is the tool names sorted by count, then name.
func (s *Summary) ToolsByCount() []string {
	names := make([]string, 0, len(s.Tools))
	for n := range s.Tools {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if s.Tools[names[i]] != s.Tools[names[j]] {
			return s.Tools[names[i]] > s.Tools[names[j]]
		}
		return names[i] < names[j]
	})
	return names
}
