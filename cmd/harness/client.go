package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/settings"
)

// The one install flow: every client, Claude Code included, is installed from its declaration
// (lib/dialect/client_*.go), which says where its files are, what kind each is and what it
// leaves out. Nothing here names a client.

// chosenClient is the declaration --client names (Claude Code's when none), once the flags
// that belong to another client are refused.
func chosenClient(c *cli.Context) (*dialect.Dialect, error) {
	name := c.String("client")
	if name == "" {
		name = string(dialect.Default().Client)
	}
	for _, o := range dialect.All() {
		for _, f := range o.Flags {
			if c.IsSet(f) && !o.Identity && name != string(o.Client) {
				return nil, fmt.Errorf("--%s is for --client %s only", f, o.Client)
			}
		}
	}
	d, err := dialect.Lookup(name)
	if err != nil {
		return nil, err
	}
	for _, o := range dialect.All() {
		for _, f := range o.Flags {
			if c.IsSet(f) && o.Identity && d != o {
				return nil, fmt.Errorf("--%s is for %s only, not with --client %s", f, o.Title, d.Client)
			}
		}
	}
	return d, nil
}

// configDir is the client's configuration folder: Files.Env when set, else Files.Dir under the
// home directory.
func configDir(d *dialect.Dialect) (string, error) {
	if env := d.Files.Env; env != "" && os.Getenv(env) != "" {
		return filepath.Abs(os.Getenv(env))
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the home directory: %w", err)
	}
	return filepath.Join(home, d.Files.Dir), nil
}

// hookFile is the file install and uninstall work on for a client, and its scope: --settings,
// else the one --scope names (or the client's default scope). It is "" for a client whose file
// has no place of its own (Files.Paste) when --settings names none.
func hookFile(c *cli.Context, d *dialect.Dialect) (string, string, error) {
	f := d.Files
	if s := c.String("settings"); s != "" {
		if f.NoSettings != "" {
			return "", "", errors.New(f.NoSettings)
		}
		abs, err := filepath.Abs(s)
		return abs, "file", err
	}
	if f.Paste != "" {
		return "", "", nil
	}
	scope := c.String("scope")
	if !c.IsSet("scope") && f.DefaultScope != "" {
		scope = f.DefaultScope
	}
	if f.User == "" && scope != "project" {
		return "", "", fmt.Errorf("--client %s: %s", d.Client, f.NoUser)
	}
	project := func(rel string) (string, string, error) {
		dir := c.String("project")
		if dir == "" {
			var err error
			if dir, err = os.Getwd(); err != nil {
				return "", "", err
			}
		}
		dir, err := filepath.Abs(dir)
		return filepath.Join(dir, rel), scope, err
	}
	switch {
	case scope == "user":
		dir, err := configDir(d)
		return filepath.Join(dir, f.User), scope, err
	case scope == "project" && f.Project == "":
		return "", "", fmt.Errorf("--client %s --scope project: %s", d.Client, f.NoProject)
	case scope == "project":
		return project(f.Project)
	case scope == "local" && f.Local != "":
		return project(f.Local)
	case f.Local != "":
		return "", "", fmt.Errorf("--scope %q: use user, project or local", scope)
	}
	return "", "", fmt.Errorf("--client %s --scope %q: use user or project (local is Claude Code's)", d.Client, scope)
}

// present says whether the client is installed here: its command on PATH, or its folder (the
// hook file, for a client with no folder of its own) there. A client whose declaration names no
// command is not asked about.
func present(d *dialect.Dialect, file string) error {
	f := d.Files
	if f.Binary == "" {
		return nil
	}
	if _, err := exec.LookPath(f.Binary); err == nil {
		return nil
	}
	where := file
	if f.Dir != "" {
		dir, err := configDir(d)
		if err != nil {
			return err
		}
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return nil
		}
		where = dir
	} else if _, err := os.Stat(file); err == nil {
		return nil
	}
	return fmt.Errorf("%s is not installed here (no %s on PATH, no %s): install it first; nothing was changed", d.Title, f.Binary, where)
}

// transcriptHooks read the session's transcript: lib/transcript reads the formats the clients'
// declarations name (Transcript.Format), each checked on a real transcript in tests/clients.
var transcriptHooks = map[string]bool{"SessionSummary": true, "AgentOutputCapture": true}

// agentHooks read a subagent's own transcript: left out where the client's does not say where
// it is (Transcript.NoAgents).
var agentHooks = map[string]bool{"AgentOutputCapture": true}

// contextHooks give the model context (a briefing) at the start of a session: where the client
// drops that event's output (Dropped), the install says so.
var contextHooks = map[string]bool{"LoadContext": true}

