package release

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// SumsName is the checksum file: one "<sha256 hex>  <name>" line per file, sorted by name, the
// format sha256sum -c reads.
const SumsName = "SHA256SUMS"

// Sums renders the checksum file for files (name to content digest, hex).
func Sums(files map[string]string) []byte {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", files[n], n)
	}
	return b.Bytes()
}

// ParseSums reads a checksum file. A malformed line is an error, not a line skipped: a
// shortened file must not pass for a shorter release.
func ParseSums(b []byte) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		sum, name, ok := strings.Cut(line, "  ")
		if !ok || len(sum) != 64 || name == "" {
			return nil, fmt.Errorf("%s line %d is not \"<sha256>  <name>\": %q", SumsName, n, line)
		}
		if _, err := hex.DecodeString(sum); err != nil {
			return nil, fmt.Errorf("%s line %d: %q is not a hex digest", SumsName, n, sum)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%s line %d: %s is listed twice", SumsName, n, name)
		}
		out[name] = strings.ToLower(sum)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no file", SumsName)
	}
	return out, sc.Err()
}

// FileSum is the hex SHA-256 of a file's content.
func FileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Mismatch is a file of a release folder that is missing or differs from its checksum.
type Mismatch struct {
	Name, Want, Got string // Got is "" for a missing file
}

// Verify checks every file dir/SHA256SUMS lists, and that the manifest and each of its
// binaries are among them. It returns the mismatches, or an error when the checksum file
// itself cannot be read or does not cover what will be installed.
func Verify(dir string, m Manifest) ([]Mismatch, error) {
	b, err := os.ReadFile(filepath.Join(dir, SumsName))
	if err != nil {
		return nil, err
	}
	sums, err := ParseSums(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, SumsName), err)
	}
	for _, n := range append([]string{ManifestName}, m.Binaries...) {
		if _, ok := sums[n]; !ok {
			return nil, fmt.Errorf("%s does not list %s", filepath.Join(dir, SumsName), n)
		}
	}
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	var bad []Mismatch
	for _, n := range names {
		if n != filepath.Base(n) || strings.ContainsAny(n, `/\`) {
			return nil, fmt.Errorf("%s lists %q, which is not a file of this folder", filepath.Join(dir, SumsName), n)
		}
		got, err := FileSum(filepath.Join(dir, n))
		if err != nil {
			got = ""
		}
		if got != sums[n] {
			bad = append(bad, Mismatch{Name: n, Want: sums[n], Got: got})
		}
	}
	return bad, nil
}
