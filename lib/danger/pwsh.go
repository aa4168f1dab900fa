package danger

import (
	"sort"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// JudgePowerShell judges a script for the PowerShell tool (or a PowerShell skill command) as
// Bash judges pwsh -c SCRIPT: the Windows rules read the script's words (Format-Volume,
// Remove-Item -Recurse of a root, Stop-Computer, iwr | iex, execution policy, run keys), and
// the commands it runs are judged like the shell's.
func JudgePowerShell(script string, in Input) Verdict {
	pol := in.Policy
	if pol == nil {
		pol = Defaults()
	}
	an, err := shell.AnalyzePowerShell(script, in.World, in.Limits)
	if err != nil {
		return Verdict{Action: Deny, Findings: []Finding{limitFinding(err)}}
	}
	cwd := in.World.Cwd
	whole := &shell.Cmd{Name: "pwsh", Prog: "pwsh", Args: []string{"-Command", script}, Code: script, Dir: cwd, Text: script, Via: []string{"PowerShell"}}
	j := &judge{world: in.World, pol: pol, an: &shell.Analysis{Cmds: append([]*shell.Cmd{whole}, an.Cmds...)}}
	j.harness = j.harnessHome()
	j.policyRules(whole)
	j.windows(whole)
	j.code(whole)
	v := Verdict{Findings: j.findings, Analysis: an}
	sort.SliceStable(v.Findings, func(a, b int) bool { return v.Findings[a].Action > v.Findings[b].Action })
	for _, f := range v.Findings {
		v.Action = max(v.Action, f.Action)
	}
	return v
}

// psPolicy: Set-ExecutionPolicy Unrestricted or Bypass for the machine turns off script
// signing for every user; registry Run keys start a program at every logon.
func (j *judge) psPolicy(c *shell.Cmd, words []string, has func(...string) bool) {
	if has("set-executionpolicy") && has("unrestricted", "bypass") {
		scope := "localmachine"
		for i, w := range words {
			if w == "-scope" && i+1 < len(words) {
				scope = words[i+1]
			}
		}
		if scope == "localmachine" || scope == "machinepolicy" {
			j.add(c, "persist.execution-policy", Deny, High, "it lets every script run unsigned for every user of the machine (Set-ExecutionPolicy "+scope+")", "use -Scope Process for this session, or ask the user")
		}
	}
	for _, w := range words {
		w = strings.ReplaceAll(w, "/", `\`)
		if (strings.Contains(w, `\currentversion\run`) || strings.Contains(w, `\currentversion\policies\explorer\run`) || strings.Contains(w, `\winlogon`)) &&
			has("new-itemproperty", "set-itemproperty", "add", "new-item", "set-item") {
			j.add(c, "persist.autorun", Deny, High, "it adds a program to a registry Run key, started at every logon", "ask the user to set up startup programs")
			return
		}
	}
}
