package settings

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/pretty"

	"github.com/hookkit/harness/lib/dialect"
)

// Change is one thing install or uninstall did (or, in a dry run, would do).
type Change struct {
	// Kind is "add", "remove", "keep", "edited" (the user changed our entry: left alone) or
	// "missing" (our entry is no longer in the file).
	Kind                 string
	Hook, Event, Matcher string
}

func (c Change) String() string {
	m := ""
	if c.Matcher != "" {
		m = "[" + c.Matcher + "]"
	}
	return fmt.Sprintf("%-7s %s%s -> %s", c.Kind, c.Event, m, c.Hook)
}

// Plan is an install: the groups wanted in one settings file.
type Plan struct {
	File   string
	Home   string // the harness home: manifest, backups, locks
	Groups []Entry
	DryRun bool
	// Client names the client whose file this is ("" for Claude Code), as the manifest
	// records it.
	Client string
	// Base is what a file that does not exist yet starts as, before the groups go in ("{}"
	// when nil): a managed drop-in's env.
	Base []byte
	// Agent and Block are for a YAMLBlock file: the agent whose hooks to set (root when
	// empty), and the hooks block rendered at indentation zero.
	Agent, Block string
}

// Result is what an operation did to one file.
type Result struct {
	Changes []Change
	// Wrote says the file was written; Backup is the copy taken before (if any).
	Wrote  bool
	Backup string
	// Restored says uninstall put back the exact bytes from before the first install.
	Restored bool
	// Dirs are the directories the install had created that uninstall removed, now empty.
	Dirs []string
	// Before and After are the file's content before and after Install (what it would be,
	// in a dry run), for a dry run to show as a diff.
	Before, After []byte
	// Companions are what the install did to the files it edits beside this one.
	Companions []Companion
}

// Companion is what an install did to a file it edits beside the plan's: the TOML file that
// trusts the hooks, for a TrustedHookGroups client.
type Companion struct {
	File string
	// Why says what the file is for.
	Why    string
	Result Result
}

func (r Result) changed() bool {
	for _, c := range r.Changes {
		if c.Kind == "add" || c.Kind == "remove" {
			return true
		}
	}
	return false
}

// groups is Claude Code's JSON hook file, {"hooks": {"Event": [groups]}}, for d's client.
type groups struct{ d *dialect.Dialect }

func (groups) Read(path string) (*File, error) { return Read(path) }

// Add puts the plan's groups into the file, removes groups of an earlier install that are no
// longer planned, and records the result.
func (k groups) Add(m *Manifest, p Plan) (Result, error) {
	res, after, err := k.add(m, p)
	res.After = after
	return res, err
}

