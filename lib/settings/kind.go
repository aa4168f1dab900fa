package settings

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// Kind is one kind of hook file the installer edits; a client's declaration names its kind
// (dialect.Files.Kind): Claude Code's JSON hook groups (groups), those groups with a TOML file
// of tables that trust each handler (trusted, and trustTables for that file), a block the
// installer owns in a TOML or YAML file of the user's (tomlBlock, yamlBlock), or a block of
// [[hooks]] tables in a user's TOML checked whole by the client's rules (tomlHooks). A kind reads,
// edits and checks its file; install, uninstall and check are written once, over it: lock,
// read, manifest, edit, verify, backup, write, record.
type Kind interface {
	// Read reads the file; a missing one is not an error (File.Exists says), one that does
	// not parse is.
	Read(path string) (*File, error)
	// Add returns the file with the plan's groups in, in place of what rec (an earlier
	// install, nil when none) put there, and what the record holds after.
	Add(f *File, rec *Record, p Plan) (Edit, error)
	// Remove returns the file without what rec says the installer put there (with force,
	// also what was edited since), and what the record still holds after.
	Remove(f *File, rec *Record, force bool) (Edit, error)
	// Find reports how what rec put into the file drifted (missing, edited, there twice,
	// untrusted), and lists the recorded entries still there, whose binaries are checked.
	Find(f *File, rec *Record) (probs []Problem, live []Entry)
	// Verify checks that an edited file still parses as its kind (a kind's Add and Remove
	// check more: that nothing but their own changed).
	Verify(path string, raw []byte) error
}

// Edit is a kind's edit of one file.
type Edit struct {
	Raw     []byte
	Changes []Change
	// Entries, Block and Trust are what the record holds after the edit.
	Entries []Entry
	Block   string
	Trust   []Trust
	Keys    []Key
	// Gone are recorded entries the record forgets: the keys they created are kept, to be
	// pruned once empty.
	Gone []Entry
	// Forgot (Add): recorded entries are gone from the file, so the record changes even when
	// the file does not.
	Forgot bool
	// Restore (Remove): everything the install put there is there as it was, and nothing else
	// changed since: the file gets back its bytes from before the first install.
	Restore bool
	// Delete (Remove): the install created the file, and nothing is left of it.
	Delete bool
}

func (e Edit) holds() bool {
	return len(e.Entries) > 0 || len(e.Trust) > 0 || e.Block != "" || len(e.Keys) > 0
}

func (r *Record) holds() bool {
	return len(r.Entries) > 0 || len(r.Trust) > 0 || r.Block != "" || len(r.Keys) > 0
}

// KindOf is the kind of a client's hook file.
func KindOf(d *dialect.Dialect) Kind {
	switch d.Files.Kind {
	case dialect.TrustedHookGroups:
		return trusted{groups{d}}
	case dialect.TOMLBlock:
		return tomlBlock{}
	case dialect.YAMLBlock:
		return yamlBlock{}
	case dialect.TOMLHooks:
		return tomlHooks{d}
	case dialect.PluginFile:
		return pluginFile{}
	}
	return groups{d}
}

// recordKind is the kind of a recorded file: its client's, or trustTables for the file of
// trust tables beside a TrustedHookGroups file.
func recordKind(rec *Record) (Kind, error) {
	d, err := clientOf(rec.Client)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rec.Path, err)
	}
	if d.Files.Kind == dialect.TrustedHookGroups && filepath.Base(rec.Path) == d.Files.Trust {
		return trustTables{d}, nil
	}
	return KindOf(d), nil
}

// clientOf is the declaration of the client a plan or record names ("" is Claude Code).
func clientOf(name string) (*dialect.Dialect, error) {
	if name == "" {
		return dialect.Default(), nil
	}
	return dialect.Lookup(name)
}

// TrustFile is the TOML file that trusts the handlers of a client's hook file (Files.Trust,
// beside it), "" when the client's kind of file needs no trust.
func TrustFile(d *dialect.Dialect, hooksFile string) string {
	if d.Files.Kind != dialect.TrustedHookGroups || d.Files.Trust == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(hooksFile), d.Files.Trust)
}

// Companions are the files an install into file also edits, and records on their own: the
// TOML file that trusts a TrustedHookGroups file's handlers.
func Companions(d *dialect.Dialect, file string) []string {
	if t := TrustFile(d, file); t != "" {
		return []string{t}
	}
	return nil
}

