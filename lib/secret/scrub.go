package secret

import (
	"bytes"
	"errors"
	"io"
	"os"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Mask is the byte a scrubbed secret's characters become.
const Mask = '*'

// ScrubJSON masks every credential in the string values of the JSON text b, in place: each
// ASCII character of a secret becomes Mask, escape sequences and everything outside strings
// are left alone, so b keeps its length and stays the same valid JSON. Strings are scanned
// decoded, so a secret is found however it was escaped. It returns how many secrets it masked.
func ScrubJSON(b []byte) int {
	n := 0
	var dec []byte // the string being read, decoded
	var at []int   // for each byte of dec, its offset in b, or -1 when it came from an escape
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		dec, at = dec[:0], at[:0]
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] != '\\' {
				dec = append(dec, b[j])
				at = append(at, j)
				j++
				continue
			}
			r, w := unescape(b[j:])
			dec = utf8.AppendRune(dec, r)
			for len(at) < len(dec) {
				at = append(at, -1)
			}
			j += w
		}
		if len(dec) >= 8 {
			for _, m := range Scan(string(dec)) {
				for k := m.Start; k < m.End; k++ {
					if p := at[k]; p >= 0 && b[p] < utf8.RuneSelf {
						b[p] = Mask
					}
				}
				n++
			}
		}
		i = j // the closing quote
	}
	return n
}

// unescape decodes the JSON escape at the start of b and says how many bytes it took. A
// malformed escape reads as its backslash alone; one cut off by the end of b takes the rest.
func unescape(b []byte) (rune, int) {
	if len(b) < 2 {
		return '\\', 1
	}
	switch b[1] {
	case 'n':
		return '\n', 2
	case 't':
		return '\t', 2
	case 'r':
		return '\r', 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case '"', '\\', '/':
		return rune(b[1]), 2
	case 'u':
		if len(b) < 6 {
			// Cut off at the end of the text: the rest is part of the escape, never a
			// character to mask.
			return utf8.RuneError, len(b)
		}
		var r rune
		for _, c := range b[2:6] {
			switch {
			case c >= '0' && c <= '9':
				r = r<<4 | rune(c-'0')
			case c >= 'a' && c <= 'f':
				r = r<<4 | rune(c-'a'+10)
			case c >= 'A' && c <= 'F':
				r = r<<4 | rune(c-'A'+10)
			default:
				return '\\', 1
			}
		}
		return r, 6
	}
	return '\\', 1
}

// MaxScrub caps how much of a file ScrubFile reads.
const MaxScrub = 16 << 20

// ScrubFile masks the credentials in the JSON lines of a file from byte offset from to its
// end (at most MaxScrub bytes), in place: only the changed bytes are rewritten, nothing is
// truncated or moved, so a writer appending to the file meanwhile loses nothing. A from that
// falls inside a line starts at the next line; a last line without its newline is scrubbed
// only if it is complete JSON (else it may still be being written, and waits for a later
// pass). only, when set, picks the lines to scrub. It returns how many secrets it masked.
func ScrubFile(path string, from int64, only func(line []byte) bool) (int, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	from = max(from, 0)
	buf := make([]byte, 0, 64<<10)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.ReadAt(buf[len(buf):min(cap(buf), MaxScrub)], from+int64(len(buf)))
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) || len(buf) >= MaxScrub {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	start := 0
	if from > 0 {
		var prev [1]byte
		if _, err := f.ReadAt(prev[:], from-1); err == nil && prev[0] != '\n' {
			start = bytes.IndexByte(buf, '\n') + 1 // mid-line: that line is not ours to parse
			if start == 0 {
				return 0, nil
			}
		}
	}
	masked := 0
	for start < len(buf) {
		end := bytes.IndexByte(buf[start:], '\n')
		if end < 0 {
			end = len(buf) - start
			if !gjson.ValidBytes(buf[start:]) {
				break
			}
		}
		line := buf[start : start+end]
		if only != nil && !only(line) {
			start += end + 1
			continue
		}
		orig := bytes.Clone(line)
		if n := ScrubJSON(line); n > 0 {
			// Write back each changed run only.
			for i := 0; i < len(line); {
				if line[i] == orig[i] {
					i++
					continue
				}
				j := i
				for j < len(line) && line[j] != orig[j] {
					j++
				}
				if _, err := f.WriteAt(line[i:j], from+int64(start+i)); err != nil {
					return masked, err
				}
				i = j
			}
			masked += n
		}
		start += end + 1
	}
	return masked, nil
}