// add is Add; it also returns the file's content after the install (what it would be, in a
// dry run).
func (k groups) add(m *Manifest, p Plan) (Result, []byte, error) {
	var res Result
	f, err := Read(p.File)
	if err != nil {
		return res, nil, err
	}
	res.Before = f.Raw
	if err := CheckTopKeys(k.d, p.File, f.Raw); err != nil {
		return res, nil, err
	}
	if f.Exists && f.Mode&0o200 == 0 {
		return res, nil, fmt.Errorf("%s is read-only; make it writable (chmod u+w) or install into another scope", p.File)
	}
	rec := m.Find(p.File)
	raw := f.Raw
	if !f.Exists && p.Base != nil {
		raw = p.Base
	}
	// Recorded entries: those planned and in place are kept; those no longer planned go; one
	// the user edited stays as they made it, still recorded (uninstall --force removes it), and
	// is not put in a second time; one gone from the file is forgotten (and put back if planned).
	var kept, edited []Entry
	forgot := false
	if rec != nil {
		for _, e := range rec.Entries {
			i := FindGroup(raw, e.Event, e.Group)
			switch {
			case i >= 0 && planned(p.Groups, e):
				kept = append(kept, e)
			case i >= 0:
				if raw, err = RemoveGroup(raw, e.Event, i, rec.created()); err != nil {
					return res, nil, fmt.Errorf("removing %s from %s: %w", e.Hook, p.File, err)
				}
				res.Changes = append(res.Changes, Change{"remove", e.Hook, e.Event, e.Matcher})
			case findByCommand(raw, e) >= 0:
				e.Left = false
				edited = append(edited, e)
				res.Changes = append(res.Changes, Change{"edited", e.Hook, e.Event, e.Matcher})
			default:
				forgot = true
			}
		}
	}
	entries := slices.Clone(edited)
	for _, g := range p.Groups {
		if planned(edited, g) {
			continue
		}
		if FindGroup(raw, g.Event, g.Group) >= 0 {
			res.Changes = append(res.Changes, Change{"keep", g.Hook, g.Event, g.Matcher})
			entries = append(entries, keptEntry(kept, g))
			continue
		}
		out, created, err := AddGroup(raw, g.Event, g.Group)
		if err != nil {
			return res, nil, fmt.Errorf("adding %s to %s: %w", g.Hook, p.File, err)
		}
		raw = out
		g.Created = created
		entries = append(entries, g)
		res.Changes = append(res.Changes, Change{"add", g.Hook, g.Event, g.Matcher})
	}
	if !bytes.HasSuffix(raw, []byte("\n")) && !f.Exists {
		raw = append(raw, '\n')
	}
	if p.DryRun {
		return res, raw, nil
	}
	if !res.changed() {
		if forgot { // entries removed by hand: the manifest forgets them
			rec.keepCreated(rec.Entries)
			rec.Entries = entries
			if len(entries) == 0 {
				return res, raw, m.forget(p.File, &res)
			}
			return res, raw, m.Save()
		}
		return res, raw, nil
	}
	if rec == nil || len(rec.Entries) == 0 {
		if res.Backup, err = Backup(filepath.Join(p.Home, "backups"), f); err != nil {
			return res, nil, err
		}
		m.Drop(p.File)
		rec = &Record{Path: p.File, Existed: f.Exists, Before: Hash(f.Raw), Backup: res.Backup, Client: p.Client,
			Installed: time.Now().UTC().Format(time.RFC3339)}
		m.Files = append(m.Files, rec)
	}
	if !f.Exists {
		if err := m.makeDir(p.File); err != nil {
			return res, nil, err
		}
	}
	if err := Write(p.File, raw, f.Mode); err != nil {
		return res, nil, err
	}
	res.Wrote = true
	rec.keepCreated(rec.Entries)
	rec.wrote(f.Raw, raw)
	rec.Entries = entries
	return res, raw, m.Save()
}

func planned(groups []Entry, e Entry) bool {
	for _, g := range groups {
		if g.Event == e.Event && bytes.Equal(pretty.Ugly(g.Group), pretty.Ugly(e.Group)) {
			return true
		}
	}
	return false
}

// keptEntry carries the created keys of an entry already installed.
func keptEntry(kept []Entry, g Entry) Entry {
	for _, k := range kept {
		if k.Event == g.Event && bytes.Equal(pretty.Ugly(k.Group), pretty.Ugly(g.Group)) {
			k.Left = false
			return k
		}
	}
	return g
}

// Remove takes out exactly what the manifest says was added to the file, and never a byte of
// anyone else's. The file gets back its bytes from before the first install (or goes away,
// if the install created it) only when that loses nothing: it is as the installer last wrote
// it, and nobody changed it between the backup and that write (Record.restorable). Otherwise
// only the harness's entries go, with the keys their insertion created once those are
// empty; entries the user edited are left alone (and recorded as left) unless force. Entries
// no longer in the file are forgotten. Directories the install created go once empty.
func (groups) Remove(m *Manifest, rec *Record, force, dryRun bool) (Result, error) {
	var res Result
	file := rec.Path
	f, err := Read(file)
	if err != nil {
		return res, err
	}
	if !f.Exists {
		for _, e := range rec.Entries {
			res.Changes = append(res.Changes, Change{"missing", e.Hook, e.Event, e.Matcher})
		}
		if dryRun {
			return res, nil
		}
		return res, m.forget(file, &res)
	}
	if rec.restorable(f.Raw) && allThere(f.Raw, rec.Entries) {
		for _, e := range rec.Entries {
			res.Changes = append(res.Changes, Change{"remove", e.Hook, e.Event, e.Matcher})
		}
		if dryRun {
			return res, nil
		}
		if err := restore(rec, f); err != nil {
			return res, err
		}
		res.Wrote, res.Restored = true, true
		return res, m.forget(file, &res)
	}
	raw := f.Raw
	var left, gone []Entry
	for _, e := range rec.Entries {
		i := FindGroup(raw, e.Event, e.Group)
		if i < 0 && force {
			i = findByCommand(raw, e)
		}
		switch {
		case i >= 0:
			if raw, err = RemoveGroup(raw, e.Event, i, rec.created()); err != nil {
				return res, err
			}
			res.Changes = append(res.Changes, Change{"remove", e.Hook, e.Event, e.Matcher})
			gone = append(gone, e)
		case findByCommand(raw, e) >= 0:
			res.Changes = append(res.Changes, Change{"edited", e.Hook, e.Event, e.Matcher})
			e.Left = true
			left = append(left, e)
		default:
			res.Changes = append(res.Changes, Change{"missing", e.Hook, e.Event, e.Matcher})
			gone = append(gone, e)
		}
	}
	// Keys the install created that are empty now go too, even when the user emptied them.
	if raw, err = Prune(raw, rec.created()); err != nil {
		return res, err
	}
	deleted := len(left) == 0 && !rec.Existed && emptyObject(raw)
	if len(left) == 0 && rec.Existed && emptyObject(raw) {
		// Nothing is left but an empty object: a file that was empty before gets its bytes back.
		if before, err := os.ReadFile(rec.Backup); err == nil && Hash(before) == rec.Before && len(bytes.TrimSpace(before)) == 0 {
			raw = before
		}
	}
	if dryRun {
		return res, nil
	}
	switch {
	case deleted:
		// The install created the file and nothing but an empty object is left of it.
		if err := os.Remove(file); err != nil {
			return res, fmt.Errorf("removing %s, which the install created: %w", file, err)
		}
		res.Wrote, res.Restored = true, true
	case !bytes.Equal(raw, f.Raw):
		if err := Write(file, raw, f.Mode); err != nil {
			return res, err
		}
		res.Wrote = true
	}
	if len(left) == 0 {
		return res, m.forget(file, &res)
	}
	rec.keepCreated(gone)
	rec.Entries = left
	if res.Wrote {
		rec.wrote(f.Raw, raw)
	}
	return res, m.Save()
}

