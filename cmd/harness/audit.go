package main

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/audit"
)

var auditCommand = &cli.Command{
	Name:  "audit",
	Usage: "read the flight recorder: every hook call, redacted ($HARNESS_HOME/projects/*/audit)",
	// main moves --project in front of the subcommand when it is given after it.
	Flags: []cli.Flag{&cli.StringFlag{Name: "project", Usage: "only this project's records (default: all projects)"}},
	Subcommands: []*cli.Command{
		{Name: "tail", Usage: "the last records", Flags: []cli.Flag{&cli.IntFlag{Name: "n", Value: 20}}, Action: auditTail},
		{Name: "why", Usage: "every hook's record and verdict on one tool call", ArgsUsage: "TOOL_USE_ID", Action: auditWhy},
		{Name: "top", Usage: "time per hook (p50, p95, max) and the slowest calls", Action: auditTop},
		{Name: "sessions", Usage: "sessions with their first and last record and counts", Action: auditSessions},
		{Name: "verify", Usage: "check each project's hash chain: the first edited, removed, inserted, reordered or malformed record (exit 1)",
			Action: auditVerify, OnUsageError: usageError},
		auditShipCommand,
		auditReportCommand,
		auditCollectorConfigCommand,
	},
}

func records(c *cli.Context) ([]gjson.Result, error) {
	home, err := harnessHome()
	if err != nil {
		return nil, err
	}
	project := c.String("project")
	if project != "" {
		project, _ = filepath.Abs(project)
	}
	return audit.Read(home, project)
}

func printRecords(w io.Writer, recs []gjson.Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tHOOK\tEVENT\tTOOL\tDECISION\tSUMMARY / REASON")
	for _, r := range recs {
		text := r.Get("summary").Str
		if reason := r.Get("reason").Str; reason != "" {
			text = reason
		}
		if e := r.Get("error").Str; e != "" {
			text += " [error: " + e + "]"
		}
		for _, p := range r.Get("problems").Array() {
			text += " [problem: " + p.Str + "]"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Get("time").Str, r.Get("hook").Str, r.Get("event").Str,
			cmp.Or(r.Get("tool").Str, "-"), cmp.Or(r.Get("decision").Str, "-"), text)
	}
	tw.Flush()
}

func auditTail(c *cli.Context) error {
	recs, err := records(c)
	if err != nil {
		return err
	}
	if n := c.Int("n"); len(recs) > n {
		recs = recs[len(recs)-n:]
	}
	printRecords(c.App.Writer, recs)
	return nil
}

func auditWhy(c *cli.Context) error {
	if c.NArg() != 1 {
		return fmt.Errorf("audit why takes one tool_use_id")
	}
	recs, err := records(c)
	if err != nil {
		return err
	}
	var out []gjson.Result
	for _, r := range recs {
		if r.Get("tool_use_id").Str == c.Args().First() {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return cli.Exit("no record of "+c.Args().First(), 1)
	}
	printRecords(c.App.Writer, out)
	return nil
}

func auditTop(c *cli.Context) error {
	recs, err := records(c)
	if err != nil {
		return err
	}
	times := map[string][]float64{}
	for _, r := range recs {
		if t := r.Get("took_ms"); t.Exists() {
			times[r.Get("hook").Str] = append(times[r.Get("hook").Str], t.Float())
		}
	}
	tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HOOK\tCALLS\tP50 MS\tP95 MS\tMAX MS")
	var hooks []string
	for h := range times {
		hooks = append(hooks, h)
	}
	sort.Strings(hooks)
	for _, h := range hooks {
		t := times[h]
		sort.Float64s(t)
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.2f\n", h, len(t), t[len(t)/2], t[len(t)*95/100], t[len(t)-1])
	}
	tw.Flush()
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Get("duration_ms").Int() > recs[j].Get("duration_ms").Int() })
	var slow []gjson.Result
	for _, r := range recs {
		if r.Get("duration_ms").Int() > 0 && len(slow) < 5 {
			slow = append(slow, r)
		}
	}
	if len(slow) > 0 {
		fmt.Fprintln(c.App.Writer, "\nslowest tool calls:")
		for _, r := range slow {
			fmt.Fprintf(c.App.Writer, "  %6d ms  %s  %s\n", r.Get("duration_ms").Int(), r.Get("tool").Str, r.Get("summary").Str)
		}
	}
	return nil
}

