package paths

import (
	"os"
	"path/filepath"
	"testing"
)

// A project, home or temp directory reached through a symlink (or written with a trailing
// slash) still holds the paths under it, which are resolved.
func TestDirectoriesThroughLinks(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, d := range []string{"real/proj", "real/home", "real/tmp"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	for _, l := range []string{"proj", "home", "tmp"} {
		os.Symlink(filepath.Join(root, "real", l), filepath.Join(root, l))
	}
	e := Env{Cwd: root + "/proj", Home: root + "/home", Project: root + "/proj", Temp: []string{root + "/tmp/"}}
	for _, tt := range []struct {
		path string
		want Action
		rule string
	}{
		{"a.txt", Allow, ""},
		{root + "/real/proj/b.txt", Allow, ""},
		{root + "/tmp/x", Allow, ""},
		{"~/.bashrc", Ask, "ask.rc-file"},
		{"~/.aws/credentials", Deny, "credentials"},
		{root + "/elsewhere/x", Deny, "outside-project"},
	} {
		v := e.Judge(tt.path, nil)
		if v.Action != tt.want || tt.rule != "" && v.Rule != tt.rule {
			t.Errorf("%s: %v %s (%s), want %v %s", tt.path, v.Action, v.Rule, v.Why, tt.want, tt.rule)
		}
	}
}
