package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/release"
)

// noGoPath is a PATH with the shell tools and no Go toolchain.
func noGoPath(t *testing.T) string {
	t.Helper()
	p := "/usr/bin:/bin"
	for _, d := range filepath.SplitList(p) {
		if _, err := os.Stat(filepath.Join(d, "go")); err == nil {
			t.Skipf("go is in %s: no PATH without Go to test with", d)
		}
	}
	return p
}

// machine is a throwaway home for an install.
type machine struct {
	home, harnessHome, path string
}

func newMachine(t *testing.T) machine {
	home := t.TempDir()
	return machine{home: home, harnessHome: filepath.Join(home, ".claude", "harness"), path: noGoPath(t)}
}

// harness runs a harness binary as the machine's user; it returns stdout, stderr, exit code.
func (m machine) run(t *testing.T, prog string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Env = []string{"HOME=" + m.home, "PATH=" + m.path, "HARNESS_HOME=" + m.harnessHome, "HARNESS_CLAUDE=/nonexistent/claude"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

// From an unpacked archive, with no Go on PATH: the binaries are copied into the harness home
// and every hook in the settings runs from there.
func TestInstallFromArchive(t *testing.T) {
	needBuild(t)
	dir := unpack(t, filepath.Join(relA, archiveName))
	m := newMachine(t)
	stdout, stderr, code := m.run(t, filepath.Join(dir, "harness"), "install")
	if code != 0 {
		t.Fatalf("harness install exited %d:\n%s%s", code, stdout, stderr)
	}
	bin := filepath.Join(m.harnessHome, "bin")
	if !strings.HasPrefix(stdout, "copied harness "+testVersion+" (10 binaries, SHA256SUMS checked) from "+dir+" into "+bin+"\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
	man, _ := release.ReadManifest(dir)
	for _, b := range man.Binaries {
		want, _ := os.ReadFile(filepath.Join(dir, b))
		got, err := os.ReadFile(filepath.Join(bin, b))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s was not copied into %s (%v)", b, bin, err)
		}
		if st, err := os.Stat(filepath.Join(bin, b)); err != nil || st.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v (%v)", b, st.Mode(), err)
		}
	}
	settings, err := os.ReadFile(filepath.Join(m.home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	gjson.GetBytes(settings, "hooks").ForEach(func(_, groups gjson.Result) bool {
		for _, c := range groups.Get("#.hooks.#.command|@flatten").Array() {
			n++
			if filepath.Dir(c.Str) != bin {
				t.Errorf("a hook runs %s, not a binary in %s", c.Str, bin)
			}
		}
		return true
	})
	if n == 0 {
		t.Errorf("no hook in the settings:\n%s", settings)
	}
	// The installed CLI reports the same install in place.
	if out, errOut, code := m.run(t, filepath.Join(bin, "harness"), "status"); code != 0 || !strings.Contains(out, "ok: every entry in place, every binary present and current") {
		t.Errorf("harness status exited %d:\n%s%s", code, out, errOut)
	}
	// A second install of the same release changes nothing.
	if out, errOut, code := m.run(t, filepath.Join(dir, "harness"), "install"); code != 0 || !strings.Contains(out, "already up to date: nothing changed") {
		t.Errorf("second install exited %d:\n%s%s", code, out, errOut)
	}
}

// rewrite changes a file of an unpacked folder and, when resum is set, recomputes its
// SHA256SUMS, as a release of other content would have it.
func rewrite(t *testing.T, dir, name string, edit func([]byte) []byte, resum bool) {
	t.Helper()
	p := filepath.Join(dir, name)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, edit(b), 0o755); err != nil {
		t.Fatal(err)
	}
	if !resum {
		return
	}
	sumsFile, _ := os.ReadFile(filepath.Join(dir, release.SumsName))
	sums, err := release.ParseSums(sumsFile)
	if err != nil {
		t.Fatal(err)
	}
	sums[name], _ = release.FileSum(p)
	os.WriteFile(filepath.Join(dir, release.SumsName), release.Sums(sums), 0o644)
}

func TestInstallRefusals(t *testing.T) {
	needBuild(t)
	setVersion := func(v string) func([]byte) []byte {
		return func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"version": "`+testVersion+`"`), []byte(`"version": "`+v+`"`), 1)
		}
	}
	t.Run("corrupt", func(t *testing.T) {
		dir := unpack(t, filepath.Join(relA, archiveName))
		rewrite(t, dir, "SecurityValidator", func(b []byte) []byte { b[len(b)/2] ^= 1; return b }, false)
		m := newMachine(t)
		_, stderr, code := m.run(t, filepath.Join(dir, "harness"), "install")
		want := "harness install: SHA256SUMS in " + dir + ": SecurityValidator does not match its checksum; nothing was copied: download and unpack the archive again " +
			"(this check catches a corrupt download or unpack, not forgery: check SHA256SUMS.sig as docs/release.md says)\n"
		if code != 1 || stderr != want {
			t.Errorf("exit %d, stderr %q; want 1, %q", code, stderr, want)
		}
		if _, err := os.Stat(m.harnessHome); err == nil {
			t.Error("the refused install created the harness home")
		}
	})
	t.Run("missing", func(t *testing.T) {
		dir := unpack(t, filepath.Join(relA, archiveName))
		os.Remove(filepath.Join(dir, "AuditLog"))
		m := newMachine(t)
		_, stderr, code := m.run(t, filepath.Join(dir, "harness"), "install")
		if code != 1 || !strings.Contains(stderr, ": AuditLog is missing; nothing was copied") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("other platform", func(t *testing.T) {
		dir := unpack(t, filepath.Join(relA, archiveName))
		rewrite(t, dir, release.ManifestName, func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"arch": "amd64"`), []byte(`"arch": "arm64"`), 1)
		}, true)
		m := newMachine(t)
		_, stderr, code := m.run(t, filepath.Join(dir, "harness"), "install")
		want := "harness install: this archive is for linux/arm64, and this machine is linux/amd64: download harness_" + testVersion + "_linux_amd64 instead; nothing was copied\n"
		if code != 1 || stderr != want {
			t.Errorf("exit %d, stderr %q; want 1, %q", code, stderr, want)
		}
	})
	t.Run("older over newer", func(t *testing.T) {
		m := newMachine(t)
		newer := unpack(t, filepath.Join(relA, archiveName))
		if out, errOut, code := m.run(t, filepath.Join(newer, "harness"), "install"); code != 0 {
			t.Fatalf("install exited %d:\n%s%s", code, out, errOut)
		}
		older := unpack(t, filepath.Join(relA, archiveName))
		rewrite(t, older, release.ManifestName, setVersion("1.0.0"), true)
		cli := filepath.Join(m.harnessHome, "bin", "harness")
		before, _ := os.ReadFile(cli)
		_, stderr, code := m.run(t, filepath.Join(older, "harness"), "install")
		want := "harness install: " + cli + " is version " + testVersion + ", newer than this archive's 1.0.0: an older release does not replace a newer one; " +
			"nothing was copied (run harness install --force to go back to 1.0.0)\n"
		if code != 1 || stderr != want {
			t.Errorf("exit %d, stderr %q; want 1, %q", code, stderr, want)
		}
		// A binary of the home changed under the refused install would show here.
		if after, _ := os.ReadFile(cli); !bytes.Equal(before, after) {
			t.Error("the refused install changed the installed CLI")
		}
		if out, errOut, code := m.run(t, filepath.Join(older, "harness"), "install", "--force"); code != 0 || !strings.Contains(out, "copied harness 1.0.0 (10 binaries") {
			t.Errorf("install --force exited %d:\n%s%s", code, out, errOut)
		}
	})
	t.Run("dry run", func(t *testing.T) {
		dir := unpack(t, filepath.Join(relA, archiveName))
		m := newMachine(t)
		out, errOut, code := m.run(t, filepath.Join(dir, "harness"), "install", "--dry-run")
		bin := filepath.Join(m.harnessHome, "bin")
		if code != 0 || !strings.HasPrefix(out, "would copy harness "+testVersion+" (10 binaries, SHA256SUMS checked) from "+dir+" into "+bin+"\n") || !strings.Contains(out, "dry run: nothing was written") {
			t.Errorf("exit %d:\n%s%s", code, out, errOut)
		}
		if _, err := os.Stat(m.harnessHome); err == nil {
			t.Error("a dry run created the harness home")
		}
	})
}
