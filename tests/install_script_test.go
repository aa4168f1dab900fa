package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallScript runs ./install.sh end to end into a throwaway home: build, wire in, run
// again (nothing changes), uninstall (the settings file, which it created, is gone).
func TestInstallScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every binary; skipped with -short")
	}
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "HARNESS_HOME=") && !strings.HasPrefix(kv, "CLAUDE_CONFIG_DIR=") {
			env = append(env, kv)
		}
	}
	for _, k := range []string{"GOMODCACHE", "GOCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, k+"="+strings.TrimSpace(string(out)))
	}
	env = append(env, "HOME="+home, "HARNESS_CLAUDE=/nonexistent/claude")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("./install.sh", args...)
		cmd.Dir = ".."
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("install.sh %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	settings := filepath.Join(home, ".claude", "settings.json")

	out := run()
	for _, want := range []string{"hooks and the harness CLI into " + filepath.Join(home, ".claude/harness/bin") + " ... ok",
		"add     PreToolUse[Bash|PowerShell] -> SecurityValidator", "undo with: harness uninstall"} {
		if !strings.Contains(out, want) {
			t.Errorf("first run: no %q in\n%s", want, out)
		}
	}
	b, err := os.ReadFile(settings)
	if err != nil || !strings.Contains(string(b), `"command": "`+filepath.Join(home, ".claude/harness/bin/SecurityValidator")+`"`) {
		t.Fatalf("settings after install: %v\n%s", err, b)
	}

	if out := run(); !strings.Contains(out, "already up to date: nothing changed") {
		t.Errorf("second run changed something:\n%s", out)
	}
	if after, _ := os.ReadFile(settings); string(after) != string(b) {
		t.Error("the second run changed the settings file")
	}

	if out := run("--uninstall"); !strings.Contains(out, "restored to its bytes from before the install") {
		t.Errorf("uninstall:\n%s", out)
	}
	if _, err := os.Stat(settings); !os.IsNotExist(err) {
		t.Errorf("the settings file the install created is still there: %v", err)
	}
}
