package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness"
	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/settings"
)

// Flags shared by install and uninstall: which settings file.
var scopeFlags = []cli.Flag{
	&cli.StringFlag{Name: "scope", Value: "user", Usage: "user (~/.claude/settings.json), project (.claude/settings.json) or local (.claude/settings.local.json)"},
	&cli.StringFlag{Name: "project", Usage: "the project directory for --scope project|local (default: the current directory)"},
	&cli.StringFlag{Name: "settings", Usage: "a settings file to edit instead of a scope's"},
	&cli.BoolFlag{Name: "dry-run", Usage: "say what would change and change nothing"},
}

// clientFlag names the client whose own hook file install and uninstall work on.
var clientFlag = &cli.StringFlag{Name: "client", Usage: "claude (the default: Claude Code's settings), or " + otherClients("or") + " (that client's own hook file, in its format)"}

// otherClients lists the clients other than Claude Code, from their declarations.
func otherClients(last string) string {
	var names []string
	for _, d := range dialect.All() {
		if !d.Identity {
			names = append(names, string(d.Client))
		}
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + last + " " + names[len(names)-1]
}

var installCommand = &cli.Command{
	Name:  "install",
	Usage: "wire the built hooks into a Claude Code settings file (idempotent; keeps every byte it does not own)",
	Flags: append([]cli.Flag{
		&cli.StringFlag{Name: "only", Usage: "install only these hooks (comma-separated names)"},
		&cli.StringFlag{Name: "form", Value: "auto", Usage: "exec (command + args, no shell), shell (sh -c, path quoted) or auto (from claude --version)"},
		&cli.StringFlag{Name: "bin", Usage: "where the hook binaries are (default: $HARNESS_HOME/bin)"},
		&cli.StringFlag{Name: "from", Usage: "import a Harness-style settings file (path, timeout in ms, matcher object) instead of the default wiring"},
		&cli.StringFlag{Name: "defaults", Usage: "read the default wiring from this file instead of the embedded settings.json"},
		&cli.StringFlag{Name: "agent", Usage: "with --client docker-agent --settings AGENT.yaml: the agent whose hooks to set (default root)"},
		&cli.BoolFlag{Name: "on-error", Usage: "with --client docker-agent: write each hook's on_error (block for the guards, warn for the others); for versions that have it, which v1.32.3 does not (it refuses the key)"},
		&cli.BoolFlag{Name: "managed", Usage: "install for every user of the machine: the binaries under --prefix and a drop-in in Claude Code's managed-settings.d (run as an administrator)"},
		&cli.BoolFlag{Name: "print", Usage: "with --managed: print the drop-in and write nothing"},
		&cli.StringFlag{Name: "system-dir", Usage: "the system scope the hooks read, written on each hook's command line (default: $HARNESS_SYSTEM_DIR, else /etc/harness; docs/configuration.md has the other platforms')"},
		prefixFlag, managedDirFlag,
		// install.sh --dry-run builds into a temporary directory: the settings still name --bin.
		&cli.StringFlag{Name: "built", Hidden: true, Usage: "where the binaries are now, when --bin is where they will be"},
		clientFlag,
	}, append(serveFlags, scopeFlags...)...),
	Action: install,
}

var uninstallCommand = &cli.Command{
	Name:  "uninstall",
	Usage: "remove exactly what install added (every recorded file, or the one a scope names)",
	Flags: append([]cli.Flag{
		&cli.BoolFlag{Name: "force", Usage: "also remove entries edited since the install"},
		&cli.BoolFlag{Name: "purge", Usage: "then remove what the harness owns: its binaries, logs, backups, manifest and the harness link on PATH (your own configuration is kept)"},
		&cli.BoolFlag{Name: "managed", Usage: "remove what install --managed wrote: the drop-in, the binaries under --prefix, the install record and the folders it created"},
		prefixFlag,
		clientFlag,
	}, scopeFlags...),
	Action: uninstall,
}

var statusCommand = &cli.Command{
	Name:   "status",
	Usage:  "report drift: entries missing, edited or duplicated; binaries missing, not executable or of another version",
	Action: status,
}

// checkBuilt says whether a wiring's program is there: where --built says it is now (a dry
// run's temporary build), else where the settings will name it.
func checkBuilt(c *cli.Context, w settings.Wiring, bin string) error {
	prog := w.Program(bin)
	if b := c.String("built"); b != "" && w.Path == "" {
		prog = w.Program(b)
	}
	if st, err := os.Stat(prog); err != nil || st.Mode()&0o111 == 0 {
		if w.Path != "" {
			return fmt.Errorf("%s (imported by --from) is not an executable file", w.Path)
		}
		return fmt.Errorf("%s is not built in %s (run ./install.sh, or pass --bin)", w.Hook, bin)
	}
	return nil
}

func install(c *cli.Context) error {
	home, err := harnessHome()
	if err != nil {
		return err
	}
	bin := c.String("bin")
	if bin == "" {
		bin = filepath.Join(home, "bin")
	}
	bin, _ = filepath.Abs(bin)
	// Not beside the plugin; from an unpacked release archive, its binaries first (pluginbeside.go).
	if err := beforeInstall(c, bin); err != nil {
		return err
	}
	d, err := chosenClient(c)
	if err != nil {
		return err
	}
	if c.Bool("serve") {
		return serveInstall(c, d, home, bin)
	}
	if c.IsSet("listen") {
		return cli.Exit("harness install: --listen goes with --serve", exitUsage)
	}
	if c.Bool("managed") {
		wirings, err := wiring(c, bin)
		if err != nil {
			return err
		}
		form, onFailure, _, err := chooseForm(c.String("form"))
		if err != nil {
			return err
		}
		if b := c.String("built"); b != "" {
			bin = b
		}
		return managedInstall(c, bin, wirings, form, onFailure)
	}
	for _, f := range []string{"print", "prefix", "managed-dir"} {
		if c.IsSet(f) {
			return fmt.Errorf("--%s goes with --managed", f)
		}
	}
	return clientInstall(c, d, home, bin)
}

// wiring reads the hooks to install: the default wiring (or --defaults), or a Harness-style
// file (--from), filtered by --only.
func wiring(c *cli.Context, bin string) ([]settings.Wiring, error) {
	var ws []settings.Wiring
	var err error
	switch {
	case c.String("from") != "":
		ws, err = fromHarness(c.String("from"), bin)
	case c.String("defaults") != "":
		b, rerr := os.ReadFile(c.String("defaults"))
		if rerr != nil {
			return nil, rerr
		}
		ws, err = settings.ParseWiring(b)
	default:
		ws, err = settings.ParseWiring(harness.Settings)
	}
	if err != nil {
		return nil, err
	}
	only := c.String("only")
	if only == "" {
		return ws, nil
	}
	want := map[string]bool{}
	var names []string
	for _, w := range ws {
		names = append(names, w.Hook)
	}
	for _, n := range strings.Split(only, ",") {
		n = strings.TrimSpace(n)
		if !slices.Contains(names, n) {
			return nil, cli.Exit(fmt.Sprintf("harness install: --only %s: no such hook in the wiring%s", n, didYouMean(n, names)), exitUsage)
		}
		want[n] = true
	}
	var out []settings.Wiring
	for _, w := range ws {
		if want[w.Hook] {
			out = append(out, w)
		}
	}
	return out, nil
}

// fromHarness converts a Harness-style settings file: {"hooks": {"Event": [{"path": ...,
// "timeout": <ms>, "matcher": {"tool_name": "Bash"}}]}}. A path whose base name is a built
// hook runs that hook; any other path runs as written.
func fromHarness(file, bin string) ([]settings.Wiring, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if err := settings.CheckJSON(file, b); err != nil {
		return nil, err
	}
	var out []settings.Wiring
	var perr error
	gjson.GetBytes(b, "hooks").ForEach(func(ev, items gjson.Result) bool {
		spec, ok := event.Lookup(event.Name(ev.Str))
		if !ok {
			perr = fmt.Errorf("%s: %q is not a Claude Code hook event", file, ev.Str)
			return false
		}
		for _, it := range items.Array() {
			p := it.Get("path").Str
			if p == "" {
				perr = fmt.Errorf("%s: a %s entry has no path", file, ev.Str)
				return false
			}
			name := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
			path := ""
			if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
				path = p
				if !filepath.IsAbs(path) {
					path, _ = filepath.Abs(filepath.Join(filepath.Dir(file), p))
				}
				name = filepath.Base(path)
			}
			secs := int(math.Ceil(it.Get("timeout").Float() / 1000))
			if secs <= 0 {
				secs = 60
			}
			matcher := ""
			if m := it.Get("matcher"); m.IsObject() {
				if v := m.Get(spec.Matcher); spec.Matcher != "" && v.Exists() {
					matcher = v.String()
				} else {
					m.ForEach(func(_, v gjson.Result) bool { matcher = v.String(); return false })
				}
			} else if m.Type == gjson.String {
				matcher = m.Str
			}
			if spec.Matcher == "" {
				matcher = ""
			}
			handler := fmt.Sprintf(`{"type":"command","command":%q,"timeout":%d}`, name, secs)
			out = append(out, settings.Wiring{Hook: name, Path: path, Event: ev.Str, Matcher: matcher, Handler: handler})
		}
		return true
	})
	return out, perr
}

