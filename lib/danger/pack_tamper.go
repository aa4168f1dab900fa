package danger

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/paths"
	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	tamperAgentApprovals  = &Rule{ID: "tamper.agent-approvals-off", Action: Deny, Radius: High, Instead: "run the agent without the flag that approves everything (claude -p, codex exec, gemini -p), or ask the user to run it"}
	tamperAgentHooks      = &Rule{ID: "tamper.agent-hooks-off", Action: Deny, Radius: High, Instead: "run the agent with its hooks on (claude -p \"...\" with no --bare, --safe-mode or settings that drop them), or ask the user to run it"}
	tamperAgentState      = &Rule{ID: "tamper.agent-state", Action: Deny, Radius: High, Instead: "ask the user to clear Claude Code's own files themselves (/clear, or claude's own settings)"}
	tamperDisableHooks    = &Rule{ID: "tamper.disable-hooks", Action: Deny, Radius: High, Instead: "ask the user to change hook settings themselves"}
	tamperHarness         = &Rule{ID: "tamper.harness", Action: Deny, Radius: High, Instead: "ask the user to reinstall or uninstall the harness themselves"}
	tamperHarnessCLI      = &Rule{ID: "tamper.harness-cli", Action: Deny, Radius: High, Instead: "ask the user to run it themselves; harness status, doctor, rules, validate and audit only read, and may be run"}
	tamperKillHooks       = &Rule{ID: "tamper.kill-hooks", Action: Deny, Radius: High, Instead: "ask the user to change hook settings themselves"}
	tamperPlanted         = &Rule{ID: "tamper.planted", Action: Ask, Radius: Medium, Instead: "show the user the change and let them make it, or ask first"}
	tamperServe           = &Rule{ID: "tamper.serve", Action: Deny, Radius: High, Instead: "ask the user to manage harness serve themselves; if it is down, they restart it with systemctl --user restart harness-serve.socket harness-serve.service (on macOS, launchctl kickstart -k gui/$(id -u)/com.github.hookkit.harness-serve)"}
	tamperProjectSettings = &Rule{ID: "tamper.project-settings", Action: Ask, Radius: Medium, Instead: "edit the settings file with the Edit tool so the change is reviewed"}
	tamperUserSettings    = &Rule{ID: "tamper.user-settings", Action: Deny, Radius: High, Instead: "ask the user to change their settings themselves"}
)

var packTamper = pack{name: "tamper", title: "guard tampering",
	rules: []*Rule{tamperAgentApprovals, tamperAgentHooks, tamperAgentState, tamperDisableHooks, tamperHarness, tamperHarnessCLI, tamperKillHooks,
		tamperPlanted, tamperProjectSettings, tamperServe, tamperUserSettings},
	programs: []program{
		{[]string{"harness"}, (*judge).harnessCLI},
		{[]string{"install.sh"}, (*judge).installScript},
		{agentNames, (*judge).agent},
	},
	each:  []func(*judge, *shell.Cmd){(*judge).writes, (*judge).hookSwitches, (*judge).serveSecretRead, (*judge).servePortBind, (*judge).harnessAliases},
	known: (*judge).harnessRun,
}

