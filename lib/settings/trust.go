package settings

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// trusted is a TrustedHookGroups file: hook groups whose every handler the client runs only
// when the TOML file beside it (TrustFile) trusts its hash. That file is recorded on its own,
// as trustTables; Install edits both.
type trusted struct{ groups }

// Find reports the groups' drift and the handlers the trust file does not trust with their
// current hash: the client skips those without a word.
func (k trusted) Find(f *File, rec *Record) ([]Problem, []Entry) {
	probs, live := k.groups.Find(f, rec)
	config := TrustFile(k.d, rec.Path)
	tf, doc, err := ReadTOML(config)
	if err != nil {
		return append(probs, Problem{rec.Path, err.Error()}), live
	}
	for _, e := range rec.Entries {
		i := FindGroup(f.Raw, e.Event, e.Group)
		if i < 0 {
			continue // reported as missing or edited already
		}
		for h := range gjson.GetBytes(e.Group, "hooks").Array() {
			key := TrustKey(rec.Path, e.Event, i, h)
			cur, has := TrustedHash(doc, key)
			switch {
			case !tf.Exists || !has:
				probs = append(probs, Problem{rec.Path, fmt.Sprintf("%s on %s is not trusted in %s, so %s skips it without a word (run harness install --client %s again)", e.Hook, e.Event, config, k.d.Name(), k.d.Client)})
			case cur != TrustHash(e.Event, e.Group, h):
				probs = append(probs, Problem{rec.Path, fmt.Sprintf("%s on %s has a stale trust hash in %s, so %s skips it without a word (run harness install --client %s again)", e.Hook, e.Event, config, k.d.Name(), k.d.Client)})
			}
		}
	}
	return probs, live
}

// trustTables is the TOML file of trust tables beside a TrustedHookGroups file (Codex's
// config.toml), edited in place: the installer appends, changes or removes only its own
// tables.
type trustTables struct{ d *dialect.Dialect }

func (trustTables) Read(path string) (*File, error) {
	f, _, err := ReadTOML(path)
	return f, err
}

func (trustTables) Verify(path string, raw []byte) error {
	_, err := DecodeTOML(path, raw)
	return err
}

// Find has nothing to say of the tables themselves: they are checked with the hook file they
// trust (trusted.Find).
func (trustTables) Find(*File, *Record) ([]Problem, []Entry) { return nil, nil }

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

// Add makes the file trust exactly the plan's handlers (Plan.Trust): tables of an earlier
// install no longer wanted go, missing ones are appended, a stale hash of the same key is
// replaced in place (and put back by uninstall). A table that already trusts a handler with the
// right hash is left as it is.
func (trustTables) Add(f *File, rec *Record, p Plan) (Edit, error) {
	res := Edit{Entries: []Entry{}}
	file, want := p.File, p.Trust
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
	res.Raw, res.Trust = raw, trusts
	return res, nil
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

// Remove takes away the recorded tables: a table the installer added goes, a hash it replaced
// is put back; a table changed since stays, and stays recorded.
func (trustTables) Remove(f *File, rec *Record, _ bool) (Edit, error) {
	e := Edit{Entries: rec.Entries}
	if !f.Exists {
		for _, t := range rec.Trust {
			e.Changes = append(e.Changes, trustChange("missing", t))
		}
		return e, nil
	}
	doc, err := DecodeTOML(rec.Path, f.Raw)
	if err != nil {
		return e, err
	}
	if rec.restorable(f.Raw) && allTrusted(doc, rec.Trust) {
		for _, t := range rec.Trust {
			e.Changes = append(e.Changes, trustChange("remove", t))
		}
		e.Restore = true
		return e, nil
	}
	raw := f.Raw
	for _, t := range rec.Trust {
		cur, has := TrustedHash(doc, t.Key)
		if !has {
			e.Changes = append(e.Changes, trustChange("missing", t))
			continue
		}
		out, ok := raw, false
		if cur == t.Hash {
			if out, ok, err = undoTrust(rec.Path, raw, t); err != nil {
				return e, err
			}
		}
		if !ok {
			e.Changes = append(e.Changes, trustChange("edited", t))
			e.Trust = append(e.Trust, t)
			continue
		}
		raw = out
		if doc, err = DecodeTOML(rec.Path, raw); err != nil {
			return e, err
		}
		e.Changes = append(e.Changes, trustChange("remove", t))
	}
	// The install created the file and nothing is left in it.
	e.Delete = len(e.Trust) == 0 && !rec.Existed && len(bytes.TrimSpace(raw)) == 0
	e.Raw = raw
	if len(e.Trust) == 0 {
		e.Entries = nil
	}
	return e, nil
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
