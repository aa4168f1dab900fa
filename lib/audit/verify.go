package audit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// What a Break is: the kinds verify tells apart.
const (
	Edited    = "edited"    // a record's bytes changed: its hash is not the next record's prev
	Removed   = "removed"   // records are missing: seq jumps forward
	Inserted  = "inserted"  // a line that is not part of the chain: no seq, a seq twice, or one that fits nowhere
	Reordered = "reordered" // records out of order: a pair swapped, or one moved elsewhere
	Malformed = "malformed" // a line that is not a JSON object
)

// A Break is the first place where a project's chain is not whole.
type Break struct {
	File   string // the file's path
	Line   int    // 1-based
	Kind   string // Edited, Removed, Inserted, Reordered or Malformed
	Detail string
}

func (b Break) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", b.File, b.Line, b.Kind, b.Detail)
}

// Report is what Verify found in one project's log.
type Report struct {
	Dir       string
	Project   string // the project the records name ("" when none does)
	Records   int    // chained records
	Legacy    int    // lines from before records were chained, ahead of the first one
	Malformed int    // lines that are not JSON objects, in the whole log
	Seq       int64  // the newest chained record's seq and id
	ID        string
	Break     *Break // nil when the chain is whole
}

// entry is one line of the log, as the chain sees it.
type entry struct {
	file       string
	line       int
	hash       digest
	seq        int64  // 0: no seq
	prev       digest // none when absent
	malformed  bool
	start      bool // the chain's virtual start, before the first line
	project    string
	legacyLast bool // the start stands for the last legacy line
}

func (e entry) at() string { return fmt.Sprintf("%s:%d", e.file, e.line) }

// Verify walks a project's audit folder (Dir) in chain order and reports the first place
// where the chain is broken. The files and their sizes are taken under the appenders' lock,
// so records appended meanwhile are left for the next run, and hooks wait only for that.
// Deleting the newest records cannot be seen here: nothing comes after them to say so.
func Verify(dir string) (Report, error) { return VerifyWith(dir, VerifyOptions{}) }

// VerifyOptions let a reader of the whole log check the chain in the same pass.
type VerifyOptions struct {
	// Sum is SHA-256; nil is this package's own (sum256), which keeps crypto/sha256 out of
	// the hooks. A command that verifies large logs passes crypto/sha256.Sum256, several
	// times faster where the CPU has SHA instructions.
	Sum func([]byte) [32]byte
	// Each, when set, is handed every line in chain order with its fields and whether it is
	// a JSON object at all (ReadFields). The line and fields are valid during the call only.
	Each func(line []byte, f *Fields, ok bool)
}

