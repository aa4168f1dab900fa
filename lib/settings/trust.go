package settings

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// TrustFile is the TOML file that trusts the handlers of a client's hook file (Files.Trust,
// beside it), "" when the client's kind of file needs no trust.
func TrustFile(d *dialect.Dialect, hooksFile string) string {
	if d.Files.Kind != dialect.TrustedHookGroups || d.Files.Trust == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(hooksFile), d.Files.Trust)
}

// trusted is a TrustedHookGroups file: hook groups (groups) whose every handler the client
// runs only when a TOML file beside it (TrustFile) trusts its hash. That file is recorded on
// its own, with the tables the installer put there.
type trusted struct{ d *dialect.Dialect }

func (k trusted) Read(path string) (*File, error) {
	if k.companion(path) {
		f, _, err := ReadTOML(path)
		return f, err
	}
	return Read(path)
}

// companion says whether path is the trust file rather than the hook file.
func (k trusted) companion(path string) bool { return filepath.Ext(path) == ".toml" }

// Add installs the plan's groups into the hook file and trusts each of their handlers in the
// trust file. The trust file is checked first, so one that is not valid TOML stops the install
// before either file is touched.
func (k trusted) Add(m *Manifest, p Plan) (Result, error) {
	var hooks Result
	config := TrustFile(k.d, p.File)
	f, _, err := ReadTOML(config)
	if err != nil {
		return hooks, err
	}
	if f.Exists && f.Mode&0o200 == 0 {
		return hooks, fmt.Errorf("%s is read-only; make it writable (chmod u+w)", config)
	}
	p.Client = string(k.d.Client)
	g := groups{k.d}
	if !p.DryRun {
		// Both edits are tried first, writing nothing: the hook file must not be left with
		// hooks that the trust file could not trust, which the client would skip without a word.
		dry := p
		dry.DryRun = true
		_, raw, err := g.add(m, dry)
		if err != nil {
			return hooks, err
		}
		if _, err := installTrust(m, k.d, config, p.Home, trustOf(p.File, raw, p.Groups), true); err != nil {
			return hooks, err
		}
	}
	hooks, raw, err := g.add(m, p)
	hooks.After = raw
	if err != nil {
		return hooks, err
	}
	trust, err := installTrust(m, k.d, config, p.Home, trustOf(p.File, raw, p.Groups), p.DryRun)
	hooks.Companions = append(hooks.Companions, Companion{File: config, Why: k.d.Name() + " runs only the hooks it trusts", Result: trust})
	return hooks, err
}

// Remove takes the installer's groups out of the hook file, or its tables out of the trust file.
func (k trusted) Remove(m *Manifest, rec *Record, force, dryRun bool) (Result, error) {
	if k.companion(rec.Path) {
		return uninstallTrust(m, rec, dryRun)
	}
	return groups{k.d}.Remove(m, rec, force, dryRun)
}

// Find reports the hook file's drift and the handlers the trust file does not trust with their
// current hash; of the trust file, only whether it is there and valid TOML (its tables are
// checked with the hook file they trust).
func (k trusted) Find(rec *Record, version string, versionOf func(bin string) (string, error)) []Problem {
	if k.companion(rec.Path) {
		f, _, err := ReadTOML(rec.Path)
		switch {
		case err != nil:
			return []Problem{{rec.Path, err.Error()}}
		case !f.Exists:
			return []Problem{{rec.Path, "the file is gone"}}
		}
		return nil
	}
	probs, f := groups{k.d}.find(rec, version, versionOf)
	if f == nil {
		return probs
	}
	return append(probs, k.checkTrust(rec, f.Raw)...)
}

// trustOf lists the trust each planned handler needs, at the group index it has in raw.
func trustOf(file string, raw []byte, groups []Entry) []Trust {
	var out []Trust
	for _, g := range groups {
		i := FindGroup(raw, g.Event, g.Group)
		if i < 0 {
			continue
		}
		for h := range gjson.GetBytes(g.Group, "hooks").Array() {
			out = append(out, Trust{Hook: g.Hook, Event: g.Event, Key: TrustKey(file, g.Event, i, h), Hash: TrustHash(g.Event, g.Group, h)})
		}
	}
	return out
}

