package tests

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// before is the last commit whose hooks read their folders from HARNESS_* variables and whose
// installer wrote no --home: the install an upgrade starts from.
const before = "9c47fdf"

// An install made by the harness of before, upgraded as ./install.sh upgrades it (new binaries
// into the harness home's bin, then harness install): the new binaries, started by the entries
// the old installer wrote, find the same scopes (the policy in the harness home decides, the
// records land there); the new install rewrites those entries with --home; status is clean and
// uninstall gives the settings file back its bytes from before the first install.
func TestUpgradeFromEnvironmentInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the harness of " + before)
	}
	if err := exec.Command("git", "cat-file", "-e", before+"^{commit}").Run(); err != nil {
		t.Skipf("commit %s is not in this clone (a shallow clone?): %v", before, err)
	}
	dir := t.TempDir()
	// A harness home of its own ($HARNESS_HOME at install), so that only the install record beside
	// the binaries can lead the new hooks to it.
	src, home, hh := filepath.Join(dir, "old"), filepath.Join(dir, "home"), filepath.Join(dir, "harness")
	bin := filepath.Join(hh, "bin")
	for _, d := range []string{src, bin, filepath.Join(home, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, cmd *exec.Cmd) string {
		t.Helper()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		return string(out)
	}
	archive := exec.Command("sh", "-c", `git -C .. archive "$1" | tar -x -C "$2"`, "sh", before, src)
	run("git archive", archive)
	build := exec.Command("go", "build", "-trimpath", "-o", bin+string(os.PathSeparator), "./cmd/harness", "./hooks/...")
	build.Dir = src
	run("building the old harness", build)

	settings := filepath.Join(home, ".claude", "settings.json")
	os.WriteFile(settings, []byte("{\n  \"model\": \"opus\"\n}\n"), 0o644)
	orig, _ := os.ReadFile(settings)
	env := append(os.Environ(), "HOME="+home, "HARNESS_HOME="+hh, "HARNESS_SYSTEM_DIR="+filepath.Join(dir, "system"))
	harness := func(args ...string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(bin, "harness"), args...)
		cmd.Env = env
		return cmd
	}
	run("old install", harness("install", "--bin", bin, "--form", "exec"))
	old, _ := os.ReadFile(settings)
	if bytes.Contains(old, []byte("--home=")) {
		t.Fatalf("the old install already wrote --home:\n%s", old)
	}
	os.WriteFile(filepath.Join(hh, "security.json"), []byte(`{"deny": [{"pattern": "touch", "reason": "the user forbids touch"}]}`), 0o644)

	// The new binaries, where ./install.sh builds them.
	entries, _ := os.ReadDir(binDir)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(binDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(filepath.Join(bin, e.Name()))
		if err := os.WriteFile(filepath.Join(bin, e.Name()), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	// The old entry, as the client runs it, with no variable at all: the user's policy decides
	// and the verdict is recorded in the same harness home.
	h := gjson.GetBytes(old, `hooks.PreToolUse.#(hooks.0.command%"*SecurityValidator").hooks.0`)
	if !h.Exists() {
		t.Fatalf("no SecurityValidator entry in the old install:\n%s", old)
	}
	var args []string
	for _, a := range h.Get("args").Array() {
		args = append(args, a.Str)
	}
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	guard := exec.Command(h.Get("command").Str, args...)
	guard.Env = []string{"HOME=" + home, "CLAUDE_PROJECT_DIR=" + proj, "PATH=" + os.Getenv("PATH")}
	guard.Stdin = strings.NewReader(`{"session_id":"s-up","cwd":"` + proj + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"touch x"},"tool_use_id":"toolu_up"}`)
	out, err := guard.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "the user forbids touch") {
		t.Fatalf("the new guard under the old entry: %v\n%s", err, out)
	}
	logs, _ := filepath.Glob(filepath.Join(hh, "projects", "*", "audit", "*.jsonl"))
	var records []byte
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		records = append(records, b...)
	}
	if !bytes.Contains(records, []byte(`"tool_use_id":"toolu_up","decision":"deny"`)) {
		t.Errorf("no record of the verdict in %s:\n%s", hh, records)
	}

	// The new install rewrites the old entries; status is clean; uninstall restores the bytes.
	run("new install", harness("install", "--bin", bin, "--form", "exec"))
	now, _ := os.ReadFile(settings)
	if n := strings.Count(string(now), `"--home=`+hh+`"`); n == 0 || strings.Count(string(now), `"command": "`+bin) != n {
		t.Errorf("after the upgrade, not every entry names --home=%s:\n%s", hh, now)
	}
	run("status", harness("status"))
	run("uninstall", harness("uninstall"))
	if after, _ := os.ReadFile(settings); !bytes.Equal(after, orig) {
		t.Errorf("uninstall after the upgrade left\n%s\nwant\n%s", after, orig)
	}
}