// entries are the groups of the wiring in the client's vocabulary (in Claude Code's, form and
// onFailure as chosen), a line for each hook left out and why, and one for each hook wired
// whose context the client drops.
func entries(c *cli.Context, d *dialect.Dialect, home, bin string, form settings.Form, onFailure bool) ([]settings.Entry, []string, []string, error) {
	wirings, err := wiring(c, bin)
	if err != nil {
		return nil, nil, nil, err
	}
	var out []settings.Entry
	var skipped, notes []string
	for _, w := range wirings {
		if err := checkBuilt(c, w, bin); err != nil {
			return nil, nil, nil, err
		}
		if transcriptHooks[w.Hook] && d.Transcript.Format == "" {
			// A transcript they cannot read would give a summary of nothing that looks real.
			skipped = append(skipped, fmt.Sprintf("%s -> %s: it reads Claude Code's transcripts and those of the clients it knows, not %s's", w.Event, w.Hook, d.Title))
			continue
		}
		if agentHooks[w.Hook] && d.Transcript.NoAgents != "" {
			skipped = append(skipped, fmt.Sprintf("%s -> %s: %s", w.Event, w.Hook, d.Transcript.NoAgents))
			continue
		}
		moved := ""
		if dropped, ok := d.Dropped[event.Name(w.Event)]; ok && d.StartOnPrompt && contextHooks[w.Hook] && w.Event == string(event.SessionStart) {
			// The client hands the model a prompt hook's output: the hook's briefing goes with
			// the session's first prompt (the runtime runs it as SessionStart there, once).
			w.Event, w.Matcher = string(event.UserPromptSubmit), ""
			moved = fmt.Sprintf("%s -> %s: wired on %s instead, as %s: its briefing goes with the session's first prompt",
				event.SessionStart, w.Hook, event.UserPromptSubmit, dropped)
		}
		var es []settings.Entry
		if d.Identity {
			g, err := w.Group(bin, form, onFailure, places(c, home))
			if err != nil {
				return nil, nil, nil, err
			}
			es = []settings.Entry{{Hook: w.Hook, Event: w.Event, Matcher: w.Matcher, Group: g}}
		} else if es, err = w.ClientEntries(bin, d, places(c, home)); err != nil {
			return nil, nil, nil, err
		}
		why := d.Unwire(event.Name(w.Event))
		if _, unwired := d.Unwired[event.Name(w.Event)]; unwired {
			es = nil // whatever the dialect maps: the declaration leaves this event out
		}
		if len(es) == 0 {
			if why == "" {
				why = d.Title + " has no such event"
			}
			skipped = append(skipped, fmt.Sprintf("%s -> %s: %s", w.Event, w.Hook, why))
		}
		if dropped, ok := d.Dropped[event.Name(w.Event)]; ok && len(es) > 0 && contextHooks[w.Hook] {
			notes = append(notes, fmt.Sprintf("%s -> %s: wired, but %s", w.Event, w.Hook, dropped))
		}
		if moved != "" && len(es) > 0 {
			notes = append(notes, moved)
		}
		out = append(out, es...)
	}
	if d.Sequential {
		// The client runs an event's hooks one after another and stops at the first deny: the
		// record goes first, or it never sees a denied call.
		sort.SliceStable(out, func(i, j int) bool { return out[i].Hook == "AuditLog" && out[j].Hook != "AuditLog" })
	}
	if d.Files.SnakeEvents {
		for i := range out {
			out[i].Event = settings.SnakeEvent(out[i].Event)
		}
	}
	return out, skipped, notes, nil
}

