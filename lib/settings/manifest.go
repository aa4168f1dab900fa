package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/hookkit/harness/lib/state"
)

// Manifest records, per settings file, exactly what the installer added, so that uninstall
// takes away that and nothing else.
type Manifest struct {
	// Format is the manifest's layout: ManifestFormat as this installer writes it, 0 from an
	// installer older than the record of who else touched a file (Record.Touched).
	Format int       `json:"format,omitempty"`
	Files  []*Record `json:"files"`
	// Copies and Dirs are the files a managed install put into place and the directories it
	// created for them (outermost first).
	Copies []Copy `json:"copies,omitempty"`
	// Dirs are the directories an install created (outermost first): for a managed install's
	// copies, or for a settings file that did not exist, with its folder (~/.codex, a
	// project's .claude). Each goes once it is empty and holds no recorded file.
	Dirs []string `json:"dirs,omitempty"`
	// Owned are the files install --serve wrote whole (its secret, the service manager's
	// units), and Serve what it set up.
	Owned []Copy `json:"owned,omitempty"`
	Serve *Serve `json:"serve,omitempty"`
	path  string
}

// Record is one settings file the installer changed.
type Record struct {
	Path string `json:"path"`
	// Existed says whether the file was there before the first install.
	Existed bool `json:"existed"`
	// Before and After are the content hashes before the first install and after the last.
	Before string `json:"before"`
	After  string `json:"after"`
	// Backup holds the content before the first install.
	Backup  string  `json:"backup,omitempty"`
	Entries []Entry `json:"entries"`
	// Client names the client whose file this is; empty for Claude Code.
	Client string `json:"client,omitempty"`
	// Trust lists the trust tables added to a Codex config.toml (a file with no Entries).
	Trust []Trust `json:"trust,omitempty"`
	// Block is the exact text added to a VT Code vtcode.toml.
	Block string `json:"block,omitempty"`
	// Installed is when the first install into the file happened (RFC 3339, UTC).
	Installed string `json:"installed,omitempty"`
	// Touched says that someone else changed the file between the backup and a later write
	// of the installer's (an install again, an uninstall that left edited entries): the file
	// holds bytes of theirs that the backup lacks, so uninstall never restores the backup.
	Touched bool `json:"touched,omitempty"`
	// Created lists keys that entries no longer recorded had created (hooks, hooks.<Event>):
	// uninstall still takes them away when they are empty.
	Created []string `json:"created,omitempty"`
	// Keys are the values added outside the hooks (serve mode's allowlist entries, secret).
	Keys []Key `json:"keys,omitempty"`
	// Mode is the file's permissions before the install narrowed them (Plan.Mode), given back
	// when nothing of the install is left in it.
	Mode fs.FileMode `json:"mode,omitempty"`
}

// Trust is one table the installer put into a Codex config.toml, trusting one handler:
// [hooks.state."<Key>"] with trusted_hash = "<Hash>".
type Trust struct {
	Hook  string `json:"hook"`
	Event string `json:"event"`
	Key   string `json:"key"`
	Hash  string `json:"hash"`
	// Prev is the trusted_hash a table of the same key held before the install replaced it
	// ("" when the install added the table).
	Prev string `json:"prev,omitempty"`
}

// Entry is one matcher group the installer added.
type Entry struct {
	Hook    string          `json:"hook"`
	Event   string          `json:"event"`
	Matcher string          `json:"matcher,omitempty"`
	Group   json.RawMessage `json:"group"`
	// Created lists the keys this entry's insertion created (hooks, hooks.<Event>).
	Created []string `json:"created,omitempty"`
	// Left says an uninstall left this entry because it was edited since the install, and
	// advised removing it by hand: when it is gone, that is no drift.
	Left bool `json:"left,omitempty"`
}

// Prefix is where a managed install (harness install --managed) puts its binaries and its
// manifest by default: /opt/harness (C:\Program Files\harness on Windows). The CLI's --prefix
// (or its owner's $HARNESS_PREFIX) may name another; a hook reads no variable.
func Prefix() string {
	if runtime.GOOS == "windows" {
		return `C:\Program Files\harness`
	}
	return "/opt/harness"
}

