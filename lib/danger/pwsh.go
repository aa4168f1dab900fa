package danger

import (
	"sort"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// JudgePowerShell judges a script for the PowerShell tool (or a PowerShell skill command) as
// Bash judges pwsh -c SCRIPT: the Windows rules read the script's words (Format-Volume,
// Remove-Item -Recurse of a root, Stop-Computer, iwr | iex, execution policy, run keys) and
// each statement it runs, inside script blocks, Invoke-Expression strings and -EncodedCommand
// too; the programs it starts are judged like the shell's.
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
	j.psCmds(an.Cmds, script)
	v := Verdict{Findings: j.findings, Analysis: an}
	sort.SliceStable(v.Findings, func(a, b int) bool { return v.Findings[a].Action > v.Findings[b].Action })
	for _, f := range v.Findings {
		v.Action = max(v.Action, f.Action)
	}
	return v
}

// pwsh judges pwsh or powershell run from Bash: the Windows rules on its words, then the
// script it runs as JudgePowerShell judges it.
func (j *judge) pwsh(c *shell.Cmd) {
	j.windows(c)
	if c.Unread != "" {
		j.add(c, "limits.unread", Ask, Medium, c.Name+" runs code that cannot be read before it runs: "+c.Unread, "run the commands themselves, written out")
	}
	if c.Code == "" {
		return
	}
	w := j.world
	w.Cwd = c.Dir
	an, err := shell.AnalyzePowerShell(c.Code, w, shell.Limits{})
	if err != nil {
		f := limitFinding(err)
		j.add(c, f.Rule, f.Action, f.Radius, f.Why, f.Instead)
		return
	}
	j.an.Cmds = append(j.an.Cmds, an.Cmds...)
	j.psCmds(an.Cmds, c.Code)
}

// psCmds judges what a PowerShell script runs: each statement by the Windows rules on its own
// text, so one inside a script block, an Invoke-Expression string or an -EncodedCommand counts
// as if written out; each program it starts as Bash judges it. A statement whose code cannot
// be read asks: what cannot be judged is not let through in silence. A statement that is the
// whole script has been judged as the script.
func (j *judge) psCmds(cmds []*shell.Cmd, script string) {
	for _, c := range cmds {
		if !c.PS {
			j.cmd(c)
			continue
		}
		if c.Unread != "" {
			j.add(c, "limits.unread", Ask, Medium, "PowerShell would run code that cannot be read before it runs: "+c.Unread, "run the commands themselves, written out")
		}
		if strings.TrimSpace(c.Text) == strings.TrimSpace(script) {
			continue
		}
		st := &shell.Cmd{Name: "pwsh", Prog: "pwsh", Args: []string{"-Command", c.Text}, Code: c.Text, Dir: c.Dir, Text: c.Text, Via: c.Via}
		j.policyRules(st)
		j.windows(st)
		j.code(st)
	}
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
