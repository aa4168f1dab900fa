// Windows programs and cmdlets whose danger has no Bash spelling to borrow: the Task
// Scheduler, services, the event logs, ACLs, taskkill, shadow copies, PSReadLine history.
// Each is judged under the rule of the Bash kind it matches.

package danger

import (
	"path"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// winNative judges a Windows program by its own switches (/F, /T, /create, ...), case as
// Windows ignores it.
func (j *judge) winNative(c *shell.Cmd) {
	name := strings.TrimSuffix(strings.ToLower(path.Base(strings.ReplaceAll(c.Name, `\`, "/"))), ".exe")
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = strings.ToLower(a)
	}
	has := func(ws ...string) bool {
		return slices.ContainsFunc(args, func(a string) bool { return slices.Contains(ws, a) })
	}
	after := func(sw string) string {
		if i := slices.Index(args, sw); i >= 0 && i+1 < len(args) {
			return c.Args[i+1]
		}
		return ""
	}
	text := strings.Join(args, " ")
	switch name {
	case "taskkill":
		im, filter := strings.ToLower(after("/im")), has("/fi")
		switch {
		case im == "*" || im == "*.exe":
			j.add(c, killMass, "taskkill /IM * ends every process it may", "end the one process you mean, by its PID")
		case slices.Contains(sessionPrograms, strings.TrimSuffix(im, ".exe")) || im == "cmd.exe" || im == "powershell.exe" || im == "pwsh.exe":
			j.add(c, killMass, "taskkill /IM "+im+" ends every "+im+" process: the sessions, and the shell running this one", "end the one process you mean, by its PID")
		case filter && after("/pid") == "" && im == "":
			if strings.Contains(strings.ToLower(after("/fi")), "username") {
				j.add(c, killUser, "taskkill /FI ends every process the filter matches: all of a user's", "end the one process you mean, by its PID")
			} else {
				j.add(c, killMass, "taskkill /FI ends every process the filter matches", "end the one process you mean, by its PID")
			}
		}
	case "schtasks":
		switch {
		case has("/create", "-create"):
			j.add(c, persistCrontabInstall, "schtasks /create schedules a program Windows runs by itself later", "ask the user to set up scheduled tasks")
		case has("/delete", "-delete") && strings.Contains(text, "*"):
			j.add(c, persistCrontabRemove, "schtasks /delete /tn * removes every scheduled task", "")
		}
	case "sc":
		if len(args) > 0 && (args[0] == "create" || args[0] == "config" && strings.Contains(text, "binpath=")) {
			j.add(c, persistAutorun, "sc "+args[0]+" sets a service program Windows starts by itself", "ask the user to install services")
		}
		if len(args) > 1 && (args[0] == "stop" || args[0] == "config" && strings.Contains(text, "disabled")) && winCriticalService(args[1]) {
			j.add(c, powerCriticalService, "sc "+args[0]+" "+c.Args[1]+" cuts the machine off (logins, remote access, network or RPC)", "")
		}
	case "net", "net1":
		if len(args) > 1 && args[0] == "stop" && winCriticalService(args[1]) {
			j.add(c, powerCriticalService, "net stop "+c.Args[1]+" cuts the machine off (logins, remote access, network or RPC)", "")
		}
		if len(args) > 2 && args[0] == "localgroup" && winAdminGroup(args[1]) && has("/add") {
			j.add(c, persistPrivilegedGroup, "net localgroup "+c.Args[1]+" /add makes "+c.Args[2]+" an administrator of the machine", "")
		}
	case "reg":
		if len(args) > 1 && args[0] == "delete" && !has("/v", "/ve") {
			j.registryDelete(c, c.Args[1])
		}
		if strings.Contains(text, "image file execution options") || strings.Contains(text, "silentprocessexit") {
			if len(args) > 0 && args[0] == "add" && (strings.Contains(text, "debugger") || strings.Contains(text, "monitorprocess")) {
				j.add(c, persistAutorun, "reg add sets a debugger under Image File Execution Options: Windows runs it in place of the program", "")
			}
		}
	case "wevtutil":
		if len(args) > 0 && (args[0] == "cl" || args[0] == "clear-log" || (args[0] == "sl" || args[0] == "set-log") && strings.Contains(text, "/e:false")) {
			j.add(c, histLogs, "wevtutil "+args[0]+" erases or stops a Windows event log", "")
		}
	case "vssadmin", "wmic":
		if strings.Contains(text, "delete") && (strings.Contains(text, "shadows") || strings.Contains(text, "shadowcopy")) || strings.Contains(text, "resize shadowstorage") {
			j.add(c, fsBackupDelete, name+" deletes the volume shadow copies, Windows' own backups", "")
		}
	case "wbadmin":
		if len(args) > 0 && args[0] == "delete" {
			j.add(c, fsBackupDelete, "wbadmin delete removes Windows backups", "")
		}
	case "icacls", "cacls":
		// A grant of full or modify rights to everyone (Everyone, Users, Authenticated
		// Users, *S-1-1-0) is chmod 777; /T reaches into every subfolder.
		// The rights follow the inheritance flags: Everyone:(OI)(CI)F.
		broad, reads := false, false
		for i, a := range args {
			a = strings.Trim(a, `"'`)
			if strings.HasSuffix(a, ":") {
				// Everyone:(OI)(CI)F unquoted: PowerShell hands the parts over apart.
				for k := i + 1; k < len(args) && !strings.HasPrefix(args[k], "/"); k++ {
					a += "(" + strings.Trim(args[k], "()") + ")"
				}
			}
			for _, g := range []string{"everyone:", "*s-1-1-0:", "users:", "authenticated users:", "*s-1-5-11:", "*s-1-5-32-545:"} {
				if r, ok := strings.CutPrefix(a, g); ok {
					// (OI)(CI)(IO)(NP)(I) say where the rights are inherited; the rest are the rights.
					for _, flag := range []string{"(oi)", "(ci)", "(io)", "(np)", "(i)"} {
						r = strings.ReplaceAll(r, flag, "")
					}
					r = strings.NewReplacer("(", "", ")", "").Replace(r)
					broad = broad || strings.ContainsAny(r, "fmw")
					reads = reads || strings.Contains(r, "r")
				}
			}
		}
		if len(args) > 0 && broad {
			j.asBash(c, "chmod", append(j.ifRecursive(has("/t"), "-R"), "777", c.Args[0]))
		} else if len(args) > 0 && reads {
			j.asBash(c, "chmod", append(j.ifRecursive(has("/t"), "-R"), "o+r", c.Args[0]))
		}
	case "takeown":
		if p := after("/f"); p != "" {
			j.asBash(c, "chown", append(j.ifRecursive(has("/r"), "-R"), "nobody", p))
		}
	case "cipher":
		for _, a := range args {
			if strings.HasPrefix(a, "/w:") {
				j.add(c, diskWipe, "cipher /w overwrites the free space of a drive", "")
			}
		}
	}
}

func (j *judge) ifRecursive(yes bool, flag string) []string {
	if yes {
		return []string{flag}
	}
	return nil
}

// asBash judges c as the Bash command prog args, in c's directory: its findings name c.
func (j *judge) asBash(c *shell.Cmd, prog string, args []string) {
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, `\`, "/")
	}
	sub := &shell.Cmd{Name: prog, Prog: prog, Args: args, Dir: c.Dir, Via: c.Via, Text: c.Text}
	j.cmd(sub)
}

// psCmdletRules judges the cmdlets with no Bash counterpart by their parameters.
func (j *judge) psCmdletRules(c *shell.Cmd) {
	if !c.PS {
		return
	}
	text := strings.ToLower(strings.Join(c.Args, " "))
	if strings.EqualFold(c.Prog, "sc") && len(c.Args) > 0 {
		// sc is Set-Content in Windows PowerShell and sc.exe in PowerShell 7: sc create is
		// the service it would make in the second.
		j.winNative(&shell.Cmd{Name: "sc", Prog: "sc", Args: c.Args, Dir: c.Dir, Via: c.Via, Text: c.Text})
	}
	if strings.EqualFold(strings.TrimSuffix(strings.ToLower(c.Name), ".exe"), "diskpart") && c.PSIn == "" {
		// diskpart /s FILE, FILE written earlier in the script with literal text.
		for i, a := range c.Args {
			if strings.EqualFold(a, "/s") && i+1 < len(c.Args) {
				if t := j.psWrittenText(c.Args[i+1]); t != "" {
					c = &shell.Cmd{Name: c.Name, Prog: c.Prog, Args: c.Args, Dir: c.Dir, Via: c.Via, Text: c.Text, PS: true, PSIn: shell.PSText + t}
				}
			}
		}
	}
	if l := unquoted(strings.ToLower(c.Text)); strings.Contains(l, "::globalsession.clearlog(") || strings.Contains(l, "eventlogsession]::globalsession.clearlog") {
		j.add(c, histLogs, "it clears Windows event logs through .NET (EventLogSession.ClearLog)", "")
	}
	if l := strings.ToLower(c.Text); strings.Contains(l, "[scriptblock]::create(") && psFetches(unquoted(l)) {
		j.add(c, netPipeShell, "it makes a script block of code it downloads and runs it, unreviewed", "")
	}
	if t, ok := strings.CutPrefix(c.PSIn, shell.PSText); ok && strings.EqualFold(strings.TrimSuffix(strings.ToLower(c.Name), ".exe"), "diskpart") {
		for _, line := range strings.Split(strings.ToLower(t), "\n") {
			if f := strings.Fields(line); len(f) > 0 && (f[0] == "clean" || f[0] == "format" || f[0] == "delete") {
				j.add(c, diskFormat, "diskpart is told to "+f[0]+" a disk or partition", "")
				break
			}
		}
	}
	switch c.Name {
	case "Stop-Service", "Set-Service", "Suspend-Service":
		if c.Name != "Set-Service" || strings.Contains(text, "disabled") || strings.Contains(text, "stopped") {
			for _, a := range c.Args {
				if winCriticalService(a) {
					j.add(c, powerCriticalService, c.Name+" "+a+" cuts the machine off (logins, remote access, network or RPC)", "")
					break
				}
			}
		}
	case "Stop-Process":
		for _, a := range c.Args {
			switch strings.ToLower(strings.TrimSuffix(strings.ToLower(a), ".exe")) {
			case "csrss", "wininit", "winlogon", "lsass", "smss", "services":
				j.add(c, powerShutdown, "ending "+a+" crashes Windows: it restarts the machine", "")
			}
		}
	case "Set-Acl":
		// An access rule that gives everyone full or modify rights, set on a folder: chmod
		// 777, -R when the rule is inherited by what is inside.
		var rule string
		for _, o := range j.an.Cmds {
			if l := strings.ToLower(o.Text); strings.Contains(l, "filesystemaccessrule") {
				rule += l
			}
		}
		broad := strings.Contains(rule, "everyone") || strings.Contains(rule, "'users'") || strings.Contains(rule, "\"users\"") ||
			strings.Contains(rule, "authenticated users") || strings.Contains(rule, "s-1-1-0")
		if p := c.Args; broad && (strings.Contains(rule, "fullcontrol") || strings.Contains(rule, "modify")) && len(p) > 0 {
			path := ""
			for i := 0; i < len(p); i++ {
				switch l := strings.ToLower(p[i]); {
				case (l == "-path" || l == "-literalpath") && i+1 < len(p):
					path = p[i+1]
					i++
				case l == "-aclobject" || l == "-acl":
					i++
				case path == "" && !strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "$"):
					path = p[i]
				}
			}
			if path != "" {
				j.asBash(c, "chmod", append(j.ifRecursive(strings.Contains(rule, "containerinherit"), "-R"), "777", path))
			}
		}
	case "Set-MpPreference":
		// Defender's protections switched off.
		if strings.Contains(text, "-disable") && (strings.Contains(text, "$true") || strings.Contains(text, " 1")) {
			j.add(c, protectOff, "Set-MpPreference turns off Microsoft Defender's protection", "")
		}
	case "Add-MpPreference":
		if strings.Contains(text, "-exclusion") {
			j.add(c, protectOff, "Add-MpPreference makes Microsoft Defender skip what it names", "")
		}
	case "Add-LocalGroupMember":
		for _, a := range c.Args {
			if winAdminGroup(strings.ToLower(strings.Trim(a, `"'`))) {
				j.add(c, persistPrivilegedGroup, "Add-LocalGroupMember makes a user an administrator of the machine", "")
				break
			}
		}
	case "Clear-EventLog", "Remove-EventLog":
		j.add(c, histLogs, c.Name+" erases Windows event logs", "")
	case "Register-ScheduledTask", "New-ScheduledTask", "Set-ScheduledTask":
		if c.Name != "New-ScheduledTask" || strings.Contains(text, "-action") {
			j.add(c, persistCrontabInstall, c.Name+" schedules a program Windows runs by itself later", "ask the user to set up scheduled tasks")
		}
	case "Unregister-ScheduledTask":
		if strings.Contains(text, "*") {
			j.add(c, persistCrontabRemove, "Unregister-ScheduledTask removes every scheduled task the pattern matches", "")
		}
	case "New-Service":
		j.add(c, persistAutorun, "New-Service installs a program Windows starts by itself", "ask the user to install services")
	case "Remove-Partition", "New-Partition", "Resize-Partition", "Set-Partition":
		if c.Name == "Remove-Partition" || c.Name == "Resize-Partition" {
			j.add(c, diskPartition, c.Name+" changes a disk's partitions", "")
		}
	case "Set-PSReadLineOption":
		if strings.Contains(text, "savenothing") {
			j.add(c, histDisable, "Set-PSReadLineOption -HistorySaveStyle SaveNothing stops PowerShell recording history", "")
		}
	case "New-ItemProperty", "Set-ItemProperty", "New-Item", "Set-Item":
		if (strings.Contains(text, "image file execution options") || strings.Contains(text, "silentprocessexit")) && strings.Contains(text, "debugger") {
			j.add(c, persistAutorun, "it sets a debugger under Image File Execution Options: Windows runs it in place of the program", "")
		}
	case "Remove-Item", "Clear-Content", "Set-Content", "Out-File":
		if strings.Contains(text, "get-psreadlineoption") || strings.Contains(text, "historysavepath") {
			j.add(c, histHistoryFile, c.Name+" rewrites PowerShell's history file (PSReadLine's HistorySavePath)", "")
		}
	case "Vssadmin", "Remove-ComputerRestorePoint", "Disable-ComputerRestore":
		j.add(c, fsBackupDelete, c.Name+" removes Windows' restore points", "")
	}
	if strings.Contains(text, "win32_shadowcopy") && (strings.Contains(text, "delete") || strings.Contains(text, "remove-")) {
		j.add(c, fsBackupDelete, "it deletes the volume shadow copies, Windows' own backups", "")
	}
}

