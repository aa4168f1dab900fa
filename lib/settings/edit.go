package settings

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/pretty"
)

// style is how a file is laid out, so that inserted JSON looks as if the user wrote it.
type style struct {
	compact bool   // one line: insert without newlines
	unit    string // one level of indentation
	nl      string // "\n", or "\r\n" for a file with Windows line endings
}

func styleOf(raw []byte) style {
	trimmed := bytes.TrimSpace(raw)
	if !bytes.Contains(trimmed, []byte("\n")) && len(trimmed) > 2 {
		return style{compact: true}
	}
	unit := ""
	for _, line := range strings.Split(string(raw), "\n") {
		ws := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if ws != "" && strings.TrimSpace(line) != "" && (unit == "" || len(ws) < len(unit)) {
			unit = ws
		}
	}
	if unit == "" {
		unit = "  "
	}
	nl := "\n"
	if bytes.Contains(raw, []byte("\r\n")) {
		nl = "\r\n"
	}
	return style{unit: strings.TrimRight(unit, "\r"), nl: nl}
}

// lineIndent is the leading whitespace of the line that holds offset.
func lineIndent(raw []byte, offset int) string {
	start := bytes.LastIndexByte(raw[:offset], '\n') + 1
	line := raw[start:]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

// render lays out a compact JSON value for insertion at indent.
func (s style) render(value []byte, indent string) []byte {
	if s.compact {
		return pretty.Ugly(value)
	}
	out := pretty.PrettyOptions(value, &pretty.Options{Width: 80, Indent: s.unit})
	out = bytes.TrimRight(out, "\n")
	return bytes.ReplaceAll(out, []byte("\n"), []byte(s.nl+indent))
}

// insertLast puts text as the last item of the array or object container (a gjson result
// with its Index), after the last item's bytes or inside an empty container.
func (s style) insertLast(raw []byte, container gjson.Result, item []byte) ([]byte, error) {
	if container.Index < 0 || container.Index == 0 && raw[0] != '{' && raw[0] != '[' {
		return nil, fmt.Errorf("cannot locate %s in the file", clip(container.Raw))
	}
	open := container.Index
	closeAt := open + len(container.Raw) - 1
	if closeAt >= len(raw) || (raw[closeAt] != ']' && raw[closeAt] != '}') {
		return nil, fmt.Errorf("cannot locate the end of %s", clip(container.Raw))
	}
	base := lineIndent(raw, open)
	inner := base + s.unit
	last := closeAt - 1
	for last > open && (raw[last] == ' ' || raw[last] == '\t' || raw[last] == '\n' || raw[last] == '\r') {
		last--
	}
	var ins []byte
	empty := last == open
	switch {
	case s.compact && empty:
		ins = item
	case s.compact:
		ins = append([]byte(","), item...)
	case empty:
		ins = []byte(s.nl + inner + string(item) + s.nl + base)
	default:
		ins = []byte("," + s.nl + inner + string(item))
	}
	at := last + 1
	if empty && !s.compact {
		// Replace whatever whitespace sat in the empty container.
		out := append(append(append([]byte(nil), raw[:open+1]...), ins...), raw[closeAt:]...)
		return out, nil
	}
	return append(append(append([]byte(nil), raw[:at]...), ins...), raw[at:]...), nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// AddGroup adds a matcher group (compact JSON) as the last group of hooks.<event>, creating
// the hooks object and the event's array when missing. It reports the keys it created.
func AddGroup(raw []byte, event string, group []byte) (out []byte, created []string, err error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}\n")
	}
	st := styleOf(raw)
	root := gjson.ParseBytes(raw)
	root.Index = len(raw) - len(bytes.TrimLeft(raw, " \t\r\n"))
	root.Raw = string(bytes.TrimSpace(raw))
	hooks := gjson.GetBytes(raw, "hooks")
	if !hooks.Exists() {
		member := fmt.Sprintf(`{"hooks":{%q:[%s]}}`, event, group)
		val := gjson.Get(member, "hooks").Raw
		item := append([]byte(`"hooks": `), st.render([]byte(val), lineIndent(raw, root.Index)+st.unit)...)
		if st.compact {
			item = append([]byte(`"hooks":`), pretty.Ugly([]byte(val))...)
		}
		out, err = st.insertLast(raw, root, item)
		return out, []string{"hooks", "hooks." + event}, err
	}
	if !hooks.IsObject() {
		return nil, nil, fmt.Errorf("hooks is not an object")
	}
	arr := gjson.GetBytes(raw, "hooks."+escape(event))
	if !arr.Exists() {
		val := "[" + string(group) + "]"
		sep := `": `
		if st.compact {
			sep = `":`
		}
		item := append([]byte(`"`+event+sep), st.render([]byte(val), lineIndent(raw, hooks.Index)+st.unit)...)
		out, err = st.insertLast(raw, hooks, item)
		return out, []string{"hooks." + event}, err
	}
	if !arr.IsArray() {
		return nil, nil, fmt.Errorf("hooks.%s is not an array", event)
	}
	out, err = st.insertLast(raw, arr, st.render(group, lineIndent(raw, arr.Index)+st.unit))
	return out, nil, err
}

