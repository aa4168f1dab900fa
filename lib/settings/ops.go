package settings

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

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
	// Trust is, for a file of trust tables, the trust each handler needs.
	Trust []Trust
	// Keys are values to put into a Claude Code settings file outside its hooks (serve
	// mode's allowlist entries and secret).
	Keys []Key
	// Mode, when set, is the most the file's permissions may be: the install narrows them
	// (a file that holds a secret) and uninstall gives the old ones back.
	Mode fs.FileMode
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

// groups is Claude Code's JSON hook file, {"hooks": {"Event": [groups]}}, for d's client: the
// installer appends its matcher groups and takes exactly those away.
type groups struct{ d *dialect.Dialect }

func (groups) Read(path string) (*File, error) { return Read(path) }

// Verify checks that raw is one JSON object (or nothing, as a file emptied back).
func (groups) Verify(path string, raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	return CheckJSON(path, raw)
}

// Add puts the plan's groups into the file and takes away groups of an earlier install that
// are no longer planned. A recorded entry the user edited stays as they made it, still recorded
// (uninstall --force removes it), and is not put in a second time; one gone from the file is
// forgotten (and put back if planned).
func (k groups) Add(f *File, rec *Record, p Plan) (Edit, error) {
	var e Edit
	if err := CheckTopKeys(k.d, p.File, f.Raw); err != nil {
		return e, err
	}
	raw := f.Raw
	if !f.Exists && p.Base != nil {
		raw = p.Base
	}
	raw, keys, keyChanges, forgot, err := addKeys(raw, rec, p)
	if err != nil {
		return e, err
	}
	e.Keys, e.Changes, e.Forgot = keys, keyChanges, forgot
	var kept, edited []Entry
	if rec != nil {
		for _, r := range rec.Entries {
			i := FindGroup(raw, r.Event, r.Group)
			switch {
			case i >= 0 && planned(p.Groups, r):
				kept = append(kept, r)
			case i >= 0:
				var err error
				if raw, err = RemoveGroup(raw, r.Event, i, rec.created()); err != nil {
					return e, fmt.Errorf("removing %s from %s: %w", r.Hook, p.File, err)
				}
				e.Changes = append(e.Changes, Change{"remove", r.Hook, r.Event, r.Matcher})
			case findByCommand(raw, r) >= 0:
				r.Left = false
				edited = append(edited, r)
				e.Changes = append(e.Changes, Change{"edited", r.Hook, r.Event, r.Matcher})
			default:
				e.Forgot = true
			}
		}
	}
	e.Entries = slices.Clone(edited)
	for _, g := range p.Groups {
		if planned(edited, g) {
			continue
		}
		if FindGroup(raw, g.Event, g.Group) >= 0 {
			e.Changes = append(e.Changes, Change{"keep", g.Hook, g.Event, g.Matcher})
			e.Entries = append(e.Entries, keptEntry(kept, g))
			continue
		}
		out, created, err := AddGroup(raw, g.Event, g.Group)
		if err != nil {
			return e, fmt.Errorf("adding %s to %s: %w", g.Hook, p.File, err)
		}
		raw = out
		g.Created = created
		e.Entries = append(e.Entries, g)
		e.Changes = append(e.Changes, Change{"add", g.Hook, g.Event, g.Matcher})
	}
	if !bytes.HasSuffix(raw, []byte("\n")) && !f.Exists {
		raw = append(raw, '\n')
	}
	e.Raw = raw
	return e, nil
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

// Remove takes out the recorded groups, and the keys their insertion created once those are
// empty; entries the user edited are left alone (and recorded as left) unless force, and
// entries no longer in the file are forgotten. When the file is as the installer last wrote it
// (Record.restorable) and holds every group, it gets back its bytes from before instead.
func (groups) Remove(f *File, rec *Record, force bool) (Edit, error) {
	var e Edit
	if !f.Exists {
		for _, k := range rec.Keys {
			e.Changes = append(e.Changes, k.change("missing"))
		}
		for _, r := range rec.Entries {
			e.Changes = append(e.Changes, Change{"missing", r.Hook, r.Event, r.Matcher})
		}
		return e, nil
	}
	if rec.restorable(f.Raw) && allThere(f.Raw, rec.Entries) && keysThere(f.Raw, rec.Keys) {
		for _, k := range rec.Keys {
			e.Changes = append(e.Changes, k.change("remove"))
		}
		for _, r := range rec.Entries {
			e.Changes = append(e.Changes, Change{"remove", r.Hook, r.Event, r.Matcher})
		}
		e.Restore = true
		return e, nil
	}
	raw, keys, keyChanges, err := removeKeys(f.Raw, rec, force)
	if err != nil {
		return e, err
	}
	e.Keys, e.Changes = keys, keyChanges
	for _, r := range rec.Entries {
		i := FindGroup(raw, r.Event, r.Group)
		if i < 0 && force {
			i = findByCommand(raw, r)
		}
		switch {
		case i >= 0:
			if raw, err = RemoveGroup(raw, r.Event, i, rec.created()); err != nil {
				return e, err
			}
			e.Changes = append(e.Changes, Change{"remove", r.Hook, r.Event, r.Matcher})
			e.Gone = append(e.Gone, r)
		case findByCommand(raw, r) >= 0:
			e.Changes = append(e.Changes, Change{"edited", r.Hook, r.Event, r.Matcher})
			r.Left = true
			e.Entries = append(e.Entries, r)
		default:
			e.Changes = append(e.Changes, Change{"missing", r.Hook, r.Event, r.Matcher})
			e.Gone = append(e.Gone, r)
		}
	}
	// Keys the install created that are empty now go too, even when the user emptied them.
	if raw, err = Prune(raw, rec.created()); err != nil {
		return e, err
	}
	e.Delete = !e.holds() && !rec.Existed && emptyObject(raw)
	if !e.holds() && rec.Existed && emptyObject(raw) {
		// Nothing is left but an empty object: a file that was empty before gets its bytes back.
		if before, err := os.ReadFile(rec.Backup); err == nil && Hash(before) == rec.Before && len(bytes.TrimSpace(before)) == 0 {
			raw = before
		}
	}
	e.Raw = raw
	return e, nil
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
	field := "command"
	cmd := gjson.GetBytes(e.Group, "hooks.0.command").Str
	if cmd == "" {
		// An HTTP hook (serve mode) is found by its URL.
		field, cmd = "url", gjson.GetBytes(e.Group, "hooks.0.url").Str
	}
	if cmd == "" {
		return -1
	}
	idx := -1
	gjson.GetBytes(raw, "hooks."+escape(e.Event)).ForEach(func(k, g gjson.Result) bool {
		g.Get("hooks").ForEach(func(_, h gjson.Result) bool {
			if h.Get(field).Str == cmd {
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

// Find reports the recorded groups that are missing, edited or there twice, and a setting of
// the file's own that switches every hook off (the user's, which the harness never writes);
// every entry but one an uninstall left that was then removed by hand (see Removed) is live.
func (k groups) Find(f *File, rec *Record) ([]Problem, []Entry) {
	probs := findKeys(rec.Path, f.Raw, rec.Keys)
	var live []Entry
	if off := k.d.Files.OffIn(f.Raw); off != "" {
		probs = append(probs, Problem{rec.Path, fmt.Sprintf("the file sets %s, so %s runs none of its hooks, the harness's with them", off, k.d.Name())})
	}
	for _, e := range rec.Entries {
		n := count(f.Raw, e)
		if e.Left && n == 0 && findByCommand(f.Raw, e) < 0 {
			continue // removed by hand, as the uninstall that left it advised: see Removed
		}
		live = append(live, e)
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
	}
	return probs, live
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