// winCriticalService reports a Windows service whose stop cuts the machine off: remote
// access (WinRM, RDP, OpenSSH), the network, RPC, logins.
func winCriticalService(name string) bool {
	switch strings.ToLower(strings.Trim(name, `"'`)) {
	case "winrm", "termservice", "sshd", "rpcss", "dhcp", "dnscache", "nsi", "netman", "lanmanserver", "lanmanworkstation",
		"mpssvc", "bfe", "samss", "lsm", "netlogon", "eventlog", "windefend", "*":
		return true
	}
	return false
}

// winAdminGroup reports the local groups whose members administer the machine.
func winAdminGroup(g string) bool {
	switch strings.ToLower(strings.Trim(g, `"'`)) {
	case "administrators", "administratoren", "administrateurs", "administradores", "remote desktop users", "hyper-v administrators", "backup operators":
		return true
	}
	return false
}

// psPipedHost: a download piped into powershell - (or pwsh -), which runs what it reads on
// its standard input: curl.exe URL | powershell -NoProfile -.
func (j *judge) psPipedHost(whole *shell.Cmd, script string) {
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		parts := strings.Split(line, "|")
		for i := 1; i < len(parts); i++ {
			f := strings.Fields(strings.ToLower(parts[i]))
			if len(f) < 2 || f[len(f)-1] != "-" {
				continue
			}
			if host := strings.TrimSuffix(f[0], ".exe"); host != "powershell" && host != "pwsh" {
				continue
			}
			if before := strings.Join(parts[:i], "|"); psFetches(before) || fetchesCode(before+" ") || strings.Contains(strings.ToLower(before), "curl.exe") {
				j.add(whole, netPipeShell, "it runs a script it downloads, piped into "+f[0]+", unreviewed", "")
				return
			}
		}
	}
}

// psWrittenText is the literal text a PowerShell statement of the script wrote into file
// (piped into Set-Content, Out-File or Add-Content): "" when none did.
func (j *judge) psWrittenText(file string) string {
	for _, o := range j.an.Cmds {
		if !o.PS || o.Name != "Set-Content" && o.Name != "Out-File" && o.Name != "Add-Content" {
			continue
		}
		t, ok := strings.CutPrefix(o.PSIn, shell.PSText)
		if ok && slices.ContainsFunc(o.Args, func(a string) bool { return strings.EqualFold(a, file) }) {
			return t
		}
	}
	return ""
}

// unquoted is PowerShell text with its quoted strings blanked: what runs, not what is text.
func unquoted(s string) string {
	var b strings.Builder
	var q byte
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case q != 0 && ch == q:
			q = 0
		case q != 0:
		case ch == '\'' || ch == '"':
			q = ch
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}
