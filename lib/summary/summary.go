package summary

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/state"
	"github.com/hookkit/harness/lib/transcript"
)

// DefaultKeep is how many sessions a project keeps unless the configuration says otherwise.
const DefaultKeep = 200

// Retention is how many sessions a project keeps: the configuration's summary.keep
// (lib/config), else DefaultKeep.
func Retention(s config.Scopes) int {
	return config.Load(s).Int("summary.keep", DefaultKeep)
}

// Dir is where a project's sessions live: $HARNESS_HOME/projects/<key>/sessions, keyed like
// Claude Code's own project folders, never inside the user's repository.
func Dir(harnessHome, project string) string {
	return filepath.Join(state.ProjectDir(harnessHome, project), "sessions")
}

// safe is an id as a file name (lib/state).
func safe(id string) string { return state.SafeName(id) }

// Doc is a session's summary as written: the transcript's summary and what the hooks add.
type Doc struct {
	transcript.Summary
	Transcript string `json:"transcript"`
	// TranscriptBytes is the transcript's size when the summary's fold read it (the
	// checkpoint's Size): a transcript of another size now has changed since (CatchUp).
	TranscriptBytes int64   `json:"transcript_bytes"`
	DurationS       float64 `json:"duration_seconds"`
	// Final is set by SessionEnd, with the reason it gave.
	Final     bool    `json:"final"`
	EndReason string  `json:"end_reason,omitempty"`
	Agents    []Agent `json:"captured_agents"`
}

// Agent is one subagent run captured at SubagentStop.
type Agent struct {
	AgentID     string             `json:"agent_id"`
	Type        string             `json:"agent_type,omitempty"`
	Session     string             `json:"session_id"`
	Transcript  string             `json:"agent_transcript,omitempty"`
	Start       string             `json:"start,omitempty"`
	End         string             `json:"end,omitempty"`
	DurationS   float64            `json:"duration_seconds"`
	LastMessage string             `json:"last_assistant_message,omitempty"`
	Work        transcript.Summary `json:"work"`
}

// Paths of a session's files.
func (s Store) md(id string) string     { return filepath.Join(s.Dir, safe(id)+".md") }
func (s Store) js(id string) string     { return filepath.Join(s.Dir, safe(id)+".json") }
func (s Store) cp(id string) string     { return filepath.Join(s.Dir, safe(id)+".checkpoint") }
func (s Store) agents(id string) string { return filepath.Join(s.Dir, safe(id)+".agents") }

// Store is one project's sessions folder.
type Store struct {
	Dir  string
	Keep int
}

// Open returns the store of a project.
func Open(harnessHome, project string, keep int) Store {
	if keep <= 0 {
		keep = DefaultKeep
	}
	return Store{Dir: Dir(harnessHome, project), Keep: keep}
}

// LockSession serialises the hooks that update one session (Stop, SessionEnd, parallel runs).
func (s Store) LockSession(id string) (func(), error) {
	l, err := state.Lock(filepath.Join(s.Dir, safe(id)))
	if err != nil {
		return nil, err
	}
	return func() { l.Unlock() }, nil
}

// Checkpoint loads the saved checkpoint of a session; a missing or unreadable one is nil.
func (s Store) Checkpoint(id string) *transcript.Checkpoint {
	b, err := os.ReadFile(s.cp(id))
	if err != nil {
		return nil
	}
	cp, err := transcript.Decode(b)
	if err != nil {
		return nil
	}
	return cp
}

// SaveCheckpoint writes a session's checkpoint.
func (s Store) SaveCheckpoint(id string, cp *transcript.Checkpoint) error {
	b, err := cp.Encode()
	if err != nil {
		return err
	}
	return state.Write(s.cp(id), b, 0o600)
}

// Agents lists the subagent runs captured for a session, in agent id order.
func (s Store) Agents(id string) []Agent {
	files, _ := filepath.Glob(filepath.Join(s.agents(id), "*.json"))
	sort.Strings(files)
	out := []Agent{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var a Agent
		if json.Unmarshal(b, &a) == nil {
			out = append(out, a)
		}
	}
	return out
}

// SaveAgent writes a captured subagent run: Markdown and JSON, in the session's agents folder.
func (s Store) SaveAgent(a Agent) (string, error) {
	dir := s.agents(a.Session)
	b, err := marshal(a)
	if err != nil {
		return "", err
	}
	if err := state.Write(filepath.Join(dir, safe(a.AgentID)+".json"), b, 0o600); err != nil {
		return "", err
	}
	md := filepath.Join(dir, safe(a.AgentID)+".md")
	return md, state.Write(md, RenderAgent(a), 0o600)
}

