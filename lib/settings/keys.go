package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// Key is one value the installer put into a Claude Code settings file outside its hooks: an
// item of a top-level array of strings (Key "allowedHttpHookUrls") or a member of a top-level
// object (Key "env.HARNESS_SERVE_SECRET"). The manifest records its hash, and the value only of
// an array item: an object member's value may be a secret, and the manifest is not.
type Key struct {
	Key   string `json:"key"`
	Value string `json:"value,omitempty"`
	Hash  string `json:"hash"`
	// Created lists the top-level key the insertion created (allowedHttpHookUrls, env).
	Created []string `json:"created,omitempty"`
}

// Owner is the name a Key's changes are reported under.
const keyOwner = "harness serve"

// NewKey is a key to plan: its value hashed, and kept out of the record when it is a member.
func NewKey(key, value string) Key { return Key{Key: key, Value: value, Hash: Hash([]byte(value))} }

func (k Key) member() (top, name string, ok bool) { return strings.Cut(k.Key, ".") }

// recorded is the key as the manifest keeps it.
func (k Key) recorded() Key {
	if _, _, m := k.member(); m {
		k.Value = ""
	}
	return k
}

func (k Key) change(kind string) Change {
	c := Change{Kind: kind, Hook: keyOwner, Event: k.Key}
	if _, _, m := k.member(); !m {
		c.Matcher = k.Value
	}
	return c
}

// findKey locates a key in raw: the index of the item or member in its container, and whether
// what is there holds the key's value (by hash); -1 when there is no such item or member.
func findKey(raw []byte, k Key) (int, bool) {
	top, name, member := k.member()
	c := gjson.GetBytes(raw, escape(top))
	idx, same, n := -1, false, 0
	c.ForEach(func(key, v gjson.Result) bool {
		switch {
		case member && c.IsObject() && key.Str == name:
			idx, same = n, v.Type == gjson.String && Hash([]byte(v.Str)) == k.Hash
			return false
		case !member && c.IsArray() && v.Type == gjson.String && Hash([]byte(v.Str)) == k.Hash:
			idx, same = n, true
			return false
		}
		n++
		return true
	})
	return idx, same
}

// addKey puts a planned key into raw, creating its container when missing, laid out as the
// file is; it reports the top-level key it created.
func addKey(raw []byte, k Key) ([]byte, []string, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}\n")
	}
	st := styleOf(raw)
	top, name, member := k.member()
	val, _ := json.Marshal(k.Value)
	c := gjson.GetBytes(raw, escape(top))
	sep := `": `
	if st.compact {
		sep = `":`
	}
	if !c.Exists() {
		container := "[" + string(val) + "]"
		if member {
			n, _ := json.Marshal(name)
			container = "{" + string(n) + ":" + string(val) + "}"
		}
		root := gjson.ParseBytes(raw)
		root.Index = len(raw) - len(bytes.TrimLeft(raw, " \t\r\n"))
		root.Raw = string(bytes.TrimSpace(raw))
		t, _ := json.Marshal(top)
		item := append([]byte(string(t[:len(t)-1])+sep), st.render([]byte(container), lineIndent(raw, root.Index)+st.unit)...)
		out, err := st.insertLast(raw, root, item)
		return out, []string{top}, err
	}
	if member && !c.IsObject() || !member && !c.IsArray() {
		return nil, nil, fmt.Errorf("%s is not an %s", top, map[bool]string{true: "object", false: "array"}[member])
	}
	item := val
	if member {
		n, _ := json.Marshal(name)
		item = append([]byte(string(n[:len(n)-1])+sep), val...)
	}
	if !st.compact && !strings.Contains(c.Raw, "\n") && len(c.Raw) > 2 {
		// A container written on one line ("allowedHttpHookUrls": ["a", "b"]) stays on one.
		closeAt := c.Index + len(c.Raw) - 1
		at := closeAt
		for at > c.Index+1 && (raw[at-1] == ' ' || raw[at-1] == '\t') {
			at--
		}
		comma := ", "
		if strings.Contains(c.Raw, ",") && !strings.Contains(c.Raw, ", ") {
			comma = ","
		}
		if gjson.Parse(c.Raw).Get("#").Int() == 0 && !member || member && len(gjson.Parse(c.Raw).Map()) == 0 {
			comma = ""
		}
		out := append(append(append([]byte(nil), raw[:at]...), comma+string(item)...), raw[at:]...)
		return out, nil, nil
	}
	out, err := st.insertLast(raw, c, item)
	return out, nil, err
}

