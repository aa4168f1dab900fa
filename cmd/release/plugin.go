package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookkit/harness"
	"github.com/hookkit/harness/lib/settings"
)

// The Claude Code marketplace: marketplace/.claude-plugin/marketplace.json lists one plugin per
// platform, marketplace/plugins/harness-<platform>-<arch>/. One plugin per platform, because a
// plugin is copied whole into every machine that installs it: one holding every platform would
// weigh six times as much, and a launcher choosing among them would be a script (no shell on
// Windows) deciding at run time. Each plugin holds the hook binaries only (not the harness CLI,
// which the plugin does not run) in libexec/, which Claude Code does not put on the model's
// PATH as it does a plugin's bin/. Every hook is told its home on its command line, the
// plugin's data folder, which Claude Code substitutes for ${CLAUDE_PLUGIN_DATA} in each
// argument; no hook reads it from the environment. The plugin never stands down at run time:
// `harness install` refuses to install beside it, and `harness doctor` flags both.

// marketplaceName is the marketplace's name, after the @ in a plugin's id.
const marketplaceName = "hookkit"

// pluginName is the plugin of a platform.
func pluginName(t target) string { return "harness-" + t.npm() }

const pluginAuthor = `{"name": "The harness authors", "url": "https://github.com/hookkit/harness"}`

// writePlugin writes t's plugin under marketplace/plugins/.
func writePlugin(c config, t target, bins, docs []file) error {
	dir := filepath.Join(c.out, "marketplace", "plugins", pluginName(t))
	ws, err := settings.ParseWiring(harness.Settings)
	if err != nil {
		return err
	}
	doc := []byte("{\n  \"description\": \"harness: Claude Code hooks in Go, " + t.String() + "\"\n}\n")
	used := map[string]bool{}
	for _, w := range ws {
		w.Hook = t.exe(w.Hook)
		used[w.Hook] = true
		g, err := w.Group("${CLAUDE_PLUGIN_ROOT}/libexec", settings.Exec, true, settings.Places{Home: "${CLAUDE_PLUGIN_DATA}"})
		if err != nil {
			return err
		}
		if doc, _, err = settings.AddGroup(doc, w.Event, g); err != nil {
			return err
		}
	}
	var files []file
	for _, b := range bins {
		if used[b.name] {
			files = append(files, file{name: "libexec/" + b.name, mode: 0o755, data: b.data})
		}
	}
	if len(files) != len(used) {
		return fmt.Errorf("the plugin for %s runs %d hooks, and %d of them are built", t, len(used), len(files))
	}
	var total int64
	for _, f := range files {
		total += int64(len(f.data))
	}
	manifest := fmt.Sprintf(`{
  "name": %q,
  "version": %q,
  "description": "Guards, context and records for Claude Code, as small Go binaries (%s)",
  "author": %s,
  "homepage": "https://github.com/hookkit/harness",
  "repository": "https://github.com/hookkit/harness",
  "license": "MIT",
  "keywords": ["hooks", "security", "guard", "audit"],
  "network": {"hosts": []}
}
`, pluginName(t), c.version, t, pluginAuthor)
	files = append(files,
		file{name: ".claude-plugin/plugin.json", mode: 0o644, data: []byte(manifest)},
		file{name: "hooks/hooks.json", mode: 0o644, data: doc},
		file{name: "README.md", mode: 0o644, data: []byte(pluginReadme(c, t, total))},
		file{name: ".claude-plugin/icon.png", mode: 0o644, data: icon()})
	for _, d := range docs {
		if d.name == "LICENSE" {
			files = append(files, d)
		}
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.data, f.mode); err != nil {
			return err
		}
	}
	return nil
}

func pluginReadme(c config, t target, binBytes int64) string {
	return fmt.Sprintf(`# harness for Claude Code (%s)

The harness's hooks as a Claude Code plugin, version %s, for %s: SecurityValidator stops
dangerous commands (rm -rf ~, curl | sh, ...), WriteProtector keeps writes and credential reads
inside the project, SecretGuard keeps secrets out of prompts and records, AuditLog records every
tool call, and the context hooks brief each session. Each hook is a small Go binary in
libexec/ (%s in all); nothing reaches the network (network.hosts is empty), and the model is not
offered the binaries as commands.

Install it from the harness marketplace, choosing the plugin of your platform:

    claude plugin marketplace add <release folder>/marketplace
    claude plugin install %s@%s

The hooks keep their policy files and records in the plugin's data folder, which Claude Code
names on each hook's command line (--home=${CLAUDE_PLUGIN_DATA}). Use the plugin or
`+"`harness install`"+`, not both: with both, every tool call is guarded and recorded twice, so
harness install refuses while the plugin is installed and harness doctor reports the two.

Documentation: https://github.com/hookkit/harness (docs/release.md). License: MIT.
`, t, c.version, t, size(binBytes), pluginName(t), marketplaceName)
}

// writeMarketplace writes marketplace/.claude-plugin/marketplace.json, listing the plugins of
// the platforms built, with the docs beside it.
func writeMarketplace(c config, docs []file) error {
	var entries []string
	for _, t := range c.targets {
		entries = append(entries, fmt.Sprintf(`    {
      "name": %q,
      "source": "./plugins/%s",
      "description": "The harness's hooks for Claude Code on %s",
      "version": %q,
      "author": %s,
      "license": "MIT"
    }`, pluginName(t), pluginName(t), t, c.version, pluginAuthor))
	}
	doc := fmt.Sprintf(`{
  "name": %q,
  "owner": %s,
  "metadata": {"description": "harness: guards, context and records for Claude Code, one plugin per platform", "version": %q},
  "plugins": [
%s
  ]
}
`, marketplaceName, pluginAuthor, c.version, strings.Join(entries, ",\n"))
	dir := filepath.Join(c.out, "marketplace")
	if err := os.MkdirAll(filepath.Join(dir, ".claude-plugin"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude-plugin", "marketplace.json"), []byte(doc), 0o644); err != nil {
		return err
	}
	for _, d := range docs {
		if err := os.WriteFile(filepath.Join(dir, d.name), d.data, d.mode); err != nil {
			return err
		}
	}
	return nil
}

// icon is the plugin's listing icon: 512 px square, a dark field with a light shield-like
// frame, drawn here so the release needs no image file.
func icon() []byte {
	const n = 512
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	dark, light := color.NRGBA{0x1d, 0x2b, 0x3a, 0xff}, color.NRGBA{0x7f, 0xd1, 0xae, 0xff}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := dark
			// A frame 40 px wide, 96 px in from the edges, whose lower half narrows to a point.
			in := func(m int) bool {
				top, side := 96+m, 96+m
				if y < top || x < side || x >= n-side {
					return false
				}
				if y < n/2 {
					return true
				}
				w := (n/2 - side) * (n - 64 - m - y) / (n - 64 - m - n/2)
				return y < n-64-m && x >= n/2-w && x < n/2+w
			}
			if in(0) && !in(40) {
				c = light
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}
