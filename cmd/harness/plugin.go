package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/settings"
)

var pluginCommand = &cli.Command{
	Name:      "plugin",
	Usage:     "write a Claude Code plugin (.claude-plugin/plugin.json, hooks/hooks.json, bin/) into DIR",
	ArgsUsage: "DIR",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "bin", Usage: "where the built hook binaries are (default: $HARNESS_HOME/bin)"},
	},
	Action: plugin,
}

// plugin writes a plugin whose hooks run the binaries copied into it, in exec form with
// ${CLAUDE_PLUGIN_ROOT}, which Claude Code substitutes per argument.
func plugin(c *cli.Context) error {
	if c.NArg() != 1 {
		return fmt.Errorf("plugin takes one directory")
	}
	dir := c.Args().First()
	bin := c.String("bin")
	if bin == "" {
		home, err := harnessHome()
		if err != nil {
			return err
		}
		bin = filepath.Join(home, "bin")
	}
	ws, err := settings.ParseWiring(harness.Settings)
	if err != nil {
		return err
	}
	doc := []byte("{\n  \"description\": \"harness: Claude Code hooks in Go\"\n}\n")
	copied := map[string]bool{}
	for _, w := range ws {
		g, err := w.Group("${CLAUDE_PLUGIN_ROOT}/bin", settings.Exec, true, settings.Places{})
		if err != nil {
			return err
		}
		if doc, _, err = settings.AddGroup(doc, w.Event, g); err != nil {
			return err
		}
		if copied[w.Hook] {
			continue
		}
		copied[w.Hook] = true
		b, err := os.ReadFile(filepath.Join(bin, w.Hook))
		if err != nil {
			return fmt.Errorf("%s is not built in %s (run ./install.sh, or pass --bin): %w", w.Hook, bin, err)
		}
		if err := settings.Write(filepath.Join(dir, "bin", w.Hook), b, 0o755); err != nil {
			return err
		}
	}
	manifest := fmt.Sprintf("{\n  \"name\": \"harness\",\n  \"version\": %q,\n  \"description\": \"Guards, context and records for Claude Code, as small Go binaries\"\n}\n", pluginVersion())
	if err := settings.Write(filepath.Join(dir, ".claude-plugin", "plugin.json"), []byte(manifest), 0o644); err != nil {
		return err
	}
	if err := settings.Write(filepath.Join(dir, "hooks", "hooks.json"), doc, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote the plugin to %s (%d hooks)\n", dir, len(copied))
	return nil
}

// pluginVersion is a semantic version for plugin.json ("0.0.0-devel" for a development build).
func pluginVersion() string {
	if v := hook.Version; len(v) > 0 && v[0] >= '0' && v[0] <= '9' {
		return v
	}
	return "0.0.0-" + hook.Version
}
