package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/sandbox"
)

// claudeClient is the real Claude Code client the e2e tests use (tests/e2e), or "".
func claudeClient() string {
	if c := os.Getenv("HARNESS_E2E_CLAUDE"); c != "" {
		return c
	}
	c := filepath.Join(sandbox.Cache(), "harness", "claude-2.1.332", "node_modules", ".bin", "claude")
	if _, err := os.Stat(c); err == nil {
		return c
	}
	return ""
}

const pluginDir = "marketplace/plugins/harness-linux-x64"

// The plugin: hooks in exec form on the binaries in libexec/ (no bin/ for the model), each told
// its home as an argument, the manifest with author, license and no network host.
func TestPluginLayout(t *testing.T) {
	needBuild(t)
	dir := filepath.Join(relA, pluginDir)
	if _, err := os.Stat(filepath.Join(dir, "bin")); err == nil {
		t.Error("the plugin has a bin/ folder, which Claude Code offers the model as commands")
	}
	manifest, _ := os.ReadFile(filepath.Join(dir, ".claude-plugin", "plugin.json"))
	want := `{
  "name": "harness-linux-x64",
  "version": "` + testVersion + `",
  "description": "Guards, context and records for Claude Code, as small Go binaries (linux/amd64)",
  "author": {"name": "The harness authors", "url": "https://github.com/hookkit/harness"},
  "homepage": "https://github.com/hookkit/harness",
  "repository": "https://github.com/hookkit/harness",
  "license": "MIT",
  "keywords": ["hooks", "security", "guard", "audit"],
  "network": {"hosts": []}
}
`
	if string(manifest) != want {
		t.Errorf("plugin.json:\n%s\nwant:\n%s", manifest, want)
	}
	hooks, _ := os.ReadFile(filepath.Join(dir, "hooks", "hooks.json"))
	n := 0
	gjson.GetBytes(hooks, "hooks").ForEach(func(ev, groups gjson.Result) bool {
		for _, h := range groups.Get("#.hooks|@flatten").Array() {
			n++
			cmd, args := h.Get("command").Str, h.Get("args").Raw
			name := strings.TrimPrefix(cmd, "${CLAUDE_PLUGIN_ROOT}/libexec/")
			if name == cmd || !strings.Contains(args, `"--home=${CLAUDE_PLUGIN_DATA}"`) {
				t.Errorf("%s: command %s, args %s", ev.Str, cmd, args)
			}
			if st, err := os.Stat(filepath.Join(dir, "libexec", name)); err != nil || st.Mode().Perm() != 0o755 {
				t.Errorf("%s: %s is not an executable of the plugin (%v)", ev.Str, name, err)
			}
		}
		return true
	})
	if n < 20 {
		t.Errorf("hooks.json has %d hooks:\n%s", n, hooks)
	}
	b, _ := os.ReadFile(filepath.Join(relA, "marketplace", ".claude-plugin", "marketplace.json"))
	if got := gjson.GetBytes(b, "plugins.#.source").Raw; got != `["./plugins/harness-linux-x64"]` {
		t.Errorf("marketplace.json sources %s", got)
	}
	// Two builds give the same plugin, byte for byte.
	for _, f := range []string{".claude-plugin/plugin.json", ".claude-plugin/icon.png", "hooks/hooks.json", "README.md", "libexec/SecurityValidator"} {
		a, _ := os.ReadFile(filepath.Join(relA, pluginDir, f))
		b, _ := os.ReadFile(filepath.Join(relB, pluginDir, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the two builds", f)
		}
	}
}

// The real client validates the plugin (the directory's profile: no refusal, no warning) and
// the marketplace, installs the plugin from it; then harness install refuses beside it, and
// harness doctor flags an install made before the plugin.
func TestPluginInClaudeCode(t *testing.T) {
	needBuild(t)
	claude := claudeClient()
	if claude == "" {
		t.Skip("the real Claude Code client is not installed (see tests/e2e)")
	}
	m := newMachine(t)
	m.path = "/usr/bin:/bin"
	client := func(args ...string) string {
		t.Helper()
		out, errOut, code := m.run(t, claude, args...)
		if code != 0 {
			t.Fatalf("claude %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		return out
	}
	out := client("plugin", "validate", "--profile", "directory", filepath.Join(relA, pluginDir))
	if !strings.Contains(out, "✔ Validation passed\n") || strings.Contains(out, "warning") || strings.Contains(out, "problem") {
		t.Errorf("claude plugin validate:\n%s", out)
	}
	client("plugin", "validate", filepath.Join(relA, "marketplace"))

	// A settings install first, then the plugin beside it.
	dir := unpack(t, filepath.Join(relA, archiveName))
	if out, errOut, code := m.run(t, filepath.Join(dir, "harness"), "install"); code != 0 {
		t.Fatalf("harness install: exit %d\n%s%s", code, out, errOut)
	}
	client("plugin", "marketplace", "add", filepath.Join(relA, "marketplace"))
	client("plugin", "install", "harness-linux-x64@hookkit")
	cached := filepath.Join(m.home, ".claude", "plugins", "cache", "hookkit", "harness-linux-x64", testVersion, "libexec", "SecurityValidator")
	if st, err := os.Stat(cached); err != nil || st.Mode().Perm()&0o111 == 0 {
		t.Fatalf("the installed plugin has no executable SecurityValidator: %v", err)
	}

	_, stderr, code := m.run(t, filepath.Join(dir, "harness"), "install")
	want := "harness install: the harness plugin harness-linux-x64@hookkit is installed in Claude Code: with both, every tool call would be guarded and recorded twice; " +
		"nothing was installed (keep the plugin, or remove it first: claude plugin uninstall harness-linux-x64@hookkit)\n"
	if code != 1 || stderr != want {
		t.Errorf("install beside the plugin: exit %d, stderr %q; want 1, %q", code, stderr, want)
	}
	out, errOut, code := m.run(t, filepath.Join(m.harnessHome, "bin", "harness"), "doctor", "--json")
	plugin := gjson.Get(out, `checks.#(id=="plugin")`)
	if code != 1 || plugin.Get("status").Str != "fail" || !strings.HasPrefix(plugin.Get("message").Str, "the harness plugin harness-linux-x64@hookkit is installed in Claude Code too") {
		t.Errorf("doctor beside the plugin: exit %d, plugin check %s\n%s", code, plugin.Raw, errOut)
	}
}
