package audit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

const dayLayout = "2006-01-02"

// LineHash is a record's id: the lowercase hex SHA-256 of its line, without the newline.
// The next record's prev holds it.
func LineHash(line []byte) string { return hexSum(sum256(line)) }

// hexSum is a SHA-256 sum in lowercase hex.
func hexSum(sum [32]byte) string {
	const digits = "0123456789abcdef"
	var out [64]byte
	for i, b := range sum {
		out[i*2], out[i*2+1] = digits[b>>4], digits[b&15]
	}
	return string(out[:])
}

// Head returns the seq and id of the newest chained record of a project's log (0 and ""
// when there is none), read under the lock that orders the appends.
func Head(harnessHome, project string) (seq int64, hash string, err error) {
	dir := Dir(harnessHome, project)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return 0, "", nil
	}
	l, err := lockDir(dir)
	if err != nil {
		return 0, "", err
	}
	defer l.Close()
	h, err := headOf(dir)
	return h.seq, h.id, err
}

// head is where the chain stands at the end of a file.
type head struct {
	seq  int64  // the last chained record's seq (0: none yet)
	id   string // its LineHash
	last string // the LineHash of the last line, chained or not: the next record's prev
	torn bool   // the file does not end with a newline
}

// lockDir takes the project's lock, creating the audit folder on the first record (a stat
// less on every other call). The lock file also names the newest log (newestHint).
func lockDir(dir string) (*os.File, error) {
	name := filepath.Join(dir, ".lock")
	f, err := openFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("creating %s: %w", dir, err)
		}
		f, err = openFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", name, err)
	}
	if err := lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", name, err)
	}
	return f, nil
}

// newestHint reads the day of the newest log from the lock file ("" when it names none).
func newestHint(l *os.File) string {
	var b [len(dayLayout)]byte
	if n, _ := l.ReadAt(b[:], 0); n == len(b) && isDay(string(b[:])) {
		return string(b[:])
	}
	return ""
}

// setNewestHint records the day of the newest log in the lock file. A failure costs a listing
// of the folder on the next call, nothing else.
func setNewestHint(l *os.File, day string) {
	l.WriteAt([]byte(day), 0)
}

func isDay(s string) bool {
	if len(s) != len(dayLayout) {
		return false
	}
	for i, c := range []byte(s) {
		if (i == 4 || i == 7) != (c == '-') || c != '-' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// logFile is one file of a project's log: YYYY-MM-DD.jsonl, or YYYY-MM-DD.N.jsonl once rotated.
type logFile struct {
	name string
	day  string
	n    int // the rotation number; 0 for the day's current file, which comes after them all
}

// files lists a project's log files in chain order: days ascending, and within a day the
// rotated files by number (.1, .2, ..., .10) before the current one. Other files are ignored.
func files(dir string) ([]logFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []logFile
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() {
			continue
		}
		day, num, rotated := strings.Cut(base, ".")
		if !isDay(day) {
			continue
		}
		f := logFile{name: filepath.Join(dir, e.Name()), day: day}
		if rotated {
			n, err := strconv.Atoi(num)
			if err != nil || n < 1 || strconv.Itoa(n) != num {
				continue
			}
			f.n = n
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.day != b.day {
			return a.day < b.day
		}
		return a.n != 0 && (b.n == 0 || a.n < b.n)
	})
	return out, nil
}

// Files lists the log files of a project's audit folder in chain order, as base names: days
// ascending, and within a day the rotated files (.1, .2, ...) before the current one.
func Files(dir string) ([]string, error) {
	list, err := files(dir)
	names := make([]string, len(list))
	for i, f := range list {
		names[i] = filepath.Base(f.name)
	}
	return names, err
}

// DayOf is the day a log file's name carries ("" when the name is not a log file's).
func DayOf(name string) string {
	if len(name) >= len(dayLayout) && isDay(name[:len(dayLayout)]) && strings.HasSuffix(name, ".jsonl") {
		return name[:len(dayLayout)]
	}
	return ""
}

// newestDay is the day of the newest log in dir ("" when there is none).
func newestDay(dir string) (string, error) {
	list, err := files(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("listing %s: %w", dir, err)
	}
	if len(list) == 0 {
		return "", nil
	}
	return list[len(list)-1].day, nil
}

// headOf finds the chain's head at the end of the newest file that is not empty.
func headOf(dir string) (head, error) {
	list, err := files(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return head{}, fmt.Errorf("listing %s: %w", dir, err)
	}
	for i := len(list) - 1; i >= 0; i-- {
		f, err := os.Open(list[i].name)
		if err != nil {
			return head{}, fmt.Errorf("reading %s: %w", list[i].name, err)
		}
		st, err := f.Stat()
		if err == nil && st.Size() > 0 {
			h, err := tail(f, st.Size())
			f.Close()
			return h, err
		}
		f.Close()
	}
	return head{}, nil
}

// chainWindow is how far back from its end tail looks in a file for a chained record when
// the last line is not one (legacy lines, a malformed line): past it the chain starts anew.
const chainWindow = 64 << 10

// tail reads the head from the end of a file of size bytes, without reading the whole file:
// 1 KB holds the last line of most records the harness writes; a longer one reads more.
func tail(f *os.File, size int64) (head, error) {
	var h head
	for chunk := min(size, 1<<10); ; chunk = min(size, chunk*4) {
		buf := make([]byte, chunk)
		if _, err := f.ReadAt(buf, size-chunk); err != nil {
			return head{}, fmt.Errorf("reading %s: %w", f.Name(), err)
		}
		whole := chunk == size // buf starts at a line's start
		b := buf
		if h.torn = b[len(b)-1] != '\n'; !h.torn {
			b = b[:len(b)-1]
		}
		i := bytes.LastIndexByte(b, '\n')
		if i < 0 && !whole {
			continue // the last line is longer than chunk
		}
		h.last = LineHash(b[i+1:])
		for {
			if seq := seqOf(b[i+1:]); seq > 0 {
				h.seq, h.id = seq, LineHash(b[i+1:])
				return h, nil
			}
			if i < 0 {
				break
			}
			b = b[:i]
			if i = bytes.LastIndexByte(b, '\n'); i < 0 && !whole {
				break // b[0:] may be the end of a longer line
			}
		}
		if whole || chunk >= chainWindow {
			return h, nil
		}
	}
}

// seqOf is a line's seq, 0 when it is not a chained record.
func seqOf(line []byte) int64 {
	if !gjson.ValidBytes(line) {
		return 0
	}
	v := gjson.GetBytes(line, "seq")
	if v.Type != gjson.Number {
		return 0
	}
	n, err := strconv.ParseInt(v.Raw, 10, 64)
	if err != nil || n < 1 {
		return 0
	}
	return n
}
