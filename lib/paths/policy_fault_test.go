//go:build unix

package paths

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookkit/harness/lib/config"
)

// policyFaults put a project writes.json a repository could plant at path: each is ignored
// whole, and the guard judges with the other scopes.
var policyFaults = map[string]struct {
	make func(t *testing.T, path string) error
	why  string
}{
	"unparsable": {func(_ *testing.T, p string) error { return os.WriteFile(p, []byte(`{"deny": [`), 0o644) }, "not valid JSON"},
	"loosening": {func(_ *testing.T, p string) error {
		return os.WriteFile(p, []byte(`{"read_only": ["docs/**"], "allow_dirs": ["/"]}`), 0o644)
	}, `"allow_dirs" loosens the guard`},
	"loosening mcp": {func(_ *testing.T, p string) error {
		return os.WriteFile(p, []byte(`{"read_only": ["docs/**"], "mcp": {"fs": "ignore"}}`), 0o644)
	}, `"ignore" loosens the guard`},
	"oversize": {func(_ *testing.T, p string) error {
		return os.WriteFile(p, []byte(`{"read_only": ["docs/**"]`+strings.Repeat(" ", config.MaxFile)+`}`), 0o644)
	}, "larger than"},
	"directory":         {func(_ *testing.T, p string) error { return os.Mkdir(p, 0o755) }, "a folder"},
	"FIFO":              {func(_ *testing.T, p string) error { return syscall.Mkfifo(p, 0o644) }, "a FIFO"},
	"symlink to a FIFO": {func(_ *testing.T, p string) error { syscall.Mkfifo(p+".fifo", 0o644); return os.Symlink(p+".fifo", p) }, "a FIFO"},
	"symlink to /dev/zero": {func(t *testing.T, p string) error {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero")
		}
		return os.Symlink("/dev/zero", p)
	}, "a device"},
}

// load is LoadPolicy that fails the test instead of blocking.
func load(t *testing.T, files config.Files) (p *Policy, err error) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); p, err = LoadPolicy(files) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("LoadPolicy still reading after 5 s")
	}
	return p, err
}

// A broken or hostile project writes.json disarms nothing: it is ignored with a problem naming
// it, the user's rules and the built-in tiers still judge, and none of its own rules apply.
func TestBrokenProjectWritePolicyIsIgnored(t *testing.T) {
	for name, f := range policyFaults {
		t.Run(name, func(t *testing.T) {
			dir, _ := filepath.EvalSymlinks(t.TempDir())
			home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "home", "proj")
			files := config.Files{User: filepath.Join(home, ".claude", "harness", "writes.json"), Project: filepath.Join(proj, ".claude", "harness", "writes.json")}
			os.MkdirAll(filepath.Dir(files.User), 0o755)
			os.MkdirAll(filepath.Dir(files.Project), 0o755)
			os.WriteFile(files.User, []byte(`{"deny": ["**/*.sqlite"]}`), 0o644)
			if err := f.make(t, files.Project); err != nil {
				t.Fatal(err)
			}
			pol, err := load(t, files)
			if err != nil {
				t.Fatalf("LoadPolicy: %v", err)
			}
			if len(pol.Problems) != 1 || !strings.Contains(pol.Problems[0], files.Project+" is ignored") || !strings.Contains(pol.Problems[0], f.why) {
				t.Errorf("problems %q, want one naming the file and %q", pol.Problems, f.why)
			}
			e := Env{Cwd: proj, Home: home, Project: proj}
			for p, want := range map[string]Action{
				proj + "/main.go": Allow, proj + "/docs/a.md": Allow, proj + "/db.sqlite": Deny,
				home + "/notes.txt": Deny, "/etc/passwd": Deny,
			} {
				if got := e.Judge(p, pol).Action; got != want {
					t.Errorf("%s: %v, want %v", p, got, want)
				}
			}
		})
	}
}

// The same files in the user's scope fail closed, naming the file.
func TestBrokenUserWritePolicyFailsClosed(t *testing.T) {
	for name, f := range policyFaults {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			files := config.Files{System: filepath.Join(dir, "system.json"), User: filepath.Join(dir, "home", "writes.json")}
			os.WriteFile(files.System, []byte(`{}`), 0o644)
			os.Mkdir(filepath.Dir(files.User), 0o755)
			if err := f.make(t, files.User); err != nil {
				t.Fatal(err)
			}
			_, err := load(t, files)
			var fe *config.FileError
			if !errors.As(err, &fe) || fe.File != files.User || !strings.Contains(err.Error(), f.why) {
				t.Errorf("got %v, want a *config.FileError naming %s and %q", err, files.User, f.why)
			}
		})
	}
}
