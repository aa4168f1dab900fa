package settings

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// A TOMLHooks file (Kimi Code's config.toml) holds the user's settings and a top-level array of
// [[hooks]] tables, one handler each: event, matcher, command, timeout and nothing else. The
// client checks every table at load, and one that breaks a rule (another key, an event it does
// not know, a timeout out of range) makes it ignore all of them, with a warning on stderr only.
// The installer appends one block of its own tables after a marker line and never
// re-serialises the file; before it writes, the whole array, the user's own tables included,
// must pass the client's rules, and the result must decode to the document before plus exactly
// the installer's tables. Uninstall removes exactly that block.

// hooksKeys are the keys a [[hooks]] table may hold.
var hooksKeys = []string{"event", "matcher", "command", "timeout"}

// tomlHooks is a TOMLHooks file of the client d.
type tomlHooks struct{ d *dialect.Dialect }

func (k tomlHooks) marker() string {
	return "# harness hooks: added by `harness install --client " + string(k.d.Client) + "`, removed by `harness uninstall`"
}

// block renders the groups as [[hooks]] tables, one per handler, in the file's line endings.
func (k tomlHooks) block(groups []Entry, nl string) string {
	var b strings.Builder
	b.WriteString(k.marker() + nl)
	for _, g := range groups {
		for _, h := range gjson.GetBytes(g.Group, "hooks").Array() {
			b.WriteString(nl + "[[hooks]]" + nl + "event = " + tomlString(g.Event) + nl)
			if g.Matcher != "" {
				b.WriteString("matcher = " + tomlString(g.Matcher) + nl)
			}
			b.WriteString("command = " + tomlString(h.Get("command").Str) + nl)
			if t := h.Get("timeout").Int(); t > 0 {
				fmt.Fprintf(&b, "timeout = %d%s", t, nl)
			}
		}
	}
	return b.String()
}

// Read reads the file; one that is not there yet is created readable by its owner only (it
// holds the client's API keys).
func (tomlHooks) Read(path string) (*File, error) {
	f, _, err := ReadTOML(path)
	return f, err
}

func (tomlHooks) Verify(path string, raw []byte) error {
	_, err := DecodeTOML(path, raw)
	return err
}

func (tomlHooks) Remove(f *File, rec *Record, _ bool) (Edit, error) {
	return blockRemove(f, rec, func(raw []byte, block string) []byte { return removeBlock(raw, block) })
}

// Find reports the block edited or removed since the install, and every table of the file that
// would make the client drop all its hooks.
func (k tomlHooks) Find(f *File, rec *Record) ([]Problem, []Entry) {
	probs, live := blockFind(f, rec)
	doc, err := DecodeTOML(f.Path, f.Raw)
	if err != nil {
		return append(probs, Problem{rec.Path, err.Error()}), nil
	}
	for _, p := range HooksProblems(k.d, doc) {
		probs = append(probs, Problem{rec.Path, p + ": " + k.d.Title + " ignores every [[hooks]] table of the file while one is invalid, so no hook runs"})
	}
	return probs, live
}

// Add appends the plan's groups as the installer's block, in place of the block of an earlier
// install. The tables already there must pass the client's rules (else the harness's would be
// ignored with them), and the result must decode to the document before plus exactly the new
// tables.
func (k tomlHooks) Add(f *File, rec *Record, p Plan) (Edit, error) {
	e := Edit{Entries: p.Groups}
	raw := f.Raw
	nl := newline(raw)
	want := k.block(p.Groups, nl)
	if rec != nil && rec.Block != "" && !bytes.Contains(raw, []byte(rec.Block)) && bytes.Contains(raw, []byte(k.marker())) {
		return e, fmt.Errorf("%s: the harness hooks block was edited since the install; put it back as it was, or delete it from the marker line on, then install again; nothing was written", p.File)
	}
	if rec != nil && rec.Block != "" && bytes.Contains(raw, []byte(rec.Block)) {
		raw = removeBlock(raw, rec.Block)
	}
	doc, err := DecodeTOML(p.File, raw)
	if err != nil {
		return e, err
	}
	if probs := HooksProblems(k.d, doc); len(probs) > 0 {
		return e, fmt.Errorf("%s: %s; %s ignores every [[hooks]] table while one is invalid, the harness's with them: fix it (or remove it), then install again; nothing was written",
			p.File, strings.Join(probs, "; "), k.d.Title)
	}
	if rec != nil && rec.Block != "" && bytes.Contains(f.Raw, []byte(rec.Block)) {
		if rec.Block == want {
			for _, g := range p.Groups {
				e.Changes = append(e.Changes, Change{"keep", g.Hook, g.Event, g.Matcher})
			}
			e.Raw, e.Block = f.Raw, want
			return e, nil
		}
		for _, r := range rec.Entries {
			e.Changes = append(e.Changes, Change{"remove", r.Hook, r.Event, r.Matcher})
		}
	}
	out := appendBlock(raw, want, nl)
	if err := k.verifyAdded(p.File, doc, out, p.Groups); err != nil {
		return e, err
	}
	for _, g := range p.Groups {
		e.Changes = append(e.Changes, Change{"add", g.Hook, g.Event, g.Matcher})
	}
	e.Raw, e.Block = out, want
	return e, nil
}

