package state

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
)

// Write replaces path with data atomically: a temp file in the same directory, fsync, the
// given mode, rename, fsync of the directory. A crash leaves the old file or the new one,
// never a mix, and the next Write removes the temp file a crashed writer left. The directory
// is created when missing.
func Write(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	// A temp file left by a writer that died before its rename is ours to remove.
	if stale, _ := filepath.Glob(filepath.Join(dir, tempPattern(path))); len(stale) > 0 {
		for _, s := range stale {
			os.Remove(s)
		}
	}
	tmp, err := os.CreateTemp(dir, tempPattern(path))
	if err != nil {
		return fmt.Errorf("writing next to %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("setting the mode of %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// tempPattern names the temp files Write makes for path (os.CreateTemp's pattern, which is
// also a glob for them): hidden, beside it.
func tempPattern(path string) string { return "." + filepath.Base(path) + ".harness-*" }

// ProjectDir is where the harness keeps a project's files: $HARNESS_HOME/projects/<key>, the
// key made the way Claude Code names its own project folders (every character that is not a
// letter or digit a dash), so nothing lands in the user's repository.
func ProjectDir(harnessHome, project string) string {
	return filepath.Join(harnessHome, "projects", Key(project))
}

// Key is a project's folder name.
func Key(project string) string {
	b := []byte(project)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// SafeName keeps an id (a session's, an agent's) to the characters Claude Code uses for them,
// so no id can name another path.
func SafeName(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "unknown"
	}
	return string(b)
}

// Lock takes an exclusive lock on the file name+".lock", creating its directory. Parallel hooks
// and sessions that update one shared file (an index) take it around read-modify-write.
func Lock(name string) (*flock.Flock, error) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", filepath.Dir(name), err)
	}
	l := flock.New(name + ".lock")
	if err := l.Lock(); err != nil {
		return nil, fmt.Errorf("locking %s: %w", name, err)
	}
	return l, nil
}
