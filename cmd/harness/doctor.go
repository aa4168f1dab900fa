package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/canary"
	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/server"
	"github.com/hookkit/harness/lib/settings"
	"github.com/hookkit/harness/lib/ship"
)

var doctorCommand = &cli.Command{
	Name:  "doctor",
	Usage: "check every installed hook (binary, self-description, version) and prove each guard enforces with a canary",
	Description: "For every settings file the installer changed: each entry is in place, each binary exists,\n" +
		"is executable, describes itself as the hook it is wired as and is this build's version; then\n" +
		"each guard gets a known-dangerous and a known-safe payload, run exactly as Claude Code runs it\n" +
		"(same arguments, same timeout), and must stop the first and stay silent on the second.\n" +
		"It also checks the hooks installed for every user (install --managed, under --prefix), and reports\n" +
		"hooks that have left no audit record since their install (doctor.never_ran_after, default 24h), and\n" +
		"the Claude Code sessions of the last 30 days that made tool calls with no harness hook running, and\n" +
		"the settings of the project it runs in that switch off the hooks installed for a client.\n" +
		"Exits 1 when anything is wrong, 2 when it could not check. With --client X, the hooks installed for that client, each canary in\n" +
		"the client's payload shape, run with the command line and timeout written in its file (in the\n" +
		"client's unit) and the answer read as that client reads it.",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "client", Usage: "check only the hooks installed for this client (claude, " + otherClients("or") + ")"},
		&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON document (docs/cli.md); exit 0 healthy, 1 problems, 2 could not run"},
		prefixFlag,
	},
	Action: doctor,
}

// finding is one row of doctor's report, and one element of --json's checks.
type finding struct {
	// ID is stable from run to run: the check, the hook, the event (and the canary case).
	ID      string `json:"id"`
	Check   string `json:"check"`
	Status  string `json:"status"` // ok, warn, fail or skip
	Hook    string `json:"hook,omitempty"`
	Event   string `json:"event,omitempty"`
	File    string `json:"file,omitempty"`
	Message string `json:"message"`
}

// report is doctor --json's document (docs/cli.md, "harness doctor --json").
type report struct {
	Version int       `json:"version"`
	Harness string    `json:"harness"`
	Status  string    `json:"status"` // ok, warn, fail, or error when doctor could not run
	Error   string    `json:"error,omitempty"`
	Checks  []finding `json:"checks"`
}

// Doctor's exit codes: healthy (warnings allowed), problems found, could not run.
const (
	doctorHealthy  = 0
	doctorProblems = 1
	doctorError    = 2
)

func doctor(c *cli.Context) error {
	checks, err := diagnose(c)
	checks = append(checks, pluginFinding(checks)...) // the plugin beside the install (pluginbeside.go)
	if c.Bool("json") {
		r := report{Version: 1, Harness: hook.Version, Status: "ok", Checks: checks}
		if r.Checks == nil {
			r.Checks = []finding{}
		}
		if err != nil {
			r.Status, r.Error, r.Checks = "error", err.Error(), []finding{}
		}
		for _, f := range checks {
			switch {
			case r.Status == "error":
			case f.Status == "fail":
				r.Status = "fail"
			case f.Status == "warn" && r.Status == "ok":
				r.Status = "warn"
			}
		}
		b, _ := json.MarshalIndent(r, "", "  ")
		c.App.Writer.Write(append(b, '\n'))
		switch r.Status {
		case "error":
			return cli.Exit("", doctorError)
		case "fail":
			return cli.Exit("", doctorProblems)
		}
		return nil
	}
	if err != nil {
		return cli.Exit("harness doctor: "+err.Error(), doctorError)
	}
	if len(checks) == 1 && checks[0].Check == "install" {
		fmt.Fprintln(c.App.Writer, checks[0].Message)
		return cli.Exit("", doctorProblems)
	}
	w := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "RESULT\tHOOK\tEVENT\tCHECK\tDETAIL")
	failed := 0
	for _, f := range checks {
		res := map[string]string{"ok": "ok", "warn": "warn", "fail": "FAIL", "skip": "skip"}[f.Status]
		failed += map[bool]int{true: 1}[f.Status == "fail"]
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", res, cmp.Or(f.Hook, "-"), cmp.Or(f.Event, "-"), f.Check, f.Message)
	}
	w.Flush()
	if failed > 0 {
		return cli.Exit(fmt.Sprintf("%d problem(s): a guard that fails here does not protect you", failed), doctorProblems)
	}
	fmt.Fprintln(c.App.Writer, "every installed hook is in place and every guard enforces")
	return nil
}

