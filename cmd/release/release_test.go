package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/release"
	"github.com/hookkit/harness/lib/sandbox"
)

// The tests build one platform (linux/amd64: quick, and it runs here) twice, in two folders,
// signed with a throwaway key; .ci/run builds every platform twice.
const testVersion = "1.2.3"

var (
	relA, relB string // the two builds
	keyDir     string // the throwaway key and its allowed_signers
	buildErr   error
)

func TestMain(m *testing.M) {
	leave := sandbox.Enter() // every test in a throwaway home (lib/sandbox)
	root, err := os.MkdirTemp("", "harness-release-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		keyDir = filepath.Join(root, "key")
		os.MkdirAll(keyDir, 0o700)
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "throwaway@test", "-f", filepath.Join(keyDir, "key")).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "ssh-keygen: %v\n%s", err, out)
			return 1
		}
		pub, _ := os.ReadFile(filepath.Join(keyDir, "key.pub"))
		f := strings.Fields(string(pub))
		os.WriteFile(filepath.Join(keyDir, "allowed_signers"), []byte("throwaway@test namespaces=\""+signNamespace+"\" "+f[0]+" "+f[1]+"\n"), 0o644)
		relA = filepath.Join(root, "a", "out")
		relB = filepath.Join(root, "b", "somewhere", "else")
		for _, dir := range []string{relA, relB} {
			var stderr bytes.Buffer
			if code := run([]string{"--out", dir, "--version", "v" + testVersion, "--targets", "linux/amd64", "--sign-key", filepath.Join(keyDir, "key")}, io.Discard, &stderr); code != 0 {
				buildErr = fmt.Errorf("release exited %d: %s", code, stderr.String())
				break
			}
		}
		return m.Run()
	}()
	os.RemoveAll(root)
	leave()
	os.Exit(code)
}

func needBuild(t *testing.T) {
	t.Helper()
	if buildErr != nil {
		t.Fatal(buildErr)
	}
}

const archiveName = "harness_" + testVersion + "_linux_amd64.tar.gz"

// Two builds in two folders give the same bytes: the archives and so SHA256SUMS.
func TestReproducible(t *testing.T) {
	needBuild(t)
	a, _ := os.ReadFile(filepath.Join(relA, release.SumsName))
	b, _ := os.ReadFile(filepath.Join(relB, release.SumsName))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("SHA256SUMS differ:\n%s\n%s", a, b)
	}
	sums, err := release.ParseSums(a)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	if want := []string{archiveName, "npm/hookkit-harness-" + testVersion + ".tgz", "npm/hookkit-harness-linux-x64-" + testVersion + ".tgz"}; fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("SHA256SUMS lists %v, want %v", names, want)
	}
	for n, want := range sums {
		got, err := release.FileSum(filepath.Join(relA, n))
		if err != nil || got != want {
			t.Errorf("%s: sum %s, SHA256SUMS says %s (%v)", n, got, want, err)
		}
	}
}