// VerifyWith is Verify with options.
func VerifyWith(dir string, o VerifyOptions) (Report, error) {
	rep := Report{Dir: dir}
	w, err := snapshot(dir)
	if err != nil {
		return rep, err
	}
	defer w.close()
	w.opts = o

	p := entry{start: true} // the record before the current one
	var head digest
	started := false
	var watchHash, watchPrev digest // after a break: what would show a record was moved, not removed or inserted
	var watched entry
	for {
		c, ok := w.next()
		if !ok {
			break
		}
		if rep.Project == "" {
			rep.Project = c.project
		}
		if c.malformed {
			rep.Malformed++
		}
		if rep.Break != nil {
			switch {
			case watchHash.kind != none && c.hash == watchHash:
				rep.Break.Kind = Reordered
				rep.Break.Detail = fmt.Sprintf("seq %d was moved to %s", c.seq, c.at())
				watchHash = digest{}
			case watchPrev.kind != none && c.prev == watchPrev:
				rep.Break.Kind = Reordered
				rep.Break.Detail = fmt.Sprintf("seq %d was moved here from before seq %d (%s)", watched.seq, c.seq, c.at())
				watchPrev = digest{}
			}
			continue
		}
		brk := func(at entry, kind, format string, args ...any) {
			rep.Break = &Break{File: at.file, Line: at.line, Kind: kind, Detail: fmt.Sprintf(format, args...)}
		}
		switch {
		case c.malformed:
			brk(c, Malformed, "not a JSON record")
			continue
		case c.seq == 0 && !started:
			rep.Legacy++
			p = entry{start: true, legacyLast: true, hash: c.hash, file: c.file, line: c.line}
			continue
		case c.seq == 0:
			brk(c, Inserted, "a line without seq after seq %d (%s)", p.seq, p.at())
			continue
		}
		started = true
		n, hasNext := w.peek()
		exp := p.seq + 1
		switch {
		case c.seq == exp && c.prev == p.hash:
			rep.Records++
			rep.Seq, head = c.seq, c.hash
			p = c
			continue
		case c.seq == 1 && p.start:
			switch {
			case p.legacyLast && c.prev.kind == none:
				brk(c, Inserted, "lines were added before the chain's first record: seq 1 names no prev")
			case !p.legacyLast:
				brk(c, Removed, "the line before seq 1 is missing: seq 1 names a prev")
			default:
				brk(p, Edited, "the last line before the chain does not match the prev of seq 1 (%s)", c.at())
			}
		case c.seq == exp:
			brk(p, Edited, "seq %d does not match the prev of seq %d (%s)", p.seq, c.seq, c.at())
		case c.hash == p.hash:
			brk(c, Inserted, "seq %d appears twice (also at %s)", c.seq, p.at())
		case hasNext && n.seq == exp && n.prev == p.hash && c.seq == exp+1 && c.prev == n.hash:
			brk(c, Reordered, "seq %d comes before seq %d (%s)", c.seq, n.seq, n.at())
		case c.seq == p.seq && hasNext && n.seq == c.seq+1 && n.prev == c.hash:
			brk(p, Inserted, "seq %d appears twice and the chain goes on from the other one (%s)", c.seq, c.at())
		case c.seq == p.seq:
			brk(c, Inserted, "seq %d appears twice (also at %s)", c.seq, p.at())
		case hasNext && n.seq == exp && n.prev == p.hash:
			brk(c, Inserted, "seq %d does not belong between %s and seq %d (%s)", c.seq, p.name(), n.seq, n.at())
			watchPrev, watched = c.hash, c
		case c.prev == p.hash && !p.start:
			brk(c, Edited, "it follows seq %d but says seq %d: its seq was changed", p.seq, c.seq)
		case c.seq < p.seq:
			brk(c, Reordered, "seq %d comes after seq %d (%s)", c.seq, p.seq, p.at())
		case p.start:
			brk(c, Removed, "%s missing: the chain starts at seq %d", span(1, c.seq-1), c.seq)
			watchHash = c.prev
		default:
			brk(c, Removed, "%s missing: seq %d follows seq %d (%s)", span(exp, c.seq-1), c.seq, p.seq, p.at())
			watchHash = c.prev
		}
	}
	if rep.Seq > 0 {
		rep.ID = hexSum(head.sum)
	}
	return rep, w.err
}

// digest is a line's hash or a record's prev, compared as the text they are: none (absent
// or ""), a lowercase hex SHA-256 held as its 32 bytes, or other text held as its own
// SHA-256, which no line's hash equals (it is not of kind sha).
type digest struct {
	sum  [32]byte
	kind uint8
}

const (
	none = iota
	sha
	other
)

// prevDigest reads a prev's raw JSON string content.
func prevDigest(raw []byte) digest {
	if len(raw) == 0 {
		return digest{}
	}
	if len(raw) == 64 {
		var d digest
		ok := true
		for i := range d.sum {
			hi, lo := hexDigit[raw[2*i]], hexDigit[raw[2*i+1]]
			ok = ok && hi != 0 && lo != 0
			d.sum[i] = (hi-1)<<4 | (lo - 1)
		}
		if ok {
			d.kind = sha
			return d
		}
	}
	return digest{sum: sum256([]byte(Text(raw))), kind: other}
}

// hexDigit is one more than each lowercase hex digit's value, 0 for any other byte: static
// data, so the hooks that link this package spend nothing on it at start.
var hexDigit = [256]byte{'0': 1, '1': 2, '2': 3, '3': 4, '4': 5, '5': 6, '6': 7, '7': 8, '8': 9, '9': 10,
	'a': 11, 'b': 12, 'c': 13, 'd': 14, 'e': 15, 'f': 16}

