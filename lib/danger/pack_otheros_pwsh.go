// PowerShell statements judged by the Bash packs, through the Bash command each amounts to,
// and the Windows-only dangers that have no Bash counterpart.

package danger

import (
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// psTranslate finds the Bash command each PowerShell statement amounts to (Remove-Item
// -Recurse is rm -r, Set-Content a > redirection, Invoke-WebRequest curl, ...) and adds it
// to the analysis, for the rules that read a whole line; psEquivalent judges them.
func (j *judge) psTranslate(cmds []*shell.Cmd) {
	if j.psEq == nil {
		j.psEq = map[*shell.Cmd][]*shell.Cmd{}
	}
	for _, c := range cmds {
		b := shell.PSBash(c)
		if b == "" {
			continue
		}
		w := j.world
		w.Cwd = c.Dir
		an, err := shell.Analyze(b, w, shell.Limits{})
		if err != nil {
			continue
		}
		for _, sub := range an.Cmds {
			sub.Via, sub.Text = c.Via, c.Text
		}
		j.psEq[c] = an.Cmds
	}
	// Each in its statement's place: a download comes before the run that follows it.
	all := make([]*shell.Cmd, 0, len(j.an.Cmds)+len(j.psEq))
	for _, c := range j.an.Cmds {
		all = append(all, c)
		if !slices.Contains(all[:len(all)-1], c) {
			all = append(all, j.psEq[c]...)
		}
	}
	j.an.Cmds = all
}

// psEquivalent judges a PowerShell statement as the Bash command with the same effect, so
// that every Bash rule on deletes, writes, uploads and kills applies under its own rule id.
func (j *judge) psEquivalent(c *shell.Cmd) {
	if key := shell.PSRegistryDelete(c); key != "" {
		j.registryDelete(c, key)
	}
	j.psCmdletRules(c)
	n := len(j.findings)
	for _, sub := range j.psEq[c] {
		j.cmd(sub)
	}
	for i := n; i < len(j.findings); i++ {
		j.findings[i].Cmd = c // named as written, not as its Bash counterpart
	}
}

// registryDelete: deleting a hive's top keys (HKLM:\SOFTWARE, HKLM:\SYSTEM, HKCU:\Software)
// or the system's own below them (...\Microsoft, \Classes, \Policies, CurrentControlSet) with
// their subkeys breaks the system or the account as deleting /etc or the home folder does;
// an application's own key is its business.
func (j *judge) registryDelete(c *shell.Cmd, key string) {
	k := strings.ToLower(strings.NewReplacer(`\`, "/", "registry::", "", "microsoft.powershell.core/", "").Replace(key))
	k = strings.NewReplacer("hkey_local_machine", "hklm:", "hkey_current_user", "hkcu:", "hkey_classes_root", "hkcr:", "hkey_users", "hku:").Replace(k)
	parts := strings.FieldsFunc(k, func(r rune) bool { return r == '/' })
	critical := len(parts) <= 2 // a hive, or SOFTWARE, SYSTEM, Software under it
	if len(parts) == 3 {
		switch parts[2] {
		case "microsoft", "classes", "policies", "currentcontrolset", "controlset001", "wow6432node", "setup":
			critical = true
		}
	}
	if len(parts) == 4 && (parts[2] == "currentcontrolset" || parts[2] == "controlset001") && (parts[3] == "services" || parts[3] == "control" || parts[3] == "enum") {
		critical = true // every service's and driver's configuration: the machine no longer boots
	}
	if critical {
		j.add(c, fsRmCritical, "it deletes the registry key "+key+" and everything under it", "delete the one value or key you mean")
	}
}
