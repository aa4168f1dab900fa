package danger

import "testing"

// packCase is a command and the rule that must decide it ("" when it is allowed).
type packCase struct{ cmd, rule string }

// checkPack judges each command in the corpus's world and checks the rule of its first finding.
func checkPack(t *testing.T, cases []packCase) {
	t.Helper()
	for _, c := range cases {
		v := Judge(c.cmd, Input{World: testWorld("")})
		got := ""
		if v.Action != Allow {
			got = v.Findings[0].Rule
		}
		if got != c.rule {
			t.Errorf("%q: decided by %q (%s), want %q", c.cmd, got, v.Action, c.rule)
		}
	}
}