// forget drops a file from the manifest, removes the directories the install created that
// are empty now (noting them in res), and saves the manifest.
func (m *Manifest) forget(file string, res *Result) error {
	m.Drop(file)
	res.Dirs = append(res.Dirs, m.tidyDirs()...)
	return m.Save()
}

// allThere says whether every entry is in raw exactly as installed.
func allThere(raw []byte, entries []Entry) bool {
	for _, e := range entries {
		if FindGroup(raw, e.Event, e.Group) < 0 {
			return false
		}
	}
	return true
}

// emptyObject says whether raw is {} (whitespace aside) or nothing at all.
func emptyObject(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return true
	}
	return t[0] == '{' && t[len(t)-1] == '}' && len(bytes.TrimSpace(t[1:len(t)-1])) == 0
}

// restore puts back the bytes from before the first install.
func restore(rec *Record, f *File) error {
	if !rec.Existed {
		if err := os.Remove(f.Path); err != nil {
			return fmt.Errorf("removing %s, which the install created: %w", f.Path, err)
		}
		return nil
	}
	before, err := os.ReadFile(rec.Backup)
	if err != nil {
		return fmt.Errorf("reading the backup %s: %w", rec.Backup, err)
	}
	if Hash(before) != rec.Before {
		return fmt.Errorf("the backup %s does not hold what %s had before the install", rec.Backup, f.Path)
	}
	return Write(f.Path, before, f.Mode)
}

// findByCommand finds a group in hooks.<event> that runs the entry's binary, edited or not.
func findByCommand(raw []byte, e Entry) int {
	cmd := gjson.GetBytes(e.Group, "hooks.0.command").Str
	if cmd == "" {
		return -1
	}
	idx := -1
	gjson.GetBytes(raw, "hooks."+escape(e.Event)).ForEach(func(k, g gjson.Result) bool {
		g.Get("hooks").ForEach(func(_, h gjson.Result) bool {
			if h.Get("command").Str == cmd {
				idx = int(k.Int())
			}
			return idx < 0
		})
		return idx < 0
	})
	return idx
}

// Problem is one way an installation drifted from what the manifest recorded.
type Problem struct {
	File, What string
}

// Find reports the entries of a record that are missing, edited or there twice, and the
// binaries they run that are missing, not executable or of another version.
func (k groups) Find(rec *Record, version string, versionOf func(bin string) (string, error)) []Problem {
	probs, _ := k.find(rec, version, versionOf)
	return probs
}

