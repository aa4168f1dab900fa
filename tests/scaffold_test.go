package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// harness new scaffolds a hook in a copy of this repository; the scaffold builds, passes vet,
// its golden test passes, and settings.json still agrees with every hook's self-description.
func TestScaffoldBuildsAndPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the repository and runs go test in it")
	}
	files, err := exec.Command("git", "-C", "..", "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skip("not a git checkout: ", err)
	}
	repo := t.TempDir()
	for _, f := range strings.Split(strings.TrimSpace(string(files)), "\n") {
		b, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			continue // deleted in the working tree
		}
		os.MkdirAll(filepath.Join(repo, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(repo, f), b, 0o644)
	}
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	out := run(filepath.Join(binDir, "harness"), "new", "ProbeHook", "--event", "PreToolUse", "--matcher", "Bash|Write", "--guard", "--dir", repo)
	if !strings.Contains(out, "wrote "+filepath.Join(repo, "hooks", "ProbeHook", "main.go")) {
		t.Fatalf("harness new: %s", out)
	}
	if !strings.Contains(out, "updated tests/testdata/cli_describe.txtar") {
		t.Errorf("harness new did not update the describe golden, which lists every hook:\n%s", out)
	}
	// Its entry is exec form with an absolute path, as the rest of the template: nothing a
	// project's env can redirect, and harness validate finds no guard.command-env in it.
	b, err := os.ReadFile(filepath.Join(repo, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `"command": "/opt/harness/bin/ProbeHook",
            "args": [],`; !strings.Contains(string(b), want) {
		t.Errorf("settings.json has no exec-form entry for ProbeHook:\n%s", b)
	}
	v, _ := exec.Command(filepath.Join(binDir, "harness"), "validate", filepath.Join(repo, "settings.json")).CombinedOutput()
	if strings.Contains(string(v), "command-env") {
		t.Errorf("harness validate on the scaffolded template:\n%s", v)
	}
	run("go", "vet", "./hooks/ProbeHook")
	run("go", "test", "./tests", "-run", "TestScripts/probehook_scaffold|TestDefaultSettingsMatchTheHooks", "-count=1")
	// No golden is left red by the new hook: a test failing for reasons of its own (the tree
	// is copied as it is) must not mention it.
	cmd := exec.Command("go", "test", "./tests", "-run", "^TestScripts$", "-count=1")
	cmd.Dir = repo
	if b, err := cmd.CombinedOutput(); err != nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "ProbeHook") && (strings.Contains(l, "FAIL") || strings.HasPrefix(strings.TrimSpace(l), "+") || strings.HasPrefix(strings.TrimSpace(l), "-")) {
				t.Errorf("a golden test fails on the scaffolded hook: %s", l)
			}
		}
	}
	// A second scaffold of the same name is refused; a bad event too.
	cmd = exec.Command(filepath.Join(binDir, "harness"), "new", "ProbeHook", "--event", "PreToolUse", "--dir", repo)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "exists already") {
		t.Errorf("a second scaffold: %v %s", err, out)
	}
	cmd = exec.Command(filepath.Join(binDir, "harness"), "new", "Other", "--event", "Stop", "--matcher", "Bash", "--dir", repo)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "Stop takes no matcher") {
		t.Errorf("a matcher on Stop: %v %s", err, out)
	}
}
