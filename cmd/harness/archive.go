package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/release"
	"github.com/hookkit/harness/lib/state"
)

// The install from a release folder (an unpacked archive, an npm platform package): the
// binaries beside the running CLI are checked against the folder's SHA256SUMS, its platform
// and the version already installed, then copied into the harness home, and the install goes
// on from there as from ./install.sh. Nothing here needs Go.

var forceFlag = &cli.BoolFlag{Name: "force", Usage: "from a release archive: replace an install of a newer version"}

func init() {
	installCommand.Flags = append(installCommand.Flags, forceFlag)
}

// fromRelease copies the release folder the running CLI lives in into bin, and returns where
// the install should take the binaries from. Outside a release folder, or run from bin itself,
// it changes nothing. A dry run copies nothing and names the folder as where the binaries are
// now; so does --managed, which copies them under its own prefix.
func fromRelease(c *cli.Context, bin string) error {
	self, err := os.Executable()
	if err != nil {
		return nil
	}
	if s, err := filepath.EvalSymlinks(self); err == nil {
		self = s
	}
	dir := filepath.Dir(self)
	m, err := release.ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) || sameFile(dir, bin) {
		return nil
	}
	if err != nil {
		return err
	}
	out := c.App.Writer
	if err := verifyRelease(dir, m); err != nil {
		return err
	}
	if err := checkPlatform(dir, m, runtime.GOOS, hostArch()); err != nil {
		return err
	}
	if err := checkNewer(bin, m, c.Bool("force")); err != nil {
		return err
	}
	if c.Bool("dry-run") || c.Bool("managed") {
		if c.Bool("dry-run") {
			fmt.Fprintf(out, "would copy harness %s (%d binaries, SHA256SUMS checked) from %s into %s\n", m.Version, len(m.Binaries), dir, bin)
		}
		return c.Set("built", dir)
	}
	for _, b := range m.Binaries {
		data, err := os.ReadFile(filepath.Join(dir, b))
		if err != nil {
			return err
		}
		if err := state.Write(filepath.Join(bin, b), data, 0o755); err != nil {
			return fmt.Errorf("copying %s into %s: %w", b, bin, err)
		}
	}
	fmt.Fprintf(out, "copied harness %s (%d binaries, SHA256SUMS checked) from %s into %s\n", m.Version, len(m.Binaries), dir, bin)
	// The CLI that runs is the archive's: name its folder as where the binaries were built,
	// so the link on PATH is made to the copy in bin.
	return c.Set("built", dir)
}

// verifyRelease refuses a folder whose files do not match its SHA256SUMS, before anything is
// copied.
func verifyRelease(dir string, m release.Manifest) error {
	bad, err := release.Verify(dir, m)
	if err != nil {
		return cli.Exit("harness install: "+err.Error()+"; nothing was copied: unpack the archive again", 1)
	}
	if len(bad) == 0 {
		return nil
	}
	var what []string
	for _, b := range bad {
		if b.Got == "" {
			what = append(what, b.Name+" is missing")
		} else {
			what = append(what, b.Name+" does not match its checksum")
		}
	}
	return cli.Exit(fmt.Sprintf("harness install: %s in %s: %s; nothing was copied: download and unpack the archive again "+
		"(this check catches a corrupt download or unpack, not forgery: check SHA256SUMS.sig as docs/release.md says)",
		release.SumsName, dir, strings.Join(what, ", ")), 1)
}

// checkPlatform refuses binaries of another system or processor than the machine's: the
// manifest's, and each binary's own header (a folder mixing two archives).
func checkPlatform(dir string, m release.Manifest, goos, goarch string) error {
	want := goos + "/" + goarch
	wrong := func(got string) error {
		return cli.Exit(fmt.Sprintf("harness install: this archive is for %s, and this machine is %s: download harness_%s_%s_%s instead; nothing was copied",
			got, want, m.Version, goos, goarch), 1)
	}
	if m.OS+"/"+m.Arch != want {
		return wrong(m.OS + "/" + m.Arch)
	}
	for _, b := range m.Binaries {
		bos, barch, err := release.Platform(filepath.Join(dir, b))
		if err != nil {
			return cli.Exit("harness install: "+err.Error()+"; nothing was copied", 1)
		}
		if bos == "linux" && goos != "darwin" && goos != "windows" {
			bos = goos // every ELF system reads as linux
		}
		if bos+"/"+barch != want {
			return wrong(bos + "/" + barch + " (" + b + ")")
		}
	}
	return nil
}

// checkNewer refuses to replace an install of a newer version without --force. A build of
// no version (./install.sh's "devel" or a commit) has no order: the release replaces it.
func checkNewer(bin string, m release.Manifest, force bool) error {
	// The CLI first: it names the install's version best.
	bins := append([]string{}, m.Binaries...)
	sort.SliceStable(bins, func(i, j int) bool {
		return strings.HasPrefix(bins[i], "harness") && !strings.HasPrefix(bins[j], "harness")
	})
	for _, b := range bins {
		p := filepath.Join(bin, b)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		have, err := binaryVersion(p)
		if err != nil {
			continue
		}
		if c, ok := release.Compare(have, m.Version); ok && c > 0 && !force {
			return cli.Exit(fmt.Sprintf("harness install: %s is version %s, newer than this archive's %s: an older release does not replace a newer one; "+
				"nothing was copied (run harness install --force to go back to %s)", p, have, m.Version, m.Version), 1)
		}
	}
	return nil
}