// trustChange names a trust table in a Change: the event, group and handler of its key.
func trustChange(kind string, t Trust) Change {
	parts := strings.Split(t.Key, ":")
	if len(parts) > 3 {
		parts = parts[len(parts)-3:]
	}
	return Change{Kind: kind, Hook: t.Hook, Event: "trust " + strings.Join(parts, ":")}
}

// installTrust makes config.toml trust exactly the wanted handlers of the installer's: tables
// of an earlier install no longer wanted go, missing ones are appended, a stale hash of the
// same key is replaced in place (and put back by uninstall). A table that already trusts a
// handler with the right hash is left as it is.
func installTrust(m *Manifest, d *dialect.Dialect, file, home string, want []Trust, dryRun bool) (Result, error) {
	var res Result
	f, _, err := ReadTOML(file)
	if err != nil {
		return res, err
	}
	rec := m.Find(file)
	raw := f.Raw
	var kept []Trust
	if rec != nil {
		for _, t := range rec.Trust {
			if wanted(want, t) {
				kept = append(kept, t)
				continue
			}
			out, ok, err := undoTrust(file, raw, t)
			if err != nil {
				return res, err
			}
			if ok {
				raw = out
				res.Changes = append(res.Changes, trustChange("remove", t))
			}
		}
	}
	var trusts []Trust
	for _, w := range want {
		doc, err := DecodeTOML(file, raw)
		if err != nil {
			return res, err
		}
		cur, has := TrustedHash(doc, w.Key)
		switch {
		case has && cur == w.Hash:
			for _, k := range kept {
				if k.Key == w.Key && k.Hash == w.Hash {
					trusts = append(trusts, k)
				}
			}
			res.Changes = append(res.Changes, trustChange("keep", w))
		case has:
			out, ok, err := SetTrust(file, raw, w.Key, w.Hash)
			if err != nil {
				return res, err
			}
			if !ok {
				return res, fmt.Errorf("%s already trusts %s with another hash, written in a form the installer does not edit; "+
					"remove that entry and run the install again", file, w.Key)
			}
			raw, w.Prev = out, cur
			for _, k := range kept {
				if k.Key == w.Key {
					w.Prev = k.Prev // a table of ours someone changed: ours it stays
				}
			}
			trusts = append(trusts, w)
			res.Changes = append(res.Changes, trustChange("add", w))
		default:
			if raw, err = AddTrust(file, raw, w.Key, w.Hash); err != nil {
				return res, err
			}
			trusts = append(trusts, w)
			res.Changes = append(res.Changes, trustChange("add", w))
		}
	}
	if !res.changed() || dryRun {
		return res, nil
	}
	if rec == nil || len(rec.Trust) == 0 {
		if res.Backup, err = Backup(filepath.Join(home, "backups"), f); err != nil {
			return res, err
		}
		m.Drop(file)
		rec = &Record{Path: file, Existed: f.Exists, Before: Hash(f.Raw), Backup: res.Backup, Client: string(d.Client), Entries: []Entry{}}
		m.Files = append(m.Files, rec)
	}
	if !f.Exists {
		if err := m.makeDir(file); err != nil {
			return res, err
		}
	}
	if err := Write(file, raw, f.Mode); err != nil {
		return res, err
	}
	res.Wrote = true
	rec.wrote(f.Raw, raw)
	rec.Trust = trusts
	return res, m.Save()
}

func wanted(want []Trust, t Trust) bool {
	for _, w := range want {
		if w.Key == t.Key && w.Hash == t.Hash {
			return true
		}
	}
	return false
}

// undoTrust takes away one table of the installer's: the table it added, or the hash it
// replaced put back. ok is false when the table is no longer there as the installer left it.
func undoTrust(file string, raw []byte, t Trust) ([]byte, bool, error) {
	if t.Prev == "" {
		return RemoveTrust(file, raw, t.Key, t.Hash)
	}
	doc, err := DecodeTOML(file, raw)
	if err != nil {
		return nil, false, err
	}
	if cur, _ := TrustedHash(doc, t.Key); cur != t.Hash {
		return raw, false, nil
	}
	return SetTrust(file, raw, t.Key, t.Prev)
}

