package settings

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookkit/harness/lib/dialect"
)

// Kind is one kind of hook file the installer edits (a client's declaration names it,
// dialect.Files.Kind): Claude Code's JSON hook groups, those groups with a TOML file that
// trusts them, or a block the installer owns in a TOML or YAML file of the user's. Install,
// Uninstall and Check take the lock, load the manifest and name no client: what differs is
// here.
type Kind interface {
	// Read reads the file; a missing one is not an error (File.Exists says).
	Read(path string) (*File, error)
	// Add puts the plan's groups into its file, in place of an earlier install's, verifies
	// the result, backs the file up before the first install, writes it and records it in m.
	Add(m *Manifest, p Plan) (Result, error)
	// Remove takes out exactly what rec says was added, verifies and writes the result, and
	// updates m.
	Remove(m *Manifest, rec *Record, force, dryRun bool) (Result, error)
	// Find reports how the recorded file drifted from rec: entries missing, edited or
	// duplicated, and the binaries they run (version != "" checks theirs).
	Find(rec *Record, version string, versionOf func(bin string) (string, error)) []Problem
}

// KindOf is the kind of a client's hook file.
func KindOf(d *dialect.Dialect) Kind {
	switch d.Files.Kind {
	case dialect.TrustedHookGroups:
		return trusted{d}
	case dialect.TOMLBlock:
		return tomlBlock{}
	case dialect.YAMLBlock:
		return yamlBlock{}
	}
	return groups{d}
}

// clientOf is the declaration of the client a plan or record names ("" is Claude Code).
func clientOf(name string) (*dialect.Dialect, error) {
	if name == "" {
		return dialect.Default(), nil
	}
	return dialect.Lookup(name)
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
// run with the same plan changes nothing.
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
	return KindOf(d).Add(m, p)
}

// Uninstall removes exactly what the manifest says was added to file, and never a byte of
// anyone else's (each kind says how).
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
	d, err := clientOf(rec.Client)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", file, err)
	}
	return KindOf(d).Remove(m, rec, force, dryRun)
}

// Check reports drift for every file in the manifest: entries missing, edited or duplicated,
// binaries missing or not executable, binaries of another version (version != "" checks).
func Check(home, binDir, version string, versionOf func(bin string) (string, error)) ([]Problem, []string, error) {
	m, err := LoadManifest(home)
	if err != nil {
		return nil, nil, err
	}
	if versionOf != nil {
		// Each binary is asked once, however many files run it.
		asked, ask := map[string][2]string{}, versionOf
		versionOf = func(bin string) (string, error) {
			if a, ok := asked[bin]; ok {
				if a[1] != "" {
					return a[0], errors.New(a[1])
				}
				return a[0], nil
			}
			v, err := ask(bin)
			a := [2]string{v, ""}
			if err != nil {
				a[1] = err.Error()
			}
			asked[bin] = a
			return v, err
		}
	}
	var probs []Problem
	var files []string
	binaries := map[string]bool{} // a binary's problem is said once, under the first file
	for _, rec := range m.Files {
		files = append(files, rec.Path)
		d, err := clientOf(rec.Client)
		if err != nil {
			probs = append(probs, Problem{rec.Path, err.Error()})
			continue
		}
		for _, p := range KindOf(d).Find(rec, version, versionOf) {
			if strings.HasPrefix(p.What, "the binary ") {
				if binaries[p.What] {
					continue
				}
				binaries[p.What] = true
			}
			probs = append(probs, p)
		}
	}
	return probs, files, nil
}

// Companions are the files an install into file also edits, and records on their own: the
// TOML file that trusts a TrustedHookGroups file's handlers.
func Companions(d *dialect.Dialect, file string) []string {
	if t := TrustFile(d, file); t != "" {
		return []string{t}
	}
	return nil
}
