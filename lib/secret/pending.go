package secret

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/hookkit/harness/lib/state"
)

// Pending is the record of files that may still receive a blocked secret: Claude Code writes a
// blocked prompt to its transcript before the hooks run (scrubbed at once) and again after
// they answer (the block notice), so each file is scrubbed once more on a later call, from
// where the first scrub began. The record holds offsets and paths, never the secret.
type Pending struct {
	Files []PendingFile `json:"files"`
}

// PendingFile is one file to scrub again from From, first scrubbed at Since.
type PendingFile struct {
	Path  string    `json:"path"`
	From  int64     `json:"from"`
	Since time.Time `json:"since"`
}

// Settle is how long after a block its file is scrubbed once more before it is let go:
// Claude Code writes the block notice within milliseconds of the hook's answer.
const Settle = 2 * time.Second

// ScrubBlocked scrubs the tail of each file that a blocked prompt of n bytes was just written
// to, and lists them in the pending record for a second pass.
func ScrubBlocked(record string, n int, files ...string) error {
	p, _ := readPending(record)
	var errs []error
	for _, f := range files {
		if f == "" {
			continue
		}
		// A file not written yet (Claude Code may not have flushed a new session's transcript)
		// is scrubbed whole on the second pass.
		var from int64
		if st, err := os.Stat(f); err == nil {
			// The prompt was appended last, escaped: at most 6 bytes per byte (\uXXXX), plus its line.
			from = max(st.Size()-int64(6*n+64<<10), 0)
			if _, err := ScrubFile(f, from); err != nil {
				errs = append(errs, fmt.Errorf("scrubbing %s: %w", f, err))
			}
		}
		p.Files = append(p.Files, PendingFile{Path: f, From: from, Since: time.Now()})
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
	p, err := readPending(record)
	if err != nil || len(p.Files) == 0 {
		return err
	}
	var errs []error
	var keep []PendingFile
	for _, f := range p.Files {
		if _, err := ScrubFile(f.Path, f.From); err != nil && !errors.Is(err, fs.ErrNotExist) {
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
	return state.WriteFile(record, b, 0o600)
}
