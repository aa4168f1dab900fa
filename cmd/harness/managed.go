package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/settings"
)

// dropIn is the harness's file in managed-settings.d. Claude Code reads the drop-ins in name
// order, each merged over the ones before (hooks accumulate): 50 leaves room on both sides for
// an organisation's own files.
const dropIn = "50-harness.json"

// The flags of a managed install, shared by install, uninstall and doctor.
var (
	prefixFlag     = &cli.StringFlag{Name: "prefix", Usage: "where a managed install's binaries and install record are (default: $HARNESS_PREFIX, else /opt/harness; C:\\Program Files\\harness on Windows)"}
	managedDirFlag = &cli.StringFlag{Name: "managed-dir", Usage: "with --managed: Claude Code's managed-settings folder (default: $HARNESS_MANAGED_DIR, else the platform's, " + defaultManagedDir() + " here)"}
)

// defaultManagedDir is where Claude Code reads managed settings on this platform.
func defaultManagedDir() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/ClaudeCode"
	case "windows":
		return `C:\Program Files\ClaudeCode`
	}
	return "/etc/claude-code"
}

// flagOrEnv is a flag's value, else the environment variable's, else def, made absolute.
func flagOrEnv(c *cli.Context, flag, env, def string) string {
	v := c.String(flag)
	if v == "" {
		v = os.Getenv(env)
	}
	if v == "" {
		v = def
	}
	abs, err := filepath.Abs(v)
	if err != nil {
		return v
	}
	return abs
}

func prefixOf(c *cli.Context) string {
	return flagOrEnv(c, "prefix", "HARNESS_PREFIX", settings.Prefix())
}

func dropInPath(c *cli.Context) string {
	return filepath.Join(flagOrEnv(c, "managed-dir", "HARNESS_MANAGED_DIR", defaultManagedDir()), "managed-settings.d", dropIn)
}

// managedBase is the drop-in before its hooks: it pins the system scope the hooks read, so that
// neither a user's environment nor a project's settings (env) can point them at another one.
func managedBase(system string) []byte {
	b, _ := json.MarshalIndent(map[string]any{"env": map[string]string{"HARNESS_SYSTEM_DIR": system}}, "", "  ")
	return append(b, '\n')
}