// The archive: one top folder; entries in order, owned by root, with one time and fixed modes.
func TestArchiveLayout(t *testing.T) {
	needBuild(t)
	f, err := os.Open(filepath.Join(relA, archiveName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if gz.Name != "" || !gz.ModTime.IsZero() {
		t.Errorf("gzip header has name %q and time %v, want none", gz.Name, gz.ModTime)
	}
	tr := tar.NewReader(gz)
	var got []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || !h.ModTime.Equal(defaultTime) {
			t.Errorf("%s: owner %d:%d (%q:%q), time %v", h.Name, h.Uid, h.Gid, h.Uname, h.Gname, h.ModTime)
		}
		got = append(got, fmt.Sprintf("%s %o", h.Name, h.Mode))
	}
	top := "harness_" + testVersion + "_linux_amd64/"
	want := []string{top + " 755"}
	for _, n := range []string{"AgentOutputCapture 755", "AuditLog 755", "AuditShip 755", "LICENSE 644", "LoadContext 755", "PromptContext 755",
		"README.md 644", "SHA256SUMS 644", "SecretGuard 755", "SecurityValidator 755", "SessionSummary 755", "WriteProtector 755", "harness 755", "release.json 644"} {
		want = append(want, top+n)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The unpacked folder passes its own SHA256SUMS, its manifest names the release, and every
// binary reports the version given to --version.
func TestUnpacked(t *testing.T) {
	needBuild(t)
	dir := unpack(t, filepath.Join(relA, archiveName))
	m, err := release.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := release.Manifest{Name: "harness", Version: testVersion, OS: "linux", Arch: "amd64", Binaries: []string{"AgentOutputCapture", "AuditLog",
		"AuditShip", "LoadContext", "PromptContext", "SecretGuard", "SecurityValidator", "SessionSummary", "WriteProtector", "harness"}}
	if fmt.Sprint(m) != fmt.Sprint(want) {
		t.Errorf("manifest %+v, want %+v", m, want)
	}
	if bad, err := release.Verify(dir, m); err != nil || len(bad) > 0 {
		t.Errorf("the unpacked folder fails its SHA256SUMS: %v %v", bad, err)
	}
	for bin, want := range map[string]string{"harness": "harness version " + testVersion + "\n", "SecurityValidator": "SecurityValidator " + testVersion + "\n"} {
		out, err := exec.Command(filepath.Join(dir, bin), "--version").Output()
		if err != nil || string(out) != want {
			t.Errorf("%s --version: %q (%v), want %q", bin, out, err, want)
		}
	}
	out, _ := exec.Command(filepath.Join(dir, "WriteProtector"), "--describe").Output()
	if !bytes.Contains(out, []byte("\n  \"version\": \""+testVersion+"\",\n")) {
		t.Errorf("WriteProtector --describe does not give version %s:\n%s", testVersion, out)
	}
}

// SHA256SUMS.sig verifies with the signer's public key; a changed byte fails it.
func TestSignature(t *testing.T) {
	needBuild(t)
	verify := func(sums []byte) error {
		cmd := exec.Command("ssh-keygen", "-Y", "verify", "-f", filepath.Join(keyDir, "allowed_signers"), "-I", "throwaway@test",
			"-n", signNamespace, "-s", filepath.Join(relA, release.SumsName+".sig"))
		cmd.Stdin = bytes.NewReader(sums)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}
	sums, _ := os.ReadFile(filepath.Join(relA, release.SumsName))
	if err := verify(sums); err != nil {
		t.Fatalf("the signature does not verify: %v", err)
	}
	changed := bytes.Clone(sums)
	changed[0] ^= 1
	if err := verify(changed); err == nil {
		t.Error("a changed byte of SHA256SUMS still verifies")
	}
}

func TestBadInput(t *testing.T) {
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "x"), nil, 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "release: --out DIR is required\n"},
		{[]string{"--out", full}, "release: --out " + full + " is not empty: a release is written into an empty folder\n"},
		{[]string{"--out", t.TempDir() + "/r", "--version", "devel"}, "release: --version \"devel\" is not a semantic version (1.2.0, 1.2.0-rc.1): npm and the plugin need one\n"},
		{[]string{"--out", t.TempDir() + "/r", "--targets", "plan9/amd64"}, "release: --targets: \"plan9/amd64\" is not one of linux/amd64, linux/arm64, darwin/amd64, darwin/arm64, windows/amd64, windows/arm64\n"},
		{[]string{"--out", t.TempDir() + "/r", "--sign-key", "/nonexistent/key"}, "release: --sign-key: stat /nonexistent/key: no such file or directory\n"},
		{[]string{"--out", t.TempDir() + "/r", "extra"}, "release: unexpected argument \"extra\"\n"},
	} {
		var stderr bytes.Buffer
		if code := run(tc.args, io.Discard, &stderr); code != exitUsage || stderr.String() != tc.want {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", tc.args, code, stderr.String(), exitUsage, tc.want)
		}
	}
}

// unpack extracts a .tar.gz into a new folder and returns its top folder.
func unpack(t *testing.T, archive string) string {
	t.Helper()
	dst := t.TempDir()
	cmd := exec.Command("tar", "-xzf", archive, "-C", dst)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	return filepath.Join(dst, strings.TrimSuffix(filepath.Base(archive), ".tar.gz"))
}

// TestSourcesAreCacheInputs opens every source the release is built from: go test caches a
// result by the files the test process opens, not by those its go build reads, and a change to
// a hook must not replay a cached pass.
func TestSourcesAreCacheInputs(t *testing.T) {
	for _, root := range []string{"../../hooks", "../../cmd", "../../lib", "../../go.mod", "../../go.sum", "../../settings.json", "../../embed.go", "../../LICENSE", "../../README.md"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				_, err = os.ReadFile(path)
			}
			return err
		})
		if err != nil {
			t.Fatalf("reading sources: %v", err)
		}
	}
}
