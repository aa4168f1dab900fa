package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/release"
)

// A folder whose binary was built for another processor than the machine's (an emulator runs
// it, or two archives were mixed) is refused, naming the archive to take instead. The test
// binary stands for a binary of the platform it runs on.
func TestCheckPlatform(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the test binary is an ELF on Linux only")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	b, _ := os.ReadFile(self)
	os.WriteFile(filepath.Join(dir, "harness"), b, 0o755)
	m := release.Manifest{Name: "harness", Version: "1.2.3", OS: "linux", Arch: runtime.GOARCH, Binaries: []string{"harness"}}
	if err := checkPlatform(dir, m, "linux", runtime.GOARCH); err != nil {
		t.Fatalf("this machine's own binary: %v", err)
	}
	other := map[string]string{"amd64": "arm64", "arm64": "amd64"}[runtime.GOARCH]
	m.Arch = other
	err = checkPlatform(dir, m, "linux", other)
	want := "harness install: this archive is for linux/" + runtime.GOARCH + " (harness), and this machine is linux/" + other +
		": download harness_1.2.3_linux_" + other + " instead; nothing was copied"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	os.WriteFile(filepath.Join(dir, "harness"), []byte("#!/bin/sh\n"), 0o755)
	if err := checkPlatform(dir, m, "linux", other); err == nil || !strings.Contains(err.Error(), "is not an executable this release knows") {
		t.Errorf("a script: %v", err)
	}
}