// tamper: the guard's own settings and binaries, and files of the project that another
// program runs later, outside the guards (lib/paths' list). Names under home and the project
// are compared without case, as macOS and Windows compare them.
func (j *judge) tamper(c *shell.Cmd, t, verb string) {
	if verb == "overwrite" || verb == "rewrite" {
		if what := paths.PlantedUnder(j.project(), t); what != "" {
			j.add(c, tamperPlanted, "it would "+verb+" "+t+", "+what+": code written there runs later, outside the guards", "")
		}
	}
	if !strings.Contains(strings.ToLower(t), ".claude") && !strings.Contains(t, "harness") && !under(t, j.harness) && !j.harnessPlace(t) {
		return
	}
	hh := j.harness
	switch {
	case slices.ContainsFunc(j.homes(), func(h string) bool { return paths.UserSettings(h, t) }):
		j.add(c, tamperUserSettings, "it would "+verb+" ~/.claude/settings.json, where the hooks that guard this session are configured", "")
	case hh != "" && under(t, hh):
		j.add(c, tamperHarness, "it would "+verb+" the harness's own files ("+t+")", "")
	case j.harnessPlace(t):
		j.add(c, tamperHarness, "it would "+verb+" the harness's machine-wide files ("+t+": the system policy, or the hooks installed for every user)", "")
	case paths.ProjectSettings(j.project(), t):
		j.add(c, tamperProjectSettings, "it would "+verb+" the project's Claude Code settings, which can change the hooks", "")
	case j.agentState(t) != "":
		j.add(c, tamperAgentState, "it would "+verb+" "+j.agentState(t)+", part of Claude Code's own state", "")
	}
}

// harnessCLI: the harness CLI told to change the install. install and uninstall (any flags:
// --purge, --force, --managed) rewire or remove the hooks that guard this session; install
// --managed --print only prints. Every other command reads (status, doctor, rules, validate,
// audit, events, describe, run, test) or writes only where it is told (new scaffolds a hook in a
// harness checkout, plugin writes a plugin folder, audit ship sends the records on).
func (j *judge) harnessCLI(c *shell.Cmd) {
	j.harnessCommand(c, c.Args, "harness")
}

// harnessCommand judges the arguments of the harness CLI, run as prog.
func (j *judge) harnessCommand(c *shell.Cmd, args []string, prog string) {
	sub, i := "", 0
	for ; i < len(args); i++ {
		if a := args[i]; a != "--" && !strings.HasPrefix(a, "-") {
			sub = a
			break
		}
	}
	switch {
	case sub == "audit":
		j.harnessAudit(c, args[i+1:], prog)
	case sub == "uninstall":
		j.add(c, tamperHarnessCLI, prog+" uninstall removes the hooks that guard this session (with --purge the harness itself)", "")
	case sub == "install" && !slices.Contains(args, "--print"):
		j.add(c, tamperHarnessCLI, prog+" install rewrites the wiring of the hooks that guard this session", "")
	case sub == "serve":
		j.add(c, tamperServe, prog+" serve started in a session could take the port of the server that answers the hooks guarding it", "")
	case sub == "serve-register":
		j.add(c, tamperServe, prog+" serve-register rewrites the project root harness serve guards this session with", "")
	case !shell.Known(sub):
		j.add(c, tamperHarnessCLI, prog+"'s command is known only when it runs, and could be uninstall", "")
	}
}

