package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/hook"
)

// The harness as a Claude Code plugin (the release's marketplace, or `harness plugin DIR`)
// and the harness installed in settings run the same hooks: with both, every tool call is
// guarded and recorded twice. The plugin does not stand down at run time (what it would read
// to decide, a project could forge), so the installer refuses to install beside it and doctor
// reports the two.

// harnessPluginID matches the ids of the harness's plugins: harness-<platform>-<arch>@<market>
// from a release, harness@<market> from `harness plugin`.
var harnessPluginID = regexp.MustCompile(`^harness(-(linux|darwin|win32)-(x64|arm64))?@[^@]+$`)

// harnessPlugins lists the harness plugins Claude Code has installed or enabled for this user:
// plugins/installed_plugins.json (any scope) and enabledPlugins in the user's settings.
func harnessPlugins() []string {
	home, _ := os.UserHomeDir()
	dir := hook.ClaudeDir(home)
	seen := map[string]bool{}
	if b, err := os.ReadFile(filepath.Join(dir, "plugins", "installed_plugins.json")); err == nil {
		gjson.GetBytes(b, "plugins").ForEach(func(k, v gjson.Result) bool {
			if harnessPluginID.MatchString(k.Str) && len(v.Array()) > 0 {
				seen[k.Str] = true
			}
			return true
		})
	}
	if b, err := os.ReadFile(filepath.Join(dir, "settings.json")); err == nil {
		gjson.GetBytes(b, "enabledPlugins").ForEach(func(k, v gjson.Result) bool {
			if harnessPluginID.MatchString(k.Str) && v.Type == gjson.True {
				seen[k.Str] = true
			}
			return true
		})
	}
	var ids []string
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// beforeInstall runs before an install wires anything: it refuses a Claude Code install beside
// the harness plugin, then installs the binaries of a release folder (archive.go).
func beforeInstall(c *cli.Context, bin string) error {
	// Claude Code's install (the default dialect) is the one the plugin would double.
	if d, err := dialect.Lookup(c.String("client")); c.String("client") == "" || err == nil && d == dialect.Default() {
		if ids := harnessPlugins(); len(ids) > 0 {
			return cli.Exit(fmt.Sprintf("harness install: the harness plugin %s is installed in Claude Code: with both, every tool call would be guarded and recorded twice; "+
				"nothing was installed (keep the plugin, or remove it first: claude plugin uninstall %s)", strings.Join(ids, ", "), ids[0]), 1)
		}
	}
	return fromRelease(c, bin)
}

// pluginFinding is doctor's row for the plugin installed beside the settings install.
func pluginFinding(checks []finding) []finding {
	if len(checks) == 0 || len(checks) == 1 && checks[0].Check == "install" {
		return nil // nothing installed in settings: the plugin alone is fine
	}
	ids := harnessPlugins()
	if len(ids) == 0 {
		return nil
	}
	return []finding{{ID: "plugin", Check: "plugin", Status: "fail",
		Message: fmt.Sprintf("the harness plugin %s is installed in Claude Code too: every tool call is guarded and recorded twice; keep one (claude plugin uninstall %s, or harness uninstall)",
			strings.Join(ids, ", "), ids[0])}}
}
