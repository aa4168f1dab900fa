package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/canary"
	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/settings"
)

var doctorCommand = &cli.Command{
	Name:  "doctor",
	Usage: "check every installed hook (binary, self-description, version) and prove each guard enforces with a canary",
	Description: "For every settings file the installer changed: each entry is in place, each binary exists,\n" +
		"is executable, describes itself as the hook it is wired as and is this build's version; then\n" +
		"each guard gets a known-dangerous and a known-safe payload, run exactly as Claude Code runs it\n" +
		"(same arguments, same timeout), and must stop the first and stay silent on the second.\n" +
		"Exits 1 when anything is wrong. With --client X, the hooks installed for that client, each canary in\n" +
		"the client's payload shape, run with the command line and timeout written in its file (in the\n" +
		"client's unit) and the answer read as that client reads it.",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "client", Usage: "check only the hooks installed for this client (claude, codex, copilot, qwen, droid, gemini)"},
	},
	Action: doctor,
}

func doctor(c *cli.Context) error {
	home, err := harnessHome()
	if err != nil {
		return err
	}
	hs, err := canary.Installed(home)
	if err != nil {
		return err
	}
	// files: the settings files checked (all when nil).
	var files map[string]bool
	if name := c.String("client"); name != "" {
		d, err := dialect.Lookup(name)
		if err != nil {
			return err
		}
		recorded, err := clientFiles(home, name)
		if err != nil {
			return err
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
			fmt.Fprintf(c.App.Writer, "nothing is installed for %s (run ./install.sh --client %s)\n", d.Title, name)
			return cli.Exit("", 1)
		}
	}
	if len(hs) == 0 {
		fmt.Fprintln(c.App.Writer, "nothing is installed (run ./install.sh)")
		return cli.Exit("", 1)
	}
	project, done, err := canary.Scratch()
	if err != nil {
		return err
	}
	defer done()

	w := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "RESULT\tHOOK\tEVENT\tCHECK\tDETAIL")
	failed := 0
	row := func(ok bool, h canary.Handler, check, detail string) {
		res := "ok"
		if !ok {
			res, failed = "FAIL", failed+1
		}
		ev := h.Event
		if h.Client != nil {
			ev = string(h.Client.Client) + ":" + h.ClientEvent
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", res, h.Hook, ev, check, detail)
	}
	probs, _, err := settings.Check(home, "", "", nil)
	if err != nil {
		return err
	}
	for _, p := range probs {
		if files != nil && !files[p.File] {
			continue
		}
		failed++
		fmt.Fprintf(w, "FAIL\t-\t-\tsettings\t%s: %s\n", p.File, p.What)
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
			fmt.Fprintf(w, "warn\t%s\t%s\tclient\tClaude Code %s never runs %s hooks (they came in %s): update Claude Code, or this route is not guarded\n",
				h.Hook, h.Event, event.Version(client), h.Event, spec.Since)
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
				row(true, h, "canary", fmt.Sprintf("%s: %s (%s) in %v", cs.Name, r.Got, r.How, r.Took.Round(time.Millisecond)))
			case r.OK():
				row(true, h, "canary", fmt.Sprintf("%s: %s in %v", cs.Name, r.Got, r.Took.Round(time.Millisecond)))
			default:
				row(false, h, "canary", fmt.Sprintf("%s: %s", cs.Name, r.Problem))
			}
		}
		if cases == 0 {
			row(true, h, "canary", "no canary for this guard on "+h.Event)
		}
	}
	w.Flush()
	if failed > 0 {
		return cli.Exit(fmt.Sprintf("%d problem(s): a guard that fails here does not protect you", failed), 1)
	}
	fmt.Fprintln(c.App.Writer, "every installed hook is in place and every guard enforces")
	return nil
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