// harnessAliases: a command that makes another name for the harness's files or holds them
// busy. A copy or link of its programs runs under a name the guard does not know (a copy of
// the CLI uninstalls as well); a hard link of a protected file (the settings, the harness's
// files) is the same file under a new name, written through without a word of the original;
// mkdir, mkfifo and mknod put entries among the harness's files (a fifo where a record goes
// blocks the writer); a lock held on its files (flock) keeps AuditLog from recording until its
// deadline passes.
func (j *judge) harnessAliases(c *shell.Cmd) {
	protected := func(p string) bool {
		return j.harness != "" && under(p, j.harness) || j.harnessPlace(p)
	}
	for _, v := range c.Via {
		if lock, ok := strings.CutPrefix(v, "flock "); ok && protected(lock) {
			j.add(c, tamperHarness, "flock holds a lock on the harness's files ("+lock+"): AuditLog waits for it and gives up, and the calls go unrecorded", "")
			return
		}
	}
	switch c.Name {
	case "flock", "mkdir", "mkfifo", "mknod", "cp", "ln", "install", "rsync", "ditto", "link":
	default:
		return
	}
	ops := shell.Opts{Short: "tSmog", Long: []string{"target-directory", "suffix", "mode", "owner", "group", "context"}}.Parse(c.Args).Operands
	switch c.Name {
	case "flock":
		if len(ops) > 0 && protected(j.res(c, ops[0])) {
			j.add(c, tamperHarness, "flock holds a lock on the harness's files ("+j.res(c, ops[0])+"): AuditLog waits for it and gives up, and the calls go unrecorded", "")
		}
	case "mkdir", "mkfifo", "mknod":
		for _, o := range ops {
			if p := j.res(c, o); protected(p) {
				j.add(c, tamperHarness, c.Name+" puts "+p+" among the harness's own files", "")
				return
			}
		}
	case "cp", "ln", "install", "rsync", "ditto", "link":
		if len(ops) < 2 && c.Name != "link" {
			return
		}
		hard := c.Name == "link" || c.Name == "ln" && !slices.ContainsFunc(c.Args, func(a string) bool {
			return a == "-s" || a == "--symbolic" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "s")
		})
		for _, o := range ops[:max(len(ops)-1, 1)] {
			p := j.res(c, o)
			switch {
			case protected(p) && (path.Base(path.Dir(p)) == "bin" || j.harness != "" && under(j.harness+"/bin", p)):
				j.add(c, tamperHarness, c.Name+" makes another name for the harness's program "+p+": under it, it runs (or is changed) where the guard does not know it", "")
				return
			case hard:
				j.tamper(c, p, "hard-link")
			}
		}
	}
}

// harnessAudit judges harness audit's commands: they read the records, but ship --endpoint
// sends them where the session says (and moves the checkpoint every shipper shares: the owner's
// collector never gets them), and report --html writes a page wherever it is told.
func (j *judge) harnessAudit(c *shell.Cmd, args []string, prog string) {
	sub, rest := "", []string(nil)
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--project":
			i++ // audit's own flag takes a value
		case !strings.HasPrefix(a, "-"):
			sub, rest = a, args[i+1:]
			i = len(args)
		}
	}
	for i, a := range rest {
		v := at(rest, i+1)
		if k, val, eq := strings.Cut(a, "="); eq {
			a, v = k, val
		}
		switch {
		case sub == "ship" && (a == "--endpoint" || a == "-endpoint"):
			j.add(c, tamperHarnessCLI, prog+" audit ship --endpoint sends the audit trail where the session chose and moves the checkpoint the owner's shipper reads from", "")
			return
		case sub == "report" && (a == "--html" || a == "-html") && v != "" && v != "-":
			j.written(c, shell.Target{Path: j.res(c, v), How: prog + " audit report --html"})
		}
	}
}

// serveUnit: systemctl told to stop, disable, mask, kill or edit harness serve's socket or
// service (serve mode: docs/serve.md). Called from the power pack, which judges systemctl.
func (j *judge) serveUnit(c *shell.Cmd, ops []string) {
	if len(ops) < 2 {
		return
	}
	switch ops[0] {
	case "stop", "disable", "mask", "kill", "edit", "revert", "set-property", "link":
	default:
		return
	}
	for _, u := range ops[1:] {
		if strings.HasPrefix(u, "harness-serve") {
			j.add(c, tamperServe, "systemctl "+ops[0]+" "+u+" takes down harness serve, which answers the hooks that guard this session", "")
			return
		}
	}
}

