package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Place copies, keeps, updates and removes only what it recorded; Unplace and Clear take away
// exactly that, and the folders it created, leaving the ones that were there.
func TestPlace(t *testing.T) {
	root := t.TempDir()
	home, src := filepath.Join(root, "opt", "harness"), filepath.Join(root, "src")
	os.MkdirAll(src, 0o755)
	for _, n := range []string{"A", "B"} {
		os.WriteFile(filepath.Join(src, n), []byte("v1 "+n), 0o755)
	}
	dest := func(n string) string { return filepath.Join(home, "bin", n) }
	want := map[string]string{dest("A"): filepath.Join(src, "A"), dest("B"): filepath.Join(src, "B")}
	extra := filepath.Join(root, "etc", "drop.d")
	kinds := func(ps []Placed) string { return strings.TrimSpace(fmt.Sprint(ps)) }

	got, err := Place(home, want, []string{extra}, false)
	if err != nil || kinds(got) != fmt.Sprintf("[add     %s add     %s]", dest("A"), dest("B")) {
		t.Fatalf("first place: %v, %v", got, err)
	}
	if b, _ := os.ReadFile(dest("A")); string(b) != "v1 A" {
		t.Fatalf("A holds %q", b)
	}
	// A newer A replaces the recorded one; B is kept.
	os.WriteFile(filepath.Join(src, "A"), []byte("v2 A"), 0o755)
	got, err = Place(home, want, nil, false)
	if err != nil || kinds(got) != fmt.Sprintf("[update  %s keep    %s]", dest("A"), dest("B")) {
		t.Fatalf("second place: %v, %v", got, err)
	}
	// A copy changed by someone else is never replaced, and B, no longer wanted and edited, stays.
	os.WriteFile(dest("A"), []byte("local"), 0o755)
	if _, err := Place(home, want, nil, false); err == nil || !strings.Contains(err.Error(), "was changed since the harness wrote it") {
		t.Fatalf("edited copy: %v", err)
	}
	os.WriteFile(dest("A"), []byte("v2 A"), 0o755)
	os.WriteFile(dest("B"), []byte("local B"), 0o755)
	got, err = Place(home, map[string]string{dest("A"): filepath.Join(src, "A")}, nil, false)
	if err != nil || kinds(got) != fmt.Sprintf("[keep    %s edited  %s]", dest("A"), dest("B")) {
		t.Fatalf("dropping B: %v, %v", got, err)
	}
	// Unplace leaves the edited B; with force it goes, and Clear takes the rest.
	if got, err = Unplace(home, false, false); err != nil || kinds(got) != fmt.Sprintf("[remove  %s edited  %s]", dest("A"), dest("B")) {
		t.Fatalf("unplace: %v, %v", got, err)
	}
	if gone, _ := Clear(home); len(gone) != 0 {
		t.Fatalf("cleared while B is still recorded: %v", gone)
	}
	if _, err = Unplace(home, true, false); err != nil {
		t.Fatal(err)
	}
	gone, err := Clear(home)
	if err != nil || len(gone) == 0 {
		t.Fatalf("clear: %v, %v", gone, err)
	}
	for _, p := range []string{home, filepath.Join(root, "opt"), extra, filepath.Join(root, "etc")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	if _, err := os.Stat(src); err != nil {
		t.Errorf("the source folder went too: %v", err)
	}
}
