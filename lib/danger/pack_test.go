package danger

import (
	"testing"

	"github.com/hookkit/harness/lib/shell"
)

// packCase is a command and the rule that must decide it ("" when it is allowed).
type packCase struct{ cmd, rule string }

// checkPack judges each command in the corpus's world and checks the rule of its first finding.
func checkPack(t *testing.T, cases []packCase) {
	t.Helper()
	checkPackIn(t, testWorld(""), cases)
}

// checkPackIn is checkPack in world w.
func checkPackIn(t *testing.T, w shell.World, cases []packCase) {
	t.Helper()
	for _, c := range cases {
		v := Judge(c.cmd, Input{World: w})
		got := ""
		if v.Action != Allow {
			got = v.Findings[0].Rule
		}
		if got != c.rule {
			t.Errorf("%s %q: decided by %q (%s), want %q", w.OS, c.cmd, got, v.Action, c.rule)
		}
	}
}

// macWorld is the corpus's world on macOS: home /Users/dev, project /Users/dev/proj.
func macWorld() shell.World {
	w := testWorld("")
	w.OS, w.Home, w.Cwd, w.Project = "darwin", "/Users/dev", "/Users/dev/proj", "/Users/dev/proj"
	return w
}