// name says which record an entry is, for a message.
func (e entry) name() string {
	if e.start {
		return "the start"
	}
	return fmt.Sprintf("seq %d", e.seq)
}

func span(from, to int64) string {
	if from == to {
		return fmt.Sprintf("seq %d", from)
	}
	return fmt.Sprintf("seq %d-%d", from, to)
}

// walker reads the lines of a log's files in chain order, each up to the size it had when
// the walk began, with one line of lookahead.
type walker struct {
	files   []*os.File
	sizes   []int64
	i       int
	r       *bufio.Reader
	line    int
	peeked  entry
	hasPeek bool
	err     error
	opts    VerifyOptions
	long    []byte // a line longer than the reader's buffer, gathered here
	fields  Fields
	// project is the raw project of the last line and its text: the same on nearly every line.
	project     []byte
	projectText string
}

// snapshot opens a project's log files and notes their sizes under the appenders' lock:
// a rotation during the walk then moves nothing from under it.
func snapshot(dir string) (*walker, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	l, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	list, err := files(dir)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", dir, err)
	}
	w := &walker{i: -1}
	for _, lf := range list {
		f, err := os.Open(lf.name)
		if err == nil {
			var st os.FileInfo
			if st, err = f.Stat(); err == nil {
				w.files, w.sizes = append(w.files, f), append(w.sizes, st.Size())
				continue
			}
			f.Close()
		}
		w.close()
		return nil, fmt.Errorf("reading %s: %w", lf.name, err)
	}
	return w, nil
}

func (w *walker) close() {
	for _, f := range w.files {
		f.Close()
	}
}

func (w *walker) peek() (entry, bool) {
	if !w.hasPeek {
		e, ok := w.read()
		if !ok {
			return entry{}, false
		}
		w.peeked, w.hasPeek = e, true
	}
	return w.peeked, true
}

func (w *walker) next() (entry, bool) {
	if w.hasPeek {
		w.hasPeek = false
		return w.peeked, true
	}
	return w.read()
}

func (w *walker) read() (entry, bool) {
	for w.err == nil {
		if w.r == nil {
			if w.i++; w.i >= len(w.files) {
				return entry{}, false
			}
			w.r, w.line = bufio.NewReaderSize(io.NewSectionReader(w.files[w.i], 0, w.sizes[w.i]), 64<<10), 0
		}
		// ReadSlice reads into the reader's buffer: no allocation per line but for long ones.
		b, err := w.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			w.long = append(w.long[:0], b...)
			for errors.Is(err, bufio.ErrBufferFull) {
				b, err = w.r.ReadSlice('\n')
				w.long = append(w.long, b...)
			}
			b = w.long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			w.err = fmt.Errorf("reading %s: %w", w.files[w.i].Name(), err)
			break
		}
		if len(b) == 0 {
			w.r = nil
			continue
		}
		w.line++
		return w.parse(w.files[w.i].Name(), w.line, bytes.TrimSuffix(b, []byte{'\n'})), true
	}
	return entry{}, false
}

// parse reads the chain's fields from a line, and hands the line to Each.
func (w *walker) parse(file string, n int, line []byte) entry {
	e := entry{file: file, line: n}
	e.hash.kind = sha
	if w.opts.Sum != nil {
		e.hash.sum = w.opts.Sum(line)
	} else {
		e.hash.sum = sum256(line)
	}
	f := &w.fields
	ok := ReadFields(line, f)
	if w.opts.Each != nil {
		w.opts.Each(line, f, ok)
	}
	if !ok {
		e.malformed = true
		return e
	}
	e.seq = f.Seq
	e.prev = prevDigest(f.Prev)
	if w.project == nil || !bytes.Equal(w.project, f.Project) {
		w.project, w.projectText = append(w.project[:0], f.Project...), Text(f.Project)
	}
	e.project = w.projectText
	return e
}
