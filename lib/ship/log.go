package ship

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/state"
)

// CheckpointFile is the checkpoint's name in a project's audit folder.
const CheckpointFile = "shipped.json"

// maxLine is the longest line read as a record: a longer one is malformed (lib/audit writes
// lines of a few hundred bytes) and is hashed and skipped without being held in memory.
const maxLine = 1 << 20

// Checkpoint is where the last accepted batch ended. The line's id (and its seq, when it has
// one) is what counts; File, Start and Offset are a hint that holds until rotation renames
// the file, after which the line is looked for by its id.
type Checkpoint struct {
	ID     string `json:"id,omitempty"`
	Seq    int64  `json:"seq,omitempty"`
	File   string `json:"file,omitempty"`
	Start  int64  `json:"start,omitempty"`
	Offset int64  `json:"offset,omitempty"`
	// Shipped counts the records accepted since the first run; Skipped the malformed lines
	// passed over.
	Shipped int64 `json:"shipped"`
	Skipped int64 `json:"skipped,omitempty"`
	// Time is the last run's; Error its one-line failure ("" when it shipped everything).
	Time  string `json:"time,omitempty"`
	Error string `json:"error,omitempty"`
}

// ReadCheckpoint is the checkpoint of an audit folder; ok is false when there is none yet.
func ReadCheckpoint(dir string) (cp Checkpoint, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(dir, CheckpointFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Checkpoint{}, false, nil
	}
	if err != nil {
		return Checkpoint{}, false, err
	}
	if err := json.Unmarshal(b, &cp); err != nil {
		return Checkpoint{}, false, fmt.Errorf("%s: %w", filepath.Join(dir, CheckpointFile), err)
	}
	return cp, true, nil
}

func writeCheckpoint(dir string, cp Checkpoint) error {
	b, err := json.MarshalIndent(cp, "", "  ")
	if err != nil {
		return err
	}
	return state.Write(filepath.Join(dir, CheckpointFile), append(b, '\n'), 0o600)
}

// LineID is a record's stable id: the lowercase hex SHA-256 of its line without the newline,
// the hash the next record's prev holds (lib/audit's).
func LineID(line []byte) string { return audit.LineHash(line) }

// logFile is one file of a folder's snapshot.
type logFile struct {
	name string // base name
	day  string
	info fs.FileInfo
	size int64 // the size when the snapshot was taken: what is read of it
}

// snapshot lists a folder's log files in the order of their records (lib/audit's chain order:
// by day, then the rotated files .1, .2, ..., then the day's current file). Records appended
// after it wait for the next run.
func snapshot(dir string) ([]logFile, error) {
	names, err := audit.Files(dir)
	if err != nil {
		return nil, err
	}
	var out []logFile
	for _, name := range names {
		info, err := os.Lstat(filepath.Join(dir, name))
		if err != nil || !info.Mode().IsRegular() {
			continue // removed since the listing, or not a plain file
		}
		out = append(out, logFile{name: name, day: audit.DayOf(name), info: info, size: info.Size()})
	}
	return out, nil
}

// open opens a snapshot's file, following it when rotation has renamed it since.
func open(dir string, f logFile) (*os.File, error) {
	h, err := os.Open(filepath.Join(dir, f.name))
	if err == nil {
		if st, err := h.Stat(); err == nil && os.SameFile(st, f.info) {
			return h, nil
		}
		h.Close()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && os.SameFile(info, f.info) {
			return os.Open(filepath.Join(dir, e.Name()))
		}
	}
	return nil, fmt.Errorf("%s: gone since the listing", filepath.Join(dir, f.name))
}

// line is one complete line of the log.
type line struct {
	file       int // index in the snapshot
	start, end int64
	id         string
	// text is the line without its newline, valid only during the callback; nil for a line
	// longer than maxLine.
	text []byte
}