// serveJob: launchctl told to unload, remove, stop, kill, disable or reprogram (debug, attach)
// harness serve's launch agent (serve mode on macOS): by its label, its plist, a glob or a
// folder that holds the plist, or, while the agent is installed, the whole domain it runs in
// (bootout gui/UID, unload -D). Called from the power pack, which judges launchctl.
func (j *judge) serveJob(c *shell.Cmd) {
	verb := at(c.Args, 0)
	switch verb {
	case "bootout", "unload", "remove", "stop", "kill", "disable", "debug", "attach":
	default:
		return
	}
	installed := false
	var plists []string
	for _, h := range j.homes() {
		if _, err := os.Stat(h + serveAgent); err == nil {
			installed = true
		}
		plists = append(plists, h+serveAgent)
	}
	label := strings.TrimSuffix(path.Base(serveAgent), ".plist")
	targets, domainOnly := 0, false
	for _, a := range c.Args[1:] {
		if strings.HasPrefix(a, "-") {
			if a == "-D" && installed {
				j.add(c, tamperServe, "launchctl "+verb+" -D unloads every agent of a domain, harness serve's among them, which answers the hooks that guard this session", "")
				return
			}
			continue
		}
		if a == label || strings.HasSuffix(a, "/"+label) || path.Base(a) == label+".plist" {
			j.add(c, tamperServe, "launchctl "+verb+" "+a+" takes down harness serve, which answers the hooks that guard this session", "")
			return
		}
		p := j.res(c, a)
		for _, pl := range plists {
			if matched, _ := path.Match(p, pl); matched || installed && under(pl, p) {
				j.add(c, tamperServe, "launchctl "+verb+" "+a+" names harness serve's launch agent ("+pl+"), which answers the hooks that guard this session", "")
				return
			}
		}
		targets++
		if d, rest, _ := strings.Cut(a, "/"); (d == "gui" || d == "user" || d == "login") && !strings.Contains(rest, "/") {
			domainOnly = true
		}
	}
	if verb == "bootout" && domainOnly && targets == 1 && installed {
		j.add(c, tamperServe, "launchctl bootout of a whole domain tears down every agent in it, harness serve's among them, which answers the hooks that guard this session", "")
	}
}

// serveSecret is serve mode's secret under a home (harness install --serve writes it there):
// whoever reads it can send the server requests as the session's own hooks do.
const serveSecret = "/.config/harness/serve.secret"

// serveSecretRead: a command that reads serve mode's secret (cat, cp, a redirect, an archive
// of its folder, interpreter code naming it).
func (j *judge) serveSecretRead(c *shell.Cmd) {
	for _, s := range c.Reads(j.world.Home) {
		p := s.Path
		if host, mounted := c.ReadPath(p); mounted {
			p = host
		}
		for _, h := range j.homes() {
			if p == h+serveSecret || s.Tree && under(h+serveSecret, p) {
				j.add(c, tamperServe, s.How+" reads harness serve's secret (~"+serveSecret+"), with which any request passes as this session's hooks", "")
				return
			}
		}
	}
}

// installScript: install.sh of a harness checkout builds the hooks and rewires them (with
// --uninstall, removes them). Another project's install.sh is its own business.
func (j *judge) installScript(c *shell.Cmd) {
	j.harnessScript(c, c.Prog)
}

func (j *judge) harnessScript(c *shell.Cmd, script string) {
	dir := path.Dir(j.res(c, script))
	if path.Base(dir) != "harness" && !harnessCheckout(dir) {
		return
	}
	what := "rebuilds and rewires the hooks that guard this session"
	if slices.Contains(c.Args, "--uninstall") {
		what = "removes the hooks that guard this session"
	}
	j.add(c, tamperHarnessCLI, "the harness's install.sh "+what, "")
}

// harnessCheckout reports a directory that holds the harness's source (its SecurityValidator).
func harnessCheckout(dir string) bool {
	_, err := os.Stat(dir + "/hooks/SecurityValidator/main.go")
	return err == nil
}