// The earliest Claude Code versions whose hook settings have args (exec form), and onFailure.
var (
	execFormSince  = [3]int{2, 1, 240}
	onFailureSince = [3]int{2, 1, 330}
)

// chooseForm picks exec or shell form from --form and the installed Claude Code's version.
func chooseForm(flag string) (settings.Form, bool, string, error) {
	v, found := claudeVersion()
	onFailure := !found || !older(v, onFailureSince)
	switch flag {
	case "exec":
		return settings.Exec, onFailure, "forced by --form", nil
	case "shell":
		return settings.Shell, onFailure, "forced by --form", nil
	case "auto":
	default:
		return 0, false, "", fmt.Errorf("--form %q: use exec, shell or auto", flag)
	}
	if !found {
		return settings.Exec, true, "claude not found; assuming a current version", nil
	}
	ver := fmt.Sprintf("claude %d.%d.%d", v[0], v[1], v[2])
	if older(v, execFormSince) {
		return settings.Shell, onFailure, ver + " predates exec form", nil
	}
	return settings.Exec, onFailure, ver, nil
}

func older(v, than [3]int) bool {
	for i := range v {
		if v[i] != than[i] {
			return v[i] < than[i]
		}
	}
	return false
}

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// claudeVersion asks the installed claude for its version (HARNESS_CLAUDE names another binary).
func claudeVersion() ([3]int, bool) {
	bin := os.Getenv("HARNESS_CLAUDE")
	if bin == "" {
		bin = "claude"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	m := versionRE.FindStringSubmatch(string(out))
	if err != nil || m == nil {
		return [3]int{}, false
	}
	var v [3]int
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return v, true
}

func uninstall(c *cli.Context) error {
	if c.Bool("managed") {
		return managedUninstall(c)
	}
	home, err := harnessHome()
	if err != nil {
		return err
	}
	var files []string
	var d *dialect.Dialect
	if client := c.String("client"); client != "" {
		if d, err = dialect.Lookup(client); err != nil {
			return err
		}
	}
	scoped := c.IsSet("scope") || c.IsSet("project") || c.IsSet("settings")
	switch {
	case scoped:
		if d == nil {
			d = dialect.Default()
		}
		f, _, err := hookFile(c, d)
		if err != nil {
			return err
		}
		if f == "" {
			return fmt.Errorf("--client %s: name the file with --settings", d.Client)
		}
		files = []string{f}
		// The files an install edits beside it (trust tables) go with the hooks they serve.
		recorded, err := clientFiles(home, d)
		if err != nil {
			return err
		}
		for _, r := range recorded {
			if slices.Contains(settings.Companions(d, f), r) {
				files = append(files, r)
			}
		}
	case d != nil:
		if files, err = clientFiles(home, d); err != nil {
			return err
		}
		if len(files) == 0 {
			fmt.Fprintf(c.App.Writer, "nothing is installed for %s\n", d.Title)
			return afterUninstall(c, home)
		}
	default:
		m, err := settings.LoadManifest(home)
		if err != nil {
			return err
		}
		for _, r := range m.Files {
			files = append(files, r.Path)
		}
		if len(files) == 0 && len(m.Owned) == 0 {
			fmt.Fprintln(c.App.Writer, "nothing is installed")
			return afterUninstall(c, home)
		}
	}
	var edited []string // "FILE (Hook on Event, ...)": left because edited
	for _, f := range files {
		res, err := settings.Uninstall(home, f, c.Bool("force"), c.Bool("dry-run"))
		if err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "%s:\n", f)
		var left []string
		for _, ch := range res.Changes {
			fmt.Fprintf(c.App.Writer, "  %s\n", ch)
			if ch.Kind == "edited" {
				left = append(left, ch.Hook+" on "+ch.Event)
			}
		}
		if len(left) > 0 {
			edited = append(edited, f+" ("+strings.Join(left, ", ")+")")
		}
		_, statErr := os.Stat(f)
		switch {
		case c.Bool("dry-run"):
			fmt.Fprintln(c.App.Writer, "  dry run: nothing was written")
		case res.Restored && os.IsNotExist(statErr):
			fmt.Fprintln(c.App.Writer, "  deleted the file: the install had created it")
		case res.Restored:
			fmt.Fprintln(c.App.Writer, "  restored to its bytes from before the install")
		case res.Wrote:
			fmt.Fprintln(c.App.Writer, "  removed the harness's entries; every other byte is as you left it")
		default:
			fmt.Fprintln(c.App.Writer, "  left as it is")
		}
		for _, d := range res.Dirs {
			fmt.Fprintf(c.App.Writer, "  removed the folder %s: the install had created it, and it is empty now\n", d)
		}
	}
	if d == nil || d.Identity {
		// install --serve's files go with the last settings file that holds its keys.
		if err := serveUninstall(c, home, files...); err != nil {
			return err
		}
	}
	if len(edited) > 0 {
		msg := "entries edited since the install were left in place: " + strings.Join(edited, "; ") +
			"; run harness uninstall --force to remove them too, or remove them by hand (then harness uninstall forgets them)"
		if c.Bool("purge") {
			msg = "not purged: " + strings.Join(edited, "; ") + " still hold(s) entries of the harness edited since the install, " +
				"which uninstall leaves; run harness uninstall --force --purge, or remove them by hand and run harness uninstall --purge again"
		}
		return cli.Exit(msg, 1)
	}
	return afterUninstall(c, home)
}

