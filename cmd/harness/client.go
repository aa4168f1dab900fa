package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/settings"
)

// clientHome is where a client other than Claude Code keeps its configuration, and the file
// the installer writes there (../shared/protocol/clients/<client>.md, "Hook configuration").
type clientHome struct {
	binary string // the client's command, looked up on PATH
	dir    string // its configuration folder under the home directory
	env    string // a variable that moves that folder
	file   string // the hook file, relative to dir
	// project is the hook file relative to a project, "" when the client reads no project file
	// of its own in Claude Code's format; why says so.
	project, why string
}

var clientHomes = map[dialect.Client]clientHome{
	dialect.Codex: {binary: "codex", dir: ".codex", env: "CODEX_HOME", file: "hooks.json",
		why: "Codex's project hooks (.codex/) are documented but not verified, and would need the project trusted as well; install in user scope"},
	dialect.Copilot: {binary: "copilot", dir: ".copilot", file: filepath.Join("hooks", "harness.json"),
		why: "Copilot CLI reads Claude Code's format in a project only from .claude/settings.json (and settings.local.json), which Claude Code reads too; " +
			"install in user scope (~/.copilot/hooks/harness.json), or use `harness install --scope project` for both clients"},
	dialect.Qwen:   {binary: "qwen", dir: ".qwen", file: "settings.json", project: filepath.Join(".qwen", "settings.json")},
	dialect.Droid:  {binary: "droid", dir: ".factory", file: "settings.json", why: "droid's project settings are not documented as reading hooks; install in user scope"},
	dialect.Gemini: {binary: "gemini", dir: ".gemini", file: "settings.json", project: filepath.Join(".gemini", "settings.json")},
}

// configDir is the client's configuration folder.
func (h clientHome) configDir() (string, error) {
	if h.env != "" && os.Getenv(h.env) != "" {
		return filepath.Abs(os.Getenv(h.env))
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the home directory: %w", err)
	}
	return filepath.Join(home, h.dir), nil
}

// installed says whether the client is there: its command on PATH or its folder present.
func (h clientHome) installed() (bool, string, error) {
	dir, err := h.configDir()
	if err != nil {
		return false, "", err
	}
	if _, err := exec.LookPath(h.binary); err == nil {
		return true, dir, nil
	}
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return true, dir, nil
	}
	return false, dir, nil
}

// clientTarget is the hook file install --client writes, and its scope.
func clientTarget(c *cli.Context, d *dialect.Dialect) (string, string, error) {
	h := clientHomes[d.Client]
	if f := c.String("settings"); f != "" {
		if d.Client == dialect.Codex {
			return "", "", fmt.Errorf("--client codex writes $CODEX_HOME/hooks.json and trusts it in $CODEX_HOME/config.toml: set CODEX_HOME instead of --settings")
		}
		abs, err := filepath.Abs(f)
		return abs, "file", err
	}
	switch scope := c.String("scope"); scope {
	case "user":
		dir, err := h.configDir()
		return filepath.Join(dir, h.file), "user", err
	case "project":
		if h.project == "" {
			return "", "", fmt.Errorf("--client %s --scope project: %s", d.Client, h.why)
		}
		project := c.String("project")
		if project == "" {
			var err error
			if project, err = os.Getwd(); err != nil {
				return "", "", err
			}
		}
		project, err := filepath.Abs(project)
		return filepath.Join(project, h.project), "project", err
	default:
		return "", "", fmt.Errorf("--client %s --scope %q: use user or project (local is Claude Code's)", d.Client, scope)
	}
}

// transcriptHooks read the session's transcript: lib/transcript reads Claude Code's format and
// the formats of transcriptClients only.
var transcriptHooks = map[string]bool{"SessionSummary": true, "AgentOutputCapture": true}

// transcriptClients are the clients whose own transcript format lib/transcript reads (each
// checked on a real transcript in tests/clients).
var transcriptClients = map[dialect.Client]bool{dialect.Codex: true, dialect.Copilot: true, dialect.Qwen: true,
	dialect.Droid: true, dialect.Gemini: true}