// harnessRun: the harness CLI or its install.sh run through a program that is not a wrapper:
// go run ./cmd/harness uninstall, sh install.sh.
func (j *judge) harnessRun(c *shell.Cmd) {
	switch c.Name {
	case "go":
		if at(c.Args, 0) != "run" {
			return
		}
		// go run [-C DIR] [build flags] PKG|FILES... ARGS: the package as a folder (., a path,
		// its main.go), resolved from the command's folder or -C's.
		dir := c.Dir
		for i := 1; i < len(c.Args); i++ {
			a := c.Args[i]
			if strings.HasPrefix(a, "-") {
				k, v, eq := strings.Cut(strings.TrimPrefix(a, "-"), "=")
				k = strings.TrimPrefix(k, "-")
				if !eq && goRunValueFlag(k) {
					v, i = at(c.Args, i+1), i+1
				}
				if k == "C" {
					dir = j.res(c, v)
				}
				continue
			}
			p := a
			if !path.IsAbs(p) && !strings.HasPrefix(p, "~") {
				p = path.Join(dir, p)
			}
			p = j.res(c, p)
			if strings.HasSuffix(p, ".go") {
				p = path.Dir(p)
			}
			if p == "cmd/harness" || strings.HasSuffix(p, "/cmd/harness") {
				k := i + 1
				for k < len(c.Args) && strings.HasSuffix(c.Args[k], ".go") {
					k++ // the package's other files
				}
				j.harnessCommand(c, c.Args[k:], "go run "+a)
			}
			return
		}
	case ".", "source":
		if len(c.Args) > 0 && path.Base(c.Args[0]) == "install.sh" {
			j.harnessScript(c, c.Args[0])
		}
	case "sh", "bash", "dash", "zsh", "ksh", "ash":
		p := shell.Opts{Short: "oO", StopAtOperand: true}.Parse(c.Args)
		if len(p.Rest) > 0 && !p.Has("c") && path.Base(p.Rest[0]) == "install.sh" {
			j.harnessScript(c, p.Rest[0])
			return
		}
		// install.sh fed to the shell: bash < install.sh, cat install.sh | bash -s -- --uninstall
		if c.Stdin == nil {
			return
		}
		if path.Base(c.Stdin.File) == "install.sh" {
			j.harnessScript(c, c.Stdin.File)
			return
		}
		for _, f := range c.Stdin.From {
			for _, a := range f.Args {
				if f.Name == "cat" && path.Base(a) == "install.sh" {
					j.harnessScript(c, a)
					return
				}
			}
		}
	}
}

// goRunValueFlag reports go run's build flags that take a value as the next word.
func goRunValueFlag(k string) bool {
	switch k {
	case "C", "exec", "tags", "ldflags", "gcflags", "asmflags", "mod", "modfile", "overlay", "pgo", "toolexec", "o", "p", "covermode", "coverpkg":
		return true
	}
	return false
}

// harnessPlace reports a path in the harness's machine-wide places: the system scope an
// administrator's policy lives in (the hook's --system-dir, and the compiled /etc/harness or
// macOS's) and the prefix install --managed puts the hooks for every user under
// (/opt/harness). The folder above the running binary's bin is the harness home or a prefix,
// both judged already.
func (j *judge) harnessPlace(t string) bool {
	if under(t, "/etc/harness") || under(t, "/opt/harness") || under(t, "/Library/Application Support/harness") {
		return true
	}
	return len(j.system) > 1 && strings.HasPrefix(j.system, "/") && under(t, strings.TrimSuffix(j.system, "/"))
}

// agentState names the part of Claude Code's own state a path is in ("" if none): the session
// transcripts, the prompt history, the hooks folder, its login and project configuration,
// its to-do lists and file checkpoints.
func (j *judge) agentState(t string) string {
	for _, h := range j.homes() {
		if what := agentStateIn(t, h); what != "" {
			return what
		}
	}
	return ""
}