// managedInstall is install --managed: the binaries copied under --prefix, and the drop-in
// naming them in the managed-settings folder, both recorded in --prefix's manifest.
func managedInstall(c *cli.Context, src string, wirings []settings.Wiring, form settings.Form, onFailure bool) error {
	for _, f := range []string{"scope", "project", "settings"} {
		if c.IsSet(f) {
			return fmt.Errorf("--%s does not go with --managed, which writes Claude Code's managed settings", f)
		}
	}
	out := c.App.Writer
	prefix, file := prefixOf(c), dropInPath(c)
	bin := filepath.Join(prefix, "bin")
	system := systemDir(c)
	base := managedBase(system)
	want := map[string]string{}
	var groups []settings.Entry
	for _, w := range wirings {
		if err := checkBuilt(c, w, src); err != nil {
			return err
		}
		if w.Path == "" {
			want[w.Program(bin)] = w.Program(src)
		}
		// Each user keeps a harness home of their own: no --home; the system scope is pinned.
		g, err := w.Group(bin, form, onFailure, settings.Places{SystemDir: system})
		if err != nil {
			return err
		}
		groups = append(groups, settings.Entry{Hook: w.Hook, Event: w.Event, Matcher: w.Matcher, Group: g})
	}
	if c.Bool("print") {
		doc := base
		for _, g := range groups {
			var err error
			if doc, _, err = settings.AddGroup(doc, g.Event, g.Group); err != nil {
				return err
			}
		}
		fmt.Fprintf(c.App.ErrWriter, "harness install --managed would write this to %s, and the binaries it names to %s\n", file, bin)
		_, err := out.Write(doc)
		return err
	}
	// The CLI goes with the hooks, so that every machine has harness doctor at a known path.
	if self, err := os.Executable(); err == nil {
		want[filepath.Join(bin, "harness")] = self
	}
	m, err := settings.LoadManifest(prefix)
	if err != nil {
		return err
	}
	if cur, err := os.ReadFile(file); err == nil {
		if m.Find(file) == nil {
			return fmt.Errorf("%s is there and is not the harness's: remove it, or choose another --managed-dir", file)
		}
		if got := gjson.GetBytes(cur, "env.HARNESS_SYSTEM_DIR").Str; got != system {
			return fmt.Errorf("%s pins the system scope %s, not %s: run harness uninstall --managed first", file, got, system)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", file, err)
	}
	dry := c.Bool("dry-run")
	// A dry run first: a path the install may not write stops it before it creates anything.
	placed, err := settings.Place(prefix, want, []string{filepath.Dir(file)}, true)
	if err == nil && !dry {
		placed, err = settings.Place(prefix, want, []string{filepath.Dir(file)}, false)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s (binaries):\n", bin)
	for _, p := range placed {
		fmt.Fprintf(out, "  %s\n", p)
	}
	res, err := settings.Install(settings.Plan{File: file, Home: prefix, Groups: groups, Base: base, DryRun: dry})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s (managed drop-in), %s form:\n", file, map[settings.Form]string{settings.Exec: "exec", settings.Shell: "shell"}[form])
	for _, ch := range res.Changes {
		fmt.Fprintf(out, "  %s\n", ch)
	}
	if dry {
		writeDiff(out, file, res.Before, res.After)
	}
	var present []string
	for _, n := range []string{"config.json", "security.json", "writes.json"} {
		if _, err := os.Stat(filepath.Join(system, n)); err == nil {
			present = append(present, n)
		}
	}
	fmt.Fprintf(out, "system scope (the hooks' policy, which users and projects may only tighten): %s, holding %s\n", system, cmp.Or(strings.Join(present, ", "), "no file yet"))
	changed := res.Wrote
	for _, p := range placed {
		changed = changed || p.Kind != "keep"
	}
	footer(out, dry, changed, fmt.Sprintf("%s uninstall --managed --prefix %s --managed-dir %s", filepath.Join(bin, "harness"), prefix, filepath.Dir(filepath.Dir(file))))
	return nil
}

// managedUninstall is uninstall --managed: the drop-in, the binaries and the install record,
// each only while it holds what the install wrote, then the folders the install created.
func managedUninstall(c *cli.Context) error {
	out, prefix := c.App.Writer, prefixOf(c)
	force, dry := c.Bool("force"), c.Bool("dry-run")
	m, err := settings.LoadManifest(prefix)
	if err != nil {
		return err
	}
	if len(m.Files) == 0 && len(m.Copies) == 0 {
		fmt.Fprintf(out, "nothing of the harness is installed in %s\n", prefix)
		return nil
	}
	left := false
	for _, rec := range m.Files {
		res, err := settings.Uninstall(prefix, rec.Path, force, dry)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s:\n", rec.Path)
		for _, ch := range res.Changes {
			fmt.Fprintf(out, "  %s\n", ch)
			left = left || ch.Kind == "edited"
		}
		if _, err := os.Stat(rec.Path); res.Restored && errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintln(out, "  deleted the file: the install had created it")
		}
	}
	placed, err := settings.Unplace(prefix, force, dry)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s (binaries):\n", filepath.Join(prefix, "bin"))
	for _, p := range placed {
		fmt.Fprintf(out, "  %s\n", p)
		left = left || p.Kind == "edited"
	}
	if dry {
		fmt.Fprintln(out, "dry run: nothing was written")
		return nil
	}
	gone, err := settings.Clear(prefix)
	if err != nil {
		return err
	}
	for _, g := range gone {
		fmt.Fprintf(out, "removed %s\n", g)
	}
	if left {
		return cli.Exit("files changed since the install were left in place; remove them by hand or use --force", 1)
	}
	return nil
}
