package settings

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/tidwall/gjson"
)

// VT Code keeps its hooks in the project's vtcode.toml, under [hooks.lifecycle], one array per
// event (../shared/seeds, the VT Code lifecycle hooks guide). The installer appends one block
// of [[hooks.lifecycle.<event>]] tables after a marker line and never re-serialises the file:
// every other byte stays, and uninstall removes exactly that block. A TOML parser checks the
// file before (invalid TOML is refused, untouched) and after: the result must decode to the
// document before plus exactly those tables, or nothing is written.

// vtMarker opens the block the installer owns.
const vtMarker = "# harness hooks: added by `harness install --client vtcode`, removed by `harness uninstall`"

// vtBlock renders the groups as VT Code's tables, in the file's line endings.
func vtBlock(groups []Entry, nl string) string {
	var b strings.Builder
	b.WriteString(vtMarker + nl)
	for _, g := range groups {
		b.WriteString(nl + "[[hooks.lifecycle." + g.Event + "]]" + nl)
		if g.Matcher != "" {
			b.WriteString("matcher = " + tomlString(g.Matcher) + nl)
		}
		var hs []string
		for _, h := range gjson.GetBytes(g.Group, "hooks").Array() {
			hs = append(hs, fmt.Sprintf("{ command = %s, timeout_seconds = %d }", tomlString(h.Get("command").Str), h.Get("timeout").Int()))
		}
		b.WriteString("hooks = [" + strings.Join(hs, ", ") + "]" + nl)
	}
	return b.String()
}

// tomlBlock is a TOMLBlock file: VT Code's vtcode.toml, to which the installer appends its
// block of [[hooks.lifecycle.<event>]] tables.
type tomlBlock struct{}

// Read reads the file; one that is not there yet will be created readable by all, as VT Code
// makes it.
func (tomlBlock) Read(path string) (*File, error) {
	f, _, err := ReadTOML(path)
	if err == nil && !f.Exists {
		f.Mode = 0o644
	}
	return f, err
}

func (tomlBlock) Verify(path string, raw []byte) error {
	_, err := DecodeTOML(path, raw)
	return err
}

// Remove takes the block out, with the blank line the installer put before it.
func (tomlBlock) Remove(f *File, rec *Record, _ bool) (Edit, error) {
	return blockRemove(f, rec, func(raw []byte, block string) []byte { return removeBlock(raw, block) })
}

func (tomlBlock) Find(f *File, rec *Record) ([]Problem, []Entry) { return blockFind(f, rec) }

// Add appends the plan's groups as the installer's block, in place of the block of an earlier
// install; the result must decode to the document before plus exactly those tables.
func (tomlBlock) Add(f *File, rec *Record, p Plan) (Edit, error) {
	e := Edit{Entries: p.Groups}
	raw := f.Raw
	nl := newline(raw)
	want := vtBlock(p.Groups, nl)
	if rec != nil && rec.Block != "" && !bytes.Contains(raw, []byte(rec.Block)) && bytes.Contains(raw, []byte(vtMarker)) {
		return e, fmt.Errorf("%s: the harness hooks block was edited since the install; put it back as it was, or delete it from the marker line on, then install again; nothing was written", p.File)
	}
	if rec != nil && rec.Block != "" && bytes.Contains(raw, []byte(rec.Block)) {
		if rec.Block == want {
			for _, g := range p.Groups {
				e.Changes = append(e.Changes, Change{"keep", g.Hook, g.Event, g.Matcher})
			}
			e.Raw, e.Block = raw, want
			return e, nil
		}
		raw = removeBlock(raw, rec.Block)
		for _, r := range rec.Entries {
			e.Changes = append(e.Changes, Change{"remove", r.Hook, r.Event, r.Matcher})
		}
	}
	out := appendBlock(raw, want, nl)
	if err := verifyVTCode(p.File, raw, out, p.Groups); err != nil {
		return e, err
	}
	for _, g := range p.Groups {
		e.Changes = append(e.Changes, Change{"add", g.Hook, g.Event, g.Matcher})
	}
	e.Raw, e.Block = out, want
	return e, nil
}