// each calls fn on every complete line from file index fi at offset off to the end of the
// snapshot, until fn returns false. A last line without its newline (being written) is not
// read.
func each(dir string, files []logFile, fi int, off int64, fn func(line) (bool, error)) error {
	h := sha256.New()
	var long []byte
	for ; fi < len(files); fi, off = fi+1, 0 {
		f := files[fi]
		if off >= f.size {
			continue
		}
		fh, err := open(dir, f)
		if err != nil {
			return err
		}
		more, err := eachIn(fh, f.size, off, func(start, end int64, text []byte) (bool, error) {
			return fn(line{file: fi, start: start, end: end, id: idOf(h, &long, text), text: text})
		}, h, &long)
		fh.Close()
		if err != nil {
			return fmt.Errorf("reading %s: %w", filepath.Join(dir, f.name), err)
		}
		if !more {
			return nil
		}
	}
	return nil
}

// idOf is the id of a line handed whole (h unused) or, for a line read in pieces, of what h
// has taken in.
func idOf(h hash.Hash, long *[]byte, text []byte) string {
	if *long == nil && text != nil {
		return LineID(text)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// eachIn reads the lines of one file between off and size. A line longer than the reader's
// buffer is hashed piece by piece into h and gathered in *long up to maxLine.
func eachIn(r io.ReaderAt, size, off int64, fn func(start, end int64, text []byte) (bool, error), h hash.Hash, long *[]byte) (bool, error) {
	br := bufio.NewReaderSize(io.NewSectionReader(r, off, size-off), 64<<10)
	pos, start := off, off
	var pieces bool // the current line came in more than one read
	over := false
	for {
		chunk, err := br.ReadSlice('\n')
		pos += int64(len(chunk))
		switch {
		case err == nil:
			text := chunk[:len(chunk)-1]
			if pieces {
				h.Write(text)
				if !over {
					*long = append(*long, text...)
				}
				text = *long
				if over {
					text = nil
				}
			}
			more, ferr := fn(start, pos, text)
			if ferr != nil || !more {
				return false, ferr
			}
			h.Reset()
			*long, pieces, over, start = nil, false, false, pos
		case errors.Is(err, bufio.ErrBufferFull):
			if !pieces {
				h.Reset()
				*long = []byte{}
				pieces = true
			}
			h.Write(chunk)
			if !over && len(*long)+len(chunk) <= maxLine {
				*long = append(*long, chunk...)
			} else {
				over, *long = true, []byte{}
			}
		case errors.Is(err, io.EOF):
			h.Reset()
			*long = nil
			return true, nil // a line without its newline yet: the next run reads it
		default:
			return false, err
		}
	}
}

// record is a line read as an audit record; ok is false for a malformed one (not a JSON
// object with an RFC 3339 time).
func record(text []byte) (r gjson.Result, t time.Time, ok bool) {
	if text == nil || !gjson.ValidBytes(text) {
		return r, t, false
	}
	r = gjson.ParseBytes(text)
	if !r.IsObject() {
		return r, t, false
	}
	t, err := time.Parse(time.RFC3339Nano, r.Get("time").Str)
	return r, t, err == nil
}

// head is the chain's head in the snapshot: the id and seq of its last well-formed record.
func head(dir string, files []logFile) (id string, seq int64, ok bool) {
	for fi := len(files) - 1; fi >= 0; fi-- {
		fh, err := open(dir, files[fi])
		if err != nil {
			continue
		}
		id, seq, ok = lastRecord(fh, files[fi].size)
		fh.Close()
		if ok {
			return id, seq, true
		}
	}
	return "", 0, false
}

// lastRecord reads a file backwards from size, a window at a time, for its last well-formed
// record.
func lastRecord(r io.ReaderAt, size int64) (string, int64, bool) {
	for window := int64(64 << 10); ; window *= 4 {
		from := max(size-window, 0)
		buf := make([]byte, size-from)
		if _, err := r.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
			return "", 0, false
		}
		end := bytes.LastIndexByte(buf, '\n') // past it: a line still being written
		for end >= 0 {
			start := bytes.LastIndexByte(buf[:end], '\n') + 1
			if start == 0 && from > 0 {
				break // the line may begin before the window
			}
			if rec, _, ok := record(buf[start:end]); ok {
				return LineID(buf[start:end]), rec.Get("seq").Int(), true
			}
			end = start - 1
		}
		if from == 0 {
			return "", 0, false
		}
	}
}

// locate finds where to resume after the checkpoint: the hint when the line is still there,
// else the line found by its id in the day's other files (rotation renamed the file) or in
// the whole log. A checkpoint whose line is gone resumes after its seq, or from the start;
// note says so.
func locate(dir string, files []logFile, cp Checkpoint) (fi int, off int64, note string, err error) {
	if cp.ID == "" {
		return 0, 0, "", nil
	}
	day := audit.DayOf(cp.File)
	var tried []int
	for i := len(files) - 1; i >= 0; i-- {
		if files[i].name == cp.File {
			tried = append([]int{i}, tried...)
		} else if files[i].day == day {
			tried = append(tried, i)
		}
	}
	for _, i := range tried {
		if lineAt(dir, files[i], cp) {
			return i, cp.Offset, "", nil
		}
	}
	// The first line with the id, unless one also ends where the checkpoint says: identical
	// lines (possible without a seq) are sent twice rather than skipped.
	found := false
	err = each(dir, files, 0, 0, func(l line) (bool, error) {
		if l.id != cp.ID {
			return true, nil
		}
		if !found || l.end == cp.Offset {
			fi, off, found = l.file, l.end, true
		}
		return l.end != cp.Offset, nil
	})
	if err != nil || found {
		return fi, off, "", err
	}
	if cp.Seq > 0 {
		err = each(dir, files, 0, 0, func(l line) (bool, error) {
			if rec, _, ok := record(l.text); ok && rec.Get("seq").Int() > cp.Seq {
				fi, off, found = l.file, l.start, true
				return false, nil
			}
			return true, nil
		})
		if err != nil {
			return 0, 0, "", err
		}
		if !found {
			fi, off = len(files), 0
		}
		return fi, off, fmt.Sprintf("the last shipped record (seq %d) is no longer in the log: resuming after its seq (harness audit verify tells what changed)", cp.Seq), nil
	}
	return 0, 0, "the last shipped record is no longer in the log: shipping the whole log again (a backend that dedups by harness.record.id counts each record once)", nil
}

// lineAt reports whether the checkpoint's line is in f where the checkpoint says.
func lineAt(dir string, f logFile, cp Checkpoint) bool {
	n := cp.Offset - cp.Start
	if cp.Start < 0 || n <= 0 || cp.Offset > f.size {
		return false
	}
	fh, err := open(dir, f)
	if err != nil {
		return false
	}
	defer fh.Close()
	var b [1]byte
	if _, err := fh.ReadAt(b[:], cp.Offset-1); err != nil || b[0] != '\n' {
		return false
	}
	if cp.Start > 0 {
		if _, err := fh.ReadAt(b[:], cp.Start-1); err != nil || b[0] != '\n' {
			return false
		}
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(fh, cp.Start, n-1)); err != nil {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == cp.ID
}

// Failures are the projects whose last shipping run failed, one line each with the reason the
// endpoint gave and when (for harness doctor): their records are kept and go with the next
// run that gets through.
func Failures(harnessHome string) []string {
	dirs, _ := Folders(harnessHome)
	var out []string
	for _, dir := range dirs {
		cp, ok, err := ReadCheckpoint(dir)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("%s: %v", filepath.Base(filepath.Dir(dir)), err))
		case ok && cp.Error != "":
			out = append(out, fmt.Sprintf("%s: audit records not shipped (last attempt %s): %s", filepath.Base(filepath.Dir(dir)), cp.Time, cp.Error))
		}
	}
	return out
}
