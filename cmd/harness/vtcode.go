package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/settings"
)

// vtcodeInstall is install --client vtcode: VT Code reads its hooks from the project's
// vtcode.toml ([hooks.lifecycle]), which the installer edits in place.
func vtcodeInstall(c *cli.Context, d *dialect.Dialect, home, bin string) error {
	file := c.String("settings")
	scope := "file"
	switch {
	case file != "":
	case c.IsSet("scope") && c.String("scope") != "project":
		return errors.New("--client vtcode: VT Code reads its hooks from the project's vtcode.toml; use --scope project (the default) or --settings FILE")
	default:
		project := c.String("project")
		if project == "" {
			var err error
			if project, err = os.Getwd(); err != nil {
				return err
			}
		}
		file, scope = filepath.Join(project, "vtcode.toml"), "project"
	}
	file, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	if _, err := exec.LookPath("vtcode"); err != nil {
		if _, err := os.Stat(file); err != nil {
			return fmt.Errorf("VT Code is not installed here (no vtcode on PATH, no %s): install it first; nothing was changed", file)
		}
	}
	entries, skipped, err := clientEntries(c, d, home, bin)
	if err != nil {
		return err
	}
	for i := range entries {
		entries[i].Event = settings.CodexEvent(entries[i].Event) // vtcode.toml's keys are snake_case
	}
	res, err := settings.InstallVTCode(settings.Plan{File: file, Home: home, Groups: entries, DryRun: c.Bool("dry-run"), Client: string(d.Client)})
	if err != nil {
		return err
	}
	out := c.App.Writer
	fmt.Fprintf(out, "%s (%s, %s scope), shell form:\n", file, d.Title, scope)
	printResult(out, res)
	for _, s := range skipped {
		fmt.Fprintf(out, "  not wired: %s\n", s)
	}
	switch {
	case c.Bool("dry-run"):
		fmt.Fprintln(out, "dry run: nothing was written")
	case !res.Wrote:
		fmt.Fprintln(out, "already up to date: nothing changed")
	default:
		fmt.Fprintln(out, "undo with: harness uninstall --client vtcode")
	}
	return nil
}
