package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookkit/harness/lib/release"
)

// allTargets are the platforms a release is built for.
var allTargets = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

// target is one platform.
type target struct{ os, arch string }

func (t target) String() string { return t.os + "/" + t.arch }

// exe is the file name of a binary on the platform.
func (t target) exe(name string) string {
	if t.os == "windows" {
		return name + ".exe"
	}
	return name
}

// npm names the platform as Node does (process.platform, process.arch).
func (t target) npm() string {
	os := map[string]string{"windows": "win32"}[t.os]
	if os == "" {
		os = t.os
	}
	arch := map[string]string{"amd64": "x64"}[t.arch]
	if arch == "" {
		arch = t.arch
	}
	return os + "-" + arch
}

// config is one release: what to build, from where, into where.
type config struct {
	out, version, key string
	targets           []target
	root              string    // the module's folder
	mtime             time.Time // every file's time in every archive
}

// defaultTime is the time of every archived file when SOURCE_DATE_EPOCH does not say another.
var defaultTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func configure(out, version, key, targets string) (config, error) {
	c := config{key: key, mtime: defaultTime}
	if out == "" {
		return c, fmt.Errorf("--out DIR is required")
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return c, err
	}
	c.out = abs
	if entries, err := os.ReadDir(abs); err == nil && len(entries) > 0 {
		return c, fmt.Errorf("--out %s is not empty: a release is written into an empty folder", out)
	}
	c.version = strings.TrimPrefix(version, "v")
	if !release.Semver(c.version) {
		return c, fmt.Errorf("--version %q is not a semantic version (1.2.0, 1.2.0-rc.1): npm and the plugin need one", version)
	}
	if key != "" {
		if _, err := os.Stat(key); err != nil {
			return c, fmt.Errorf("--sign-key: %w", err)
		}
		if _, err := exec.LookPath("ssh-keygen"); err != nil {
			return c, fmt.Errorf("--sign-key needs ssh-keygen (OpenSSH 8.0 or newer) on PATH: %w", err)
		}
	}
	seen := map[string]bool{}
	for _, s := range strings.Split(targets, ",") {
		s = strings.TrimSpace(s)
		if !slices.Contains(allTargets, s) {
			return c, fmt.Errorf("--targets: %q is not one of %s", s, strings.Join(allTargets, ", "))
		}
		if seen[s] {
			continue
		}
		seen[s] = true
		goos, goarch, _ := strings.Cut(s, "/")
		c.targets = append(c.targets, target{goos, goarch})
	}
	if e := os.Getenv("SOURCE_DATE_EPOCH"); e != "" {
		secs, err := strconv.ParseInt(e, 10, 64)
		if err != nil || secs < 315532800 { // zip cannot hold a time before 1980
			return c, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a number of seconds since 1980", e)
		}
		c.mtime = time.Unix(secs, 0).UTC()
	}
	mod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(mod)) == "" || strings.TrimSpace(string(mod)) == os.DevNull {
		return c, fmt.Errorf("run it inside the harness module (go env GOMOD: %v)", err)
	}
	c.root = filepath.Dir(strings.TrimSpace(string(mod)))
	for _, f := range []string{"README.md", "LICENSE"} {
		if _, err := os.Stat(filepath.Join(c.root, f)); err != nil {
			return c, fmt.Errorf("the release carries %s: %w", f, err)
		}
	}
	return c, nil
}
