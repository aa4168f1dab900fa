package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/danger"
	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/paths"
	htmlreport "github.com/hookkit/harness/lib/report"
	"github.com/hookkit/harness/lib/settings"
)

// The exit codes of harness audit report (docs/cli.md).
const (
	reportProblems = 1 // the page is written, and shows at its top what is wrong with the log
	reportFailed   = 2 // a flag's value is wrong, or the page cannot be written: nothing is
)

// defaultReportRange is how far back a report looks without --since.
const defaultReportRange = 7 * 24 * time.Hour

var auditReportCommand = &cli.Command{
	Name:  "report",
	Usage: "write the audit trail as one self-contained HTML page: counts per client and project, blocks and asks over time, rules, sessions, the chain",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "html", Usage: "write the page to `FILE` (mode 0600; - for stdout)"},
		&cli.StringFlag{Name: "since", Usage: "records from `WHEN`: an RFC 3339 time, a day (2026-11-22, UTC), or a duration back from now (36h, 7d, 2w); default 7d before --until"},
		&cli.StringFlag{Name: "until", Usage: "records before `WHEN` (same forms as --since); default now"},
		&cli.StringFlag{Name: "client", Usage: "only the records of this client (" + strings.Join(dialect.Names(), ", ") + ", or unknown: records from before clients were kept)"},
		&cli.BoolFlag{Name: "include-prompts", Usage: "show each session's first prompts (redacted as recorded); left out by default"},
	},
	Action:       auditReport,
	OnUsageError: usageError,
}

func auditReport(c *cli.Context) error {
	fail := func(format string, args ...any) error {
		return cli.Exit("harness audit report: "+fmt.Sprintf(format, args...), reportFailed)
	}
	if c.NArg() > 0 {
		return fail("takes no arguments (the page goes to --html FILE)")
	}
	dest := c.String("html")
	if dest == "" {
		return fail("--html FILE is required (- writes the page to stdout)")
	}
	now := time.Now()
	until, err := when(c.String("until"), now, now)
	if err != nil {
		return fail("--until: %v", err)
	}
	since, err := when(c.String("since"), until.Add(-defaultReportRange), now)
	if err != nil {
		return fail("--since: %v", err)
	}
	if !since.Before(until) {
		return fail("--since %s is not before --until %s", since.UTC().Format(time.RFC3339), until.UTC().Format(time.RFC3339))
	}
	client := c.String("client")
	if client != "" && client != audit.Unknown && !slices.Contains(dialect.Names(), client) {
		return fail("--client %q is not a client (known: %s, unknown)", client, strings.Join(dialect.Names(), ", "))
	}
	home, err := harnessHome()
	if err != nil {
		return fail("%v", err)
	}
	project := c.String("project")
	if project != "" {
		if project, err = filepath.Abs(project); err != nil {
			return fail("--project: %v", err)
		}
	}
	// The output is opened before any work: a path that cannot be written fails at once.
	out, err := openReport(dest, c.App.Writer)
	if err != nil {
		return fail("%v", err)
	}
	defer out.abort()

	o := htmlreport.Options{HarnessHome: home, Project: project, Client: client, Since: since, Until: until,
		IncludePrompts: c.Bool("include-prompts"), Catalog: append(danger.Rules(), paths.Rules()...),
		Generated: now, Version: hook.Version}
	if d, err := dialect.Lookup(client); client == "" || err == nil && d == dialect.Default() {
		o.Doctor = coverage(c, home, now)
	} else {
		o.NotChecked = "harness doctor looks for hooks that never ran, and sessions without them, in Claude Code's installs and transcripts only"
	}
	d, err := htmlreport.Build(o)
	if err != nil {
		return fail("%v", err)
	}
	if err := d.Write(out); err != nil {
		return fail("%v", err)
	}
	if err := out.commit(); err != nil {
		return fail("%v", err)
	}
	where := dest
	if dest == "-" {
		where = "stdout"
	}
	summary := fmt.Sprintf("%s in the range, %d tool calls, %d blocked, %d asked", plural(d.Records, "record"), d.Total.Calls, d.Total.Blocked, d.Total.Asked)
	if len(d.Problems) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "harness audit report: wrote %s (%s); the log has problems, shown at the top of the page:\n", where, summary)
		for _, p := range d.Problems {
			fmt.Fprintln(c.App.ErrWriter, "  "+p)
		}
		return cli.Exit("", reportProblems)
	}
	fmt.Fprintf(c.App.ErrWriter, "harness audit report: wrote %s (%s)\n", where, summary)
	return nil
}

