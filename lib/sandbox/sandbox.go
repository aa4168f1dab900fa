package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

const (
	// envDir names the sandbox a parent test process made: a child (a test binary run again in
	// a network namespace) stays in it.
	envDir = "HARNESS_SANDBOX"
	// envCache is the user's cache folder as it was outside the sandbox.
	envCache = "HARNESS_TEST_CACHE"
)

// Main is a TestMain for a package with nothing else to set up.
func Main(m *testing.M) {
	leave := Enter()
	code := m.Run()
	leave()
	os.Exit(code)
}

// Enter moves this process into a new sandbox (or its parent's) and returns the function that
// removes it. A sandbox that cannot be made stops the process: the tests must not run against
// the user's home instead.
func Enter() (leave func()) {
	if dir := os.Getenv(envDir); dir != "" {
		return func() {}
	}
	leave, err := enter()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		os.Exit(1)
	}
	return leave
}

func enter() (func(), error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("finding the cache folder: %w", err)
	}
	// The Go toolchain's own folders stay the user's, so that tests that build keep the build
	// and module caches (no network, no cold cache).
	goenv, err := goEnv()
	if err != nil {
		return nil, err
	}
	// In the user's cache, not in /tmp: some tests need a home outside the temp folders, which
	// WriteProtector treats as scratch space.
	base := filepath.Join(cache, "harness")
	if err := os.MkdirAll(base, 0o755); err != nil {
		base = ""
	}
	dir, err := os.MkdirTemp(base, "sandbox-")
	if err != nil {
		return nil, fmt.Errorf("making the sandbox: %w", err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	set := map[string]string{
		envDir: dir, envCache: cache,
		"HOME": home, "USERPROFILE": home,
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_CACHE_HOME": filepath.Join(home, ".cache"),
		"XDG_DATA_HOME": filepath.Join(home, ".local", "share"), "XDG_STATE_HOME": filepath.Join(home, ".local", "state"),
		// The CLI's machine-wide places: a test never reads /etc/harness or writes /opt/harness
		// or Claude Code's managed settings.
		"HARNESS_SYSTEM_DIR": filepath.Join(dir, "system"), "HARNESS_PREFIX": filepath.Join(dir, "opt", "harness"),
		"HARNESS_MANAGED_DIR": filepath.Join(dir, "managed"),
	}
	for k, v := range goenv {
		set[k] = v
	}
	for k, v := range set {
		os.Setenv(k, v)
	}
	// Folders the user may have moved elsewhere: here they are the sandbox's defaults.
	for _, k := range []string{"HARNESS_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME"} {
		os.Unsetenv(k)
	}
	return func() { os.RemoveAll(dir) }, nil
}

// goEnv is the Go toolchain's folders as the user has them.
func goEnv() (map[string]string, error) {
	keys := []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"}
	out, err := exec.Command("go", append([]string{"env", "-json"}, keys...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	env := map[string]string{}
	if err := json.Unmarshal(out, &env); err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	for _, k := range keys {
		if env[k] == "" || env[k] == "off" {
			delete(env, k)
		}
	}
	return env, nil
}

// Cache is the user's cache folder outside the sandbox, where .ci/run installs the real
// clients and tools the tests use ("" outside a sandbox: os.UserCacheDir's).
func Cache() string {
	if c := os.Getenv(envCache); c != "" {
		return c
	}
	c, _ := os.UserCacheDir()
	return c
}
