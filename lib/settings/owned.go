package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Serve is what install --serve set up, for status, doctor and uninstall: the address the
// service manager's socket holds, the secret's file, the settings file wired, and the
// service manager's units.
type Serve struct {
	Listen   string   `json:"listen"`
	Secret   string   `json:"secret"`
	Settings string   `json:"settings"`
	Units    []string `json:"units,omitempty"`
	// Manager says how the units are run: the service manager's name (it loaded them) or
	// "by hand" (none was running: the user loads them, or stands in for it).
	Manager string `json:"manager,omitempty"`
	// Service is the service manager the units are for: "systemd" (also when empty, as the
	// first installs recorded none) or "launchd".
	Service string `json:"service,omitempty"`
}

// Whole is a file an install writes whole (serve mode's secret and units): its content and mode.
type Whole struct {
	Path string
	Data []byte
	Mode fs.FileMode
}

// WriteOwned writes each file whole and records it (Manifest.Owned) with its content hash and
// the directories it created. A file that is there and not recorded, or changed since the
// harness wrote it, is refused before anything is written: the installer never replaces a
// byte it does not own. A second run with the same files changes nothing.
func WriteOwned(home string, files []Whole, dryRun bool) ([]Placed, error) {
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
	var writes []Whole
	for _, w := range files {
		cur, err := os.ReadFile(w.Path)
		rec := m.ownedOf(w.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, Placed{"add", w.Path})
			writes = append(writes, w)
		case err != nil:
			return nil, fmt.Errorf("reading %s: %w", w.Path, err)
		case rec == nil:
			return nil, fmt.Errorf("%s is there and is not the harness's: move it away and install again; nothing was written", w.Path)
		case Hash(cur) != rec.Hash:
			return nil, fmt.Errorf("%s was changed since the harness wrote it: left alone (remove it by hand and install again); nothing was written", w.Path)
		case Hash(cur) == Hash(w.Data):
			out = append(out, Placed{"keep", w.Path})
		default:
			out = append(out, Placed{"update", w.Path})
			writes = append(writes, w)
		}
	}
	if dryRun {
		return out, nil
	}
	for _, w := range writes {
		made, err := mkdirs(filepath.Dir(w.Path))
		if err != nil {
			return nil, err
		}
		m.noteDirs(made)
		if err := Write(w.Path, w.Data, w.Mode); err != nil {
			return nil, err
		}
		if rec := m.ownedOf(w.Path); rec != nil {
			rec.Hash = Hash(w.Data)
		} else {
			m.Owned = append(m.Owned, Copy{w.Path, Hash(w.Data)})
		}
		// Save after each file: a failure later leaves every file written recorded.
		if err := m.Save(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RemoveOwned removes every file WriteOwned recorded that still holds what was written (with
// force, also those changed since), then the directories the install created for them, when
// empty, and forgets serve mode's record once none is left.
func RemoveOwned(home string, force, dryRun bool) ([]Placed, []string, error) {
	unlock, err := lockInstall(home, dryRun)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	m, err := LoadManifest(home)
	if err != nil {
		return nil, nil, err
	}
	var out []Placed
	for _, c := range slices.Clone(m.Owned) {
		kind, err := removable(c)
		if err != nil {
			return nil, nil, err
		}
		if kind == "edited" && force {
			kind = "remove"
		}
		out = append(out, Placed{kind, c.Path})
		if dryRun || kind == "edited" {
			continue
		}
		if err := os.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("removing %s: %w", c.Path, err)
		}
		m.Owned = slices.DeleteFunc(m.Owned, func(o Copy) bool { return o.Path == c.Path })
	}
	if dryRun {
		return out, nil, nil
	}
	if len(m.Owned) == 0 {
		m.Serve = nil
	}
	return out, m.tidyDirs(), m.Save()
}

// SetServe records what install --serve set up (nil forgets it).
func SetServe(home string, s *Serve) error {
	unlock, err := lockInstall(home, false)
	if err != nil {
		return err
	}
	defer unlock()
	m, err := LoadManifest(home)
	if err != nil {
		return err
	}
	m.Serve = s
	return m.Save()
}

func (m *Manifest) ownedOf(path string) *Copy {
	for i := range m.Owned {
		if m.Owned[i].Path == path {
			return &m.Owned[i]
		}
	}
	return nil
}
