package summary

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/hookkit/harness/lib/transcript"
)

// Behind reports whether the transcript the summary was written from has changed size since:
// a client that writes its transcript behind its last hook (Qwen Code at Stop, headless) or a
// session that went on without one. It costs one stat; a summary of no transcript, of a
// relative path (the hook's cwd is not this process's) or of a file gone is not behind.
func (d Doc) Behind() bool {
	if d.Transcript == "" || !filepath.IsAbs(d.Transcript) {
		return false
	}
	fi, err := os.Stat(d.Transcript)
	return err == nil && fi.Mode().IsRegular() && fi.Size() != d.TranscriptBytes
}

// ErrBudget says a catch-up did not finish within its context: the summary is left as it was,
// the checkpoint keeps the lines read so far, and the next catch-up goes on from there.
var ErrBudget = errors.New("not brought up to date within the time budget")

// CatchUp brings the summary of session id up to date with its transcript when it is Behind:
// it resumes the fold from the session's checkpoint, reads what the transcript gained, and
// rewrites the checkpoint, the summary and the index atomically, under the session's lock.
// What the hooks added (SessionEnd's end, the captured subagents, a last message the
// transcript lacks) is kept. home resolves ~ when the fold must start afresh. It returns the
// summary as it now is and whether it was rewritten; when ctx ends first (or the session's
// lock stays taken), the summary is left as it was and the error wraps ErrBudget.
func (s Store) CatchUp(ctx context.Context, id, home string) (Doc, bool, error) {
	d, ok := s.Load(id)
	if !ok || !d.Behind() {
		return d, false, nil
	}
	l := flock.New(filepath.Join(s.Dir, safe(id)) + ".lock")
	locked, err := l.TryLock()
	if err == nil && !locked {
		locked, err = l.TryLockContext(ctx, 10*time.Millisecond)
	}
	if !locked {
		if err == nil || ctx.Err() != nil {
			return d, false, fmt.Errorf("session %s: %w (its summary is being written)", id, ErrBudget)
		}
		return d, false, fmt.Errorf("locking session %s: %w", id, err)
	}
	defer l.Unlock()
	// Another hook may have caught up while this one waited.
	if d, ok = s.Load(id); !ok || !d.Behind() {
		return d, false, nil
	}
	path := d.Transcript
	sum, cp, err := transcript.FoldContext(ctx, path, s.Checkpoint(id), func() *transcript.State {
		return transcript.New(id, d.Project, home)
	})
	if err != nil && ctx.Err() != nil && cp != nil {
		// Keep the lines read: the checkpoint is at a line boundary.
		if err := s.SaveCheckpoint(id, cp); err != nil {
			return d, false, err
		}
		return d, false, fmt.Errorf("session %s: %w (read %d of its transcript's bytes, %s)", id, ErrBudget, cp.Offset, path)
	}
	if err != nil {
		return d, false, fmt.Errorf("reading transcript %s: %w", path, err)
	}
	if err := s.SaveCheckpoint(id, cp); err != nil {
		return d, false, err
	}
	nd := Doc{Summary: sum, Transcript: path, TranscriptBytes: cp.Size, DurationS: sum.Duration().Seconds(),
		Final: d.Final, EndReason: d.EndReason, Agents: s.Agents(id)}
	if nd.LastMessage == "" {
		nd.LastMessage = d.LastMessage
	}
	if err := s.Save(nd); err != nil {
		return d, false, err
	}
	return nd, true, nil
}
