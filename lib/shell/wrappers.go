// Wrappers that run another command (sudo, env, nice, timeout, ssh, ...), unwrapped.

package shell

import (
	"path"
	"slices"
	"strings"
)

// progName is the name a program is found by: the base of its path.
func progName(prog string) string {
	if strings.Contains(prog, Dyn) {
		return ""
	}
	base := path.Base(strings.ReplaceAll(prog, "\\", "/"))
	if len(base) > 4 && strings.EqualFold(base[len(base)-4:], ".exe") {
		base = base[:len(base)-4] // powershell.exe, shutdown.exe, cmd.exe
	}
	return base
}

// Options of the wrappers that run another command.
var (
	systemdRunOpts = Opts{Short: "pEuMH", Long: []string{"property", "setenv", "unit", "machine", "host", "uid", "gid", "nice",
		"working-directory", "description", "slice", "service-type", "on-active", "on-boot", "on-startup", "on-unit-active",
		"on-unit-inactive", "on-calendar", "on-timer-property", "timer-property", "path-property", "socket-property", "expand-environment"}, StopAtOperand: true}
	sudoOpts    = Opts{Short: "ughpCDrtTUR", Long: []string{"user", "group", "host", "prompt", "close-from", "chdir", "role", "type", "command-timeout", "other-user", "chroot"}, StopAtOperand: true}
	doasOpts    = Opts{Short: "uC", StopAtOperand: true}
	envOpts     = Opts{Short: "uCSP", Long: []string{"unset", "chdir", "split-string"}, StopAtOperand: true}
	niceOpts    = Opts{Short: "n", Long: []string{"adjustment"}, StopAtOperand: true}
	ioniceOpts  = Opts{Short: "cnp", Long: []string{"class", "classdata", "pid", "pgid", "uid"}, StopAtOperand: true}
	timeoutOpts = Opts{Short: "sk", Long: []string{"signal", "kill-after"}, StopAtOperand: true}
	timeOpts    = Opts{Short: "of", Long: []string{"output", "format"}, StopAtOperand: true}
	stdbufOpts  = Opts{Short: "ioe", Long: []string{"input", "output", "error"}, StopAtOperand: true}
	flockOpts   = Opts{Short: "wEc", Long: []string{"timeout", "conflict-exit-code", "command"}, StopAtOperand: true}
	watchOpts   = Opts{Short: "nq", Long: []string{"interval", "equexit"}, StopAtOperand: true}
	scriptOpts  = Opts{Short: "cEIOBTm", Long: []string{"command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format"}}
	xargsOpts   = Opts{Short: "dEILnPsae", Long: []string{"delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "arg-file", "process-slot-var"}, StopAtOperand: true}
	execOpts    = Opts{Short: "a", StopAtOperand: true}
	suOpts      = Opts{Short: "cgGsw", Long: []string{"command", "group", "supp-group", "shell", "session-command", "whitelist-environment"}}
	runuserOpts = Opts{Short: "cgGsu", Long: []string{"command", "group", "supp-group", "shell", "user"}}
	// runuserCmdOpts is runuser's grammar where the command follows the options (-u USER CMD).
	runuserCmdOpts = Opts{Short: "cgGsu", Long: []string{"command", "group", "supp-group", "shell", "user", "whitelist-environment"}, StopAtOperand: true}
	sshOpts        = Opts{Short: "bcDEeFIiJLlmOopQRSWwB", StopAtOperand: true}
	// AnsibleOpts is ansible's option grammar, shared with the rules that judge its modules.
	AnsibleOpts = Opts{Short: "mauiefMlBPtTc", Long: []string{"module-name", "args", "user", "inventory", "extra-vars", "forks",
		"module-path", "limit", "background", "poll", "tree", "timeout", "become-user", "become-method", "connection", "private-key",
		"vault-password-file", "ssh-common-args", "ssh-extra-args", "scp-extra-args", "sftp-extra-args", "playbook-dir", "task-timeout"}}
	dockerRun = Opts{Short: "vewuplhmc", Long: []string{"volume", "env", "env-file", "workdir", "user", "publish", "label", "hostname", "memory",
		"cpu-shares", "name", "network", "net", "mount", "entrypoint", "platform", "pull", "cpus", "restart", "add-host", "device", "cap-add",
		"cap-drop", "security-opt", "tmpfs", "ulimit", "gpus", "log-driver", "log-opt", "dns", "ipc", "pid", "shm-size", "stop-signal",
		"volumes-from", "expose", "health-cmd", "label-file", "runtime", "userns", "uts", "cgroupns", "isolation", "memory-swap",
		"network-alias", "ip", "ip6", "mac-address", "detach-keys", "cidfile", "attach", "a", "pids-limit", "link", "group-add",
		"blkio-weight", "cpu-period", "cpu-quota", "cpuset-cpus", "cpuset-mems", "device-read-bps", "device-write-bps", "dns-search",
		"dns-option", "domainname", "link-local-ip", "memory-reservation", "memory-swappiness", "oom-score-adj", "storage-opt",
		"sysctl", "volume-driver", "annotation", "cgroup-parent", "device-cgroup-rule", "health-interval", "health-retries",
		"health-timeout", "health-start-period", "stop-timeout", "log-opt", "service-ports", "use-aliases"}, StopAtOperand: true}
	dockerExec = Opts{Short: "uwe", Long: []string{"user", "workdir", "env", "env-file", "detach-keys", "index"}, StopAtOperand: true}
	// The engine's own options come before its subcommand (docker --context prod run ...),
	// compose's before its own (docker compose -f prod.yml run ...).
	engineOpts = Opts{Short: "cHlna", Long: []string{"context", "host", "config", "log-level", "tlscacert", "tlscert", "tlskey",
		"connection", "url", "identity", "root", "runroot", "storage-driver", "cgroup-manager", "namespace", "address",
		"runtime", "storage-opt", "tmpdir", "conmon", "events-backend", "hooks-dir", "imagestore", "network-cmd-path",
		"network-config-dir", "volumepath", "module", "ssh", "runtime-flag", "cni-config-dir", "snapshotter", "data-root",
		"cni-path", "cni-netconfpath", "hosts-dir", "host-gateway-ip", "bridge-ip"}, StopAtOperand: true}
	composeOpts = Opts{Short: "fp", Long: []string{"file", "project-name", "profile", "env-file", "project-directory", "ansi",
		"progress", "parallel"}, StopAtOperand: true}
	// Standalone docker-compose also takes the engine's connection options before its command.
	standaloneOpts = Opts{Short: "fpcH", Long: append(slices.Clone(composeOpts.Long), "context", "host", "log-level",
		"tlscacert", "tlscert", "tlskey"), StopAtOperand: true}
	// KubectlOpts is kubectl's (and oc's) option grammar, shared with the rules that judge it.
	KubectlOpts = Opts{Short: "cnflo", Long: []string{"container", "namespace", "filename", "context", "kubeconfig", "pod-running-timeout",
		"selector", "output", "cluster", "field-selector"}}
	shellOpts = Opts{Short: "oO", Long: []string{"rcfile", "init-file"}, StopAtOperand: true}
)

// simple records one simple command, unwrapping wrappers until the real program is found,
// and follows whatever it runs in turn.
func (a *analyzer) simple(c *Cmd, words []string, st *state) {
	for guard := 0; guard < 32 && len(words) > 0; guard++ {
		name := progName(words[0])
		args := words[1:]
		if text, ok := a.shAlias[words[0]]; ok && guard == 0 && a.defining == 0 && !slices.Contains(a.calling, "alias "+words[0]) {
			// An alias defined in the command: bash expands it only where aliases are on and
			// the definition ran first, so both the expansion and the plain command are judged.
			if !a.call1() {
				return
			}
			a.calling = append(a.calling, "alias "+words[0])
			a.nested(text+" "+quoteWords(args), "alias "+words[0], st, c.Stdin, nil)
			a.calling = a.calling[:len(a.calling)-1]
		}
		if body := a.funcs[words[0]]; body != nil && a.defining == 0 && !slices.Contains(a.calling, words[0]) {
			if !a.call1() {
				return
			}
			// A call of a function defined in the command: its body again, in the caller's
			// shell (its cd and assignments stay), with the arguments as $1, $2, ... and "$@"
			// (the body was analysed once where it was defined).
			saved := map[string]*string{}
			for _, k := range positional() {
				if v, ok := st.vars[k]; ok {
					saved[k] = &v
				} else {
					saved[k] = nil
				}
			}
			setPositional(st, args)
			a.calling = append(a.calling, words[0])
			a.via = append(a.via, "function "+words[0])
			a.locals = append(a.locals, map[string]*string{})
			a.stmt(body, st, c.Stdin)
			for k, v := range a.locals[len(a.locals)-1] {
				saved[k] = v // local x: the caller's x comes back
			}
			a.locals = a.locals[:len(a.locals)-1]
			a.via = a.via[:len(a.via)-1]
			a.calling = a.calling[:len(a.calling)-1]
			for k, v := range saved {
				if v == nil {
					delete(st.vars, k)
				} else {
					st.vars[k] = *v
				}
			}
		}
		var rest []string
		label := name
		switch name {
		case "sudo":
			p := sudoOpts.Parse(args)
			if d, ok := p.Value("D", "chdir"); ok {
				c.Dir = a.resolve(d, c.Dir)
			}
			if p.Has("e", "edit") {
				rest = append([]string{"sudoedit"}, p.Rest...)
			} else {
				rest = p.Rest
			}
			if len(rest) == 0 && p.Has("s", "shell", "i", "login") {
				rest = []string{"bash"} // sudo -s <<EOF: a root shell reads the script
			}
			for len(rest) > 0 && isAssignment(rest[0]) { // sudo VAR=value cmd
				c.Env = append(c.Env, rest[0])
				rest = rest[1:]
			}
		case "doas":
			rest = doasOpts.Parse(args).Rest
		case "env":
			if len(args) > 0 && args[0] == "-" {
				args = args[1:] // env - CMD: -i, the old spelling
			}
			p := envOpts.Parse(args)
			if d, ok := p.Value("C", "chdir"); ok {
				c.Dir = a.resolve(d, c.Dir)
			}
			rest = p.Rest
			if s, ok := p.Value("S", "split-string"); ok {
				split := a.envSplit(s, st)
				if len(split) > 0 && strings.HasPrefix(split[0], "-") {
					split = append([]string{"env"}, split...) // env -S '-i cmd': options inside the string
				}
				rest = append(split, rest...)
			}
			for len(rest) > 0 && isAssignment(rest[0]) {
				c.Env = append(c.Env, rest[0])
				rest = rest[1:]
			}
		case "command":
			p := Opts{StopAtOperand: true}.Parse(args)
			if p.Has("v", "V") {
				break
			}
			rest = p.Rest
		case "builtin", "nohup", "unbuffer", "torsocks", "catchsegv", "fakeroot", "caffeinate", "proxychains", "proxychains4", "busybox",
			"rtk", "chronic", "firejail":
			// rtk (a token-saving runner: rtk git push ... runs git push and trims its output),
			// chronic (runs quietly), firejail (runs sandboxed, its options --x=y): the command
			rest = Opts{Short: "tfw", StopAtOperand: true}.Parse(args).Rest
		case "systemd-inhibit":
			rest = Opts{Long: []string{"what", "who", "why", "mode"}, StopAtOperand: true}.Parse(args).Rest
		case "setsid":
			rest = Opts{StopAtOperand: true}.Parse(args).Rest // -c, -f, -w take no value
		case "systemd-run":
			rest = systemdRunOpts.Parse(args).Rest
		case "exec":
			rest = execOpts.Parse(args).Rest
		case "nice":
			rest = niceOpts.Parse(args).Rest
		case "ionice":
			rest = ioniceOpts.Parse(args).Rest
		case "timeout":
			if r := timeoutOpts.Parse(args).Rest; len(r) > 1 {
				rest = r[1:]
			}
		case "time":
			rest = timeOpts.Parse(args).Rest
		case "stdbuf":
			rest = stdbufOpts.Parse(args).Rest
		case "chrt", "taskset":
			if r := (Opts{StopAtOperand: true}).Parse(args).Rest; len(r) > 1 {
				rest = r[1:]
			}
		case "chroot":
			if r := (Opts{StopAtOperand: true}).Parse(args).Rest; len(r) > 1 {
				rest = r[1:]
			}
		case "launchctl":
			// launchctl asuser UID CMD, bsexec PID CMD: CMD runs in that user's or process's
			// bootstrap context.
			if len(args) > 2 && (args[0] == "asuser" || args[0] == "bsexec") {
				rest = args[2:]
			}
		case "flock":
			p := flockOpts.Parse(args)
			cmdText, isText := p.Value("c", "command")
			if len(p.Rest) > 2 && (p.Rest[1] == "-c" || p.Rest[1] == "--command") {
				cmdText, isText = p.Rest[2], true // flock FILE -c 'command'
			}
			if isText {
				a.record(c, words)
				a.nested(cmdText, "flock -c", st, nil, c)
				return
			}
			if len(p.Rest) > 1 {
				rest = p.Rest[1:]
				label = "flock " + a.resolve(p.Rest[0], c.Dir) // the lock it holds while the command runs
			}
		case "pipx", "uvx", "uv":
			// pipx run [--spec S] CMD, uvx [--from S] CMD, uv tool run CMD
			a2 := args
			if name == "pipx" && len(a2) > 0 && a2[0] == "run" {
				a2 = a2[1:]
			} else if name == "uv" && len(a2) > 1 && a2[0] == "tool" && a2[1] == "run" {
				a2 = a2[2:]
			} else if name == "uv" && len(a2) > 0 && a2[0] == "run" {
				a2 = a2[1:] // uv run CMD
			} else if name != "uvx" {
				break
			}
			rest = Opts{Long: []string{"spec", "from", "with", "python", "index-url", "pip-args", "directory", "project"}, StopAtOperand: true}.Parse(a2).Rest
		case "go":
			// go run PKG@VERSION ARGS: the program is the package's last element
			if len(args) > 1 && args[0] == "run" {
				r := Opts{Long: []string{"C", "exec", "tags", "ldflags", "gcflags", "mod", "modfile", "overlay", "pgo", "toolexec"}, StopAtOperand: true}.Parse(args[1:]).Rest
				if len(r) > 0 && strings.Contains(r[0], "@") && !strings.HasSuffix(r[0], ".go") {
					pkg, _, _ := strings.Cut(r[0], "@")
					prog := path.Base(pkg)
					if strings.HasPrefix(prog, "v") && len(prog) > 1 && strings.Trim(prog[1:], "0123456789") == "" {
						prog = path.Base(path.Dir(pkg)) // example.com/tool/v2: the name before the major version
					}
					rest = append([]string{prog}, r[1:]...)
				}
			}
		case "npx", "bunx", "pnpx":
			p := Opts{Short: "pc", Long: []string{"package", "call"}, StopAtOperand: true}.Parse(args)
			rest = p.Rest
			if pkg, ok := p.Value("p", "package"); ok {
				label = name + " --package=" + pkg // npx -p PKG CMD: the package CMD comes from
			}
		case "dotenv", "op", "aws-vault", "doppler", "infisical", "chamber", "teller", "summon", "envchain", "conda", "mamba", "micromamba", "pixi", "sops", "tmux", "screen":
			// Programs that run a command with secrets or an environment they provide, or in a
			// detached terminal: judged as the command (injectorCommand).
			if r, text := injectorCommand(name, args); text != "" {
				a.record(c, words)
				a.nested(text, name, st, nil, c)
				return
			} else {
				rest = r
			}
		case "mise", "rtx", "asdf", "devbox", "direnv", "nix-shell", "nix", "flox":
			// Environment managers that run a command inside the environment they set up.
			if text, ok := a.runnerText(name, args); ok {
				a.record(c, words)
				a.nested(text, name, st, nil, c)
				return
			}
			rest = runnerCommand(name, args)
		case "bundle", "poetry", "pipenv", "pnpm", "yarn", "pdm", "hatch":
			// bundle exec CMD, poetry run CMD, uv run CMD, pnpm exec CMD, yarn exec CMD
			if len(args) > 1 && (args[0] == "exec" || args[0] == "run" && name != "pnpm" && name != "yarn") {
				rest = Opts{StopAtOperand: true}.Parse(args[1:]).Rest
			} else if len(args) > 1 && args[0] == "dlx" && (name == "pnpm" || name == "yarn") {
				rest = Opts{Short: "p", Long: []string{"package"}, StopAtOperand: true}.Parse(args[1:]).Rest // pnpm dlx PKG ARGS: the package's program
			}
		case "xargs":
			a.xargs(c, args, st)
			return
		case "parallel":
			a.parallel(c, args, st)
			return
		case "find":
			a.find(c, words, st)
			return
		case "fd", "fdfind":
			a.fd(c, words, st)
			return
		case "mvn", "mvnw":
			// mvn exec:exec -Dexec.executable=PROG -Dexec.args='ARGS': Maven runs PROG ARGS
			if slices.Contains(args, "exec:exec") {
				prog, pargs := "", ""
				for _, w := range args {
					if v, ok := strings.CutPrefix(w, "-Dexec.executable="); ok {
						prog = v
					} else if v, ok := strings.CutPrefix(w, "-Dexec.args="); ok {
						pargs = v
					}
				}
				if prog != "" {
					a.record(c, words)
					a.nested(prog+" "+pargs, "mvn exec:exec", st, nil, c)
					return
				}
			}
		case "cmake":
			// cmake -E: CMake's portable commands, each the shell command it stands for
			if r := cmakeCommand(args); r != nil {
				a.record(c, words)
				a.simple(&Cmd{Dir: c.Dir, Env: c.Env, Via: with(c.Via, "cmake -E"), Text: c.Text, Remote: c.Remote, Mounts: c.Mounts, Fresh: c.Fresh}, r, st.child())
				return
			}
		case "watch":
			p := watchOpts.Parse(args)
			if p.Has("x", "exec") {
				rest = p.Rest
			} else if len(p.Rest) > 0 {
				a.record(c, words)
				a.nested(strings.Join(p.Rest, " "), "watch", st, nil, nil)
				return
			}
		case "script":
			p := scriptOpts.Parse(args)
			if s, ok := p.Value("c", "command"); ok {
				a.record(c, words)
				a.nested(s, "script -c", st, nil, nil)
				return
			}
		case "at", "batch":
			a.record(c, words)
			if c.Stdin != nil && c.Stdin.Known {
				a.nested(c.Stdin.Text, name, st, nil, nil)
			}
			c.Runs = append(c.Runs, stdinFrom(c)...)
			return
		case "su":
			p := suOpts.Parse(args)
			a.record(c, words)
			if s, ok := p.Value("c", "command", "session-command"); ok {
				a.nested(s, "su -c", st, nil, c)
			}
			return
		case "runuser":
			p := runuserOpts.Parse(args)
			if s, ok := p.Value("c", "command"); ok {
				a.record(c, words)
				a.nested(s, "runuser -c", st, nil, c)
				return
			}
			if p.Has("u", "user") {
				rest = runuserCmdOpts.Parse(args).Rest // runuser -u USER [--] CMD: the operands are the command
			} else if len(p.Operands) > 0 && p.Operands[0] != "--" {
				rest = p.Operands[1:]
			}
		case "strace", "ltrace", "unshare", "setpriv", "prlimit":
			// Tracers and the namespace, privilege and limit setters run the command after
			// their options (strace -f CMD, unshare -r CMD, setpriv --reuid=0 CMD).
			rest = tracerOpts(name).Parse(args).Rest
		case "sg":
			// sg [-] GROUP [-c] 'CMD': the text runs in /bin/sh with the group
			r := args
			if len(r) > 0 && r[0] == "-" {
				r = r[1:]
			}
			if len(r) > 1 && r[1] == "-c" {
				r = append(r[:1:1], r[2:]...)
			}
			if len(r) > 1 {
				a.record(c, words)
				a.nested(strings.Join(r[1:], " "), "sg", st, nil, c)
				return
			}
		case "machinectl":
			// machinectl shell [USER@]MACHINE CMD...: CMD runs there (root@ or .host: this machine)
			if len(args) > 0 && args[0] == "shell" {
				if r := (Opts{Short: "EM", Long: []string{"setenv", "uid", "machine", "host"}, StopAtOperand: true}).Parse(args[1:]).Rest; len(r) > 1 {
					rest = r[1:]
				}
			}
		case "gdb":
			// gdb -ex 'shell CMD' (or '!CMD'): gdb's shell command runs CMD
			a.record(c, words)
			for i, arg := range args {
				ex, ok := strings.CutPrefix(arg, "--eval-command=")
				if !ok && (arg == "-ex" || arg == "-iex" || arg == "--eval-command") && i+1 < len(args) {
					ex, ok = args[i+1], true
				}
				ex = strings.TrimSpace(ex)
				if t, isShell := strings.CutPrefix(ex, "shell "); ok && isShell {
					a.nested(t, "gdb shell", st, nil, c)
				} else if t, isBang := strings.CutPrefix(ex, "!"); ok && isBang {
					a.nested(t, "gdb shell", st, nil, c)
				}
			}
			return
		case "capsh":
			// capsh [options] -- ARGS: ARGS are handed to bash (capsh -- -c 'CMD')
			if i := slices.Index(args, "--"); i >= 0 {
				rest = append([]string{"bash"}, args[i+1:]...)
			}
		case "ssh":
			p := sshOpts.Parse(args)
			a.record(c, words)
			a.commandVars(c, st)
			remoteCmd := p.Rest[min(1, len(p.Rest)):]
			if len(remoteCmd) > 0 {
				remote := &state{cwd: a.world.Home, vars: map[string]string{}}
				a.remote(strings.Join(remoteCmd, " "), "ssh "+p.Rest[0], remote, c)
			}
			// ssh host (or ssh host bash -s) fed a script: the remote shell runs it.
			if c.Stdin != nil && c.Stdin.Known && len(p.Rest) > 0 && (len(remoteCmd) == 0 || shells[progName(remoteCmd[0])]) {
				remote := &state{cwd: a.world.Home, vars: map[string]string{}}
				a.remote(c.Stdin.Text, "ssh "+p.Rest[0], remote, c)
			}
			return
		case "ansible":
			// ansible HOSTS -m shell|command|raw -a 'CMD': CMD runs on every host matched (command
			// is the default module).
			p := AnsibleOpts.Parse(args)
			a.record(c, words)
			module, _ := p.Value("m", "module-name")
			if cmd, ok := p.Value("a", "args"); ok && (module == "" || module == "shell" || module == "command" || module == "raw" ||
				module == "ansible.builtin.shell" || module == "ansible.builtin.command" || module == "ansible.builtin.raw") {
				remote := &state{cwd: a.world.Home, vars: map[string]string{}}
				hosts := ""
				if len(p.Operands) > 0 {
					hosts = p.Operands[0]
				}
				a.remote(cmd, "ansible "+hosts, remote, c)
			}
			return
		case "docker", "podman", "docker-compose", "nerdctl":
			if r, ok := containerExec(name, args); ok {
				label, c.Remote, rest = name+" exec", true, r
			} else if r, mounts, workdir, ok := a.containerRun(name, args, st); ok {
				label, c.Remote, c.Fresh, rest = name+" run", true, true, r
				c.Mounts = append(c.Mounts, mounts...)
				if workdir != "" {
					c.Dir = workdir
				}
			}
		case "kubectl", "oc":
			if r, ok := kubectlExec(args); ok {
				label, c.Remote, rest = name+" exec"+kubectlTarget(args), true, r
			}
		case "git":
			if a.git(c, words, st) {
				return
			}
		}
		if len(rest) == 0 {
			break // not a wrapper, or a wrapper with nothing to run (env alone, sudo -v)
		}
		c.Via = append(c.Via, label)
		words = rest
	}
	if len(words) == 0 {
		return
	}
	a.record(c, words)
	a.follow(c, st)
}

// envSplit splits an env -S string into words as env does: spaces separate, single and
// double quotes group, backslash escapes (\_ is a space), and ${NAME} is expanded (not
// inside single quotes).
func (a *analyzer) envSplit(s string, st *state) []string {
	var words []string
	var cur strings.Builder
	inWord, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote == 0 && (ch == ' ' || ch == '\t' || ch == '\n') || quote == 0 && ch == '\\' && i+1 < len(s) && s[i+1] == '_':
			if ch == '\\' {
				i++ // \_ outside double quotes separates, like a space
			}
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
			continue
		case quote == 0 && (ch == '\'' || ch == '"'):
			quote, inWord = ch, true
			continue
		case quote != 0 && ch == quote:
			quote = 0
			continue
		case ch == '\\' && i+1 < len(s) && quote != '\'':
			i++
			switch s[i] {
			case '_':
				cur.WriteByte(' ')
			case 't':
				cur.WriteByte('\t')
			case 'n':
				cur.WriteByte('\n')
			default:
				cur.WriteByte(s[i])
			}
		case ch == '$' && quote != '\'' && strings.HasPrefix(s[i:], "${"):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				cur.WriteString(s[i:])
				i = len(s)
				break
			}
			name := s[i+2 : i+end]
			v, ok := a.lookup(name, st)
			if !ok {
				v = a.unknown(name, st)
			}
			cur.WriteString(v)
			i += end
		default:
			cur.WriteByte(ch)
		}
		inWord = true
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// runnerText is the shell text an environment manager runs: nix-shell --run|--command TEXT.
func (a *analyzer) runnerText(name string, args []string) (string, bool) {
	if name != "nix-shell" {
		return "", false
	}
	for i, w := range args {
		if (w == "--run" || w == "--command") && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

// injectorCommand is the command a secret injector, an environment runner or a detached
// terminal runs, as words (op run -- CMD, aws-vault exec PROFILE -- CMD, doppler run -- CMD,
// infisical run -- CMD, chamber exec SVC -- CMD, teller run -- CMD, summon CMD, envchain NS CMD,
// dotenv [-e FILE] -- CMD, conda|mamba|micromamba run -n ENV CMD, pixi run CMD, screen -dm CMD)
// or as shell text (sops exec-env FILE 'CMD', doppler run --command 'CMD', tmux new-session -d
// 'CMD', tmux send-keys 'CMD' Enter); nil and "" when it runs none.
func injectorCommand(name string, args []string) ([]string, string) {
	sub := ""
	if len(args) > 0 {
		sub = args[0]
	}
	text := func(r []string) ([]string, string) {
		if len(r) == 1 && strings.Contains(r[0], " ") {
			return nil, r[0] // one word holding a whole command line: shell text
		}
		return r, ""
	}
	switch name {
	case "op", "infisical", "teller":
		if sub == "run" {
			return afterDashes(args), ""
		}
	case "aws-vault", "chamber":
		if sub == "exec" {
			return afterDashes(args), ""
		}
	case "doppler":
		if sub == "run" {
			if v, ok := (Opts{Long: []string{"command", "project", "config", "token", "scope"}}).Parse(args[1:]).Value("command"); ok {
				return nil, v
			}
			return afterDashes(args), ""
		}
	case "dotenv":
		if r := afterDashes(args); r != nil {
			return r, ""
		}
		if sub == "run" { // python-dotenv: dotenv run CMD
			return text(Opts{StopAtOperand: true}.Parse(args[1:]).Rest)
		}
	case "summon", "envchain":
		r := Opts{Short: "fp", Long: []string{"provider", "f", "up"}, StopAtOperand: true}.Parse(args).Rest
		if name == "envchain" && len(r) > 0 {
			r = r[1:] // envchain NAMESPACE CMD
		}
		return text(r)
	case "conda", "mamba", "micromamba":
		if sub == "run" {
			return text(Opts{Short: "np", Long: []string{"name", "prefix", "cwd"}, StopAtOperand: true}.Parse(args[1:]).Rest)
		}
	case "pixi":
		if sub == "run" || sub == "exec" {
			return text(Opts{Short: "e", Long: []string{"environment", "manifest-path"}, StopAtOperand: true}.Parse(args[1:]).Rest)
		}
	case "sops":
		if (sub == "exec-env" || sub == "exec-file") && len(args) > 2 {
			return nil, args[len(args)-1]
		}
	case "tmux":
		switch sub {
		case "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp":
			r := Opts{Short: "cnstFxyeblpPt", Long: nil, StopAtOperand: true}.Parse(args[1:]).Rest
			if len(r) > 0 {
				return nil, strings.Join(r, " ")
			}
		case "send-keys", "send":
			// tmux send-keys -t PANE 'CMD' Enter: typed into the pane's shell
			r := Opts{Short: "tN", StopAtOperand: true}.Parse(args[1:]).Rest
			var typed []string
			for _, w := range r {
				if w == "Enter" || w == "C-m" || w == "KPEnter" {
					return nil, strings.Join(typed, " ")
				}
				typed = append(typed, w)
			}
		}
	case "screen":
		if r := (Opts{Short: "SceLtTpX", StopAtOperand: true}).Parse(args).Rest; len(r) > 0 {
			return text(r)
		}
	}
	return nil, ""
}

// afterDashes is what follows the first --, nil when there is none.
func afterDashes(ws []string) []string {
	if i := slices.Index(ws, "--"); i >= 0 {
		return ws[i+1:]
	}
	return nil
}

// runnerCommand is the command an environment manager runs: mise exec|x TOOLS -- CMD, asdf
// exec CMD, devbox run [--] CMD, direnv exec DIR CMD, nix develop|shell -c|--command CMD, flox
// activate -- CMD. nil when it runs none (a script's name, an install).
func runnerCommand(name string, args []string) []string {
	sub := ""
	if len(args) > 0 {
		sub = args[0]
	}
	switch {
	case (name == "mise" || name == "rtx") && (sub == "exec" || sub == "x"):
		return afterDashes(args[1:])
	case name == "asdf" && sub == "exec":
		return args[1:]
	case name == "devbox" && sub == "run":
		if r := afterDashes(args[1:]); r != nil {
			return r
		}
		if r := (Opts{Long: []string{"config", "environment", "env-file"}, StopAtOperand: true}).Parse(args[1:]).Rest; len(r) > 1 {
			return r // devbox run CMD ARGS (a script's name alone runs the script)
		} else if len(r) == 1 && strings.Contains(r[0], " ") {
			return []string{"sh", "-c", r[0]} // devbox run 'CMD ARGS': a command line, run by a shell
		}
	case name == "direnv" && sub == "exec" && len(args) > 2:
		return args[2:]
	case name == "nix" && (sub == "develop" || sub == "shell"):
		for i, w := range args {
			if w == "-c" || w == "--command" {
				return args[i+1:]
			}
		}
	case name == "flox" && sub == "activate":
		return afterDashes(args[1:])
	}
	return nil
}

// cmakeCommand is the command a cmake -E tool amounts to (rm -rf, remove_directory, copy,
// rename, chdir DIR CMD, env ... CMD), nil for any other cmake command line.
func cmakeCommand(args []string) []string {
	if len(args) < 2 || args[0] != "-E" {
		return nil
	}
	tool, rest := args[1], args[2:]
	switch tool {
	case "rm":
		return append([]string{"rm"}, rest...)
	case "remove_directory", "rmdir":
		return append([]string{"rm", "-rf"}, rest...)
	case "remove":
		return append([]string{"rm", "-f"}, rest...)
	case "copy", "copy_if_different":
		return append([]string{"cp"}, rest...)
	case "copy_directory", "copy_directory_if_different":
		return append([]string{"cp", "-r"}, rest...)
	case "rename":
		return append([]string{"mv"}, rest...)
	case "create_symlink":
		return append([]string{"ln", "-s"}, rest...)
	case "touch":
		return append([]string{"touch"}, rest...)
	case "chdir":
		if len(rest) > 1 {
			return append([]string{"env", "--chdir=" + rest[0]}, rest[1:]...)
		}
	case "env":
		return append([]string{"env"}, rest...)
	}
	return nil
}

// tracerOpts is the option grammar of a program that runs the command after its options.
func tracerOpts(name string) Opts {
	switch name {
	case "strace":
		return Opts{Short: "abeEIoOpPsSuUX", Long: []string{"attach", "decode-fds", "env", "output", "signal", "status", "string-limit", "summary-sort-by", "trace", "trace-path", "user", "detach-on", "seccomp-bpf", "kvm", "quiet", "silence", "inject", "fault", "raw", "read", "write", "verbose", "abbrev", "const-print-style", "columns", "summary-columns", "decode-pids", "stack-trace-frame-filter"}, StopAtOperand: true}
	case "ltrace":
		return Opts{Short: "aADeFlnopsuwx", Long: []string{"align", "output", "library", "indent"}, StopAtOperand: true}
	case "unshare":
		return Opts{Short: "SGRw", Long: []string{"setuid", "setgid", "root", "wd", "map-user", "map-group", "map-users", "map-groups", "propagation", "setgroups", "load-interp"}, StopAtOperand: true}
	case "setpriv":
		return Opts{Long: []string{"reuid", "regid", "ruid", "euid", "rgid", "egid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule"}, StopAtOperand: true}
	case "prlimit":
		return Opts{Short: "po", Long: []string{"pid", "output"}, StopAtOperand: true}
	}
	return Opts{StopAtOperand: true}
}
