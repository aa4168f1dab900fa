package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/release"
)

// The npm tarballs install offline, without scripts, into a throwaway prefix and home; the
// launcher's `harness install` copies the binaries into the harness home, and the settings name
// them there, never node_modules.
func TestNPM(t *testing.T) {
	needBuild(t)
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	sums, _ := os.ReadFile(filepath.Join(relA, release.SumsName))
	mainTGZ := "npm/hookkit-harness-" + testVersion + ".tgz"
	platTGZ := "npm/hookkit-harness-linux-x64-" + testVersion + ".tgz"
	for _, n := range []string{mainTGZ, platTGZ} {
		if !strings.Contains(string(sums), "  "+n+"\n") {
			t.Errorf("SHA256SUMS does not list %s:\n%s", n, sums)
		}
	}
	m := newMachine(t)
	prefix := filepath.Join(t.TempDir(), "prefix")
	cmd := exec.Command("npm", "install", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", prefix,
		filepath.Join(relA, mainTGZ), filepath.Join(relA, platTGZ))
	cmd.Env = []string{"HOME=" + m.home, "PATH=" + m.path, "npm_config_cache=" + filepath.Join(m.home, ".npm"), "npm_config_userconfig=" + filepath.Join(m.home, ".npmrc")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	for pkg, want := range map[string]string{
		"@hookkit/harness":           `{"@hookkit/harness-linux-x64":"` + testVersion + `"}`,
		"@hookkit/harness-linux-x64": "",
	} {
		pj, err := os.ReadFile(filepath.Join(prefix, "node_modules", pkg, "package.json"))
		if err != nil {
			t.Fatal(err)
		}
		if gjson.GetBytes(pj, "scripts").Exists() || gjson.GetBytes(pj, "optionalDependencies|@ugly").Raw != want && want != "" {
			t.Errorf("%s/package.json: scripts %s, optionalDependencies %s (want none, %s)", pkg, gjson.GetBytes(pj, "scripts").Raw, gjson.GetBytes(pj, "optionalDependencies|@ugly").Raw, want)
		}
	}
	launcher := filepath.Join(prefix, "node_modules", ".bin", "harness")
	if out, errOut, code := m.run(t, launcher, "--version"); code != 0 || out != "harness version "+testVersion+"\n" {
		t.Fatalf("harness --version through npm: exit %d, %q %q", code, out, errOut)
	}
	out, errOut, code := m.run(t, launcher, "install")
	bin := filepath.Join(m.harnessHome, "bin")
	if code != 0 || !strings.Contains(out, "copied harness "+testVersion+" (10 binaries, SHA256SUMS checked) from ") {
		t.Fatalf("harness install through npm: exit %d\n%s%s", code, out, errOut)
	}
	settings, err := os.ReadFile(filepath.Join(m.home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(settings), "node_modules") {
		t.Errorf("the settings name node_modules:\n%s", settings)
	}
	cmds := gjson.GetBytes(settings, "hooks.PreToolUse.#.hooks.#.command|@flatten").Array()
	if len(cmds) == 0 || cmds[0].Str != filepath.Join(bin, "SecurityValidator") {
		t.Errorf("PreToolUse commands %v, want %s first", cmds, filepath.Join(bin, "SecurityValidator"))
	}
	// The guards stay when node_modules goes.
	os.RemoveAll(prefix)
	if out, errOut, code := m.run(t, filepath.Join(bin, "harness"), "status"); code != 0 {
		t.Errorf("harness status after node_modules is gone: exit %d\n%s%s", code, out, errOut)
	}
}