// lockInstall takes the installer's one lock, which guards the manifest shared by every file,
// and returns its release. A dry run writes nothing, not even a lock file: it takes none.
func lockInstall(home string, dryRun bool) (func(), error) {
	if dryRun {
		return func() {}, nil
	}
	lock, err := Lock(filepath.Join(home, "locks"), "install")
	if err != nil {
		return nil, err
	}
	return func() { lock.Unlock() }, nil
}

// Install puts the plan's groups into the plan's file, in the way of the kind of file the
// plan's client keeps, and records what it added. Every other byte stays as it was; a second
// run with the same plan changes nothing. A client whose hooks need trust gets it in the file
// beside (Result.Companions); both edits are tried first, writing nothing, so that the hook
// file is never left with hooks the other could not trust, which the client would skip
// without a word.
func Install(p Plan) (Result, error) {
	d, err := clientOf(p.Client)
	if err != nil {
		return Result{}, err
	}
	unlock, err := lockInstall(p.Home, p.DryRun)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	m, err := LoadManifest(p.Home)
	if err != nil {
		return Result{}, err
	}
	k := KindOf(d)
	config := TrustFile(d, p.File)
	trust := func(hooks []byte, dryRun bool) Plan {
		return Plan{File: config, Home: p.Home, DryRun: dryRun, Client: p.Client, Trust: trustOf(p.File, hooks, p.Groups)}
	}
	if config != "" && !p.DryRun {
		dry := p
		dry.DryRun = true
		res, err := add(m, k, dry)
		if err != nil {
			return res, err
		}
		if _, err := add(m, trustTables{d}, trust(res.After, true)); err != nil {
			return res, err
		}
	}
	res, err := add(m, k, p)
	if err != nil || config == "" {
		return res, err
	}
	tr, err := add(m, trustTables{d}, trust(res.After, p.DryRun))
	res.Companions = append(res.Companions, Companion{File: config, Why: d.Name() + " runs only the hooks it trusts", Result: tr})
	return res, err
}

// add is an install into one file, under the lock.
func add(m *Manifest, k Kind, p Plan) (Result, error) {
	var res Result
	f, err := k.Read(p.File)
	if err != nil {
		return res, err
	}
	res.Before = f.Raw
	if f.Exists && f.Mode&0o200 == 0 {
		return res, fmt.Errorf("%s is read-only; make it writable (chmod u+w) or install into another scope", p.File)
	}
	rec := m.Find(p.File)
	e, err := k.Add(f, rec, p)
	if err != nil {
		return res, err
	}
	res.Changes, res.After = e.Changes, e.Raw
	if res.changed() {
		if err := k.Verify(p.File, e.Raw); err != nil {
			return res, fmt.Errorf("%s: adding the hooks would break it (%v); nothing was written", p.File, err)
		}
	}
	if p.DryRun {
		return res, nil
	}
	if !res.changed() {
		if !e.Forgot {
			return res, nil
		}
		// Entries removed by hand: the manifest forgets them.
		rec.keepCreated(rec.Entries)
		rec.Entries, rec.Keys = e.Entries, e.Keys
		if !rec.holds() {
			return res, m.forget(p.File, &res)
		}
		return res, m.Save()
	}
	if rec == nil || !rec.holds() {
		if res.Backup, err = Backup(filepath.Join(p.Home, "backups"), f); err != nil {
			return res, err
		}
		m.Drop(p.File)
		rec = &Record{Path: p.File, Existed: f.Exists, Before: Hash(f.Raw), Backup: res.Backup, Client: p.Client,
			Installed: time.Now().UTC().Format(time.RFC3339)}
		m.Files = append(m.Files, rec)
	}
	if !f.Exists {
		if err := m.makeDir(p.File); err != nil {
			return res, err
		}
	}
	mode := f.Mode
	switch {
	case p.Mode != 0 && mode&^p.Mode != 0:
		if rec.Mode == 0 {
			rec.Mode = mode
		}
		mode &= p.Mode
	case p.Mode == 0 && rec.Mode != 0 && len(e.Keys) == 0:
		// Nothing that needed the narrower mode is left: the old one comes back.
		mode, rec.Mode = rec.Mode, 0
	}
	if err := Write(p.File, e.Raw, mode); err != nil {
		return res, err
	}
	res.Wrote = true
	rec.keepCreated(rec.Entries)
	rec.wrote(f.Raw, e.Raw)
	rec.Entries, rec.Block, rec.Trust, rec.Keys = e.Entries, e.Block, e.Trust, e.Keys
	return res, m.Save()
}

