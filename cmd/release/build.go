package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookkit/harness/lib/release"
)

// file is one file of an archive or package.
type file struct {
	name string // slash-separated, relative to the archive's top folder
	mode os.FileMode
	data []byte
}

// build writes the whole release into c.out.
func build(c config, log io.Writer) error {
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "harness-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	pkgs, err := mainPackages(c.root)
	if err != nil {
		return err
	}
	docs, err := readDocs(c.root)
	if err != nil {
		return err
	}
	sums := map[string]string{}
	var plats []platformPackage
	for _, t := range c.targets {
		fmt.Fprintf(log, "building %d binaries for %s ... ", len(pkgs), t)
		bins, err := compile(c, t, pkgs, filepath.Join(tmp, t.os+"_"+t.arch))
		if err != nil {
			return err
		}
		name, err := writeArchive(c, t, bins, docs)
		if err != nil {
			return err
		}
		if sums[name], err = fileSum(filepath.Join(c.out, name)); err != nil {
			return err
		}
		st, _ := os.Stat(filepath.Join(c.out, name))
		fmt.Fprintf(log, "%s (%s)\n", name, size(st.Size()))
		p, err := writeNPMPlatform(c, t, bins, docs)
		if err != nil {
			return err
		}
		plats = append(plats, p)
		if err := writePlugin(c, t, bins, docs); err != nil {
			return err
		}
	}
	mainTGZ, err := writeNPMMain(c, plats, docs)
	if err != nil {
		return err
	}
	for _, n := range append([]string{mainTGZ}, names(plats)...) {
		if sums[n], err = fileSum(filepath.Join(c.out, filepath.FromSlash(n))); err != nil {
			return err
		}
	}
	if err := writeMarketplace(c, docs); err != nil {
		return err
	}
	sumsPath := filepath.Join(c.out, release.SumsName)
	if err := os.WriteFile(sumsPath, release.Sums(sums), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s (%d files)\n", sumsPath, len(sums))
	if c.key != "" {
		if err := sign(c.key, sumsPath); err != nil {
			return err
		}
		fmt.Fprintf(log, "signed it: %s.sig (namespace %s)\n", sumsPath, signNamespace)
	}
	return nil
}

// mainPackages are the packages released: the harness CLI and every hook.
func mainPackages(root string) ([]string, error) {
	pkgs := []string{"./cmd/harness"}
	entries, err := os.ReadDir(filepath.Join(root, "hooks"))
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if m, _ := filepath.Glob(filepath.Join(root, "hooks", e.Name(), "*.go")); len(m) > 0 {
			pkgs = append(pkgs, "./hooks/"+e.Name())
		}
	}
	return pkgs, nil
}

// compile builds every package for t into dir and returns the binaries, sorted by name. The
// flags make the bytes depend on the source and the toolchain alone: no paths (-trimpath), no
// build id, no VCS stamp, no cgo, the default instruction-set level.
func compile(c config, t target, pkgs []string, dir string) ([]file, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ldflags := "-s -w -buildid= -X github.com/hookkit/harness/lib/hook.Version=" + c.version
	args := append([]string{"build", "-trimpath", "-buildvcs=false", "-ldflags=" + ldflags, "-o", dir + string(os.PathSeparator)}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = c.root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.os, "GOARCH="+t.arch, "GOFLAGS=", "GOAMD64=v1", "GOARM64=v8.0", "GOEXPERIMENT=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build for %s: %v\n%s", t, err, out)
	}
	var bins []file
	for _, p := range pkgs {
		name := t.exe(filepath.Base(p))
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		bins = append(bins, file{name: name, mode: 0o755, data: b})
	}
	sort.Slice(bins, func(i, j int) bool { return bins[i].name < bins[j].name })
	return bins, nil
}

// readDocs reads the files every archive and package carries beside the binaries.
func readDocs(root string) ([]file, error) {
	var docs []file
	for _, n := range []string{"LICENSE", "README.md"} {
		b, err := os.ReadFile(filepath.Join(root, n))
		if err != nil {
			return nil, err
		}
		docs = append(docs, file{name: n, mode: 0o644, data: b})
	}
	return docs, nil
}

// payload is what a folder of released binaries holds for the installer: the binaries,
// release.json, and SHA256SUMS over both (what `harness install` checks before copying).
func payload(c config, t target, bins []file, extra []file) []file {
	m := release.Manifest{Name: "harness", Version: c.version, OS: t.os, Arch: t.arch}
	sums := map[string]string{}
	files := append([]file{}, bins...)
	for _, b := range bins {
		m.Binaries = append(m.Binaries, b.name)
	}
	files = append(files, file{name: release.ManifestName, mode: 0o644, data: m.JSON()})
	files = append(files, extra...)
	for _, f := range files {
		sums[f.name] = sum(f.data)
	}
	files = append(files, file{name: release.SumsName, mode: 0o644, data: release.Sums(sums)})
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	return files
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func fileSum(path string) (string, error) { return release.FileSum(path) }

// size is a byte count for people, in binary units.
func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// prefixed puts files under a top folder.
func prefixed(dir string, files []file) []file {
	out := make([]file, len(files))
	for i, f := range files {
		out[i] = file{name: strings.TrimSuffix(dir, "/") + "/" + f.name, mode: f.mode, data: f.data}
	}
	return out
}
