package audit

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/object"
	"github.com/hookkit/harness/lib/secret"
	"github.com/hookkit/harness/lib/state"
)

// Record is one line of the log.
type Record struct {
	// Seq and Prev chain the record to the one before it in its project (Append sets them):
	// Seq counts from 1 across days and rotations, Prev is the LineHash of the record before.
	Seq     int64
	Prev    string
	Time    time.Time
	Project string
	Session string
	// PromptID is the payload's prompt_id: the user prompt the call belongs to.
	PromptID string
	Event    string
	// Hook is the hook that wrote the record (AuditLog, or a guard recording its verdict).
	Hook string
	// Client is the client that made the call (claude, codex, ...: lib/dialect's names).
	// Records from before it was kept have none, and read as Unknown (ClientOf).
	Client    string
	Tool      string
	ToolUseID string
	// Summary is a short, redacted account of the input (the command, the file, the prompt).
	Summary string
	// DurationMS and Error come from the payload (how long the tool ran, how it failed).
	DurationMS int64
	Error      string
	// Decision, Reason and TookMS are a guard's verdict and its own time; Rule, Category and
	// Radius name the rule that decided and its blast radius, when the guard says
	// (SecurityValidator names all three, WriteProtector the rule).
	Decision, Reason       string
	Rule, Category, Radius string
	TookMS                 float64
	// Problems are what the hook worked around on this call: a project policy file it
	// ignored, and why (hook.Problem). Absent when there were none.
	Problems []string
}

// MaxFile is the size past which a day's log is rotated.
var MaxFile int64 = 16 << 20

// Dir is where a project's records live: $HARNESS_HOME/projects/<key>/audit (lib/state).
func Dir(harnessHome, project string) string {
	return filepath.Join(state.ProjectDir(harnessHome, project), "audit")
}

// Line renders a record as one JSON line, redacting and capping its texts.
func (r Record) Line() []byte {
	var o object.Object
	set := func(k, v string) {
		if v != "" {
			o.Set(k, v)
		}
	}
	if r.Seq > 0 {
		o.Set("seq", object.Raw(strconv.FormatInt(r.Seq, 10)))
	}
	set("prev", r.Prev)
	o.Set("time", r.Time.UTC().Format(time.RFC3339Nano))
	set("project", r.Project)
	set("session", r.Session)
	set("prompt_id", r.PromptID)
	set("event", r.Event)
	set("hook", r.Hook)
	set("client", r.Client)
	set("tool", r.Tool)
	set("tool_use_id", r.ToolUseID)
	set("summary", Clean(r.Summary, 200))
	if r.DurationMS > 0 {
		o.Set("duration_ms", int(r.DurationMS))
	}
	set("error", Clean(r.Error, 200))
	set("decision", r.Decision)
	set("rule", r.Rule)
	set("category", r.Category)
	set("radius", r.Radius)
	set("reason", Clean(r.Reason, 300))
	if r.TookMS > 0 {
		o.Set("took_ms", object.Raw(fmt.Sprintf("%.2f", r.TookMS)))
	}
	if len(r.Problems) > 0 {
		ps := make([]string, len(r.Problems))
		for i, p := range r.Problems {
			ps[i] = Clean(p, 300)
		}
		o.Set("problems", ps)
	}
	return append(o.AppendJSON(nil), '\n')
}

// Unknown is the client of a record that names none: one written before records kept it.
const Unknown = "unknown"

// ClientOf is the client a record names, Unknown when it names none.
func ClientOf(r gjson.Result) string {
	return cmp.Or(r.Get("client").Str, Unknown)
}

// Clean redacts secrets, folds the text onto one line and caps it (never mid-rune).
func Clean(s string, max int) string {
	if s == "" {
		return ""
	}
	s = strings.Join(strings.Fields(secret.Redact(s)), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// Append adds a record to its project's log, chained to the record before it. Under the
// project's lock (audit/.lock) it stamps the time (when zero), finds the chain's head at the
// tail of the newest file, sets Seq and Prev, rotates a full file and writes the line in one
// write: parallel hooks never interleave, lose a line or fork the chain, across days and
// rotations alike.
func Append(harnessHome string, r Record) error {
	dir := Dir(harnessHome, r.Project)
	l, err := lockDir(dir)
	if err != nil {
		return err
	}
	defer l.Close() // closing the lock file releases the lock
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	// The newest file is named in the lock file, so a clock set back (or a record dated in
	// the past) still appends to it and the files keep the chain's order.
	hint := newestHint(l)
	newest := hint
	if newest == "" {
		if newest, err = newestDay(dir); err != nil {
			return err
		}
	}
	day := r.Time.UTC().Format(dayLayout)
	if day < newest {
		day = newest
	}
	name := filepath.Join(dir, day+".jsonl")
	f, size, err := openLog(name)
	if err != nil {
		return err
	}
	defer func() { f.Close() }()
	var h head
	if size == 0 {
		// A new day, or a file rotated away: the head is in an older file.
		h, err = headOf(dir)
	} else {
		h, err = tail(f, size)
		// A file that cannot be rotated grows past MaxFile rather than lose the record.
		if err == nil && size >= MaxFile && rotate(name) == nil {
			f.Close()
			f, _, err = openLog(name)
			h.torn = false
		}
	}
	if err != nil {
		return err
	}
	r.Seq, r.Prev = h.seq+1, h.last
	line := r.Line()
	if h.torn {
		// A line left without its newline (a crash, an edit) stays a line of its own, which
		// verify reports; this record still goes out in one write.
		line = append([]byte{'\n'}, line...)
	}
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if day != hint {
		setNewestHint(l, day)
	}
	return nil
}

// openLog opens a day's log for reading its tail and appending, and returns its size.
func openLog(name string) (*os.File, int64, error) {
	f, err := openFile(name, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, 0, fmt.Errorf("opening %s: %w", name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("opening %s: %w", name, err)
	}
	return f, st.Size(), nil
}

// rotate renames a full log to the first free name.N.jsonl, under the project's lock.
func rotate(name string) error {
	base := strings.TrimSuffix(name, ".jsonl")
	for n := 1; n < 100000; n++ {
		to := fmt.Sprintf("%s.%d.jsonl", base, n)
		if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
			return os.Rename(name, to)
		}
	}
	return fs.ErrExist
}

// Read returns the records of every project (or one, when project is not ""), oldest first.
func Read(harnessHome, project string) ([]gjson.Result, error) {
	pattern := filepath.Join(harnessHome, "projects", "*", "audit", "*.jsonl")
	if project != "" {
		pattern = filepath.Join(Dir(harnessHome, project), "*.jsonl")
	}
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	var out []gjson.Result
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if gjson.ValidBytes(sc.Bytes()) {
				out = append(out, gjson.ParseBytes(append([]byte(nil), sc.Bytes()...)))
			}
		}
		f.Close()
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Get("time").Str < out[j].Get("time").Str })
	return out, nil
}
