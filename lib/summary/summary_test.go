package summary

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/transcript"
)

// Retention: the user's or the system's summary.keep, else the default; never a project's
// (a repository could have the user's records deleted), nor an environment variable.
func TestRetention(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	sc := config.Scopes{Home: home, Project: proj}
	t.Setenv("HARNESS_SUMMARY_KEEP", "7")
	if n := Retention(sc); n != DefaultKeep {
		t.Errorf("default: %d", n)
	}
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"summary":{"keep":30}}`), 0o644)
	if n := Retention(sc); n != 30 {
		t.Errorf("user configuration: %d", n)
	}
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.WriteFile(filepath.Join(proj, ".claude", "harness.json"), []byte(`{"summary":{"keep":5}}`), 0o644)
	if n := Retention(sc); n != 30 {
		t.Errorf("a project's configuration lowered the retention to %d", n)
	}
}

// A transcript that could not be read is said so, with no counts that would look real.
func TestRenderUnreadable(t *testing.T) {
	d := Doc{Summary: transcript.Summary{Session: "s1", Unreadable: "transcript format not supported: /home/dev/t.jsonl"}, Transcript: "/home/dev/t.jsonl"}
	got := string(Render(d))
	if !strings.Contains(got, "## Not summarised\n\ntranscript format not supported: /home/dev/t.jsonl:") || strings.Contains(got, "Tool calls") || strings.Contains(got, "Prompts") {
		t.Errorf("summary:\n%s", got)
	}
}
