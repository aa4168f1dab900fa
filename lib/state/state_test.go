package state

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "settings.json")
	for _, data := range []string{"{}\n", `{"hooks":{}}` + "\n"} {
		if err := Write(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Errorf("after Write(%q) the file holds %q", data, got)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode: %v, %v; want 0600", fi.Mode(), err)
	}
	if es, _ := os.ReadDir(filepath.Dir(path)); len(es) != 1 {
		t.Errorf("the directory holds %d files, want only the one written", len(es))
	}
}

// A writer killed between its temp file and the rename leaves the old file whole and a
// complete temp file beside it (made here with Write's own pattern); the next Write removes
// the leftover and replaces the file.
func TestWriteAfterCrash(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	left, err := os.CreateTemp(dir, tempPattern(path))
	if err != nil {
		t.Fatal(err)
	}
	left.WriteString("half-written\n")
	left.Close()

	if got, _ := os.ReadFile(path); string(got) != "old\n" {
		t.Fatalf("before the rename the file holds %q, want the old content", got)
	}
	if err := Write(path, []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new\n" {
		t.Errorf("after the next Write the file holds %q", got)
	}
	if _, err := os.Stat(left.Name()); !os.IsNotExist(err) {
		t.Errorf("the crashed writer's temp file %s is still there (%v)", filepath.Base(left.Name()), err)
	}
}
