package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The three routes of a release (docs/release.md) each install hooks that the real client runs:
// a release archive and the npm tarballs installed with no Go on PATH, and the plugin from the
// release's marketplace. Each blocks rm -rf ~ and lets an everyday command run.

const releaseVersion = "9.9.9"

// noGo is a PATH with the system's tools (sh, tar, node, npm) and no Go toolchain.
const noGo = "/usr/bin:/bin"

// releaseDir builds the release of this machine's platform once, into the binaries' folder.
var releaseDir = sync.OnceValues(func() (string, error) {
	out := filepath.Join(binDir, "release-out")
	cmd := exec.Command("go", "run", "../../cmd/release", "--out", out, "--version", releaseVersion, "--targets", runtime.GOOS+"/"+runtime.GOARCH)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v\n%s", err, b)
	}
	return out, nil
})

func needRelease(t *testing.T) string {
	t.Helper()
	needClient(t)
	if runtime.GOOS != "linux" {
		t.Skip("the route tests unpack a Linux release")
	}
	if _, err := os.Stat(filepath.Join(noGo[:strings.IndexByte(noGo, ':')], "go")); err == nil {
		t.Skip("go is in /usr/bin: no PATH without Go to test with")
	}
	dir, err := releaseDir()
	if err != nil {
		t.Fatalf("go run ./cmd/release: %v", err)
	}
	return dir
}

// asUser runs a program as the session's user with no Go on PATH; it fails the test on a
// non-zero exit.
func (s *session) asUser(dir, prog string, args ...string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + s.home, "PATH=" + noGo, "HARNESS_HOME=" + s.harnessHome, "HARNESS_CLAUDE=" + claude,
		"npm_config_cache=" + filepath.Join(s.home, ".npm"), "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", prog, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// guarded checks that the hooks the session has block rm -rf ~ (the home survives) and let an
// everyday command run.
func (s *session) guarded(route string) {
	s.t.Helper()
	keep := filepath.Join(s.home, "keep-me")
	os.WriteFile(keep, []byte("x"), 0o644)
	m := startModel(s.t,
		turn{tool: "Bash", toolUse: "toolu_e2e_route_rm", input: map[string]any{"command": "rm -rf ~", "description": "clean up"}},
		turn{tool: "Bash", toolUse: "toolu_e2e_route_echo", input: map[string]any{"command": "echo harness-e2e-" + route, "description": "print"}})
	out := s.run(m, "clean up, then print something")
	content, isErr, found := m.toolResult("toolu_e2e_route_rm")
	if !found || !isErr || !strings.Contains(content, "SecurityValidator: blocked `rm -rf "+s.home+"`") || !strings.Contains(content, "[rule fs.rm-critical") {
		s.t.Errorf("%s: rm -rf ~: tool_result %q (error %v, found %v)\nclaude:\n%s\nhooks:\n%s", route, content, isErr, found, out, s.hookLines())
	}
	if _, err := os.Stat(keep); err != nil {
		s.t.Fatalf("%s: rm -rf ~ ran: %v", route, err)
	}
	content, isErr, found = m.toolResult("toolu_e2e_route_echo")
	if !found || isErr || !strings.Contains(content, "harness-e2e-"+route) {
		s.t.Errorf("%s: echo: tool_result %q (error %v, found %v)\nclaude:\n%s", route, content, isErr, found, out)
	}
}

// An unpacked archive's harness installs itself, with no Go on PATH.
func TestRouteArchive(t *testing.T) {
	rel := needRelease(t)
	s := newSession(t)
	dir := t.TempDir()
	name := "harness_" + releaseVersion + "_" + runtime.GOOS + "_" + runtime.GOARCH
	s.asUser(dir, "tar", "-xzf", filepath.Join(rel, name+".tar.gz"))
	out := s.asUser(dir, "./"+name+"/harness", "install")
	if !strings.Contains(out, "copied harness "+releaseVersion) {
		t.Fatalf("harness install:\n%s", out)
	}
	os.RemoveAll(filepath.Join(dir, name)) // the install does not need the archive's folder
	s.guarded("archive")
}

// The npm tarballs, installed offline with no scripts: npx's harness install copies the
// binaries into the harness home, and the guards stay when node_modules goes.
func TestRouteNPM(t *testing.T) {
	rel := needRelease(t)
	if _, err := os.Stat("/usr/bin/npm"); err != nil {
		t.Skip("npm is not in /usr/bin")
	}
	s := newSession(t)
	prefix := t.TempDir()
	plat := map[string]string{"amd64": "x64"}[runtime.GOARCH]
	if plat == "" {
		plat = runtime.GOARCH
	}
	s.asUser(prefix, "npm", "install", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", prefix,
		filepath.Join(rel, "npm", "hookkit-harness-"+releaseVersion+".tgz"), filepath.Join(rel, "npm", "hookkit-harness-linux-"+plat+"-"+releaseVersion+".tgz"))
	out := s.asUser(prefix, "npx", "--offline", "--prefix", prefix, "harness", "install")
	if !strings.Contains(out, "copied harness "+releaseVersion) {
		t.Fatalf("npx harness install:\n%s", out)
	}
	os.RemoveAll(filepath.Join(prefix, "node_modules"))
	settings, _ := os.ReadFile(filepath.Join(s.home, ".claude", "settings.json"))
	if strings.Contains(string(settings), "node_modules") {
		t.Fatalf("the settings name node_modules:\n%s", settings)
	}
	s.guarded("npm")
}

// The plugin from the release's marketplace, installed by the client itself: no settings
// install at all.
func TestRoutePlugin(t *testing.T) {
	rel := needRelease(t)
	s := newSession(t)
	plat := map[string]string{"amd64": "x64"}[runtime.GOARCH]
	if plat == "" {
		plat = runtime.GOARCH
	}
	s.asUser(s.project, claude, "plugin", "marketplace", "add", filepath.Join(rel, "marketplace"))
	s.asUser(s.project, claude, "plugin", "install", "harness-linux-"+plat+"@hookkit")
	if _, err := os.Stat(filepath.Join(s.home, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.harnessHome); err == nil {
		t.Fatal("the plugin route made a settings install's harness home")
	}
	s.guarded("plugin")
	// The hooks kept their records in the plugin's data folder, named on their command line.
	logs, _ := filepath.Glob(filepath.Join(s.home, ".claude", "plugins", "data", "*", "projects", "*", "audit", "*.jsonl"))
	if len(logs) == 0 {
		t.Errorf("no audit log in the plugin's data folder")
	}
}