// verifyAdded checks that after decodes to old plus exactly the groups' tables at the end of
// the hooks array (an inline hooks = [...] cannot take them: refused), and passes the rules.
func (k tomlHooks) verifyAdded(path string, old map[string]any, after []byte, groups []Entry) error {
	if _, inline := old["hooks"].([]any); inline {
		return fmt.Errorf("%s: hooks is written as an inline array (hooks = [...]), which cannot take more tables: "+
			"write its entries as [[hooks]] tables, then install again; nothing was written", path)
	}
	got, err := DecodeTOML(path, after)
	if err != nil {
		return fmt.Errorf("%s: adding the hooks would break it (%v); nothing was written", path, err)
	}
	if probs := HooksProblems(k.d, got); len(probs) > 0 {
		return fmt.Errorf("%s: the hooks would not pass %s's rules (%s); nothing was written", path, k.d.Title, strings.Join(probs, "; "))
	}
	var want []map[string]any
	for _, g := range groups {
		for _, h := range gjson.GetBytes(g.Group, "hooks").Array() {
			t := map[string]any{"event": g.Event, "command": h.Get("command").Str}
			if g.Matcher != "" {
				t["matcher"] = g.Matcher
			}
			if n := h.Get("timeout").Int(); n > 0 {
				t["timeout"] = n
			}
			want = append(want, t)
		}
	}
	tables, _ := got["hooks"].([]map[string]any)
	oldTables, _ := old["hooks"].([]map[string]any)
	if len(tables) != len(oldTables)+len(want) || !reflect.DeepEqual(tables[len(oldTables):], want) {
		return fmt.Errorf("%s: the [[hooks]] tables do not read back as written; nothing was written", path)
	}
	rest := func(doc map[string]any) map[string]any {
		m := make(map[string]any, len(doc))
		for key, v := range doc {
			if key != "hooks" {
				m[key] = v
			}
		}
		return m
	}
	if !reflect.DeepEqual(prune(rest(old)), prune(rest(got))) || (len(oldTables) > 0 && !reflect.DeepEqual(tables[:len(oldTables)], oldTables)) {
		return fmt.Errorf("%s: the hooks cannot be added without changing something else; nothing was written", path)
	}
	return nil
}

// HooksProblems checks every [[hooks]] table of a decoded TOMLHooks file by the client's rules:
// only the four keys, an event the client knows, a non-empty command, a string matcher, an
// integer timeout from 1 to the client's limit. One problem is enough for the client to run no
// hook of the file.
func HooksProblems(d *dialect.Dialect, doc map[string]any) []string {
	v, ok := doc["hooks"]
	if !ok {
		return nil
	}
	var tables []map[string]any
	switch hs := v.(type) {
	case []map[string]any:
		tables = hs
	case []any:
		for i, h := range hs {
			m, ok := h.(map[string]any)
			if !ok {
				return []string{fmt.Sprintf("hooks[%d] is not a table", i)}
			}
			tables = append(tables, m)
		}
	default:
		return []string{"hooks is not an array of [[hooks]] tables"}
	}
	var events map[string]dialect.FileEvent
	if d.FileEvents != nil {
		events = d.FileEvents()
	}
	var out []string
	for i, t := range tables {
		at := fmt.Sprintf("hooks[%d]", i)
		keys := make([]string, 0, len(t))
		for key := range t {
			keys = append(keys, key)
		}
		slices.Sort(keys)
		for _, key := range keys {
			if !slices.Contains(hooksKeys, key) {
				out = append(out, fmt.Sprintf("%s: unknown key %q (a table takes only event, matcher, command and timeout)", at, key))
			}
		}
		switch ev, ok := t["event"].(string); {
		case !ok:
			out = append(out, at+": no event")
		case events != nil && !hasEvent(events, ev):
			out = append(out, fmt.Sprintf("%s: %s has no event %q", at, d.Title, ev))
		}
		if cmd, ok := t["command"].(string); !ok || cmd == "" {
			out = append(out, at+": no command")
		}
		if m, ok := t["matcher"]; ok {
			if _, isStr := m.(string); !isStr {
				out = append(out, at+": matcher is not a string")
			}
		}
		if tv, ok := t["timeout"]; ok {
			n, isInt := tv.(int64)
			switch {
			case !isInt:
				out = append(out, at+": timeout is not a whole number of seconds")
			case n < 1 || (d.MaxTimeout > 0 && n > int64(d.MaxTimeout)):
				out = append(out, fmt.Sprintf("%s: timeout %d is out of range (1 to %d seconds)", at, n, d.MaxTimeout))
			}
		}
	}
	return out
}

func hasEvent(events map[string]dialect.FileEvent, ev string) bool {
	_, ok := events[ev]
	return ok
}
