package clients

import (
	"path/filepath"
	"testing"
)

// kilo is Kilo Code CLI, built on OpenCode: the same plugin API and tools, its config in
// ~/.config/kilo. The registry has no platform package of 7.8.1 (the newest CLI): 7.7.7's pair
// is what runs.
var kilo = &client{
	name: "kilo", version: "7.7.7",
	npm:   []string{"@kilocode/cli@7.7.7", "@kilocode/cli-linux-x64@7.7.7"},
	exe:   "node_modules/@kilocode/cli-linux-x64/bin/kilo",
	proto: chat,
	configure: func(s *session, m *model) command {
		s.writeJSON(filepath.Join(s.home, ".config", "kilo", "kilo.json"), openCodeConfig(m))
		return func(prompt string) ([]string, []string) {
			return []string{s.c.path(), "run", "--format", "json", "--auto", "-m", "fake/fake-model", prompt}, xdg(s)
		}
	},
	shell: opencode.shell,
	write: opencode.write,
}

func TestKilo(t *testing.T) { testPlugin(t, kilo) }

func TestKiloProjectFiles(t *testing.T) {
	testPluginProjectFiles(t, kilo, func(s *session, rewrite string) { openCodeProjectFiles(s, ".kilo", rewrite) })
}