// removeBlock takes the block out with the blank line the installer put before it.
func removeBlock(raw []byte, block string) []byte {
	i := bytes.Index(raw, []byte(block))
	if i < 0 {
		return raw
	}
	start := i
	for _, sep := range []string{"\r\n", "\n"} {
		if bytes.HasSuffix(raw[:start], []byte(sep+sep)) || (start == len(sep) && bytes.HasPrefix(raw, []byte(sep))) {
			start -= len(sep)
			break
		}
	}
	return append(append([]byte(nil), raw[:start]...), raw[i+len(block):]...)
}

// verifyVTCode checks that after decodes to before plus exactly the groups' tables, appended to
// their events' arrays (an event written as an inline array cannot take them: refused).
func verifyVTCode(path string, before, after []byte, groups []Entry) error {
	old, err := DecodeTOML(path, before)
	if err != nil {
		return err
	}
	oldHooks, _ := old["hooks"].(map[string]any)
	oldLife, _ := oldHooks["lifecycle"].(map[string]any)
	for _, g := range groups {
		if _, inline := oldLife[g.Event].([]any); inline {
			return fmt.Errorf("%s: hooks.lifecycle.%s is written as an inline array (%s = [...]), which cannot take more tables: "+
				"write its entries as [[hooks.lifecycle.%s]] tables, then install again; nothing was written", path, g.Event, g.Event, g.Event)
		}
	}
	got, err := DecodeTOML(path, after)
	if err != nil {
		return fmt.Errorf("%s: adding the hooks would break it (%v); nothing was written", path, err)
	}
	hooks, _ := got["hooks"].(map[string]any)
	life, _ := hooks["lifecycle"].(map[string]any)
	for i := len(groups) - 1; i >= 0; i-- {
		g := groups[i]
		arr, _ := life[g.Event].([]map[string]any)
		if len(arr) == 0 {
			return fmt.Errorf("%s: hooks.lifecycle.%s does not read back as tables; nothing was written", path, g.Event)
		}
		last := arr[len(arr)-1]
		if m, _ := last["matcher"].(string); m != g.Matcher {
			return fmt.Errorf("%s: the %s table does not read back as written; nothing was written", path, g.Event)
		}
		if len(arr) == 1 {
			delete(life, g.Event)
		} else {
			life[g.Event] = arr[:len(arr)-1]
		}
	}
	if !reflect.DeepEqual(prune(old), prune(got)) {
		return fmt.Errorf("%s: the hooks cannot be added without changing something else; nothing was written", path)
	}
	return nil
}

// blockRemove is Remove for a file the installer put one block of its own into (VT Code's
// vtcode.toml, docker-agent's agent YAML): the file's exact bytes from before the first install
// when nothing else changed since, else the file without the block (strip). A block edited
// since is left, and stays recorded.
func blockRemove(f *File, rec *Record, strip func(raw []byte, block string) []byte) (Edit, error) {
	var e Edit
	kind := "remove"
	switch {
	case !f.Exists:
		kind = "missing"
	case !bytes.Contains(f.Raw, []byte(rec.Block)):
		kind = "edited"
	}
	for _, r := range rec.Entries {
		e.Changes = append(e.Changes, Change{kind, r.Hook, r.Event, r.Matcher})
	}
	switch {
	case kind == "missing":
	case kind == "edited":
		e.Raw, e.Entries, e.Block = f.Raw, rec.Entries, rec.Block
	case rec.restorable(f.Raw):
		e.Restore = true
	default:
		e.Raw = strip(f.Raw, rec.Block)
	}
	return e, nil
}

// blockFind reports a block that was edited or removed; its entries are live while it is there.
func blockFind(f *File, rec *Record) ([]Problem, []Entry) {
	if !bytes.Contains(f.Raw, []byte(rec.Block)) {
		return []Problem{{rec.Path, fmt.Sprintf("the harness hooks block was edited or removed since the install (run harness install --client %s again)", rec.Client)}}, nil
	}
	return nil, rec.Entries
}

// appendBlock is raw with an owned block added at its end, after one blank line (raw's last
// line ended first), in raw's line endings nl.
func appendBlock(raw []byte, block, nl string) []byte {
	out := append([]byte(nil), raw...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, nl...)
	}
	if len(out) > 0 {
		out = append(out, nl...)
	}
	return append(out, block...)
}
