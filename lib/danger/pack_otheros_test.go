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
		{"pwsh -Command 'Remove-Item —Recurse ―Force C:\\Windows'", "clobber.system-file"},
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

// cmd /c and cmd /k run a command line in cmd's grammar: rd /s and del /s of a home, the
// system or the project are judged as rm -r of it is, from Bash and from PowerShell.
func TestCmdExeCommandLine(t *testing.T) {
	checkPack(t, []packCase{
		{`cmd /c "rd /s /q C:\Users\bob"`, "fs.rm-critical"},
		{`cmd.exe /c "rd /s /q C:\Users\bob"`, "fs.rm-critical"},
		{`CMD.EXE /K "rmdir /S /Q c:\users\bob"`, "fs.rm-critical"},
		{`cmd /c "rd /s /q C:\Windows\System32"`, "fs.rm-critical"},
		{`cmd /c rd /s/q '"C:\Program Files"'`, "fs.rm-critical"},
		{`cmd /c 'rd /s /q C:\'`, "fs.rm-critical"},
		{`cmd /c "echo hi & rd /s /q %USERPROFILE%"`, "fs.rm-critical"},
		{`cmd /c "cd x && rd /s /q %USERPROFILE%\.ssh"`, "fs.rm-critical"},
		{`cmd /c "del /s /q /f C:\Users\bob\Documents"`, "fs.rm-other-user"},
		{`cmd /c "erase /s /q C:\Users\bob\work || echo failed"`, "fs.rm-other-user"},
		{`cmd /c "del /q C:\Windows\System32\drivers\etc\hosts"`, "fs.rm-critical"},
		{`cmd /d /c "cmd /c rd /s /q C:\Users\bob"`, "fs.rm-critical"},
		{`cmd /c "rd /s /q ."`, "fs.rm-critical"},
		{`cmd /c "rd /s /q .."`, "fs.rm-critical"},
		{`cmd /c format D: /q`, "disk.format"},
		{`cmd /c "rd /s /q %CD%"`, "fs.rm-critical"},
		// Every other program cmd runs is judged as it is without cmd.
		{`cmd /c "vssadmin delete shadows /all /quiet"`, "fs.backup-delete"},
		{`cmd.exe /c "echo hi & vssadmin delete shadows /all /quiet"`, "fs.backup-delete"},
		{`cmd /c "wevtutil cl System"`, "hist.logs"},
		{`cmd /c "taskkill /F /IM *"`, "kill.mass"},
		{`cmd /c "cipher /w:C:"`, "disk.wipe"},
		{`cmd /c "reg delete HKLM\SYSTEM /f"`, "fs.rm-critical"},
		{`cmd /c "git reset --hard"`, "git.reset-hard"},
		{`cmd /c "npm run build && npm test"`, ""},
		{`cmd /c "taskkill /F /PID 4242"`, ""},
		{`cmd /c "dir /b & echo done"`, ""},
		// Inside the project, an empty directory, text: silent.
		{`cmd /c "rd /s /q build && del /q out\*"`, ""},
		{`cmd /c "rd C:\Users\bob"`, ""},
		{`cmd /c "echo rd /s /q C:\Users\bob"`, ""},
		{`cmd /c dir C:\Users`, ""},
	})
	checkPS(t, testWorld(""), []psCase{
		{`cmd /c "rd /s /q C:\Users\bob"`, "fs.rm-critical"},
		{`cmd.exe /c "del /s /q C:\Users\bob\work"`, "fs.rm-other-user"},
		{`cmd /c "rd /s /q build"`, ""},
	})
}

