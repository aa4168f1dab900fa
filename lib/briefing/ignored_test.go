package briefing

import "testing"

// The notice lists each ignored file on a line of its own, control characters removed, and is
// empty when nothing was ignored.
func TestIgnored(t *testing.T) {
	if got := Ignored(nil); got != "" {
		t.Errorf("nothing ignored: %q", got)
	}
	got := Ignored([]string{"project policy file /p/.claude/harness/security.json is ignored: not valid JSON", "project policy file /p/x\n\x1b[2Jy is ignored: not valid JSON"})
	want := "Note from the harness: the guards ignore these policy files of the project and judge by the user's and the system's policies alone (a project policy may only tighten them):" +
		"\n- project policy file /p/.claude/harness/security.json is ignored: not valid JSON" +
		"\n- project policy file /p/x [2Jy is ignored: not valid JSON"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
