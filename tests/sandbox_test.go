package tests

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Every package with tests runs them in a throwaway home: its TestMain enters lib/sandbox. A
// new package that forgets fails here, before any of its tests can reach the user's install.
func TestEveryTestPackageIsSandboxed(t *testing.T) {
	entered := map[string]bool{}
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", ".cache":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		dir := filepath.Dir(p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		entered[dir] = entered[dir] || strings.Contains(string(b), "sandbox.Main(m)") || strings.Contains(string(b), "sandbox.Enter()")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for dir, ok := range entered {
		if !ok {
			missing = append(missing, dir)
		}
	}
	sort.Strings(missing)
	if len(entered) < 20 || len(missing) > 0 {
		t.Errorf("of %d packages with tests, these do not enter lib/sandbox from their TestMain: %v", len(entered), missing)
	}
	if home, _ := os.UserHomeDir(); !strings.HasPrefix(home, os.Getenv("HARNESS_SANDBOX")+string(filepath.Separator)) {
		t.Errorf("this package's own tests run with HOME=%s, outside the sandbox", home)
	}
}