// owned are the entries of the harness home that the harness writes; everything else there
// (config.json, policy files) is the user's.
var owned = []string{"bin", "backups", "locks", "projects", settingsManifest}

const settingsManifest = "installed.json"

// afterUninstall says what an uninstall leaves behind, or with --purge removes it: the
// binaries, logs, backups and manifest, and the link on PATH. It keeps the user's own files,
// and purges nothing while a settings file still runs the hooks.
func afterUninstall(c *cli.Context, home string) error {
	out, dry := c.App.Writer, c.Bool("dry-run")
	var present []string
	for _, n := range owned {
		if _, err := os.Lstat(filepath.Join(home, n)); err == nil {
			present = append(present, n)
		}
	}
	link, ours := ownLink(home)
	if !c.Bool("purge") {
		if len(present) > 0 || ours {
			fmt.Fprintf(out, "kept in %s: %s (harness uninstall --purge removes them)\n", home, describeOwned(present, ours))
		}
		return nil
	}
	m, err := settings.LoadManifest(home)
	if err != nil {
		return err
	}
	if len(m.Files) > 0 && !dry {
		var left []string
		for _, r := range m.Files {
			var hooks []string
			for _, e := range r.Entries {
				hooks = append(hooks, e.Hook+" on "+e.Event)
			}
			for _, t := range r.Trust {
				hooks = append(hooks, "the trust of "+t.Hook)
			}
			if len(hooks) == 0 {
				left = append(left, r.Path)
				continue
			}
			left = append(left, r.Path+" ("+strings.Join(hooks, ", ")+")")
		}
		return cli.Exit("not purged: the hooks are still installed in "+strings.Join(left, "; ")+"; uninstall them first", 1)
	}
	verb := "removed"
	if dry {
		verb = "would remove"
	}
	for _, n := range present {
		if !dry {
			if err := os.RemoveAll(filepath.Join(home, n)); err != nil {
				return fmt.Errorf("purging %s: %w", filepath.Join(home, n), err)
			}
		}
		fmt.Fprintf(out, "%s %s\n", verb, filepath.Join(home, n))
	}
	if ours {
		if !dry {
			if err := os.Remove(link); err != nil {
				return fmt.Errorf("purging %s: %w", link, err)
			}
		}
		fmt.Fprintf(out, "%s %s\n", verb, link)
	}
	rest, _ := os.ReadDir(home)
	var kept []string
	for _, e := range rest {
		if !slices.Contains(owned, e.Name()) {
			kept = append(kept, e.Name())
		}
	}
	switch {
	case len(kept) > 0:
		fmt.Fprintf(out, "kept in %s: %s (your own configuration; delete it by hand if you want it gone)\n", home, strings.Join(kept, ", "))
	case !dry:
		os.Remove(home) // empty now
	}
	return nil
}