// What a coding agent runs through the PowerShell tool every day is silent, and so is text
// that only mentions a dangerous cmdlet: an echo, a Select-String pattern, a quoted
// here-string, a comment, a commit message or a pull request title is data, not a command.
func TestPowerShellEverydayIsSilent(t *testing.T) {
	var cases []psCase
	for _, s := range []string{
		"Get-ChildItem",
		"Get-ChildItem -Recurse -Filter *.go",
		"Get-ChildItem -Path src -Recurse | Measure-Object",
		"Get-Location",
		"Set-Location src",
		"Get-Content README.md | Select-Object -First 10",
		"Get-Content -Path go.mod -TotalCount 5",
		"Test-Path package.json",
		"dotnet build",
		"dotnet test --no-build",
		"npm test",
		"npm install",
		"npm run build",
		"go build ./...",
		"go test ./...",
		"git status",
		"git diff --stat",
		"git log --oneline -5",
		"git add -A",
		"Select-String -Pattern 'TODO' -Path *.go",
		"Get-Process | Sort-Object CPU -Descending | Select-Object -First 5",
		"$env:PATH -split ';'",
		"New-Item -ItemType Directory -Path build -Force",
		"Copy-Item README.md docs/README.md",
		"Remove-Item -Recurse -Force bin",
		"Get-Command go",
		"$PSVersionTable.PSVersion",
		"Invoke-WebRequest -Uri https://example.com -OutFile page.html",
		"Write-Output 'Remove-Item -Recurse -Force C:\\Windows'",
		"Write-Output \"Remove-Item -Recurse -Force C:\\Windows\"",
		"echo 'Format-Volume -DriveLetter C'",
		"Write-Host \"run Format-Volume later\"",
		"Write-Host 'Stop-Computer -Force'",
		"Write-Verbose 'Set-ExecutionPolicy Unrestricted -Scope LocalMachine' -Verbose",
		"Write-Information 'Remove-Item -Recurse -Force $HOME'",
		"Select-String -Pattern 'Remove-Item -Recurse' -Path *.ps1",
		"Select-String -Pattern 'Format-Volume|Clear-Disk' -Path scripts/*.ps1",
		"Get-ChildItem -Recurse *.ps1 | Select-String 'Remove-Item -Recurse -Force C:\\'",
		"git commit -m \"Remove-Item -Recurse -Force C:\\Windows cleanup\"",
		"git commit -m 'Stop using Format-Volume in the setup script'",
		"gh pr create --title \"Stop-Process -Name * fix\" --body \"Replaces Remove-Item -Recurse -Force C:\\ with a scoped delete\"",
		"gh issue create --title 'Set-ExecutionPolicy Unrestricted is needed?' --body 'asks'",
		"@'\n# Notes\nNever run Remove-Item -Recurse -Force C:\\ here.\nFormat-Volume is out of scope.\n'@ | Set-Content notes.md",
		"$msg = @\"\nBuild finished at $(Get-Date)\nDo not run Remove-Item -Recurse -Force C:\\Windows\n\"@\nWrite-Output $msg",
		"# Remove-Item -Recurse -Force C:\\\nGet-ChildItem",
		"Get-ChildItem # then Format-Volume -DriveLetter D, not really",
		"<# Remove-Item -Recurse -Force C:\\Windows\n   Stop-Computer #>\ngo test ./...",
		"Set-Content -Path notes.txt -Value 'Remove-Item -Recurse -Force C:\\Windows'",
		"Add-Content CHANGELOG.md 'Fixed: Set-ExecutionPolicy Unrestricted no longer needed'",
		"'Remove-Item -Recurse -Force C:\\Windows' | Out-File plan.txt",
		"$s = 'Stop-Computer -Force' | Out-String",
	} {
		cases = append(cases, psCase{s, ""})
	}
	checkPS(t, testWorld(""), cases)
}

// A string that is run is code: Invoke-Expression, a script block made from a string, a
// nested PowerShell's -Command or -EncodedCommand, a quoted command run by &, a subexpression
// inside a double-quoted string. Each is decided as if written out.
func TestPowerShellExecutedStringIsCode(t *testing.T) {
	enc := "UgBlAG0AbwB2AGUALQBJAHQAZQBtACAALQBSAGUAYwB1AHIAcwBlACAALQBGAG8AcgBjAGUAIABDADoAXABXAGkAbgBkAG8AdwBzAA==" // Remove-Item -Recurse -Force C:\Windows
	checkPS(t, testWorld(""), []psCase{
		{"iex 'Remove-Item -Recurse -Force C:\\Windows'", "fs.rm-critical"},
		{"Invoke-Expression \"Format-Volume -DriveLetter D\"", "disk.format"},
		{"Invoke-Expression -Command 'Stop-Computer -Force'", "power.shutdown"},
		{"& ([scriptblock]::Create('Remove-Item -Recurse -Force C:\\Windows'))", "fs.rm-critical"},
		{"powershell -Command 'Format-Volume -DriveLetter D'", "disk.format"},
		{"pwsh -NoProfile -Command \"Stop-Computer -Force\"", "power.shutdown"},
		{"powershell -EncodedCommand " + enc, "fs.rm-critical"},
		{"& 'Stop-Computer' -Force", "power.shutdown"},
		{"Write-Output \"done $(Remove-Item -Recurse -Force C:\\Windows)\"", "fs.rm-critical"},
		{"Remove-Item -Recurse -Force 'C:\\Windows'", "fs.rm-critical"},
		{"$p = 'C:\\Windows'; Remove-Item -Recurse -Force $p", "fs.rm-critical"},
		{"Remove-Item -Recurse -Force '/etc' # tidy up", "fs.rm-critical"},
		{"<# clean #> Format-Volume -DriveLetter D", "disk.format"},
	})
}