// agentStateIn is agentState for one home.
func agentStateIn(t, h string) string {
	switch {
	case t == h+"/.claude":
		return "~/.claude (Claude Code's settings, session transcripts and hooks)"
	case t == h+"/.claude.json" || strings.HasPrefix(t, h+"/.claude.json.backup"):
		return "~/.claude.json (the account and every project's configuration)"
	case t == h+"/.claude/history.jsonl":
		return "~/.claude/history.jsonl (the prompt history)"
	case t == h+"/.claude/.credentials.json":
		return "~/.claude/.credentials.json (the login)"
	}
	for _, d := range [...]struct{ dir, what string }{{"projects", "the session transcripts"}, {"hooks", "the hooks folder"}, {"todos", "the to-do lists"}, {"file-history", "the file checkpoints"}} {
		if under(t, h+"/.claude/"+d.dir) || contentsOf(t) == h+"/.claude/"+d.dir {
			return "~/.claude/" + d.dir + " (" + d.what + ")"
		}
	}
	return ""
}

// writes judges every path a command writes: devices, the guard's files, history and logs,
// persistence points, shell startup files and system files.
func (j *judge) writes(c *shell.Cmd) {
	targets := c.Writes(j.world.Home)
	if key := hookSwitch(c); key != "" {
		// Writing the word into a note or a doc is data: only settings files, or tools that
		// edit files in place, set it.
		inPlace := (c.Name == "sed" || c.Name == "perl") && len(targets) > 0 // edits the files it names, and only those
		if settingsWrite(targets) || !inPlace && (c.Name == "jq" || c.Name == "yq" || c.Name == "sed" || strings.HasPrefix(c.Name, "python") || c.Name == "node" || c.Name == "perl") {
			j.add(c, tamperDisableHooks, "it sets "+key+", which switches off every hook guarding this session", "")
		}
	} else if key := pipedSwitch(c); key != "" && settingsWrite(targets) {
		j.add(c, tamperDisableHooks, "it writes "+key+", piped into it, into a settings file: a switch off for every hook guarding this session", "")
	}
	hostSide := len(c.Via) > 0 && strings.HasSuffix(c.Via[len(c.Via)-1], " run") // docker run CMD > file: the host shell writes file
	for _, t := range targets {
		if (len(c.Mounts) > 0 || c.Fresh) && !(hostSide && strings.HasSuffix(t.How, " redirect")) {
			host, mounted := c.HostPath(t.Path)
			if !mounted && c.Fresh {
				continue // the new container's own file
			}
			t.Path = host
		}
		if t.How == "ssh-keygen -f" {
			continue // a new key: ssh-keygen asks before it replaces one
		}
		if t.Into && localSoftware(j.canon(t.Path)) {
			continue // an archive unpacked where local software goes (the Go toolchain in /usr/local/go)
		}
		j.written(c, t)
	}
}

// localSoftware reports a folder for software the system's packages do not own: /opt and
// /usr/local, except its bin and sbin, which come first on everyone's PATH.
func localSoftware(p string) bool {
	return under(p, "/opt") || under(p, "/usr/local") && !under(p, "/usr/local/bin") && !under(p, "/usr/local/sbin")
}

// settingsWrite reports a write to a JSON settings file (or one whose name is not known).
func settingsWrite(targets []shell.Target) bool {
	for _, t := range targets {
		if strings.HasSuffix(t.Path, ".json") || !shell.Known(t.Path) {
			return true
		}
	}
	return false
}

// hookSwitches are the settings keys that switch a client's hooks off: Claude Code's and Qoder
// CLI's disableAllHooks, Qoder's and Gemini CLI's hooksConfig (their declarations' Files.Off).
var hookSwitches = []string{"disableAllHooks", "hooksConfig"}

// hookSwitch is the hook switch a command names, "" when none.
func hookSwitch(c *shell.Cmd) string {
	for _, k := range hookSwitches {
		if strings.Contains(c.Text, k) || argsContain(c, k) {
			return k
		}
	}
	return ""
}

// pipedSwitch is the hook switch named by what is piped into a command, "" when none.
func pipedSwitch(c *shell.Cmd) string {
	for _, k := range hookSwitches {
		if piped(c, k) {
			return k
		}
	}
	return ""
}

func argsContain(c *shell.Cmd, s string) bool {
	for _, a := range c.Args {
		if strings.Contains(a, s) {
			return true
		}
	}
	return false
}

