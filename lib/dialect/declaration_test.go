package dialect

import (
	"strings"
	"testing"
)

// Every declaration says what the installer, linter and doctor need of it, and says why where
// it leaves something out.
func TestDeclarations(t *testing.T) {
	seen := map[Client]bool{}
	identities := 0
	for _, d := range All() {
		name := string(d.Client)
		if seen[d.Client] {
			t.Errorf("%s is declared twice", name)
		}
		seen[d.Client] = true
		if d.Identity {
			identities++
		}
		f := d.Files
		switch {
		case d.Title == "" || d.Tested == "":
			t.Errorf("%s: no Title or Tested", name)
		case d.FromProject == "":
			t.Errorf("%s: no FromProject: what can a project's own files do to its hooks? (test it in the real client)", name)
		case f.Kind == "":
			t.Errorf("%s: no Files.Kind", name)
		case d.DefaultTimeout <= 0:
			t.Errorf("%s: no DefaultTimeout", name)
		case f.Paste == "" && f.User == "" && f.Project == "":
			t.Errorf("%s: neither a user nor a project file, nor a block to paste", name)
		case f.Paste == "" && f.User == "" && f.NoUser == "":
			t.Errorf("%s: no user file and no NoUser saying why", name)
		case f.Paste == "" && f.Project == "" && f.NoProject == "":
			t.Errorf("%s: no project file and no NoProject saying why", name)
		case f.User != "" && f.Dir == "":
			t.Errorf("%s: a user file with no folder (Files.Dir) to hold it", name)
		case (f.Kind == TrustedHookGroups) != (f.Trust != ""):
			t.Errorf("%s: Files.Trust goes with the kind %s, and only with it", name, TrustedHookGroups)
		case d.Transcript.Format != "" && f.Dir != "" && !strings.HasPrefix(d.Transcript.Glob, f.Dir+"/"):
			t.Errorf("%s: its transcripts (%s) are not under its folder %s", name, d.Transcript.Glob, f.Dir)
		}
		for _, sw := range f.Switches {
			if sw.File == "" || sw.Key == "" || (sw.Off != "" && sw.Off != "true" && sw.Off != "false") {
				t.Errorf("%s: a Switch needs a File, a Key and an Off of true, false or none (a list): %+v", name, sw)
			}
		}
		for ev, why := range d.Dropped {
			if _, ok := d.Event(ev); !ok || why == "" {
				t.Errorf("%s: Dropped %s must be an event it fires, with the reason", name, ev)
			}
		}
		for ev, why := range d.Unwired {
			if _, ok := d.Event(ev); !ok || why == "" {
				t.Errorf("%s: Unwired %s must be an event it fires, with the reason", name, ev)
			}
		}
	}
	if identities != 1 || !Default().Identity {
		t.Errorf("%d declarations speak Claude Code's protocol itself; want one, the default", identities)
	}
}
