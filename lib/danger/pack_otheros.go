package danger

import (
	"slices"
	"sort"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

var packOtherOS = pack{name: "otheros", title: "other systems' spellings",
	rules: []*Rule{},
	line:  (*judge).batchFiles,
	programs: []program{
		{[]string{"cmd"}, (*judge).windows}, {[]string{"pwsh", "powershell"}, (*judge).pwsh},
		{[]string{"diskutil"}, (*judge).diskutil}, {[]string{"osascript", "defaults"}, (*judge).macos},
	},
	known: func(j *judge, c *shell.Cmd) {
		if c.Name != "cmd" && shell.IsCmdExe(c.Name) { // cmd.exe, CMD, Cmd.exe
			j.windows(c)
		}
		j.winNative(c)
	},
}

// Windows and macOS: the same dangers under other names. The text is split into words, so
// that a drive root, a profile or a shutdown is a word of its own, not a substring.
func (j *judge) windows(c *shell.Cmd) {
	text := strings.Join(c.Args, " ")
	if (c.Name == "pwsh" || c.Name == "powershell") && c.Code != "" {
		// The script's code, not the text it only carries: a string, a here-string or a
		// comment that names a cmdlet does not run it.
		args := slices.DeleteFunc(slices.Clone(c.Args), func(a string) bool { return a == c.Code })
		text = shell.PSCodeText(shell.PSCommandText(c.Code)) + " " + strings.Join(args, " ")
	}
	text = dropLookups(text)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '"' || r == '\'' || r == ';' || r == '&' || r == '|' || r == '(' || r == ')'
	})
	has := func(ws ...string) bool {
		for _, w := range words {
			if slices.Contains(ws, w) {
				return true
			}
		}
		return false
	}
	after := func(cmd string, ok func(string) bool) bool { // a word right after cmd satisfies ok
		for i, w := range words {
			if w == cmd && i+1 < len(words) && ok(words[i+1]) {
				return true
			}
		}
		return false
	}
	drive := func(w string) bool {
		return len(w) >= 2 && w[1] == ':' && w[0] >= 'a' && w[0] <= 'z' && len(strings.Trim(w[2:], "\\/*")) == 0
	}
	root := func(w string) bool {
		w = strings.TrimRight(w, "\\/*")
		return drive(w+":") && len(w) == 1 || drive(w) || w == "%userprofile%" || w == "$env:userprofile" || w == "$home" || w == "~" ||
			w == "%systemroot%" || w == "$env:systemroot" || w == "c:\\windows" || w == "c:\\users" || w == "%windir%"
	}
	j.psPolicy(c, words, has)
	if shell.IsCmdExe(c.Name) {
		j.cmdExe(c, c.Args, 0)
	}
	// PowerShell's deletes are judged statement by statement as rm (psEquivalent); the
	// words of cmd and of other hosts are read here.
	ps := (c.Name == "pwsh" || c.Name == "powershell") && c.Code != ""
	removes := !ps && has("remove-item", "rm", "rmdir", "rd", "del", "erase", "ri") && has("-recurse", "/s", "-r", "-rf") && !has("-whatif")
	switch {
	case has("format-volume", "clear-disk", "initialize-disk") || after("format", drive) || has("diskpart") && has("clean"):
		j.add(c, diskFormat, c.Name+" formats or wipes a disk", "")
	case has("iex", "invoke-expression") && (has("downloadstring", "invoke-webrequest", "iwr", "irm", "invoke-restmethod", "net.webclient") || strings.Contains(strings.ToLower(text), ".downloadstring(")):
		u := ""
		for _, w := range words {
			if strings.HasPrefix(w, "http") {
				u = w
				break
			}
		}
		if host, p := hostPath(u); host != "" && j.trusted(host, p) {
			j.add(c, netPipeInstaller, c.Name+" runs an installer downloaded from "+host+" without a chance to read it first", "")
			return
		}
		j.add(c, netPipeShell, c.Name+" runs code downloaded from the network, unreviewed", "download the script, read it, then run it")
	case has("stop-computer", "restart-computer") || after("shutdown", func(w string) bool { return w == "/s" || w == "/r" || w == "/p" || w == "-s" || w == "-r" }):
		j.add(c, powerShutdown, c.Name+" shuts down or restarts the machine", "")
	case removes && slices.ContainsFunc(words, root):
		j.add(c, fsRmCritical, c.Name+" deletes a drive root or the user's profile", "")
	case removes:
		// PowerShell on Linux or macOS: Remove-Item -Recurse on a path is rm -rf; only the
		// operands of the removing statement count.
		for _, stmt := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' || r == '|' }) {
			ws := strings.FieldsFunc(stmt, func(r rune) bool { return r == ' ' || r == '\t' || r == '"' || r == '\'' || r == ',' })
			if len(ws) == 0 || !slices.Contains([]string{"remove-item", "rm", "rmdir", "rd", "del", "erase", "ri"}, strings.ToLower(ws[0])) {
				continue
			}
			for _, w := range ws[1:] {
				w = strings.ReplaceAll(w, shell.PSJoin, " ") // one quoted path, spaces and all
				w = strings.ReplaceAll(w, `\`, "/")          // PowerShell takes either slash
				lw := strings.ToLower(w)
				for _, v := range []string{"$home", "$env:home", "$env:userprofile"} {
					if rest, ok := strings.CutPrefix(lw, v); ok && (rest == "" || rest[0] == '/') {
						w = j.world.Home + w[len(v):]
					}
				}
				if strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") || strings.HasPrefix(w, ".") || w == "*" || len(w) >= 2 && w[1] == ':' {
					j.deleted(c, j.res(c, w), true, fsRmCritical)
					break
				}
			}
		}
	}
}

// cmdExe judges the command line cmd /c or cmd /k runs, read with cmd's grammar: rd /s and
// del /s are rm -r of what they name, del without /s deletes the files of a directory, a cmd
// inside is read the same way. What they delete is judged as Bash's rm is.
func (j *judge) cmdExe(c *shell.Cmd, args []string, depth int) {
	line, ok := shell.CmdLine(args)
	if !ok || depth > 8 {
		return
	}
	for _, ws := range shell.CmdStatements(line) {
		name := strings.TrimSuffix(strings.ToLower(ws[0]), ".exe")
		if shell.IsCmdExe(name) {
			j.cmdExe(c, ws[1:], depth+1)
			continue
		}
		if name != "rd" && name != "rmdir" && name != "del" && name != "erase" {
			// Any other program cmd runs is judged as the shell's would be: vssadmin,
			// wevtutil, taskkill, cipher, reg under cmd /c are what they are without it.
			if name != "" && !strings.ContainsAny(name, "%!^") && depth <= 8 {
				via := append(slices.Clone(c.Via), c.Name+" /c")
				n := len(j.findings)
				j.cmd(&shell.Cmd{Name: name, Prog: ws[0], Args: ws[1:], Dir: c.Dir, Env: c.Env, Via: via, Text: c.Text, Remote: c.Remote, Mounts: c.Mounts})
				// limits.wrapped guesses at programs it does not know (dotnet build-server
				// shutdown); cmd's words are judged by the rules that know them.
				j.findings = append(j.findings[:n], slices.DeleteFunc(j.findings[n:], func(f Finding) bool { return f.Rule == limitsWrapped.ID })...)
			}
			continue
		}
		recursive := false
		var operands []string
		for _, w := range ws[1:] {
			if !strings.HasPrefix(w, "/") {
				operands = append(operands, w)
				continue
			}
			for _, sw := range strings.Split(strings.ToLower(w), "/") {
				recursive = recursive || sw == "s"
			}
		}
		if (name == "rd" || name == "rmdir") && !recursive {
			continue // rd removes only an empty directory
		}
		for _, op := range operands {
			if rest, ok := cutFoldPrefix(op, "%cd%"); ok {
				op = c.Dir + rest // cmd's current directory
			}
			j.deleted(c, j.res(c, cmdPath(op, j.world.Home)), recursive, fsRmCritical)
		}
	}
}

// cutFoldPrefix is strings.CutPrefix with the prefix's case ignored.
func cutFoldPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// cmdPath writes a path cmd is given with / between its parts, and cmd's names for the home
// directory (%USERPROFILE%, %HOMEDRIVE%%HOMEPATH%) as the home.
func cmdPath(p, home string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	lp := strings.ToLower(p)
	for _, v := range []string{"%userprofile%", "%homedrive%%homepath%"} {
		if rest, ok := strings.CutPrefix(lp, v); ok && home != "" {
			return home + p[len(p)-len(rest):]
		}
	}
	return p
}

// diskutil erases and repartitions macOS disks.
func (j *judge) diskutil(c *shell.Cmd) {
	if len(c.Args) > 0 {
		switch strings.ToLower(c.Args[0]) {
		case "erasedisk", "erasevolume", "secureerase", "zerodisk", "randomdisk", "partitiondisk", "reformat", "apfs":
			if c.Args[0] != "apfs" || len(c.Args) > 1 && strings.HasPrefix(strings.ToLower(c.Args[1]), "delete") {
				j.add(c, diskFormat, "diskutil "+c.Args[0]+" erases a disk", "")
			}
		}
	}
}

// macOS: restart through System Events, login hooks.
func (j *judge) macos(c *shell.Cmd) {
	text := strings.ToLower(strings.Join(c.Args, " ") + " " + c.Code)
	if c.Name == "defaults" {
		j.defaultsLaunchd(c)
	}
	switch {
	case c.Name == "osascript" && strings.Contains(text, "system events") && (strings.Contains(text, "restart") || strings.Contains(text, "shut down") || strings.Contains(text, "log out")):
		j.add(c, powerShutdown, "osascript asks System Events to restart or shut down", "")
	case c.Name == "osascript" && strings.Contains(text, "login item") && strings.Contains(text, "make "):
		j.add(c, persistAutorun, "osascript adds a login item, a program started at every login", "")
	case c.Name == "defaults" && strings.Contains(text, "write") && strings.Contains(text, "com.apple.loginwindow") && (strings.Contains(text, "loginhook") || strings.Contains(text, "logouthook")):
		j.add(c, persistAutorun, "it installs a macOS login hook, a script run as root at every login", "")
	}
}

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
	script = shell.PSNormalize(script) // –Recurse is -Recurse to PowerShell
	an, err := shell.AnalyzePowerShell(script, in.World, in.Limits)
	if err != nil {
		return Verdict{Action: Deny, Findings: []Finding{limitFinding(err)}}
	}
	cwd := in.World.Cwd
	whole := &shell.Cmd{Name: "pwsh", Prog: "pwsh", Args: []string{"-Command", script}, Code: script, Dir: cwd, Text: script, Via: []string{"PowerShell"}}
	j := &judge{world: in.World, owner: in.OwnerHome, pol: pol, packs: packs[:], an: &shell.Analysis{Cmds: append([]*shell.Cmd{whole}, an.Cmds...)}}
	j.harness, j.system = harnessHome(in), in.SystemDir
	// The rules that read a whole command line (a download run later, a secret packed then
	// sent) see the Bash equivalents of the script's statements.
	j.psTranslate(an.Cmds)
	j.taint()
	for _, p := range j.packs {
		if p.line != nil {
			p.line(j)
		}
	}
	j.policyRules(whole)
	j.windows(whole)
	j.code(whole)
	j.psCmds(an.Cmds, script)
	j.psPipedHost(whole, script)
	j.batchFiles()
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
		j.add(c, limitsUnread, c.Name+" runs code that cannot be read before it runs: "+c.Unread, "")
	}
	if c.Code == "" {
		return
	}
	w := j.world
	w.Cwd = c.Dir
	an, err := shell.AnalyzePowerShell(c.Code, w, shell.Limits{})
	if err != nil {
		r, why := limitRule(err)
		j.add(c, r, why, "")
		return
	}
	start := len(j.an.Cmds)
	j.an.Cmds = append(j.an.Cmds, an.Cmds...)
	j.psTranslate(an.Cmds)
	j.psCmds(an.Cmds, c.Code)
	// iwr URL -OutFile x.ps1; ./x.ps1: a download the script runs, as downloadThenRun finds
	// one in the Bash line (which ran before the script's commands were known).
	j.downloadThenRunIn(j.an.Cmds[start:])
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
			j.add(c, limitsUnread, "PowerShell would run code that cannot be read before it runs: "+c.Unread, "")
		}
		j.psEquivalent(c)
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
			j.add(c, persistExecutionPolicy, "it lets every script run unsigned for every user of the machine (Set-ExecutionPolicy "+scope+")", "")
		}
	}
	for _, w := range words {
		w = strings.ReplaceAll(w, "/", `\`)
		if (strings.Contains(w, `\currentversion\run`) || strings.Contains(w, `\currentversion\policies\explorer\run`) || strings.Contains(w, `\winlogon`)) &&
			has("new-itemproperty", "set-itemproperty", "add", "new-item", "set-item") {
			j.add(c, persistAutorun, "it adds a program to a registry Run key, started at every logon", "ask the user to set up startup programs")
			return
		}
	}
}

// dropLookups removes the statements that only look commands up (Get-Command Format-Volume,
// Get-Help Clear-Disk, gcm, man): the names they are given are data, not what runs.
func dropLookups(text string) string {
	lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == ';' })
	kept := lines[:0]
	for _, l := range lines {
		f := strings.Fields(strings.ToLower(l))
		if len(f) > 0 {
			switch f[0] {
			case "get-command", "gcm", "get-help", "help", "man", "get-alias", "gal", "get-member", "gm", "get-module":
				continue
			}
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, "\n")
}

// batchFiles: a .bat or .cmd file the same command line writes with known text, then runs (cmd
// /c FILE, .\FILE, call or start FILE): each of its lines is judged with cmd's grammar, as cmd /c
// would run it.
func (j *judge) batchFiles() {
	if !slices.ContainsFunc(j.an.Cmds, func(c *shell.Cmd) bool { return batchFile(c.Prog) || slices.ContainsFunc(c.Args, mentionsBatch) }) {
		return // the usual command line: no file named .bat or .cmd anywhere, nothing to look at
	}
	written := map[string]string{}
	for _, c := range j.an.Cmds {
		for _, t := range c.Writes(j.world.Home) {
			if batchFile(t.Path) {
				written[strings.ToLower(j.canon(t.Path))] += "\n" + j.content(c)
			}
		}
	}
	if len(written) == 0 {
		return
	}
	for _, c := range j.an.Cmds {
		var file string
		switch name := strings.ToLower(strings.TrimSuffix(c.Name, ".exe")); {
		case batchFile(c.Prog):
			file = c.Prog
		case shell.IsCmdExe(c.Name) || name == "call" || name == "start":
			line, ok := shell.CmdLine(c.Args)
			if !ok && name != "cmd" {
				line, ok = strings.Join(c.Args, " "), true
			}
			if f := strings.Fields(line); ok && len(f) > 0 && batchFile(f[0]) {
				file = strings.Trim(f[0], `"`)
			}
		}
		if file == "" {
			continue
		}
		text, ok := written[strings.ToLower(j.canon(j.res(c, strings.ReplaceAll(file, `\`, "/"))))]
		if !ok {
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			if line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "@")); line != "" {
				j.cmdExe(c, []string{"/c", line}, 1)
			}
		}
	}
}

// batchFile reports a cmd script by its name: .bat or .cmd.
func batchFile(p string) bool {
	l := strings.ToLower(p)
	return strings.HasSuffix(l, ".bat") || strings.HasSuffix(l, ".cmd")
}

// mentionsBatch reports a word that names a cmd script somewhere in it (x.bat, "/c x.cmd").
func mentionsBatch(w string) bool {
	for i := strings.IndexByte(w, '.'); i >= 0 && i+4 <= len(w); i = strings.IndexByte(w[i+1:], '.') + i + 1 {
		if ext := w[i : i+4]; strings.EqualFold(ext, ".bat") || strings.EqualFold(ext, ".cmd") {
			return true
		}
		if strings.IndexByte(w[i+1:], '.') < 0 {
			break
		}
	}
	return false
}