// describeOwned names, for people, what the harness keeps in its home after an uninstall.
func describeOwned(present []string, link bool) string {
	what := map[string]string{"bin": "the binaries", "backups": "backups of your settings", "projects": "audit logs and session records",
		"locks": "lock files", settingsManifest: "the install manifest"}
	var parts []string
	for _, n := range present {
		parts = append(parts, what[n])
	}
	if link {
		parts = append(parts, "the harness link in ~/.local/bin")
	}
	return strings.Join(parts, ", ")
}

func status(c *cli.Context) error {
	home, err := harnessHome()
	if err != nil {
		return err
	}
	var probs []settings.Problem
	var files []string
	// The user's install, then a managed one (install --managed) when there is one.
	homes := []string{home}
	if p := prefixOf(c); p != home {
		homes = append(homes, p)
	}
	var removed []settings.Problem
	live := false
	for _, h := range homes {
		p, f, err := settings.Check(h, filepath.Join(h, "bin"), hook.Version, binaryVersion)
		if err != nil {
			return err
		}
		probs, files = append(probs, p...), append(files, f...)
		r, l, err := settings.Removed(h)
		if err != nil {
			return err
		}
		removed, live = append(removed, r...), live || l
	}
	if len(files) > 0 && !live {
		// Every entry left is one an uninstall left and the user then removed by hand.
		for _, r := range removed {
			fmt.Fprintf(c.App.Writer, "%s\n  removed by hand: %s\n", r.File, r.What)
		}
		fmt.Fprintln(c.App.Writer, "nothing of the harness is left in these files: harness uninstall forgets them (nothing is installed; run ./install.sh to install)")
		return cli.Exit("", 1)
	}
	if len(files) == 0 {
		// Not healthy: nothing guards anything, and a script that checks the exit status
		// must not take this for an install in place.
		fmt.Fprintln(c.App.Writer, "nothing is installed (run ./install.sh)")
		return cli.Exit("", 1)
	}
	// Files of trust tables only (a companion of a hook file) are checked with that file.
	trustFiles := map[string]bool{}
	for _, h := range homes {
		if m, err := settings.LoadManifest(h); err == nil {
			for _, r := range m.Files {
				if len(r.Trust) > 0 {
					trustFiles[r.Path] = true
				}
			}
		}
	}
	for _, f := range files {
		fmt.Fprintf(c.App.Writer, "%s\n", f)
		n := 0
		for _, p := range probs {
			if p.File == f {
				fmt.Fprintf(c.App.Writer, "  drift: %s\n", p.What)
				n++
			}
		}
		for _, r := range removed {
			if r.File == f {
				fmt.Fprintf(c.App.Writer, "  removed by hand: %s; no drift (harness uninstall or install forgets it)\n", r.What)
			}
		}
		switch {
		case n > 0:
		case trustFiles[f]:
			fmt.Fprintln(c.App.Writer, "  ok: valid TOML (its trust tables are checked with the hook file they trust)")
		default:
			fmt.Fprintln(c.App.Writer, "  ok: every entry in place, every binary present and current")
		}
	}
	// What the current project's own files do to the hooks: a warning, as the install is
	// sound; the project is where the hooks do not run.
	warns, err := projectHooks(homes, nil)
	if err != nil {
		return err
	}
	for _, w := range warns {
		fmt.Fprintf(c.App.Writer, "%s\n  warning: %s\n", w.File, w.What)
	}
	n := len(probs)
	if s := serveOf(home); s != nil {
		// Serve mode: the listener on its port must be harness serve with this install's secret.
		fmt.Fprintf(c.App.Writer, "harness serve on %s (serve mode of %s)\n", s.Listen, s.Settings)
		if h := checkServe(s); h.OK {
			fmt.Fprintf(c.App.Writer, "  ok: %s\n", h.Msg)
		} else {
			fmt.Fprintf(c.App.Writer, "  problem: %s\n", h.Msg)
			n++
		}
	}
	statusUnguarded(c.App.Writer, home)
	statusProjectOff(c.App.Writer, homes)
	if n > 0 {
		return cli.Exit(fmt.Sprintf("%d problem(s)", n), 1)
	}
	return nil
}

// binaryVersion asks a hook binary for its version ("Name VERSION").
func binaryVersion(bin string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return "", err
	}
	f := strings.Fields(string(out))
	if len(f) < 2 {
		return "", fmt.Errorf("%s --version printed %q", bin, out)
	}
	return f[len(f)-1], nil
}