// Homes are the places whose manifests say what is installed for this user: the harness home,
// the managed install (prefix) and the install the running program belongs to (the folder above
// its bin), each once.
func Homes(harnessHome, prefix string) []string {
	out := []string{harnessHome}
	add := func(h string) {
		if h != "" && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	add(prefix)
	if exe, err := os.Executable(); err == nil && filepath.Base(filepath.Dir(exe)) == "bin" {
		add(filepath.Dir(filepath.Dir(exe)))
	}
	return out
}

// ManifestPath is where the manifest lives in the harness home.
func ManifestPath(home string) string { return filepath.Join(home, "installed.json") }

// LoadManifest reads the manifest; a missing one is empty.
func LoadManifest(home string) (*Manifest, error) {
	m := &Manifest{path: ManifestPath(home)}
	b, err := os.ReadFile(m.path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the manifest: %w", err)
	}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("the manifest %s is damaged: %w", m.path, err)
	}
	if m.Format < ManifestFormat {
		// An older installer did not record whether someone else changed a file between its
		// writes: assume so, and never restore a backup that could lose their bytes.
		for _, r := range m.Files {
			r.Touched = true
		}
	}
	return m, nil
}

// ManifestFormat is the manifest layout this installer writes: 2 since Record.Touched.
const ManifestFormat = 2

// Save writes the manifest atomically.
func (m *Manifest) Save() error {
	m.Format = ManifestFormat
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return state.Write(m.path, append(b, '\n'), 0o644)
}

// Find returns the record of a settings file, or nil.
func (m *Manifest) Find(path string) *Record {
	for _, r := range m.Files {
		if r.Path == path {
			return r
		}
	}
	return nil
}

// Drop forgets a settings file.
func (m *Manifest) Drop(path string) {
	for i, r := range m.Files {
		if r.Path == path {
			m.Files = append(m.Files[:i], m.Files[i+1:]...)
			return
		}
	}
}

func (r *Record) created() []string {
	out := slices.Clone(r.Created)
	for _, e := range r.Entries {
		out = append(out, e.Created...)
	}
	return out
}

// keepCreated remembers the keys the entries had created, for entries about to be forgotten.
func (r *Record) keepCreated(entries []Entry) {
	for _, e := range entries {
		for _, k := range e.Created {
			if !slices.Contains(r.Created, k) {
				r.Created = append(r.Created, k)
			}
		}
	}
}

// wrote records that the installer replaced the file's content cur with data. When cur is not
// what the installer last wrote, someone else changed the file in between, and from then on
// the backup does not hold everything that is theirs.
func (r *Record) wrote(cur, data []byte) {
	if r.After != "" && Hash(cur) != r.After {
		r.Touched = true
	}
	r.After = Hash(data)
}

// restorable says whether putting back the backup would lose nothing: the file is as the
// installer last wrote it, and nobody else changed it between the backup and that write.
func (r *Record) restorable(cur []byte) bool {
	return !r.Touched && Hash(cur) == r.After
}

// tidyDirs removes the directories an install created that hold no recorded file and are
// empty, deepest first, and returns them. One that holds a recorded file stays recorded; one
// that holds anything else is left as it is and forgotten: what is in it is not the harness's.
func (m *Manifest) tidyDirs() []string {
	var gone, kept []string
	for i := len(m.Dirs) - 1; i >= 0; i-- {
		d := m.Dirs[i]
		if m.holds(d) {
			kept = append([]string{d}, kept...)
			continue
		}
		if os.Remove(d) == nil {
			gone = append(gone, d)
		}
	}
	m.Dirs = kept
	return gone
}

// holds says whether dir holds a file the manifest records.
func (m *Manifest) holds(dir string) bool {
	under := func(p string) bool {
		rel, err := filepath.Rel(dir, p)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	for _, r := range m.Files {
		if under(r.Path) {
			return true
		}
	}
	for _, c := range append(slices.Clone(m.Copies), m.Owned...) {
		if under(c.Path) {
			return true
		}
	}
	return false
}

// makeDir creates the folder of a settings file the install is about to create, recording the
// directories it made.
func (m *Manifest) makeDir(file string) error {
	made, err := mkdirs(filepath.Dir(file))
	if err != nil {
		return err
	}
	m.noteDirs(made)
	return nil
}
