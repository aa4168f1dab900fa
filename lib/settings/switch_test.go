package settings

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hookkit/harness/lib/dialect"
)

// A project's setting that switches the user's hooks off is found in the project and in the
// folders above it, short of the home, and then the user's own in the home; the same key with
// another value and a file that does not parse are not.
func TestProjectSwitches(t *testing.T) {
	d := &dialect.Dialect{Title: "Some Client", Files: dialect.Files{Dir: ".c", Switches: []dialect.Switch{
		{File: ".c/settings.json", Key: "hooks.off", Off: "true"},
		{File: ".c/settings.json", Key: "hooksConfig.disabled"},
		{File: ".c/config.toml", Key: "features.hooks", Off: "false", When: "once trusted"},
		{File: ".other/settings.json", Key: "off", Off: "true"},
	}}}
	home := t.TempDir()
	repo := filepath.Join(home, "src", "repo")
	sub := filepath.Join(repo, "pkg")
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".c", "settings.json"), `{"hooks": {"off": true}}`) // the user's own
	write(filepath.Join(home, ".other", "settings.json"), `{"off": true}`)        // another client's, in the home
	write(filepath.Join(repo, ".c", "settings.json"), `{"hooks": {"off": true}, "hooksConfig": {"disabled": []}}`)
	write(filepath.Join(repo, ".c", "config.toml"), "[features]\nhooks = false\n")
	write(filepath.Join(sub, ".c", "settings.json"), `{"hooks": {"off": false}, "hooksConfig": {"disabled": ["/bin/SecurityValidator"]}}`)
	write(filepath.Join(sub, ".c", "config.toml"), "[features\n")

	var got []string
	for _, s := range ProjectSwitches(d, sub, home) {
		got = append(got, s.File+" "+s.Switch.Key+"="+s.Value)
	}
	want := []string{
		filepath.Join(sub, ".c", "settings.json") + ` hooksConfig.disabled=["/bin/SecurityValidator"]`,
		filepath.Join(repo, ".c", "settings.json") + " hooks.off=true",
		filepath.Join(repo, ".c", "config.toml") + " features.hooks=false",
		filepath.Join(home, ".c", "settings.json") + " hooks.off=true",
	}
	if !slices.Equal(got, want) {
		t.Errorf("found\n%q\nwant\n%q", got, want)
	}
	msg := ProjectSwitches(d, repo, home)[1].Message()
	if want := filepath.Join(repo, ".c", "config.toml") + " sets features.hooks = false, which switches off every hook installed for Some Client (once trusted): " +
		"in this project they guard nothing; remove the setting, or ask whoever added it why"; msg != want {
		t.Errorf("message\n%s\nwant\n%s", msg, want)
	}
	own := ProjectSwitches(d, repo, home)[2]
	if want := filepath.Join(home, ".c", "settings.json") + " (your own settings) sets hooks.off = true, which switches off every hook installed for Some Client: " +
		"they guard nothing anywhere; remove the setting"; !own.Own || own.Message() != want {
		t.Errorf("the home's own file: %+v\n%s\nwant\n%s", own, own.Message(), want)
	}
}