// clientInstall is install for every client: its own file, in its own kind and vocabulary,
// with the same guarantees everywhere, and one report.
func clientInstall(c *cli.Context, d *dialect.Dialect, home, bin string) error {
	form, onFailure, why := settings.Shell, false, ""
	if d.Identity {
		var err error
		if form, onFailure, why, err = chooseForm(c.String("form")); err != nil {
			return err
		}
	} else if c.IsSet("form") && d.Files.Kind == dialect.PluginFile {
		return fmt.Errorf("--client %s: the plugin starts each hook with an argument vector: --form does not apply", d.Client)
	} else if c.IsSet("form") && c.String("form") != "shell" {
		return fmt.Errorf("--client %s: hooks run in shell form only (the client ignores args)", d.Client)
	}
	file, scope, err := hookFile(c, d)
	if err != nil {
		return err
	}
	if file != "" {
		if err := present(d, file); err != nil {
			return err
		}
	}
	groups, skipped, notes, err := entries(c, d, home, bin, form, onFailure)
	if err != nil {
		return err
	}
	plan := settings.Plan{File: file, Home: home, Groups: groups, DryRun: c.Bool("dry-run"), Client: d.Recorded()}
	if d.Files.Kind == dialect.YAMLBlock {
		var b strings.Builder
		if err := writeAgentHooks(&b, d, groups, c.Bool("on-error")); err != nil {
			return err
		}
		plan.Block, plan.Agent = b.String(), c.String("agent")
		if plan.Agent == "" {
			plan.Agent = "root"
		}
	}
	if d.Files.Kind == dialect.PluginFile {
		if plan.Block, err = settings.RenderPlugin(d, groups); err != nil {
			return err
		}
	}
	if file == "" {
		return paste(c, d, plan.Block, skipped)
	}
	res, err := settings.Install(plan)
	if err != nil {
		return err
	}
	where := scope + " scope"
	if plan.Agent != "" {
		where = "agent " + plan.Agent
	}
	if !d.Identity {
		where = d.Title + ", " + where
	}
	how := map[settings.Form]string{settings.Exec: "exec", settings.Shell: "shell"}[form] + " form"
	if d.Files.Kind == dialect.PluginFile {
		how = "a plugin: each hook started with an argument vector, no shell"
	}
	if why != "" {
		how += " (" + why + ")"
	}
	undo := "--client " + string(d.Client)
	script := " " + undo
	if d.Identity {
		undo, script = "--settings "+file, ""
	}
	reportInstall(c, home, installed{file: file, where: where, how: how, res: res, skipped: skipped, notes: notes, undo: undo, script: script})
	if d.Identity && !c.Bool("dry-run") {
		// Back to the binaries from serve mode: its units and secret go once no settings file
		// is wired to the server any more.
		return serveUninstall(c, home)
	}
	return nil
}

// paste prints the block of a client whose file has no place of its own, with the client's
// instructions on stderr, and writes nothing.
func paste(c *cli.Context, d *dialect.Dialect, block string, skipped []string) error {
	if c.Bool("dry-run") {
		return fmt.Errorf("--client %s without --settings prints the block and writes nothing: --dry-run does not apply", d.Client)
	}
	fmt.Fprintln(c.App.ErrWriter, d.Files.Paste)
	for _, s := range skipped {
		fmt.Fprintf(c.App.ErrWriter, "  not wired: %s\n", s)
	}
	// Nothing else goes to stdout (not even whether harness is on PATH): it is the block.
	_, err := io.WriteString(c.App.Writer, block)
	return err
}

// installed is what one install did, for its report.
type installed struct {
	file, where, how string
	res              settings.Result
	skipped          []string
	// notes are hooks wired whose context the client drops.
	notes []string
	// undo is what `harness uninstall` takes to undo it, script what ./install.sh --uninstall does.
	undo, script string
}

// reportInstall says what an install did, file by file, then whether harness is on PATH and how to
// undo it.
func reportInstall(c *cli.Context, home string, in installed) {
	out, dry := c.App.Writer, c.Bool("dry-run")
	fmt.Fprintf(out, "%s (%s), %s:\n", in.file, in.where, in.how)
	printResult(out, in.res)
	for _, s := range in.skipped {
		fmt.Fprintf(out, "  not wired: %s\n", s)
	}
	for _, s := range in.notes {
		fmt.Fprintf(out, "  note: %s\n", s)
	}
	wrote := in.res.Wrote
	for _, co := range in.res.Companions {
		fmt.Fprintf(out, "%s (%s):\n", co.File, co.Why)
		printResult(out, co.Result)
		wrote = wrote || co.Result.Wrote
	}
	if dry {
		writeDiff(out, in.file, hideServeSecret(home, in.res.Before), hideServeSecret(home, in.res.After))
	}
	name := onPath(out, home, c.String("built"), dry)
	footer(out, dry, wrote, fmt.Sprintf("%s uninstall %s   (or ./install.sh --uninstall%s)", name, in.undo, in.script))
}

// footer ends every install's report: whether anything was written, and how to undo it.
func footer(out io.Writer, dry, wrote bool, undo string) {
	switch {
	case dry:
		fmt.Fprintln(out, "dry run: nothing was written")
	case !wrote:
		fmt.Fprintln(out, "already up to date: nothing changed")
	default:
		fmt.Fprintf(out, "undo with: %s\n", undo)
	}
}

func printResult(out io.Writer, res settings.Result) {
	for _, ch := range res.Changes {
		fmt.Fprintf(out, "  %s\n", ch)
	}
	if res.Backup != "" {
		fmt.Fprintf(out, "  backup of the file as it was: %s\n", res.Backup)
	}
}

// clientFiles lists the files the manifest records for a client.
func clientFiles(home string, d *dialect.Dialect) ([]string, error) {
	m, err := settings.LoadManifest(home)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, r := range m.Files {
		if r.Client == d.Recorded() {
			files = append(files, r.Path)
		}
	}
	return files, nil
}