// Uninstall removes exactly what the manifest says was added to file, and never a byte of
// anyone else's: the file gets back its bytes from before the first install (or goes away, if
// the install created it) when that loses nothing; otherwise only what the installer put there
// goes, and what was edited since stays (and stays recorded) unless force.
func Uninstall(home, file string, force, dryRun bool) (Result, error) {
	unlock, err := lockInstall(home, dryRun)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	m, err := LoadManifest(home)
	if err != nil {
		return Result{}, err
	}
	rec := m.Find(file)
	if rec == nil {
		return Result{}, fmt.Errorf("nothing of the harness is installed in %s", file)
	}
	k, err := recordKind(rec)
	if err != nil {
		return Result{}, err
	}
	var res Result
	f, err := k.Read(rec.Path)
	if err != nil {
		return res, err
	}
	e, err := k.Remove(f, rec, force)
	if err != nil {
		return res, err
	}
	res.Changes = e.Changes
	switch {
	case dryRun:
		return res, nil
	case !f.Exists:
		return res, m.forget(file, &res)
	case e.Restore:
		if err := restore(rec, f); err != nil {
			return res, err
		}
		res.Wrote, res.Restored = true, true
		if err := rec.giveModeBack(f); err != nil {
			return res, err
		}
		return res, m.forget(file, &res)
	case e.Delete:
		if err := os.Remove(file); err != nil {
			return res, fmt.Errorf("removing %s, which the install created: %w", file, err)
		}
		res.Wrote, res.Restored = true, true
	case !bytes.Equal(e.Raw, f.Raw):
		if err := k.Verify(file, e.Raw); err != nil {
			return res, fmt.Errorf("%s: removing the hooks would break it (%v); nothing was written", file, err)
		}
		if err := Write(file, e.Raw, f.Mode); err != nil {
			return res, err
		}
		res.Wrote = true
	}
	if len(e.Keys) == 0 && !e.Delete {
		if err := rec.giveModeBack(f); err != nil {
			return res, err
		}
	}
	if !e.holds() {
		return res, m.forget(file, &res)
	}
	rec.keepCreated(e.Gone)
	rec.Entries, rec.Block, rec.Trust, rec.Keys = e.Entries, e.Block, e.Trust, e.Keys
	if res.Wrote {
		rec.wrote(f.Raw, e.Raw)
	}
	return res, m.Save()
}

// giveModeBack gives a file the permissions it had before the install narrowed them (Plan.Mode),
// once nothing the install put there that needed them is left.
func (r *Record) giveModeBack(f *File) error {
	if _, err := os.Stat(f.Path); r.Mode == 0 || err != nil {
		return nil // gone with the uninstall (the install had created it)
	}
	if err := os.Chmod(f.Path, r.Mode); err != nil {
		return fmt.Errorf("giving %s its permissions back (%o): %w", f.Path, r.Mode, err)
	}
	r.Mode = 0
	return nil
}

// Check reports drift for every file in the manifest: what the installer put there missing,
// edited or duplicated, and the binaries it runs missing, not executable or (version != "")
// of another version. A binary's problem is said once, under the first file that runs it.
func Check(home, binDir, version string, versionOf func(bin string) (string, error)) ([]Problem, []string, error) {
	m, err := LoadManifest(home)
	if err != nil {
		return nil, nil, err
	}
	var probs []Problem
	var files []string
	seen := map[string]bool{}
	for _, rec := range m.Files {
		files = append(files, rec.Path)
		k, err := recordKind(rec)
		if err != nil {
			probs = append(probs, Problem{rec.Path, err.Error()})
			continue
		}
		f, err := k.Read(rec.Path)
		switch {
		case err != nil:
			probs = append(probs, Problem{rec.Path, err.Error()})
			continue
		case !f.Exists:
			probs = append(probs, Problem{rec.Path, "the file is gone"})
			continue
		}
		found, live := k.Find(f, rec)
		probs = append(probs, found...)
		for _, e := range live {
			bin := Program(gjson.GetBytes(e.Group, "hooks.0.command").Str)
			if bin == "" || seen[bin] {
				// An HTTP hook runs no binary: harness serve answers it (checked on its own).
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
	}
	return probs, files, nil
}
