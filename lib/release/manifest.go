package release

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// ManifestName is the manifest's file name, beside the binaries it describes.
const ManifestName = "release.json"

// Manifest says what a folder of released binaries is: which version, for which platform, and
// which of its files are the binaries to install.
type Manifest struct {
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	OS       string   `json:"os"`
	Arch     string   `json:"arch"`
	Binaries []string `json:"binaries"`
}

// JSON renders the manifest as indented JSON ending in a newline.
func (m Manifest) JSON() []byte {
	b, _ := json.MarshalIndent(m, "", "  ")
	return append(b, '\n')
}

// ReadManifest reads dir/release.json; os.ErrNotExist when dir is not a release folder.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestName), err)
	}
	if m.Name != "harness" || m.Version == "" || m.OS == "" || m.Arch == "" || len(m.Binaries) == 0 {
		return m, fmt.Errorf("%s: not a harness release manifest (name, version, os, arch, binaries)", filepath.Join(dir, ManifestName))
	}
	for _, b := range m.Binaries {
		if b != filepath.Base(b) || b == "." || b == ".." || strings.ContainsAny(b, `/\`) {
			return m, fmt.Errorf("%s: binary %q is not a plain file name", filepath.Join(dir, ManifestName), b)
		}
	}
	return m, nil
}

var semverRE = regexp.MustCompile(`^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$`)

// Semver reports whether v is a semantic version (a leading v is allowed).
func Semver(v string) bool { return semverRE.MatchString(v) }

// Compare orders two semantic versions as semver.org does (-1, 0, 1); ok is false when either
// is not one (a development build's "devel" or a commit hash), which has no order.
func Compare(a, b string) (c int, ok bool) {
	ma, mb := semverRE.FindStringSubmatch(a), semverRE.FindStringSubmatch(b)
	if ma == nil || mb == nil {
		return 0, false
	}
	for i := 1; i <= 3; i++ {
		x, _ := strconv.ParseUint(ma[i], 10, 64)
		y, _ := strconv.ParseUint(mb[i], 10, 64)
		if x != y {
			return cmpInt(x < y), true
		}
	}
	// A pre-release is older than its release; pre-releases compare field by field.
	pa, pb := ma[4], mb[4]
	switch {
	case pa == pb:
		return 0, true
	case pa == "":
		return 1, true
	case pb == "":
		return -1, true
	}
	fa, fb := strings.Split(pa, "."), strings.Split(pb, ".")
	for i := 0; i < len(fa) && i < len(fb); i++ {
		if fa[i] == fb[i] {
			continue
		}
		na, ea := strconv.ParseUint(fa[i], 10, 64)
		nb, eb := strconv.ParseUint(fb[i], 10, 64)
		switch {
		case ea == nil && eb == nil:
			return cmpInt(na < nb), true
		case ea == nil:
			return -1, true // numeric fields sort before alphanumeric ones
		case eb == nil:
			return 1, true
		}
		return cmpInt(fa[i] < fb[i]), true
	}
	return cmpInt(len(fa) < len(fb)), true
}

func cmpInt(less bool) int {
	if less {
		return -1
	}
	return 1
}