// serveSocket is serve mode's socket unit under a home (harness install --serve writes it
// there); its ListenStream is the port the server answers on. On macOS the launch agent
// (serveAgent) holds it, its SockServiceName the port.
const (
	serveSocket = "/.config/systemd/user/harness-serve.socket"
	serveAgent  = "/Library/LaunchAgents/com.github.hookkit.harness-serve.plist"
)

// servePorts are the ports serve mode's socket unit or launch agent under a home hold.
func servePorts(home string) []string {
	var out []string
	if b, err := os.ReadFile(home + serveSocket); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "ListenStream="); ok {
				out = append(out, v[strings.LastIndexByte(v, ':')+1:])
			}
		}
	}
	if b, err := os.ReadFile(home + serveAgent); err == nil {
		rest := string(b)
		for {
			_, after, ok := strings.Cut(rest, "<key>SockServiceName</key>")
			if !ok {
				break
			}
			rest = after
			if v, ok := strings.CutPrefix(strings.TrimSpace(after), "<string>"); ok {
				v, _, _ = strings.Cut(v, "</string>")
				out = append(out, strings.TrimSpace(v))
			}
		}
	}
	return out
}

// servePortBind: a command in a session that would listen on serve mode's port (nc -l PORT,
// socat TCP-LISTEN:PORT, python3 -m http.server PORT, a server's --port PORT, HOST:PORT): a
// server of its own there, while harness serve restarts, would answer the hooks that guard the
// session. The port is read from the installed socket unit, and only when a command names a
// port at all; without serve mode installed nothing is denied.
func (j *judge) servePortBind(c *shell.Cmd) {
	ports := listenPorts(c)
	if len(ports) == 0 {
		return
	}
	for _, h := range j.homes() {
		for _, port := range servePorts(h) {
			if slices.Contains(ports, port) {
				j.add(c, tamperServe, c.Name+" would listen on port "+port+", where harness serve answers the hooks that guard this session", "")
				return
			}
		}
	}
}

// listenPorts are the ports a command names the way listeners take them: -l/-p/--port/--listen/
// --bind PORT or HOST:PORT (or =...), socat's TCP-LISTEN:PORT, php -S HOST:PORT, http.server's
// positional PORT. A port a client connects to (curl HOST:PORT) is not one.
func listenPorts(c *shell.Cmd) []string {
	var out []string
	number := func(s string) bool { return s != "" && len(s) <= 5 && strings.Trim(s, "0123456789") == "" }
	add := func(v string) {
		v, _, _ = strings.Cut(v, ",")
		if j := strings.LastIndexByte(v, ':'); j >= 0 {
			v = v[j+1:]
		}
		if number(v) {
			out = append(out, v)
		}
	}
	for i, a := range c.Args {
		next := ""
		if i+1 < len(c.Args) {
			next = c.Args[i+1]
		}
		switch k, val, eq := strings.Cut(a, "="); {
		case eq && (k == "--port" || k == "--listen" || k == "--bind"):
			add(val)
		case a == "-l" || a == "-p" || a == "--port" || a == "--listen" || a == "--bind" || a == "-S" && c.Name == "php":
			add(next)
		case strings.HasPrefix(strings.ToUpper(a), "TCP-LISTEN:") || strings.HasPrefix(strings.ToUpper(a), "TCP4-LISTEN:"):
			add(strings.SplitN(a, ":", 2)[1])
		case a == "http.server":
			// Its port is the first word that is not an option or an option's value.
			for k := i + 1; k < len(c.Args); k++ {
				switch w := c.Args[k]; {
				case w == "-b" || w == "--bind" || w == "-d" || w == "--directory" || w == "-p" || w == "--protocol":
					k++
				case strings.HasPrefix(w, "-"):
				default:
					if number(w) {
						add(w)
					}
					k = len(c.Args)
				}
			}
		}
	}
	return out
}