// diagnose runs every check on the hooks installed for this user ($HARNESS_HOME) and for every
// user (install --managed, under --prefix); an error means doctor could not run.
func diagnose(c *cli.Context) ([]finding, error) {
	home, err := harnessHome()
	if err != nil {
		return nil, err
	}
	homes := settings.Homes(home, prefixOf(c))
	if p := prefixOf(c); !slices.Contains(homes, p) {
		homes = append(homes, p)
	}
	var hs []canary.Handler
	for _, h := range homes {
		got, err := canary.Installed(h)
		if err != nil {
			return nil, err
		}
		hs = append(hs, got...)
	}
	// files: the settings files checked (all when nil).
	var files map[string]bool
	if name := c.String("client"); name != "" {
		d, err := dialect.Lookup(name)
		if err != nil {
			return nil, err
		}
		recorded, err := clientFiles(home, d)
		if err != nil {
			return nil, err
		}
		files = map[string]bool{}
		for _, f := range recorded {
			files[f] = true
		}
		var mine []canary.Handler
		for _, h := range hs {
			if files[h.File] {
				mine = append(mine, h)
			}
		}
		if hs = mine; len(hs) == 0 {
			return []finding{{ID: "install", Check: "install", Status: "fail",
				Message: fmt.Sprintf("nothing is installed for %s (run ./install.sh --client %s)", d.Title, name)}}, nil
		}
	}
	if len(hs) == 0 {
		return []finding{{ID: "install", Check: "install", Status: "fail", Message: "nothing is installed (run ./install.sh)"}}, nil
	}
	project, done, err := canary.Scratch()
	if err != nil {
		return nil, err
	}
	defer done()

	var out []finding
	ids := map[string]bool{}
	add := func(status string, h canary.Handler, check, detail, id string) {
		ev := h.Event
		if h.Client != nil {
			ev = string(h.Client.Client) + ":" + h.ClientEvent
		}
		key := check + ":" + h.Hook + ":" + ev
		if id != "" {
			key += ":" + id
		}
		if ids[key] { // the same hook on the same event in another file (user and managed)
			key += "@" + h.File
		}
		ids[key] = true
		out = append(out, finding{ID: key, Check: check, Status: status, Hook: h.Hook, Event: ev, File: h.File, Message: detail})
	}
	row := func(ok bool, h canary.Handler, check, detail string) {
		add(map[bool]string{true: "ok", false: "fail"}[ok], h, check, detail, "")
	}
	for _, hm := range homes {
		probs, _, err := settings.Check(hm, "", "", nil)
		if err != nil {
			return nil, err
		}
		for _, p := range probs {
			if files != nil && !files[p.File] {
				continue
			}
			out = append(out, finding{ID: "settings:" + p.File + ":" + p.What, Check: "settings", Status: "fail", File: p.File, Message: p.File + ": " + p.What})
		}
	}
	// Serve mode: what listens on its port must be harness serve with this install's secret;
	// then the guards' canaries go through it, in a session of doctor's own.
	var served serveHealth
	if s := serveOf(home); s != nil && (files == nil || files[s.Settings]) {
		served = checkServe(s)
		out = append(out, finding{ID: "serve:" + s.Listen, Check: "serve", Status: map[bool]string{true: "ok", false: "fail"}[served.OK],
			File: s.Settings, Message: served.Msg})
		if served.OK {
			userHome, _ := os.UserHomeDir()
			if err := server.Register(home, canarySession, server.Session{Project: project, Home: userHome}); err != nil {
				return nil, err
			}
			defer server.Unregister(home, canarySession)
		}
	}
	// An event newer than the installed Claude Code never fires there: its guards guard nothing.
	client, clientKnown := claudeVersion()
	described := map[string]*hook.Description{}
	seen := map[string]bool{}
	for _, h := range hs {
		// One row per handler: a client that needs a group per SessionStart source has the same
		// handler several times.
		if key := h.File + "\x00" + h.Hook + "\x00" + h.ClientEvent + "\x00" + h.Command; h.Client != nil {
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		if h.Hook == "serve-register" {
			continue // serve mode's SessionStart command: the serve check above is its health
		}
		if h.URL != "" {
			doctorHTTP(h, served, project, add)
			continue
		}
		d, ok := described[h.Program]
		if !ok {
			d, err = describeBinary(h.Program)
			if err != nil {
				row(false, h, "binary", err.Error())
				described[h.Program] = nil
				continue
			}
			described[h.Program] = d
		} else if d == nil {
			continue
		}
		switch {
		case d.Name != h.Hook:
			row(false, h, "binary", fmt.Sprintf("%s describes itself as %s", h.Program, d.Name))
			continue
		case d.Version != hook.Version:
			row(false, h, "binary", fmt.Sprintf("%s is version %s, this harness is %s (run ./install.sh)", h.Program, d.Version, hook.Version))
			continue
		}
		row(true, h, "binary", fmt.Sprintf("%s (%s, fails %s)", h.Program, d.Version, d.Policy))
		if spec, _ := event.Lookup(event.Name(h.Event)); h.Client == nil && clientKnown && !spec.In(event.Version(client)) {
			add("warn", h, "client", fmt.Sprintf("Claude Code %s never runs %s hooks (they came in %s): update Claude Code, or this route is not guarded",
				event.Version(client), h.Event, spec.Since), "")
		}
		if d.Policy != "closed" {
			continue
		}
		cases := 0
		for _, cs := range canary.Cases[h.Hook] {
			if cs.Event != h.Event {
				continue
			}
			cases++
			r := canary.Check(h, h.Timeout, project, cs)
			switch {
			case r.OK() && r.How != "":
				add("ok", h, "canary", fmt.Sprintf("%s: %s (%s) in %v", cs.Name, r.Got, r.How, r.Took.Round(time.Millisecond)), cs.Name)
			case r.OK():
				add("ok", h, "canary", fmt.Sprintf("%s: %s in %v", cs.Name, r.Got, r.Took.Round(time.Millisecond)), cs.Name)
			default:
				add("fail", h, "canary", fmt.Sprintf("%s: %s", cs.Name, r.Problem), cs.Name)
			}
		}
		if cases == 0 {
			row(true, h, "canary", "no canary for this guard on "+h.Event)
		}
	}
	// The current project's own files that switch the hooks off or bring their own.
	var only *dialect.Dialect
	if name := c.String("client"); name != "" {
		only, _ = dialect.Lookup(name)
	}
	warns, err := projectHooks(homes, only)
	if err != nil {
		return nil, err
	}
	for _, w := range warns {
		out = append(out, finding{ID: "project:" + w.File + ":" + w.What, Check: "project", Status: "warn", File: w.File, Message: w.File + ": " + w.What})
	}
	ran, err := neverRan(config.Scopes{System: systemDir(c), Home: home}, homes, files, time.Now())
	if err != nil {
		return nil, err
	}
	out = append(out, ran...)
	// Sessions that made tool calls while no harness hook ran (a project's disableAllHooks).
	// Those are found in Claude Code's transcripts, of a session of Claude Code's.
	if d, err := dialect.Lookup(cmp.Or(c.String("client"), string(dialect.Default().Client))); err == nil && d.Identity {
		userHome, _ := os.UserHomeDir()
		off, err := unguardedFindings(home, hook.ClaudeDir(userHome), time.Now())
		if err != nil {
			return nil, err
		}
		out = append(out, off...)
	}
	// The project doctor runs in may switch the hooks off in its own files.
	out = append(out, projectOffFindings(handlerClients(hs))...)
	// A shipping run the endpoint refused: the records wait locally for the next one.
	for _, f := range ship.Failures(home) {
		project, _, _ := strings.Cut(f, ": ")
		out = append(out, finding{ID: "ship:" + project, Check: "ship", Status: "warn", Message: f})
	}
	return out, nil
}

// describeBinary runs a hook's --describe.
func describeBinary(bin string) (*hook.Description, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--describe").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --describe: %v", bin, err)
	}
	var d hook.Description
	if err := json.Unmarshal(out, &d); err != nil {
		return nil, fmt.Errorf("%s --describe printed no description: %v", bin, err)
	}
	return &d, nil
}
