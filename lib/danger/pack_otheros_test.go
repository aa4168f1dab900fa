package danger

import (
	"testing"

	"github.com/hookkit/harness/lib/shell"
)

// psCase is a PowerShell tool script, the world it runs in, and the rule that must decide it.
type psCase struct{ script, rule string }

// checkPS judges each script as the PowerShell tool's in world w.
func checkPS(t *testing.T, w shell.World, cases []psCase) {
	t.Helper()
	for _, c := range cases {
		v := JudgePowerShell(c.script, Input{World: w})
		got := ""
		if v.Action != Allow {
			got = v.Findings[0].Rule
		}
		if got != c.rule {
			t.Errorf("PowerShell %q: decided by %q (%s), want %q", c.script, got, v.Action, c.rule)
		}
	}
}

// The Unicode dashes and typographic quotes are PowerShell's - and quotes: each variant is
// decided by the rule of its ASCII spelling; inside a string they are only text.
func TestPowerShellUnicodeDashesAndQuotes(t *testing.T) {
	var cases []psCase
	for _, ascii := range []psCase{
		{"Remove-Item -Recurse -Force C:\\Windows", "fs.rm-critical"},
		{"Remove-Item -Recurse -Force /etc", "fs.rm-critical"},
		{"Remove-Item -Recurse -Force ~/.ssh", "fs.rm-critical"},
		{"rm -r -fo $HOME", "fs.rm-critical"},
		{"Format-Volume -DriveLetter D", "disk.format"},
		{"Set-ExecutionPolicy Unrestricted -Scope LocalMachine", "persist.execution-policy"},
		{"Remove-Item -Recurse -Force build", ""},
	} {
		cases = append(cases, ascii)
		for _, dash := range []string{"\u2013", "\u2014", "\u2015"} {
			cases = append(cases, psCase{replaceDashes(ascii.script, dash), ascii.rule})
		}
	}
	cases = append(cases,
		psCase{"Remove-Item –Recurse –Force ‘C:\\Windows’", "fs.rm-critical"},
		psCase{"Remove-Item —Recurse —Force “/etc”", "fs.rm-critical"},
		psCase{"Remove-Item –Recurse –Force „C:\\Windows”", "fs.rm-critical"},
		psCase{"Write-Output '–Recurse'", ""},
		psCase{"Write-Output ‘–Recurse –Force C:\\Windows’", ""},
		psCase{"Write-Output \"Remove-Item —Recurse\"", ""},
	)
	checkPS(t, testWorld(""), cases)
	// From Bash, the script pwsh -Command runs.
	checkPack(t, []packCase{
		{"pwsh -Command 'Remove-Item -Recurse -Force /etc'", "clobber.system-file"},
		{"pwsh -Command 'Remove-Item –Recurse –Force /etc'", "clobber.system-file"},
		{"pwsh -Command 'Remove-Item —Recurse ―Force C:\\Windows'", "fs.rm-critical"},
		{"pwsh -c 'Format-Volume —DriveLetter D'", "disk.format"},
		{"pwsh -c \"Write-Output '–Recurse'\"", ""},
	})
}

// replaceDashes writes every " -" of a script as " "+dash.
func replaceDashes(s, dash string) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		if s[i] == '-' && i > 0 && s[i-1] == ' ' {
			out = append(out, dash...)
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}
