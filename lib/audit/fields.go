package audit

import (
	"bytes"
	"strconv"

	"github.com/tidwall/gjson"
)

// Fields are the members of one record line that the chain and a report read. Each text is
// the raw content of its JSON string (between the quotes, escapes kept: Text decodes it), and
// points into the line: it is valid only as long as the line is. A member that is absent, or
// not a string, is nil. When a key appears twice the first one counts, as in gjson.
type Fields struct {
	Seq int64 // 0 when absent, not a whole number, or below 1
	Prev, Time, Project, Session, Client, Event, Hook, Tool, ToolUseID, Summary,
	Decision, Rule, Category, Radius, Reason []byte
}

// fieldKeys are the members Fields holds, in its order after Seq.
var fieldKeys = [...]string{"prev", "time", "project", "session", "client", "event", "hook", "tool", "tool_use_id", "summary",
	"decision", "rule", "category", "radius", "reason"}

func (f *Fields) slot(i int) *[]byte {
	return [...]*[]byte{&f.Prev, &f.Time, &f.Project, &f.Session, &f.Client, &f.Event, &f.Hook, &f.Tool, &f.ToolUseID, &f.Summary,
		&f.Decision, &f.Rule, &f.Category, &f.Radius, &f.Reason}[i]
}

// ReadFields reads a line's fields and says whether the line is a JSON object at all (false:
// a malformed line, whose fields are left empty). The lines the harness writes (one flat
// object, no spaces) are read in one pass that allocates nothing; any other line goes through
// gjson, which is the judge of what is valid.
func ReadFields(line []byte, f *Fields) bool {
	*f = Fields{}
	if scanFlat(line, f) {
		return true
	}
	*f = Fields{}
	t := bytes.TrimLeft(line, " \t")
	if len(t) == 0 || t[0] != '{' || !gjson.ValidBytes(line) {
		return false
	}
	f.Seq = seqOf(line)
	for i, k := range fieldKeys {
		if v := gjson.GetBytes(line, k); v.Type == gjson.String {
			*f.slot(i) = []byte(v.Raw[1 : len(v.Raw)-1])
		}
	}
	return true
}

// Text is the string a raw JSON string content holds, its escapes decoded.
func Text(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	return gjson.ParseBytes(q).Str
}

// scanFlat reads a line that is one flat JSON object with no whitespace, whose values are
// strings, numbers, true, false or null. It accepts only valid JSON, and says false for
// anything else (nesting, spaces, a key with an escape), which ReadFields then hands to gjson.
func scanFlat(line []byte, f *Fields) bool {
	n := len(line)
	if n < 2 || line[0] != '{' {
		return false
	}
	if line[1] == '}' {
		return n == 2
	}
	var seen uint32 // bit i: fieldKeys[i] was met; bit 31: seq
	i := 1
	for {
		if i >= n || line[i] != '"' {
			return false
		}
		end, esc, ok := scanString(line, i+1)
		if !ok || esc {
			return false
		}
		key := line[i+1 : end]
		i = end + 1
		if i+1 >= n || line[i] != ':' {
			return false
		}
		i++
		slot := -1
		if string(key) == "seq" {
			if seen&(1<<31) == 0 {
				slot = 31
			}
			seen |= 1 << 31
		} else {
			for k, name := range fieldKeys {
				if string(key) == name {
					if seen&(1<<k) == 0 {
						slot = k
					}
					seen |= 1 << k
					break
				}
			}
		}
		switch c := line[i]; {
		case c == '"':
			end, _, ok := scanString(line, i+1)
			if !ok {
				return false
			}
			if slot >= 0 && slot < 31 {
				*f.slot(slot) = line[i+1 : end]
			}
			i = end + 1
		case c == '-' || c >= '0' && c <= '9':
			end := scanNumber(line, i)
			if end < 0 {
				return false
			}
			if slot == 31 {
				if v, err := strconv.ParseInt(string(line[i:end]), 10, 64); err == nil && v >= 1 {
					f.Seq = v
				}
			}
			i = end
		case bytes.HasPrefix(line[i:], []byte("true")) || bytes.HasPrefix(line[i:], []byte("null")):
			i += 4
		case bytes.HasPrefix(line[i:], []byte("false")):
			i += 5
		default:
			return false
		}
		if i >= n {
			return false
		}
		switch line[i] {
		case ',':
			i++
		case '}':
			return i+1 == n
		default:
			return false
		}
	}
}

// scanString finds the closing quote of a string whose content starts at i, by JSON's rules
// (no control characters, only its escapes), and says whether the content has escapes.
func scanString(b []byte, i int) (end int, esc, ok bool) {
	for ; i < len(b); i++ {
		c := b[i]
		if !stringStop[c] {
			continue
		}
		switch {
		case c == '"':
			return i, esc, true
		case c < ' ':
			return i, esc, false
		case c == '\\':
			esc = true
			if i++; i == len(b) {
				return i, esc, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for range 4 {
					if i++; i >= len(b) || !isHex(b[i]) {
						return i, esc, false
					}
				}
			default:
				return i, esc, false
			}
		}
	}
	return i, esc, false
}

// stringStop are the bytes scanString stops at: the control characters, the quote and the
// backslash. Static data, so it costs a hook nothing at start.
var stringStop = [256]bool{'"': true, '\\': true,
	0: true, 1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true,
	8: true, 9: true, 10: true, 11: true, 12: true, 13: true, 14: true, 15: true,
	16: true, 17: true, 18: true, 19: true, 20: true, 21: true, 22: true, 23: true,
	24: true, 25: true, 26: true, 27: true, 28: true, 29: true, 30: true, 31: true,
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// scanNumber is the end of a JSON number starting at i, -1 when it is not one.
func scanNumber(b []byte, i int) int {
	digits := func() bool {
		s := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > s
	}
	if b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if !digits() {
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return -1
		}
	}
	return i
}