// FindGroup returns the index of the group in hooks.<event> equal to group (compared compact),
// or -1.
func FindGroup(raw []byte, event string, group []byte) int {
	want := string(pretty.Ugly(group))
	idx := -1
	gjson.GetBytes(raw, "hooks."+escape(event)).ForEach(func(k, v gjson.Result) bool {
		if string(pretty.Ugly([]byte(v.Raw))) == want {
			idx = int(k.Int())
			return false
		}
		return true
	})
	return idx
}

// RemoveGroup deletes group i of hooks.<event>; when that leaves a key the install created
// empty, the key goes too.
func RemoveGroup(raw []byte, event string, i int, created []string) ([]byte, error) {
	out, ok := removeItem(raw, gjson.GetBytes(raw, "hooks."+escape(event)), i)
	if !ok {
		return nil, fmt.Errorf("hooks.%s has no group %d", event, i)
	}
	return pruneKeys(out, []string{"hooks." + event, "hooks"}, created)
}

// Prune takes away every key in created (hooks.<Event>, then hooks) that is empty: an empty
// array or object the install put there, whoever emptied it.
func Prune(raw []byte, created []string) ([]byte, error) {
	var keys []string
	for _, k := range created {
		if strings.HasPrefix(k, "hooks.") && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return pruneKeys(raw, append(keys, "hooks"), created)
}

// pruneKeys removes each of keys (a top-level key or one level below) that is empty and in
// created, in order.
func pruneKeys(out []byte, keys, created []string) ([]byte, error) {
	for _, key := range keys {
		v := gjson.GetBytes(out, escapePath(key))
		empty := v.IsArray() && len(v.Array()) == 0 || v.IsObject() && len(v.Map()) == 0
		if !empty || !slices.Contains(created, key) {
			continue
		}
		parentKey, name, nested := strings.Cut(key, ".")
		var parent gjson.Result
		if nested {
			parent = gjson.GetBytes(out, escape(parentKey))
		} else {
			name = key
			parent = gjson.ParseBytes(out)
			parent.Index = len(out) - len(bytes.TrimLeft(out, " \t\r\n"))
			parent.Raw = string(bytes.TrimSpace(out))
		}
		at, n := -1, 0
		parent.ForEach(func(k, _ gjson.Result) bool {
			if k.Str == name {
				at = n
			}
			n++
			return true
		})
		var ok bool
		if out, ok = removeItem(out, parent, at); !ok {
			return nil, fmt.Errorf("removing %s", key)
		}
	}
	return out, nil
}

// removeItem deletes item i of an array or member i of an object, with its comma and the
// whitespace that set it apart, so that no blank line is left where it was; a container left
// empty becomes [] or {}.
func removeItem(raw []byte, container gjson.Result, i int) ([]byte, bool) {
	type span struct{ start, end int }
	var items []span
	container.ForEach(func(k, v gjson.Result) bool {
		start := v.Index
		if container.IsObject() {
			start = k.Index
		}
		items = append(items, span{start, v.Index + len(v.Raw)})
		return true
	})
	if i < 0 || i >= len(items) {
		return nil, false
	}
	var from, to int
	switch {
	case len(items) == 1:
		// Keep the brackets only: [] or {}.
		from, to = container.Index+1, container.Index+len(container.Raw)-1
	case i < len(items)-1:
		from, to = items[i].start, items[i+1].start
	default:
		from, to = items[i-1].end, items[i].end
	}
	return append(append([]byte{}, raw[:from]...), raw[to:]...), true
}

// escape protects the gjson/sjson path characters in one key.
func escape(key string) string {
	r := strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`, "|", `\|`, "#", `\#`, "@", `\@`)
	return r.Replace(key)
}

func escapePath(p string) string {
	head, rest, ok := strings.Cut(p, ".")
	if !ok {
		return escape(head)
	}
	return escape(head) + "." + escape(rest)
}
