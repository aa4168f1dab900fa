package paths

import (
	"os"
	"path/filepath"
	"testing"
)

// The most specific directory decides between the temp tier and home or project: a home or
// project inside a temp directory keeps its own tier, and a temp directory inside home is temp.
func TestMostSpecificDirectoryDecides(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	tmp := root + "/tmp"
	home := tmp + "/home"
	os.MkdirAll(home+"/proj", 0o755)
	os.MkdirAll(root+"/elsewhere", 0o755)
	// linked is a home reached through a link, whose real directory is inside the temp dir.
	os.Symlink(home, root+"/linked")
	for _, tt := range []struct {
		name       string
		home, proj string
		temp       []string
		path       string
		want       Action
	}{
		{"project in temp", home, home + "/proj", []string{tmp}, home + "/proj/a.go", Allow},
		{"home in temp", home, home + "/proj", []string{tmp}, home + "/notes.txt", Deny},
		{"home in temp, dotfile", home, home + "/proj", []string{tmp}, home + "/.gitconfig", Deny},
		{"temp beside home", home, home + "/proj", []string{tmp}, tmp + "/scratch.txt", Allow},
		{"temp inside home", home, home + "/proj", []string{tmp, home + "/tmp"}, home + "/tmp/x", Allow},
		{"temp is home", home, home + "/proj", []string{home}, home + "/notes.txt", Deny},
		{"home through a link", root + "/linked", home + "/proj", []string{tmp}, home + "/notes.txt", Deny},
		{"outside everything", home, home + "/proj", []string{tmp}, root + "/elsewhere/x", Deny},
	} {
		e := Env{Cwd: tt.proj, Home: tt.home, Project: tt.proj, Temp: tt.temp}
		if v := e.Judge(tt.path, nil); v.Action != tt.want {
			t.Errorf("%s: %s is %v (%s %s), want %v", tt.name, tt.path, v.Action, v.Rule, v.Why, tt.want)
		}
	}
}