// uninstallTrust takes away the trust tables recorded for a config.toml (under the lock).
func uninstallTrust(m *Manifest, rec *Record, dryRun bool) (Result, error) {
	var res Result
	f, doc, err := ReadTOML(rec.Path)
	if err != nil {
		return res, err
	}
	if !f.Exists {
		for _, t := range rec.Trust {
			res.Changes = append(res.Changes, trustChange("missing", t))
		}
		if dryRun {
			return res, nil
		}
		return res, m.forget(rec.Path, &res)
	}
	if rec.restorable(f.Raw) && allTrusted(doc, rec.Trust) {
		for _, t := range rec.Trust {
			res.Changes = append(res.Changes, trustChange("remove", t))
		}
		if dryRun {
			return res, nil
		}
		if err := restore(rec, f); err != nil {
			return res, err
		}
		res.Wrote, res.Restored = true, true
		return res, m.forget(rec.Path, &res)
	}
	raw := f.Raw
	var left []Trust
	for _, t := range rec.Trust {
		cur, has := TrustedHash(doc, t.Key)
		if !has {
			res.Changes = append(res.Changes, trustChange("missing", t))
			continue
		}
		out, ok := raw, false
		if cur == t.Hash {
			if out, ok, err = undoTrust(rec.Path, raw, t); err != nil {
				return res, err
			}
		}
		if !ok {
			res.Changes = append(res.Changes, trustChange("edited", t))
			left = append(left, t)
			continue
		}
		raw = out
		if doc, err = DecodeTOML(rec.Path, raw); err != nil {
			return res, err
		}
		res.Changes = append(res.Changes, trustChange("remove", t))
	}
	if dryRun {
		return res, nil
	}
	if len(left) == 0 && !rec.Existed && len(bytes.TrimSpace(raw)) == 0 {
		// The install created the file and nothing is left in it.
		if err := os.Remove(rec.Path); err != nil {
			return res, fmt.Errorf("removing %s, which the install created: %w", rec.Path, err)
		}
		res.Wrote, res.Restored = true, true
	} else if res.changed() {
		if err := Write(rec.Path, raw, f.Mode); err != nil {
			return res, err
		}
		res.Wrote = true
	}
	if len(left) == 0 {
		return res, m.forget(rec.Path, &res)
	}
	rec.Trust = left
	if res.Wrote {
		rec.wrote(f.Raw, raw)
	}
	return res, m.Save()
}

// allTrusted says whether every table of the installer's is in doc as it left it.
func allTrusted(doc map[string]any, trusts []Trust) bool {
	for _, t := range trusts {
		if cur, _ := TrustedHash(doc, t.Key); cur != t.Hash {
			return false
		}
	}
	return true
}

// checkTrust reports the handlers of a hook file's record that its trust file does not trust
// with their current hash: the client skips them without a word.
func (k trusted) checkTrust(rec *Record, raw []byte) []Problem {
	config := TrustFile(k.d, rec.Path)
	f, doc, err := ReadTOML(config)
	if err != nil {
		return []Problem{{rec.Path, err.Error()}}
	}
	var probs []Problem
	for _, e := range rec.Entries {
		i := FindGroup(raw, e.Event, e.Group)
		if i < 0 {
			continue // reported as missing or edited already
		}
		for h := range gjson.GetBytes(e.Group, "hooks").Array() {
			key := TrustKey(rec.Path, e.Event, i, h)
			cur, has := TrustedHash(doc, key)
			switch {
			case !f.Exists || !has:
				probs = append(probs, Problem{rec.Path, fmt.Sprintf("%s on %s is not trusted in %s, so %s skips it without a word (run harness install --client %s again)", e.Hook, e.Event, config, k.d.Name(), k.d.Client)})
			case cur != TrustHash(e.Event, e.Group, h):
				probs = append(probs, Problem{rec.Path, fmt.Sprintf("%s on %s has a stale trust hash in %s, so %s skips it without a word (run harness install --client %s again)", e.Hook, e.Event, config, k.d.Name(), k.d.Client)})
			}
		}
	}
	return probs
}
