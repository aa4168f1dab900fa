//go:build unix

package paths

import (
	"os"
	"path/filepath"
	"testing"
)

// A hard link made earlier is the file it links: writing it is judged as writing the user's
// settings, the harness's programs or the project's settings it names; a link between two
// files of the project is a project file.
func TestHardLinks(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, proj := root+"/home", root+"/home/proj"
	hh := home + "/.claude/harness"
	for _, d := range []string{hh + "/bin", proj + "/.claude"} {
		os.MkdirAll(d, 0o755)
	}
	for _, f := range []string{home + "/.claude/settings.json", hh + "/bin/WriteProtector", proj + "/.claude/settings.local.json", proj + "/a.txt"} {
		os.WriteFile(f, []byte("{}"), 0o644)
	}
	for link, to := range map[string]string{"s.json": home + "/.claude/settings.json", "wp": hh + "/bin/WriteProtector",
		"l.json": proj + "/.claude/settings.local.json", "b.txt": proj + "/a.txt"} {
		if err := os.Link(to, proj+"/"+link); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
	}
	e := Env{Cwd: proj, Home: home, Project: proj, HarnessHome: hh, Temp: []string{root + "/tmp"}}
	for name, want := range map[string]string{"s.json": "read-only.claude-settings", "wp": "read-only.harness", "l.json": "ask.project-settings", "b.txt": ""} {
		if v := e.Judge(proj+"/"+name, nil); v.Rule != want || v.Path != proj+"/"+name {
			t.Errorf("%s: %s %q (%s), want %q", name, v.Action, v.Rule, v.Why, want)
		}
	}
}
