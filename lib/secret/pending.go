package secret

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/state"
)

// Pending is the record of files that may still hold a blocked secret: Claude Code writes a
// blocked prompt to its transcript before the hooks run (scrubbed at once) and again after
// they answer (the block notice), so each file is scrubbed once more on a later call, from
// where the first scrub began. The record holds paths and offsets, never the secret.
type Pending struct {
	Files []PendingFile `json:"files"`
}

// PendingFile is one file to scrub again from From, first scrubbed at Since. A transcript is
// scrubbed only in the lines that carry a prompt; the prompt history, which holds every
// project's prompts, only in the entries the blocked session wrote from shortly before the block.
type PendingFile struct {
	Path       string    `json:"path"`
	From       int64     `json:"from"`
	Since      time.Time `json:"since"`
	Transcript bool      `json:"transcript,omitempty"`
	Session    string    `json:"session,omitempty"`
}

// Settle is how long after a block its file is scrubbed once more before it is let go:
// Claude Code writes the block notice within milliseconds of the hook's answer.
const Settle = 2 * time.Second

// PromptLine reports a transcript line that carries a prompt the user submitted: the queue
// entry, the block notice, the last-prompt marker, or a user message written as text. Tool
// results, the model's messages and everything else are left as they are, so a secret the
// session legitimately read (a config file's contents) is never masked behind its back.
func PromptLine(line []byte) bool {
	v := gjson.GetManyBytes(line, "type", "subtype", "message.content")
	switch v[0].Str {
	case "queue-operation", "last-prompt":
		return true
	case "system":
		return v[1].Str == "informational"
	case "user":
		return v[2].Type == gjson.String
	}
	return false
}

// ScrubBlocked scrubs the tail of a transcript and of a prompt history that a blocked prompt of
// n bytes, in session, may just have been written to, and lists them in the record for a
// second pass. Either file may be "" (skipped); a file not written yet (Claude Code may not
// have flushed a new session's transcript) is scrubbed whole on the second pass.
func ScrubBlocked(record, session string, n int, transcript, history string) error {
	unlock, err := lock(record)
	if err != nil {
		return err
	}
	defer unlock()
	p, _ := readPending(record)
	var errs []error
	now := time.Now()
	for _, f := range []PendingFile{{Path: transcript, Transcript: true}, {Path: history, Session: session}} {
		f.Since = now
		if f.Path == "" {
			continue
		}
		if st, err := os.Stat(f.Path); err == nil {
			// The prompt was appended last, escaped: at most 6 bytes per byte (\uXXXX), plus its line.
			f.From = max(st.Size()-int64(6*n+64<<10), 0)
			if _, err := ScrubFile(f.Path, f.From, f.filter()); err != nil {
				errs = append(errs, fmt.Errorf("scrubbing %s: %w", f.Path, err))
			}
		}
		p.Files = append(p.Files, f)
	}
	if err := writePending(record, p); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// ScrubPending scrubs the files in the record again from where each was first scrubbed. Files
// blocked at least Settle ago (or all, with final) are then dropped from the record; a record
// left empty is removed. A missing record is the usual case and costs one failed open.
func ScrubPending(record string, final bool) error {
	if _, err := os.Stat(record); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := lock(record)
	if err != nil {
		return err
	}
	defer unlock()
	p, err := readPending(record)
	if err != nil || len(p.Files) == 0 {
		return err
	}
	var errs []error
	var keep []PendingFile
	for _, f := range p.Files {
		if _, err := ScrubFile(f.Path, f.From, f.filter()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("scrubbing %s: %w", f.Path, err))
		}
		if !final && time.Since(f.Since) < Settle {
			keep = append(keep, f)
		}
	}
	p.Files = keep
	if err := writePending(record, p); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (f PendingFile) filter() func([]byte) bool {
	if f.Transcript {
		return PromptLine
	}
	// A history entry: {"display": ..., "pastedContents": ..., "timestamp": <ms>, "sessionId": ...}.
	after := f.Since.Add(-historySlack).UnixMilli()
	return func(line []byte) bool {
		v := gjson.GetManyBytes(line, "sessionId", "timestamp")
		// Without a session to go by (an empty id), the entries stamped around the block.
		return (f.Session == "" || v[0].Str == f.Session) && v[1].Int() >= after
	}
}

// historySlack is how long before SecretGuard saw a prompt its history entry may be stamped.
const historySlack = 10 * time.Second

// lock serialises the record's read-modify-write between a session's parallel hook calls; the
// lock file is one per directory of records.
func lock(record string) (func(), error) {
	l, err := state.Lock(filepath.Join(filepath.Dir(record), "records"))
	if err != nil {
		return nil, err
	}
	return func() { l.Unlock() }, nil
}

func readPending(record string) (Pending, error) {
	var p Pending
	b, err := os.ReadFile(record)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return Pending{}, fmt.Errorf("%s: %w", record, err)
	}
	return p, nil
}

func writePending(record string, p Pending) error {
	if len(p.Files) == 0 {
		if err := os.Remove(record); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return state.Write(record, b, 0o600)
}