func auditSessions(c *cli.Context) error {
	recs, err := records(c)
	if err != nil {
		return err
	}
	type sess struct {
		first, last, project, client string
		events, denies               int
	}
	ss := map[string]*sess{}
	var order []string
	for _, r := range recs {
		id := r.Get("session").Str
		s, ok := ss[id]
		if !ok {
			s = &sess{first: r.Get("time").Str, project: r.Get("project").Str, client: audit.ClientOf(r)}
			ss[id] = s
			order = append(order, id)
		}
		s.last = r.Get("time").Str
		s.events++
		if r.Get("decision").Str == "deny" {
			s.denies++
		}
	}
	tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tPROJECT\tCLIENT\tFIRST\tLAST\tRECORDS\tDENIED")
	for _, id := range order {
		s := ss[id]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\n", cmp.Or(id, "-"), s.project, s.client, s.first, s.last, s.events, s.denies)
	}
	return tw.Flush()
}

// auditVerify walks every project's chain (or --project's) and prints one line per project:
// "ok PROJECT: ..." or "broken PROJECT: FILE:LINE: KIND: DETAIL". Exit 0 when every chain is
// whole, 1 when one is broken, 2 on a usage or read error.
func auditVerify(c *cli.Context) error {
	if c.NArg() > 0 {
		return cli.Exit("harness audit verify: takes no arguments (--project DIR narrows it to one project)", 2)
	}
	home, err := harnessHome()
	if err != nil {
		return cli.Exit("harness audit verify: "+err.Error(), 2)
	}
	var dirs []string
	if project := c.String("project"); project != "" {
		abs, err := filepath.Abs(project)
		if err != nil {
			return cli.Exit("harness audit verify: "+err.Error(), 2)
		}
		dir := audit.Dir(home, abs)
		if _, err := os.Stat(dir); err != nil {
			return cli.Exit(fmt.Sprintf("harness audit verify: no audit log for %s (%s)", abs, dir), 2)
		}
		dirs = []string{dir}
	} else {
		dirs, _ = filepath.Glob(filepath.Join(home, "projects", "*", "audit"))
		if len(dirs) == 0 {
			fmt.Fprintf(c.App.Writer, "no audit logs in %s\n", filepath.Join(home, "projects"))
			return nil
		}
	}
	broken, failed := 0, 0
	for _, dir := range dirs {
		rep, err := audit.VerifyWith(dir, audit.VerifyOptions{Sum: sha256.Sum256})
		name := cmp.Or(rep.Project, dir)
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(c.App.ErrWriter, "harness audit verify: %s: %v\n", name, err)
		case rep.Break != nil:
			broken++
			fmt.Fprintf(c.App.Writer, "broken %s: %s%s\n", name, rep.Break, malformed(rep.Malformed))
		case rep.Records == 0:
			fmt.Fprintf(c.App.Writer, "ok %s: no chained records%s\n", name, legacy(rep.Legacy))
		default:
			fmt.Fprintf(c.App.Writer, "ok %s: %d records, seq 1-%d%s, head %s\n", name, rep.Records, rep.Seq, legacy(rep.Legacy), rep.ID)
		}
	}
	switch {
	case failed > 0:
		return cli.Exit("", 2)
	case broken > 0:
		return cli.Exit("", 1)
	}
	return nil
}

func malformed(n int) string {
	if n == 0 {
		return ""
	}
	return " (" + plural(n, "malformed line") + " in all)"
}

func legacy(n int) string {
	if n == 0 {
		return ""
	}
	return ", after " + plural(n, "line") + " from before the chain"
}

// usageError makes a bad flag exit 2, as a usage error does elsewhere in the CLI.
func usageError(c *cli.Context, err error, _ bool) error {
	return cli.Exit("harness "+c.Command.FullName()+": "+err.Error(), 2)
}