// clientEntries are the groups of the wiring in the client's vocabulary, and a line for each
// hook left out and why.
func clientEntries(c *cli.Context, d *dialect.Dialect, home, bin string) ([]settings.Entry, []string, error) {
	wirings, err := wiring(c, bin)
	if err != nil {
		return nil, nil, err
	}
	var entries []settings.Entry
	var skipped []string
	for _, w := range wirings {
		if err := checkBuilt(c, w, bin); err != nil {
			return nil, nil, err
		}
		if transcriptHooks[w.Hook] && !transcriptClients[d.Client] {
			// A transcript they cannot read would give a summary of nothing that looks real.
			skipped = append(skipped, fmt.Sprintf("%s -> %s: it reads Claude Code's transcripts and those of the clients it knows, not %s's", w.Event, w.Hook, d.Title))
			continue
		}
		es, err := w.ClientEntries(bin, d, places(c, home))
		if err != nil {
			return nil, nil, err
		}
		if d.Client == dialect.Copilot && w.Event == string(event.PermissionRequest) {
			es = nil // whatever the dialect says: a failing PermissionRequest hook denies the call
		}
		if len(es) == 0 {
			skipped = append(skipped, fmt.Sprintf("%s -> %s: %s", w.Event, w.Hook, notWired(d, event.Name(w.Event))))
		}
		entries = append(entries, es...)
	}
	return entries, skipped, nil
}

// clientInstall is install --client X for a client other than Claude Code: the client's own
// file, in its own format and vocabulary, with the same guarantees as Claude Code's install.
func clientInstall(c *cli.Context, d *dialect.Dialect, home, bin string) error {
	if c.IsSet("form") && c.String("form") != "shell" {
		return fmt.Errorf("--client %s: hooks run in shell form only (the client ignores args)", d.Client)
	}
	file, scope, err := clientTarget(c, d)
	if err != nil {
		return err
	}
	if ok, dir, err := clientHomes[d.Client].installed(); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("%s is not installed here (no %s on PATH, no %s): install it first; nothing was changed",
			d.Title, clientHomes[d.Client].binary, dir)
	}
	entries, skipped, err := clientEntries(c, d, home, bin)
	if err != nil {
		return err
	}
	if d.Sequential {
		// The client runs an event's hooks one after another and stops at the first deny: the
		// record goes first, or it never sees a denied call.
		sort.SliceStable(entries, func(i, j int) bool { return entries[i].Hook == "AuditLog" && entries[j].Hook != "AuditLog" })
	}
	plan := settings.Plan{File: file, Home: home, Groups: entries, DryRun: c.Bool("dry-run"), Client: string(d.Client)}
	out := c.App.Writer
	var res, trust settings.Result
	if d.Client == dialect.Codex {
		res, trust, err = settings.InstallCodex(plan)
	} else {
		res, err = settings.Install(plan)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s (%s, %s scope), shell form:\n", file, d.Title, scope)
	printResult(out, res)
	for _, s := range skipped {
		fmt.Fprintf(out, "  not wired: %s\n", s)
	}
	wrote := res.Wrote
	if d.Client == dialect.Codex {
		fmt.Fprintf(out, "%s (Codex runs only the hooks it trusts):\n", settings.CodexConfig(file))
		printResult(out, trust)
		wrote = wrote || trust.Wrote
	}
	switch {
	case c.Bool("dry-run"):
		fmt.Fprintln(out, "dry run: nothing was written")
	case !wrote:
		fmt.Fprintln(out, "already up to date: nothing changed")
	default:
		fmt.Fprintf(out, "undo with: harness uninstall --client %s   (or ./install.sh --uninstall --client %s)\n", d.Client, d.Client)
	}
	return nil
}

func printResult(out io.Writer, res settings.Result) {
	for _, ch := range res.Changes {
		fmt.Fprintf(out, "  %s\n", ch)
	}
	if res.Backup != "" {
		fmt.Fprintf(out, "  backup of the file as it was: %s\n", res.Backup)
	}
}

// notWired says why a hook's event is left out for a client.
func notWired(d *dialect.Dialect, ev event.Name) string {
	if d.Client == dialect.Copilot && ev == event.PermissionRequest {
		return "Copilot CLI sends PermissionRequest hooks its own payload and denies the call when such a hook fails"
	}
	return d.Title + " has no such event"
}

// clientFiles lists the files the manifest records for a client ("" or claude: Claude Code's).
func clientFiles(home, client string) ([]string, error) {
	m, err := settings.LoadManifest(home)
	if err != nil {
		return nil, err
	}
	if client == string(dialect.Claude) {
		client = ""
	}
	var files []string
	for _, r := range m.Files {
		if r.Client == client {
			files = append(files, r.Path)
		}
	}
	return files, nil
}
