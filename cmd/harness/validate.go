package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/lint"
)

// validateCommand lints settings files. Exit codes: 0 no errors (warnings allowed), 1 errors
// (an unreadable file is one), 2 a usage problem.
var validateCommand = &cli.Command{
	Name:      "validate",
	Usage:     "check Claude Code settings files for hook mistakes: exit 1 on errors, 0 on warnings only",
	ArgsUsage: "FILE...",
	Flags: []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: `print one JSON document: {"files":[{"file","findings":[...]}],"errors":N,"warnings":N}`},
		&cli.StringFlag{Name: "client", Usage: "check another client's hook file in its own terms: " + otherClients("or") + " (event names, timeout units, matchers, trust)"},
	},
	OnUsageError: func(_ *cli.Context, err error, _ bool) error {
		return cli.Exit("harness: validate: "+err.Error(), 2)
	},
	Action: func(c *cli.Context) error {
		asJSON := c.Bool("json")
		var files []string
		// urfave/cli stops reading flags at the first file; accept --json after them too.
		for _, a := range c.Args().Slice() {
			if a == "--json" {
				asJSON = true
				continue
			}
			files = append(files, a)
		}
		if len(files) == 0 {
			return cli.Exit("harness: validate needs at least one settings file (harness validate [--json] FILE...)", 2)
		}
		reports := make([]lint.Report, len(files))
		d := dialect.Default()
		if name := c.String("client"); name != "" {
			var err error
			if d, err = dialect.Lookup(name); err != nil {
				return cli.Exit("harness: validate: --client: "+err.Error(), 2)
			}
		}
		if !d.Identity {
			for i, f := range files {
				reports[i] = lint.ClientFile(f, d)
			}
			return finishValidate(c, reports, asJSON)
		}
		// Events newer than the installed Claude Code are warned about (HARNESS_CLAUDE names
		// another binary); without a claude to ask, nothing is assumed.
		client, found := claudeVersion()
		for i, f := range files {
			reports[i] = lint.File(f)
			if found {
				reports[i] = lint.ForClient(reports[i], event.Version(client))
			}
		}
		return finishValidate(c, reports, asJSON)
	},
}

// finishValidate prints the reports and exits 1 when any has an error.
func finishValidate(c *cli.Context, reports []lint.Report, asJSON bool) error {
	write := writeFindings
	if asJSON {
		write = writeFindingsJSON
	}
	errs, err := write(c.App.Writer, reports)
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if errs > 0 {
		return cli.Exit("", 1) // the findings say why
	}
	return nil
}

// writeFindings prints one line per finding, file:path: severity rule: message, then a summary.
func writeFindings(w io.Writer, reports []lint.Report) (int, error) {
	errs, warns := 0, 0
	for _, r := range reports {
		for _, f := range r.Findings {
			loc := r.File
			if f.Path != "" {
				loc += ":" + f.Path
			}
			if _, err := fmt.Fprintf(w, "%s: %s %s: %s\n", loc, f.Severity, f.Rule, f.Message); err != nil {
				return 0, err
			}
		}
		errs += r.Count(lint.Error)
		warns += r.Count(lint.Warning)
	}
	summary := "no problems"
	if errs+warns > 0 {
		summary = plural(errs, "error") + ", " + plural(warns, "warning")
	}
	_, err := fmt.Fprintf(w, "%s in %s\n", summary, plural(len(reports), "file"))
	return errs, err
}

func writeFindingsJSON(w io.Writer, reports []lint.Report) (int, error) {
	doc := struct {
		Files    []lint.Report `json:"files"`
		Errors   int           `json:"errors"`
		Warnings int           `json:"warnings"`
	}{Files: reports}
	for _, r := range reports {
		doc.Errors += r.Count(lint.Error)
		doc.Warnings += r.Count(lint.Warning)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // messages quote shell commands: keep & < > readable
	return doc.Errors, enc.Encode(doc)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
