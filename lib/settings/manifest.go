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

	"github.com/hookkit/harness/lib/state"
)

// Manifest records, per settings file, exactly what the installer added, so that uninstall
// takes away that and nothing else.
type Manifest struct {
	Files []*Record `json:"files"`
	// Copies and Dirs are the files a managed install put into place and the directories it
	// created for them (outermost first).
	Copies []Copy   `json:"copies,omitempty"`
	Dirs   []string `json:"dirs,omitempty"`
	path   string
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
	return m, nil
}

// Save writes the manifest atomically.
func (m *Manifest) Save() error {
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
	var out []string
	for _, e := range r.Entries {
		out = append(out, e.Created...)
	}
	return out
}
