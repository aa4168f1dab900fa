package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
)

// Copy is one file the installer put into place (a managed install's binaries), with the
// content hash it wrote, so that it is replaced or removed only while it still holds that.
type Copy struct {
	Path string `json:"path"`
	Hash string `json:"hash"`
}

// Placed is what Place or Unplace did to one file or directory: Kind is "add", "update",
// "keep", "remove", "missing" or "edited" (changed since it was written: left alone).
type Placed struct {
	Kind, Path string
}

func (p Placed) String() string { return fmt.Sprintf("%-7s %s", p.Kind, p.Path) }

// Place copies each source file to its destination (want: destination -> source) with mode
// 0755, after creating dirs, and records what it wrote in home's manifest. A destination that
// exists and is not recorded, or was changed since it was written, is refused: the installer
// never replaces a byte it does not own. Recorded copies no longer wanted are removed. A
// second run with the same files changes nothing.
func Place(home string, want map[string]string, dirs []string, dryRun bool) ([]Placed, error) {
	var homeMade []string
	if !dryRun {
		var err error
		if homeMade, err = mkdirs(home); err != nil {
			return nil, err
		}
	}
	unlock, err := lockInstall(home, dryRun)
	if err != nil {
		return nil, err
	}
	defer unlock()
	m, err := LoadManifest(home)
	if err != nil {
		return nil, err
	}
	var out []Placed
	dests := make([]string, 0, len(want))
	for d := range want {
		dests = append(dests, d)
	}
	sort.Strings(dests)
	type write struct {
		dest string
		data []byte
	}
	var writes []write
	for _, dest := range dests {
		data, err := os.ReadFile(want[dest])
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", want[dest], err)
		}
		h := Hash(data)
		cur, err := os.ReadFile(dest)
		rec := m.copyOf(dest)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, Placed{"add", dest})
			writes = append(writes, write{dest, data})
		case err != nil:
			return nil, fmt.Errorf("reading %s: %w", dest, err)
		case rec == nil:
			return nil, fmt.Errorf("%s is there and is not the harness's: remove it, or install with another --prefix", dest)
		case Hash(cur) != rec.Hash:
			return nil, fmt.Errorf("%s was changed since the harness wrote it: left alone (remove it by hand to install again)", dest)
		case Hash(cur) == h:
			out = append(out, Placed{"keep", dest})
		default:
			out = append(out, Placed{"update", dest})
			writes = append(writes, write{dest, data})
		}
	}
	var drop []string
	for _, c := range m.Copies {
		if _, ok := want[c.Path]; ok {
			continue
		}
		kind, err := removable(c)
		if err != nil {
			return nil, err
		}
		out = append(out, Placed{kind, c.Path})
		if kind != "edited" {
			drop = append(drop, c.Path)
		}
	}
	if dryRun {
		return out, nil
	}
	m.noteDirs(homeMade)
	for _, d := range dirs {
		made, err := mkdirs(d)
		if err != nil {
			return nil, err
		}
		m.noteDirs(made)
	}
	for _, w := range writes {
		made, err := mkdirs(filepath.Dir(w.dest))
		if err != nil {
			return nil, err
		}
		m.noteDirs(made)
		if err := Write(w.dest, w.data, 0o755); err != nil {
			return nil, err
		}
		m.setCopy(Copy{w.dest, Hash(w.data)})
	}
	for _, p := range drop {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("removing %s: %w", p, err)
		}
		m.dropCopy(p)
	}
	return out, m.Save()
}

// Unplace removes every recorded copy that still holds what was written (with force, also
// those changed since), then the directories the installer created, when they are empty.
func Unplace(home string, force, dryRun bool) ([]Placed, error) {
	unlock, err := lockInstall(home, dryRun)
	if err != nil {
		return nil, err
	}
	defer unlock()
	m, err := LoadManifest(home)
	if err != nil {
		return nil, err
	}
	var out []Placed
	for _, c := range slices.Clone(m.Copies) {
		kind, err := removable(c)
		if err != nil {
			return nil, err
		}
		if kind == "edited" && force {
			kind = "remove"
		}
		out = append(out, Placed{kind, c.Path})
		if dryRun || kind == "edited" {
			continue
		}
		if err := os.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("removing %s: %w", c.Path, err)
		}
		m.dropCopy(c.Path)
	}
	if dryRun {
		return out, nil
	}
	return out, m.Save()
}

// Clear removes the installer's own records from home once nothing it installed is left there
// (the manifest, its locks, an empty backups folder), then the directories it created, when
// empty; it returns what it removed, nothing while something is still installed.
func Clear(home string) ([]string, error) {
	m, err := LoadManifest(home)
	if err != nil || len(m.Files) > 0 || len(m.Copies) > 0 || len(m.Owned) > 0 {
		return nil, err
	}
	var gone []string
	for _, p := range []string{m.path, filepath.Join(home, "locks"), filepath.Join(home, "backups")} {
		if isGone(p) {
			continue
		}
		rm := os.Remove
		if filepath.Base(p) == "locks" {
			rm = os.RemoveAll // only lock files of the installer's
		}
		if err := rm(p); err == nil {
			gone = append(gone, p)
		}
	}
	return append(gone, m.RemoveDirs()...), nil
}

// RemoveDirs removes the directories the installer created, deepest first, each only when
// empty, and forgets them; it returns those removed.
func (m *Manifest) RemoveDirs() []string {
	var gone, kept []string
	for i := len(m.Dirs) - 1; i >= 0; i-- {
		if os.Remove(m.Dirs[i]) == nil || isGone(m.Dirs[i]) {
			gone = append(gone, m.Dirs[i])
		} else {
			kept = append([]string{m.Dirs[i]}, kept...)
		}
	}
	m.Dirs = kept
	return gone
}

func isGone(p string) bool {
	_, err := os.Lstat(p)
	return errors.Is(err, fs.ErrNotExist)
}

// removable says what removing a recorded copy would be: "remove", "missing" or "edited".
func removable(c Copy) (string, error) {
	cur, err := os.ReadFile(c.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "missing", nil
	case err != nil:
		return "", fmt.Errorf("reading %s: %w", c.Path, err)
	case Hash(cur) != c.Hash:
		return "edited", nil
	}
	return "remove", nil
}

// mkdirs creates dir and its missing parents (mode 0755), returning those it created,
// outermost first.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); isGone(d); d = filepath.Dir(d) {
		missing = append([]string{d}, missing...)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	return missing, nil
}

func (m *Manifest) noteDirs(made []string) {
	for _, d := range made {
		if !slices.Contains(m.Dirs, d) {
			m.Dirs = append(m.Dirs, d)
		}
	}
}

func (m *Manifest) copyOf(path string) *Copy {
	for i := range m.Copies {
		if m.Copies[i].Path == path {
			return &m.Copies[i]
		}
	}
	return nil
}

func (m *Manifest) setCopy(c Copy) {
	if old := m.copyOf(c.Path); old != nil {
		*old = c
		return
	}
	m.Copies = append(m.Copies, c)
}

func (m *Manifest) dropCopy(path string) {
	m.Copies = slices.DeleteFunc(m.Copies, func(c Copy) bool { return c.Path == path })
}
