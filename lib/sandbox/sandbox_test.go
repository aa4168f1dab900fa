package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/sandbox"
)

// Every test of the package runs in a throwaway home (lib/sandbox).
func TestMain(m *testing.M) { sandbox.Main(m) }

// Inside, the home, the configuration folders and the harness's places are the sandbox's;
// the user's cache is still known, and the Go caches are the user's.
func TestInside(t *testing.T) {
	dir := os.Getenv("HARNESS_SANDBOX")
	if dir == "" {
		t.Fatal("no sandbox")
	}
	home, _ := os.UserHomeDir()
	cfg, _ := os.UserConfigDir()
	for _, p := range []string{home, cfg, os.Getenv("HARNESS_SYSTEM_DIR"), os.Getenv("HARNESS_PREFIX"), os.Getenv("HARNESS_MANAGED_DIR")} {
		if !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			t.Errorf("%q is outside the sandbox %s", p, dir)
		}
	}
	for _, k := range []string{"HARNESS_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME"} {
		if v, ok := os.LookupEnv(k); ok {
			t.Errorf("%s=%q is set inside the sandbox", k, v)
		}
	}
	if c := sandbox.Cache(); c == "" || strings.HasPrefix(c, dir) {
		t.Errorf("the user's cache is %q", c)
	}
	if gc := os.Getenv("GOCACHE"); gc == "" || strings.HasPrefix(gc, dir) {
		t.Errorf("GOCACHE is %q: a build in a test would start cold", gc)
	}
}
