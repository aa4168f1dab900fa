package audit

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/object"
	"github.com/hookkit/harness/lib/secret"
	"github.com/hookkit/harness/lib/state"
)

// Record is one line of the log.
type Record struct {
	Time    time.Time
	Project string
	Session string
	Event   string
	// Hook is the hook that wrote the record (AuditLog, or a guard recording its verdict).
	Hook      string
	Tool      string
	ToolUseID string
	// Summary is a short, redacted account of the input (the command, the file, the prompt).
	Summary string
	// DurationMS and Error come from the payload (how long the tool ran, how it failed).
	DurationMS int64
	Error      string
	// Decision, Reason and TookMS are a guard's verdict and its own time; Rule and Category
	// name the rule that decided, when the guard says (SecurityValidator, WriteProtector).
	Decision, Reason string
	Rule, Category   string
	TookMS           float64
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
	o.Set("time", r.Time.UTC().Format(time.RFC3339Nano))
	set := func(k, v string) {
		if v != "" {
			o.Set(k, v)
		}
	}
	set("project", r.Project)
	set("session", r.Session)
	set("event", r.Event)
	set("hook", r.Hook)
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
	set("reason", Clean(r.Reason, 300))
	if r.TookMS > 0 {
		o.Set("took_ms", object.Raw(fmt.Sprintf("%.2f", r.TookMS)))
	}
	return append(o.AppendJSON(nil), '\n')
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

// Append adds a record to the day's log of its project, under an exclusive lock on the file,
// in one write: parallel hooks never interleave or lose a line.
func Append(harnessHome string, r Record) error {
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	dir := Dir(harnessHome, r.Project)
	name := filepath.Join(dir, r.Time.UTC().Format("2006-01-02")+".jsonl")
	line := r.Line()
	// Open, lock, and check that the file locked is still the one at name: another writer may
	// have rotated it away while this one waited for the lock.
	for attempt := 0; attempt < 8; attempt++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if errors.Is(err, fs.ErrNotExist) {
			// The folder is made on the first record only: a stat less on every call.
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return fmt.Errorf("creating %s: %w", dir, err)
			}
			f, err = os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		}
		if err != nil {
			return fmt.Errorf("opening %s: %w", name, err)
		}
		if err := lock(f); err != nil {
			f.Close()
			return fmt.Errorf("locking %s: %w", name, err)
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(name)
		switch {
		case err1 != nil || err2 != nil || !os.SameFile(held, now):
			// rotated away: try the new file
		case held.Size() >= MaxFile:
			rotate(name)
		default:
			_, err := f.Write(line)
			unlock(f)
			f.Close()
			if err != nil {
				return fmt.Errorf("writing %s: %w", name, err)
			}
			return nil
		}
		unlock(f)
		f.Close()
	}
	return fmt.Errorf("could not append to %s: it keeps being rotated", name)
}

// rotate renames a full log to the first free name.N.jsonl, under the full file's lock.
func rotate(name string) {
	base := strings.TrimSuffix(name, ".jsonl")
	for n := 1; n < 1000; n++ {
		to := fmt.Sprintf("%s.%d.jsonl", base, n)
		if _, err := os.Stat(to); os.IsNotExist(err) {
			os.Rename(name, to)
			return
		}
	}
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
