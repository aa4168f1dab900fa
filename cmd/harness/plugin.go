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
	Usage:     "write a Claude Code plugin (.claude-plugin/plugin.json, hooks/hooks.json, libexec/, README.md, LICENSE) into DIR",
	ArgsUsage: "DIR",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "bin", Usage: "where the built hook binaries are (default: $HARNESS_HOME/bin)"},
	},
	Action: plugin,
}

// plugin writes a plugin whose hooks run the binaries copied into it, in exec form with
// ${CLAUDE_PLUGIN_ROOT}, which Claude Code substitutes per argument. The binaries go in
// libexec/, not the bin/ Claude Code puts on the model's PATH, and each hook is told its home,
// the plugin's data folder, as ${CLAUDE_PLUGIN_DATA} on its command line. The release's
// marketplace (cmd/release) writes the same shape.
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
		g, err := w.Group("${CLAUDE_PLUGIN_ROOT}/libexec", settings.Exec, true, settings.Places{Home: "${CLAUDE_PLUGIN_DATA}"})
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
		if err := settings.Write(filepath.Join(dir, "libexec", w.Hook), b, 0o755); err != nil {
			return err
		}
	}
	manifest := fmt.Sprintf(`{
  "name": "harness",
  "version": %q,
  "description": "Guards, context and records for Claude Code, as small Go binaries",
  "author": {"name": "The harness authors", "url": "https://github.com/hookkit/harness"},
  "license": "MIT",
  "network": {"hosts": []}
}
`, pluginVersion())
	readme := "# harness for Claude Code\n\nThe harness's hooks as a Claude Code plugin, built from a local clone: SecurityValidator stops\n" +
		"dangerous commands, WriteProtector keeps writes and credential reads inside the project, SecretGuard keeps\n" +
		"secrets out of prompts and records, AuditLog records every tool call, and the context hooks brief each\n" +
		"session. The binaries are in libexec/; the hooks keep their records in the plugin's data folder. Use the\n" +
		"plugin or `harness install`, not both. Releases: https://github.com/hookkit/harness (docs/release.md).\n"
	if err := settings.Write(filepath.Join(dir, "README.md"), []byte(readme), 0o644); err != nil {
		return err
	}
	if err := settings.Write(filepath.Join(dir, "LICENSE"), harness.License, 0o644); err != nil {
		return err
	}
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