// coverage are harness doctor's findings on hooks configured but never run and on sessions
// that ran with no harness hook: the same checks, on the same install records.
func coverage(c *cli.Context, home string, now time.Time) []htmlreport.Finding {
	var out []htmlreport.Finding
	homes := settings.Homes(home, prefixOf(c))
	if p := prefixOf(c); !slices.Contains(homes, p) {
		homes = append(homes, p)
	}
	ran, err := neverRan(config.Scopes{System: systemDir(c), Home: home}, homes, nil, now)
	if err != nil {
		out = append(out, htmlreport.Finding{Check: "ran", Status: "fail", Message: "could not be checked: " + err.Error()})
	}
	userHome, _ := os.UserHomeDir()
	off, err := unguardedFindings(home, hook.ClaudeDir(userHome), now)
	if err != nil {
		out = append(out, htmlreport.Finding{Check: "unguarded", Status: "fail", Message: "could not be checked: " + err.Error()})
	}
	for _, f := range append(ran, off...) {
		msg := f.Message
		if f.Hook != "" && !strings.HasPrefix(msg, f.Hook) {
			msg = f.Hook + ": " + msg
		}
		out = append(out, htmlreport.Finding{Check: f.Check, Status: f.Status, Message: msg})
	}
	return out
}

// when reads a time flag: an RFC 3339 time, a day (UTC midnight), or a duration back from
// now with the units of time.ParseDuration and d (days) and w (weeks). "" is def.
func when(v string, def, now time.Time) (time.Time, error) {
	if v == "" {
		return def, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	if n, unit := strings.TrimRight(v, "dw"), strings.TrimLeft(v, "0123456789"); unit == "d" || unit == "w" {
		k, err := strconv.Atoi(n)
		if err == nil && k >= 0 {
			day := 24 * time.Hour
			if unit == "w" {
				day *= 7
			}
			return now.Add(-time.Duration(k) * day), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a time (2026-11-22T09:00:00Z), a day (2026-11-22) or a duration back from now (36h, 7d, 2w)", v)
}

// reportFile is where the page goes: stdout, or a temporary file beside the destination,
// renamed over it once the page is whole (mode 0600: the page holds what the records hold).
type reportFile struct {
	w    io.Writer
	tmp  *os.File
	dest string
	done bool
}

func openReport(dest string, stdout io.Writer) (*reportFile, error) {
	if dest == "-" {
		return &reportFile{w: stdout, done: true}, nil
	}
	if st, err := os.Stat(dest); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory: --html takes a file name", dest)
	}
	dir := filepath.Dir(dest)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(dest)+".harness-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot write %s: %v (in %s)", dest, err, dir)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("cannot write %s: %w", dest, err)
	}
	return &reportFile{w: tmp, tmp: tmp, dest: dest}, nil
}

func (r *reportFile) Write(b []byte) (int, error) { return r.w.Write(b) }

func (r *reportFile) commit() error {
	if r.tmp == nil {
		return nil
	}
	err := r.tmp.Sync()
	if cerr := r.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(r.tmp.Name(), r.dest)
	}
	if err != nil {
		os.Remove(r.tmp.Name())
		return fmt.Errorf("writing %s: %w", r.dest, err)
	}
	r.done = true
	return nil
}

// abort removes the temporary file of a page that was not finished.
func (r *reportFile) abort() {
	if !r.done && r.tmp != nil {
		r.tmp.Close()
		os.Remove(r.tmp.Name())
	}
}
