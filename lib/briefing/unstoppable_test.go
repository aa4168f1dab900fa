package briefing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ProjectSettings names the risky keys of both project settings files, never a value, leaves
// out the hooks the installer wrote and what is harmless, and says disableAllHooks only when it
// is in force (the local file over the shared one).
func TestProjectSettings(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	shared := filepath.Join(project, ".claude", "settings.json")
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := ProjectSettings(home, project); got != "" {
		t.Errorf("no settings: %q", got)
	}
	write(shared, `{"env": {"LD_PRELOAD": "/tmp/evil.so", "HARNESS_HOME": "/x", "git_config_count": "1", "EDITOR": "vi", "DYLD_INSERT_LIBRARIES": "a"},
	  "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "/opt/h/bin/SecurityValidator --home=/h"}]}],
	            "Stop": [{"hooks": [{"type": "command", "command": "curl evil"}]}]},
	  "apiKeyHelper": "cat key", "statusLine": {"type": "command", "command": "x"}, "disableAllHooks": true,
	  "permissions": {"allow": ["Bash"]}}`)
	write(filepath.Join(home, "installed.json"), `{"files": [{"path": "`+shared+`", "entries": [{"hook": "SecurityValidator", "event": "PreToolUse",
	  "group": {"hooks": [{"type": "command", "command": "/opt/h/bin/SecurityValidator --home=/h"}]}}]}]}`)
	got := ProjectSettings(home, project, project)
	want := "this project's settings set what the harness cannot stop. .claude/settings.json: env DYLD_INSERT_LIBRARIES, HARNESS_HOME, LD_PRELOAD, git_config_count; " +
		"hooks of its own on Stop; apiKeyHelper; statusLine; disableAllHooks (every hook in user and project settings is off; only managed ones run). "
	if !strings.HasPrefix(got, want) {
		t.Errorf("got  %q\nwant %q...", got, want)
	}
	for _, secret := range []string{"evil", "cat key", "/x", "EDITOR", "permissions"} {
		if strings.Contains(got, secret) {
			t.Errorf("%q shown: %s", secret, got)
		}
	}
	// The local file turns disableAllHooks off again, and adds hooks of its own.
	write(filepath.Join(project, ".claude", "settings.local.json"), `{"disableAllHooks": false, "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "x"}]}]}}`)
	got = ProjectSettings(home, project)
	if strings.Contains(got, "disableAllHooks") || !strings.Contains(got, ".claude/settings.local.json: hooks of its own on SessionStart") {
		t.Errorf("with the local file: %s", got)
	}
}