// removeKey takes item i of a key's container away, and the container with it when the
// install created it and nothing is left in it.
func removeKey(raw []byte, k Key, i int) ([]byte, error) {
	top, _, _ := k.member()
	out, ok := removeItem(raw, gjson.GetBytes(raw, escape(top)), i)
	if !ok {
		return nil, fmt.Errorf("%s has no item %d", top, i)
	}
	return pruneKeys(out, []string{top}, k.Created)
}

// addKeys puts the plan's keys into raw in place of what rec's keys were: a recorded key still
// there and planned stays; one no longer planned goes; a planned one the file already holds
// is the user's and is not recorded; a member the file holds with another value is refused,
// unless it is recorded (then it was edited since, and is left as it is).
func addKeys(raw []byte, rec *Record, p Plan) ([]byte, []Key, []Change, bool, error) {
	var keys []Key
	var changes []Change
	forgot := false
	plannedKey := func(k Key) bool {
		return slices.ContainsFunc(p.Keys, func(q Key) bool { return q.Key == k.Key && q.Hash == k.Hash })
	}
	var recorded []Key
	if rec != nil {
		recorded = rec.Keys
	}
	for _, r := range recorded {
		i, same := findKey(raw, r)
		switch {
		case i >= 0 && same && plannedKey(r):
			keys = append(keys, r)
		case i >= 0 && same:
			var err error
			if raw, err = removeKey(raw, r, i); err != nil {
				return nil, nil, nil, false, fmt.Errorf("removing %s from %s: %w", r.Key, p.File, err)
			}
			changes = append(changes, r.change("remove"))
		case i >= 0:
			keys = append(keys, r)
			changes = append(changes, r.change("edited"))
		default:
			forgot = true
		}
	}
	for _, k := range p.Keys {
		_, _, member := k.member()
		if j := slices.IndexFunc(keys, func(r Key) bool { return r.Key == k.Key && (member || r.Hash == k.Hash) }); j >= 0 {
			if keys[j].Hash == k.Hash {
				changes = append(changes, k.change("keep"))
			}
			continue // else a member edited since the install: left as it is, said above
		}
		i, same := findKey(raw, k)
		switch {
		case i >= 0 && same:
			changes = append(changes, k.change("keep"))
			continue // the user's own: uninstall leaves it
		case i >= 0:
			return nil, nil, nil, false, fmt.Errorf("%s: %s holds a value the harness did not write: remove it (or the serve wiring you made by hand) and install again; nothing was written", p.File, k.Key)
		}
		out, created, err := addKey(raw, k)
		if err != nil {
			return nil, nil, nil, false, fmt.Errorf("adding %s to %s: %w", k.Key, p.File, err)
		}
		raw = out
		k.Created = created
		keys = append(keys, k.recorded())
		changes = append(changes, k.change("add"))
	}
	return raw, keys, changes, forgot, nil
}

// removeKeys takes the recorded keys away (with force, also those edited since); it returns
// the keys left (edited) and what it did.
func removeKeys(raw []byte, rec *Record, force bool) ([]byte, []Key, []Change, error) {
	var left []Key
	var changes []Change
	for _, k := range rec.Keys {
		i, same := findKey(raw, k)
		switch {
		case i >= 0 && (same || force):
			var err error
			if raw, err = removeKey(raw, k, i); err != nil {
				return nil, nil, nil, err
			}
			changes = append(changes, k.change("remove"))
		case i >= 0:
			left = append(left, k)
			changes = append(changes, k.change("edited"))
		default:
			// Gone already; the container the install created goes once empty.
			var err error
			top, _, _ := k.member()
			if raw, err = pruneKeys(raw, []string{top}, k.Created); err != nil {
				return nil, nil, nil, err
			}
			changes = append(changes, k.change("missing"))
		}
	}
	return raw, left, changes, nil
}

// keysThere says whether every recorded key is in raw as the installer wrote it.
func keysThere(raw []byte, keys []Key) bool {
	for _, k := range keys {
		if _, same := findKey(raw, k); !same {
			return false
		}
	}
	return true
}

// findKeys reports recorded keys missing from raw or changed since the install.
func findKeys(path string, raw []byte, keys []Key) []Problem {
	var probs []Problem
	for _, k := range keys {
		what := k.Key
		if k.Value != "" {
			what += " entry " + k.Value
		}
		switch i, same := findKey(raw, k); {
		case i < 0:
			probs = append(probs, Problem{path, what + " is missing (run harness install --serve again to put it back, or harness uninstall to forget it)"})
		case !same:
			probs = append(probs, Problem{path, what + " was changed since the install: harness serve refuses every call that does not carry its secret " +
				"(harness uninstall --force, then harness install --serve, writes it again)"})
		}
	}
	return probs
}
