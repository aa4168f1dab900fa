package release

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
		ok   bool
	}{
		{"1.2.3", "1.2.3", 0, true},
		{"v1.2.3", "1.2.3", 0, true},
		{"1.2.3", "1.10.0", -1, true},
		{"2.0.0", "1.99.99", 1, true},
		{"1.0.0-rc.1", "1.0.0", -1, true},
		{"1.0.0-rc.2", "1.0.0-rc.10", -1, true},
		{"1.0.0-alpha", "1.0.0-alpha.1", -1, true},
		{"1.0.0-1", "1.0.0-alpha", -1, true},
		{"1.0.0+build.5", "1.0.0", 0, true},
		{"devel", "1.0.0", 0, false},
		{"1b4b9ee", "1.0.0", 0, false},
		{"1.0", "1.0.0", 0, false},
	} {
		got, ok := Compare(tc.a, tc.b)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Compare(%q, %q) = %d, %v; want %d, %v", tc.a, tc.b, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSumsRoundTrip(t *testing.T) {
	files := map[string]string{"b": strings.Repeat("b", 64), "a": strings.Repeat("0", 64)}
	b := Sums(files)
	if want := strings.Repeat("0", 64) + "  a\n" + strings.Repeat("b", 64) + "  b\n"; string(b) != want {
		t.Fatalf("Sums = %q, want %q", b, want)
	}
	got, err := ParseSums(b)
	if err != nil || len(got) != 2 || got["a"] != files["a"] {
		t.Fatalf("ParseSums = %v, %v", got, err)
	}
	for in, want := range map[string]string{
		"":                                "SHA256SUMS lists no file",
		"abc  x\n":                        `SHA256SUMS line 1 is not "<sha256>  <name>": "abc  x"`,
		strings.Repeat("z", 64) + "  x\n": `SHA256SUMS line 1: "` + strings.Repeat("z", 64) + `" is not a hex digest`,
		strings.Repeat("0", 64) + " x\n":  `SHA256SUMS line 1 is not "<sha256>  <name>": "` + strings.Repeat("0", 64) + ` x"`,
		strings.Repeat("0", 64) + "  x\n" + strings.Repeat("1", 64) + "  x\n": "SHA256SUMS line 2: x is listed twice",
	} {
		if _, err := ParseSums([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("ParseSums(%q): %v, want %q", in, err, want)
		}
	}
}

func TestVerify(t *testing.T) {
	dir := t.TempDir()
	m := Manifest{Name: "harness", Version: "1.0.0", OS: runtime.GOOS, Arch: runtime.GOARCH, Binaries: []string{"harness", "Hook"}}
	write := func(name, content string) { os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755) }
	write("harness", "cli")
	write("Hook", "hook")
	write(ManifestName, string(m.JSON()))
	sums := map[string]string{}
	for _, n := range []string{"harness", "Hook", ManifestName} {
		sums[n], _ = FileSum(filepath.Join(dir, n))
	}
	write(SumsName, string(Sums(sums)))
	if got, err := ReadManifest(dir); err != nil || got.Version != "1.0.0" {
		t.Fatalf("ReadManifest = %+v, %v", got, err)
	}
	if bad, err := Verify(dir, m); err != nil || len(bad) != 0 {
		t.Fatalf("a whole folder: %v, %v", bad, err)
	}
	write("Hook", "hooK")
	os.Remove(filepath.Join(dir, "harness"))
	bad, err := Verify(dir, m)
	if err != nil || len(bad) != 2 || bad[0].Name != "Hook" || bad[0].Got == "" || bad[1].Name != "harness" || bad[1].Got != "" {
		t.Fatalf("a changed and a missing file: %+v, %v", bad, err)
	}
	delete(sums, "Hook")
	write(SumsName, string(Sums(sums)))
	if _, err := Verify(dir, m); err == nil || err.Error() != filepath.Join(dir, SumsName)+" does not list Hook" {
		t.Fatalf("a binary the sums leave out: %v", err)
	}
	write(ManifestName, `{"name":"harness","version":"1.0.0","os":"linux","arch":"amd64","binaries":["../evil"]}`)
	if _, err := ReadManifest(dir); err == nil || !strings.Contains(err.Error(), `binary "../evil" is not a plain file name`) {
		t.Fatalf("a binary outside the folder: %v", err)
	}
}

// The test binary is an executable of the platform it runs on.
func TestPlatform(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	goos, goarch, err := Platform(self)
	want := runtime.GOOS
	if want != "darwin" && want != "windows" {
		want = "linux" // every ELF system reads as linux
	}
	if err != nil || goos != want || goarch != runtime.GOARCH {
		t.Errorf("Platform(test binary) = %s/%s, %v; want %s/%s", goos, goarch, err, want, runtime.GOARCH)
	}
	notExe := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(notExe, []byte("# hi\n"), 0o644)
	if _, _, err := Platform(notExe); err == nil {
		t.Error("a text file read as an executable")
	}
}
