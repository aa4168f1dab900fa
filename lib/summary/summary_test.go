package summary

import (
	"os"
	"path/filepath"
	"testing"
)

// Retention: HARNESS_SUMMARY_KEEP, else the configuration's summary.keep, else the default.
func TestRetention(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	t.Setenv("HARNESS_SUMMARY_KEEP", "")
	if n := Retention(home, proj); n != DefaultKeep {
		t.Errorf("default: %d", n)
	}
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"summary":{"keep":30}}`), 0o644)
	if n := Retention(home, proj); n != 30 {
		t.Errorf("user configuration: %d", n)
	}
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.WriteFile(filepath.Join(proj, ".claude", "harness.json"), []byte(`{"summary":{"keep":5}}`), 0o644)
	if n := Retention(home, proj); n != 5 {
		t.Errorf("project configuration: %d", n)
	}
	t.Setenv("HARNESS_SUMMARY_KEEP", "7")
	if n := Retention(home, proj); n != 7 {
		t.Errorf("environment: %d", n)
	}
}
