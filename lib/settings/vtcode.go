package settings

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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

func (tomlBlock) Read(path string) (*File, error) {
	f, _, err := ReadTOML(path)
	return f, err
}

// strip takes the block out, with the blank line before it, and checks that what is left is
// still TOML.
func (tomlBlock) strip(path string, raw []byte, block string) ([]byte, error) {
	out := removeBlock(raw, block)
	_, err := DecodeTOML(path, out)
	return out, err
}

func (k tomlBlock) Remove(m *Manifest, rec *Record, _, dryRun bool) (Result, error) {
	return uninstallBlock(m, rec, k, dryRun)
}

func (tomlBlock) Find(rec *Record, version string, versionOf func(bin string) (string, error)) []Problem {
	return checkBlock(rec, version, versionOf)
}

// Add puts the plan's groups into a vtcode.toml as the installer's block, replacing the block
// of an earlier install, and records it. A second run with the same plan changes nothing.
func (tomlBlock) Add(m *Manifest, p Plan) (Result, error) {
	var res Result
	f, _, err := ReadTOML(p.File)
	if err != nil {
		return res, err
	}
	res.Before = f.Raw
	if f.Exists && f.Mode&0o200 == 0 {
		return res, fmt.Errorf("%s is read-only; make it writable (chmod u+w)", p.File)
	}
	rec := m.Find(p.File)
	raw := f.Raw
	nl := newline(raw)
	want := vtBlock(p.Groups, nl)
	if rec != nil && rec.Block != "" && !bytes.Contains(raw, []byte(rec.Block)) && bytes.Contains(raw, []byte(vtMarker)) {
		return res, fmt.Errorf("%s: the harness hooks block was edited since the install; put it back as it was, or delete it from the marker line on, then install again; nothing was written", p.File)
	}
	if rec != nil && rec.Block != "" && bytes.Contains(raw, []byte(rec.Block)) {
		if rec.Block == want {
			for _, g := range p.Groups {
				res.Changes = append(res.Changes, Change{"keep", g.Hook, g.Event, g.Matcher})
			}
			res.After = raw
			return res, nil
		}
		raw = removeBlock(raw, rec.Block)
		for _, e := range rec.Entries {
			res.Changes = append(res.Changes, Change{"remove", e.Hook, e.Event, e.Matcher})
		}
	}
	out := append([]byte(nil), raw...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, nl...)
	}
	if len(out) > 0 {
		out = append(out, nl...)
	}
	out = append(out, want...)
	if err := verifyVTCode(p.File, raw, out, p.Groups); err != nil {
		return res, err
	}
	for _, g := range p.Groups {
		res.Changes = append(res.Changes, Change{"add", g.Hook, g.Event, g.Matcher})
	}
	res.After = out
	if p.DryRun {
		return res, nil
	}
	if rec == nil {
		if res.Backup, err = Backup(filepath.Join(p.Home, "backups"), f); err != nil {
			return res, err
		}
		rec = &Record{Path: p.File, Existed: f.Exists, Before: Hash(f.Raw), Backup: res.Backup, Client: p.Client}
		m.Files = append(m.Files, rec)
	}
	mode := f.Mode
	if !f.Exists {
		mode = 0o644
		if err := m.makeDir(p.File); err != nil {
			return res, err
		}
	}
	if err := Write(p.File, out, mode); err != nil {
		return res, err
	}
	res.Wrote = true
	rec.wrote(f.Raw, out)
	rec.Entries, rec.Block = p.Groups, want
	return res, m.Save()
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

// uninstallBlock removes the block the installer put into a file it does not own as a whole
// (VT Code's vtcode.toml, docker-agent's agent YAML): the file's exact bytes from before the
// first install when nothing else changed since, else just the block. A block edited since is
// left, and said so.
func uninstallBlock(m *Manifest, rec *Record, k blockKind, dryRun bool) (Result, error) {
	var res Result
	f, err := k.Read(rec.Path)
	if err != nil {
		return res, err
	}
	kind := "remove"
	switch {
	case !f.Exists:
		kind = "missing"
	case !bytes.Contains(f.Raw, []byte(rec.Block)):
		kind = "edited"
	}
	for _, e := range rec.Entries {
		res.Changes = append(res.Changes, Change{kind, e.Hook, e.Event, e.Matcher})
	}
	if dryRun || kind == "edited" {
		return res, nil
	}
	switch {
	case kind == "missing":
	case rec.restorable(f.Raw):
		if err := restore(rec, f); err != nil {
			return res, err
		}
		res.Wrote, res.Restored = true, true
	default:
		out, err := k.strip(rec.Path, f.Raw, rec.Block)
		if err != nil {
			return res, fmt.Errorf("%s: removing the hooks would break it (%v); nothing was written", rec.Path, err)
		}
		if err := Write(rec.Path, out, f.Mode); err != nil {
			return res, err
		}
		res.Wrote = true
	}
	return res, m.forget(rec.Path, &res)
}

// blockKind is a file the installer puts one block of its own into.
type blockKind interface {
	Read(path string) (*File, error)
	// strip takes the block out of raw, and checks that what is left still parses.
	strip(path string, raw []byte, block string) ([]byte, error)
}

// checkBlock reports a block that is missing or edited, and binaries missing or of another
// version.
func checkBlock(rec *Record, version string, versionOf func(bin string) (string, error)) []Problem {
	b, err := os.ReadFile(rec.Path)
	switch {
	case err != nil:
		return []Problem{{rec.Path, "the file is gone"}}
	case !bytes.Contains(b, []byte(rec.Block)):
		return []Problem{{rec.Path, fmt.Sprintf("the harness hooks block was edited or removed since the install (run harness install --client %s again)", rec.Client)}}
	}
	var probs []Problem
	seen := map[string]bool{}
	for _, e := range rec.Entries {
		bin := Program(gjson.GetBytes(e.Group, "hooks.0.command").Str)
		if seen[bin] {
			continue
		}
		seen[bin] = true
		if st, err := os.Stat(bin); err != nil || st.Mode()&0o111 == 0 {
			probs = append(probs, Problem{rec.Path, fmt.Sprintf("the binary %s is missing or not executable", bin)})
		} else if version != "" && versionOf != nil {
			if v, err := versionOf(bin); err != nil || v != version {
				probs = append(probs, Problem{rec.Path, fmt.Sprintf("the binary %s is version %q, not %q", bin, v, version)})
			}
		}
	}
	return probs
}