// find is Find; it also returns the file as read (nil when it could not be).
func (groups) find(rec *Record, version string, versionOf func(bin string) (string, error)) ([]Problem, *File) {
	f, err := Read(rec.Path)
	if err != nil {
		return []Problem{{rec.Path, err.Error()}}, nil
	}
	if !f.Exists {
		return []Problem{{rec.Path, "the settings file is gone"}}, nil
	}
	var probs []Problem
	seen := map[string]bool{}
	for _, e := range rec.Entries {
		n := count(f.Raw, e)
		if e.Left && n == 0 && findByCommand(f.Raw, e) < 0 {
			continue // removed by hand, as the uninstall that left it advised: see Removed
		}
		switch {
		case n > 1:
			probs = append(probs, Problem{rec.Path, fmt.Sprintf("%s on %s is there %d times", e.Hook, e.Event, n)})
		case n == 0 && e.Left:
			probs = append(probs, Problem{rec.Path, fmt.Sprintf("%s on %s was edited since the install, so uninstall left it "+
				"(remove it by hand, or run harness uninstall --force)", e.Hook, e.Event)})
		case n == 0 && findByCommand(f.Raw, e) >= 0:
			probs = append(probs, Problem{rec.Path, fmt.Sprintf("%s on %s was edited since the install", e.Hook, e.Event)})
		case n == 0:
			probs = append(probs, Problem{rec.Path, fmt.Sprintf("%s on %s is missing (run harness install again to put it back, "+
				"or harness uninstall to forget it)", e.Hook, e.Event)})
		}
		bin := Program(gjson.GetBytes(e.Group, "hooks.0.command").Str)
		if seen[bin] {
			continue
		}
		seen[bin] = true
		st, err := os.Stat(bin)
		switch {
		case err != nil:
			probs = append(probs, Problem{rec.Path, fmt.Sprintf("the binary %s is missing", bin)})
		case st.Mode()&0o111 == 0:
			probs = append(probs, Problem{rec.Path, fmt.Sprintf("the binary %s is not executable", bin)})
		case version != "" && versionOf != nil:
			if v, err := versionOf(bin); err != nil || v != version {
				probs = append(probs, Problem{rec.Path, fmt.Sprintf("the binary %s is version %q, not %q", bin, v, version)})
			}
		}
	}
	return probs, f
}

// Removed lists, per recorded file, the entries an uninstall left (edited since the install)
// that are gone from the file since: removed by hand, as it advised. They are no drift; the
// manifest forgets them at the next uninstall or install of that file (status writes nothing).
// live says whether anything recorded is still in place: any other entry, trust table or block.
func Removed(home string) (removed []Problem, live bool, err error) {
	m, err := LoadManifest(home)
	if err != nil {
		return nil, false, err
	}
	for _, rec := range m.Files {
		if len(rec.Trust) > 0 || rec.Block != "" {
			live = true
			continue
		}
		f, err := Read(rec.Path)
		if err != nil || !f.Exists {
			live = true // reported by Check
			continue
		}
		for _, e := range rec.Entries {
			if e.Left && count(f.Raw, e) == 0 && findByCommand(f.Raw, e) < 0 {
				removed = append(removed, Problem{rec.Path, fmt.Sprintf("%s on %s (uninstall left it, edited)", e.Hook, e.Event)})
				continue
			}
			live = true
		}
	}
	return removed, live, nil
}

// Program is the program a handler command runs: the command itself in exec form, the first
// (single-quoted) word in shell form.
func Program(command string) string {
	if rest, ok := strings.CutPrefix(command, "'"); ok {
		if i := strings.Index(rest, "'"); i >= 0 && !strings.HasPrefix(rest[i:], `'\''`) {
			return rest[:i]
		}
		return strings.ReplaceAll(strings.SplitN(rest, "' ", 2)[0], `'\''`, "'")
	}
	return command
}

func count(raw []byte, e Entry) int {
	want := string(pretty.Ugly(e.Group))
	n := 0
	gjson.GetBytes(raw, "hooks."+escape(e.Event)).ForEach(func(_, v gjson.Result) bool {
		if string(pretty.Ugly([]byte(v.Raw))) == want {
			n++
		}
		return true
	})
	return n
}

// Locate returns the index of an entry's group in raw: the group as installed, else one that
// runs its command, else one that runs its program (its command line edited); -1 when none is
// there.
func Locate(raw []byte, e Entry) int {
	if i := FindGroup(raw, e.Event, e.Group); i >= 0 {
		return i
	}
	if i := findByCommand(raw, e); i >= 0 {
		return i
	}
	prog := Program(gjson.GetBytes(e.Group, "hooks.0.command").Str)
	idx := -1
	gjson.GetBytes(raw, "hooks."+escape(e.Event)).ForEach(func(k, g gjson.Result) bool {
		if Program(g.Get("hooks.0.command").Str) == prog {
			idx = int(k.Int())
		}
		return idx < 0
	})
	return idx
}