// Save writes a session's summary (Markdown and JSON) and updates the index under its lock,
// dropping the oldest sessions past the retention limit.
func (s Store) Save(d Doc) error {
	if d.Agents == nil {
		d.Agents = []Agent{}
	}
	b, err := marshal(d)
	if err != nil {
		return err
	}
	if err := state.Write(s.js(d.Session), b, 0o600); err != nil {
		return err
	}
	if err := state.Write(s.md(d.Session), Render(d), 0o600); err != nil {
		return err
	}
	return s.index(d)
}

// Entry is one session in the index.
type Entry struct {
	Session     string `json:"session_id"`
	Start       string `json:"start,omitempty"`
	End         string `json:"end,omitempty"`
	Final       bool   `json:"final"`
	FirstPrompt string `json:"first_prompt,omitempty"`
	ToolCalls   int    `json:"tool_calls"`
	Summary     string `json:"summary"`
}

func (s Store) indexPath() string { return filepath.Join(s.Dir, "index.json") }

// Index reads the project's index, newest first.
func (s Store) Index() ([]Entry, error) {
	b, err := os.ReadFile(s.indexPath())
	if errors.Is(err, os.ErrNotExist) {
		return []Entry{}, nil
	}
	if err != nil {
		return nil, err
	}
	var es []Entry
	if err := json.Unmarshal(b, &es); err != nil {
		return nil, fmt.Errorf("%s: %w", s.indexPath(), err)
	}
	return es, nil
}

func (s Store) index(d Doc) error {
	l, err := state.Lock(s.indexPath())
	if err != nil {
		return err
	}
	defer l.Unlock()
	es, err := s.Index()
	if err != nil {
		es = []Entry{} // a damaged index is rebuilt from the sessions that report in
	}
	e := Entry{Session: d.Session, Start: d.Start, End: d.End, Final: d.Final, ToolCalls: d.ToolCalls,
		Summary: filepath.Base(s.md(d.Session))}
	if len(d.Prompts.Items) > 0 {
		e.FirstPrompt = d.Prompts.Items[0]
	}
	out := []Entry{e}
	for _, x := range es {
		if x.Session != d.Session {
			out = append(out, x)
		}
	}
	// The session being saved always stays; the oldest of the others go past the limit.
	others := out[1:]
	sort.SliceStable(others, func(i, j int) bool { return newer(others[i], others[j]) })
	for _, x := range others[min(len(others), s.Keep-1):] {
		s.remove(x.Session)
	}
	out = out[:min(len(out), s.Keep)]
	sort.SliceStable(out, func(i, j int) bool { return newer(out[i], out[j]) })
	b, err := marshal(out)
	if err != nil {
		return err
	}
	return state.Write(s.indexPath(), b, 0o600)
}

// newer orders sessions by their last activity (then start), newest first.
func newer(a, b Entry) bool {
	ka, kb := a.End, b.End
	if ka == "" {
		ka = a.Start
	}
	if kb == "" {
		kb = b.Start
	}
	if ka != kb {
		return ka > kb
	}
	return a.Session > b.Session
}

func (s Store) remove(id string) {
	for _, p := range []string{s.md(id), s.js(id), s.cp(id), filepath.Join(s.Dir, safe(id)+".lock")} {
		os.Remove(p)
	}
	os.RemoveAll(s.agents(id))
}

// Newest returns the newest session's summary of a project (for LoadContext): its JSON twin
// and the path of its Markdown; ok is false when the project has none. skip names a session
// to pass over (the one starting now).
func Newest(harnessHome, project, skip string) (Doc, string, bool) {
	s := Open(harnessHome, project, 0)
	es, err := s.Index()
	if err != nil {
		return Doc{}, "", false
	}
	for _, e := range es {
		if e.Session == skip {
			continue
		}
		if d, ok := s.Load(e.Session); ok {
			return d, s.md(e.Session), true
		}
	}
	return Doc{}, "", false
}

// marshal is indented JSON with a final newline, HTML characters left as they are.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// code is a Markdown code span that holds s whatever backticks it contains.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// Load reads a session's saved JSON summary.
func (s Store) Load(id string) (Doc, bool) {
	var d Doc
	b, err := os.ReadFile(s.js(id))
	if err != nil || json.Unmarshal(b, &d) != nil {
		return Doc{}, false
	}
	return d, true
}
