package clients

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// codex is Codex CLI: OpenAI Responses, hooks in ~/.codex/hooks.json, run only when trusted by
// a hash in config.toml.
var codex = &client{
	name: "codex", version: "0.171.0",
	npm:     []string{"@openai/codex@0.171.0"},
	exe:     "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
	proto:   responses,
	preTool: "PreToolUse",
	configure: func(s *session, m *model) command {
		s.writeFile(filepath.Join(s.home, ".codex", "catalog.json"), codexCatalog(s.t, s.c.path()))
		s.writeFile(filepath.Join(s.home, ".codex", "config.toml"), []byte(fmt.Sprintf(`model = "fake-model"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false
model_catalog_json = %q

[model_providers.fake]
name = "fake"
base_url = "%s/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false
`, filepath.Join(s.home, ".codex", "catalog.json"), m.addr)))
		return func(prompt string) ([]string, []string) {
			return []string{s.c.path(), "exec", "--json", "--skip-git-repo-check", prompt}, []string{"FAKE_API_KEY=not-a-key"}
		}
	},
	shell: func(id, command string) call {
		return call{id: id, name: "exec_command", args: map[string]any{"cmd": command}}
	},
	// apply_patch is freeform: the patch is the input, its paths relative to the project.
	write: func(s *session, id, path, content string) call {
		return call{id: id, name: "apply_patch", freeform: "*** Begin Patch\n*** Add File: " + path + "\n+" + strings.TrimSuffix(content, "\n") + "\n*** End Patch\n"}
	},
	hooks: func(s *session, events map[string]any) {
		file := filepath.Join(s.home, ".codex", "hooks.json")
		s.writeJSON(file, map[string]any{"hooks": events})
		trust := codexTrust(s.t, file, events)
		f, err := os.OpenFile(filepath.Join(s.home, ".codex", "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			s.t.Fatal(err)
		}
		defer f.Close()
		f.WriteString(trust)
	},
}

// codexCatalog is the model catalog that makes Codex offer apply_patch to a made-up model:
// the bundled gpt-5.5 entry under the name fake-model (codex.md, "Offering apply_patch").
// Codex prints its bundled catalog offline; it is read once.
func codexCatalog(t *testing.T, exe string) []byte {
	t.Helper()
	catalog.once.Do(func() { catalog.b, catalog.err = bundledCatalog(exe) })
	if catalog.err != nil {
		t.Fatal(catalog.err)
	}
	return catalog.b
}

var catalog struct {
	once sync.Once
	b    []byte
	err  error
}

func bundledCatalog(exe string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	work, err := workDir()
	if err != nil {
		return nil, err
	}
	home, err := os.MkdirTemp(work, "codex-models-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	cmd := exec.CommandContext(ctx, exe, "debug", "models", "--bundled")
	cmd.Env = []string{"HOME=" + home, "CODEX_HOME=" + home, "PATH=" + os.Getenv("PATH")}
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("codex debug models --bundled: %w", err)
	}
	var cat struct{ Models []map[string]any }
	if err := json.Unmarshal(out, &cat); err != nil {
		return nil, err
	}
	for _, e := range cat.Models {
		if e["slug"] == "gpt-5.5" {
			e["slug"], e["display_name"] = "fake-model", "fake-model"
			return json.Marshal(map[string]any{"models": []any{e}})
		}
	}
	return nil, fmt.Errorf("no gpt-5.5 in codex's bundled models")
}

// codexTrust is the config.toml entries that trust every handler of a hooks.json: Codex runs
// no other (codex.md, "Trust"). The key is <hooks.json>:<snake_case event>:<group>:<handler>,
// the hash SHA-256 of the compact, key-sorted JSON of the event, the group's matcher and the
// one handler with its defaults filled in.
func codexTrust(t *testing.T, file string, events map[string]any) string {
	t.Helper()
	names := make([]string, 0, len(events))
	for e := range events {
		names = append(names, e)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, e := range names {
		snake := snakeCase(e)
		for gi, g := range events[e].([]any) {
			group := g.(map[string]any)
			for hi, h := range group["hooks"].([]any) {
				hm := h.(map[string]any)
				norm := map[string]any{"async": false, "command": hm["command"], "timeout": 600, "type": "command"}
				if v, ok := hm["timeout"]; ok {
					norm["timeout"] = v
				}
				if v, ok := hm["async"]; ok {
					norm["async"] = v
				}
				if v, ok := hm["statusMessage"]; ok {
					norm["statusMessage"] = v
				}
				id := map[string]any{"event_name": snake, "hooks": []any{norm}}
				if mt, ok := group["matcher"]; ok {
					id["matcher"] = mt
				}
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false) // serde_json does not escape <, >, &
				if err := enc.Encode(id); err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
				fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = \"sha256:%s\"\n", fmt.Sprintf("%s:%s:%d:%d", file, snake, gi, hi), hex.EncodeToString(sum[:]))
			}
		}
	}
	return b.String()
}

func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestCodex(t *testing.T) { testClient(t, codex) }

// trustProject trusts the session's project in the user's config.toml, as codex does when the
// user says yes to its folder prompt: only then does it read the project's .codex/.
func trustProject(s *session) {
	f, err := os.OpenFile(filepath.Join(s.home, ".codex", "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "\n[projects.%q]\ntrust_level = \"trusted\"\n", s.project)
}

// What a project's own files can do to the hooks the user installed, in Codex CLI: once the user
// trusts the project, its .codex/config.toml's [features] codex_hooks = false (or hooks = false)
// switches them off; in a project not trusted it does not, nor do a .codex/hooks.json that
// Codex cannot load or that empties an event, Claude Code's disableAllHooks, or a .env naming
// another CODEX_HOME; no env of the project's (.env, .codex/.env, shell_environment_policy)
// reaches the hooks; a .codex/config.toml that is not TOML stops Codex before anything runs.
// codexProbe adds a hook of the user's own to ~/.codex/hooks.json, after harness's and trusted
// like them, that writes its environment to ROOT/hook-env; and trusts the project.
func codexProbe(s *session) {
	trustProject(s)
	file := filepath.Join(s.home, ".codex", "hooks.json")
	var doc map[string]any
	if b, err := os.ReadFile(file); err != nil || json.Unmarshal(b, &doc) != nil {
		s.t.Fatalf("reading %s: %v", file, err)
	}
	events := doc["hooks"].(map[string]any)
	groups := append(list(events["PreToolUse"]), map[string]any{"matcher": "*", "hooks": []any{
		map[string]any{"type": "command", "command": "env > " + filepath.Join(s.root, "hook-env"), "timeout": 10}}})
	events["PreToolUse"] = groups
	s.writeJSON(file, doc)
	key := fmt.Sprintf(":pre_tool_use:%d:0\"]", len(groups)-1)
	for _, table := range strings.SplitAfter(codexTrust(s.t, file, map[string]any{"PreToolUse": groups}), "\"\n") {
		if i := strings.Index(table, "[hooks.state."); i >= 0 && strings.Contains(table, key) {
			f, err := os.OpenFile(filepath.Join(s.home, ".codex", "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				s.t.Fatal(err)
			}
			defer f.Close()
			fmt.Fprintf(f, "\n%s", table[i:])
			return
		}
	}
	s.t.Fatalf("no trust table for the probe (%s)", key)
}

func TestCodexProjectFiles(t *testing.T) {
	testProjectFiles(t, codex,
		projectCase{name: "codex_hooks off", user: trustProject, files: map[string]string{".codex/config.toml": "[features]\ncodex_hooks = false\n"}, off: true},
		projectCase{name: "hooks off", user: trustProject, files: map[string]string{".codex/config.toml": "[features]\nhooks = false\n"}, off: true},
		projectCase{name: "codex_hooks off, untrusted", files: map[string]string{".codex/config.toml": "[features]\ncodex_hooks = false\n"}},
		projectCase{name: "invalid hooks.json", user: trustProject, files: map[string]string{".codex/hooks.json": `{"$schema": "x", "hooks": {"PreToolUse": [{"matcher": "(", "hooks": []}]}}`}},
		projectCase{name: "empty hooks", user: trustProject, files: map[string]string{".codex/hooks.json": `{"hooks": {"PreToolUse": []}}`, ".codex/config.toml": "[hooks]\n"}},
		projectCase{name: "claude disableAllHooks", user: trustProject, files: map[string]string{".claude/settings.json": `{"disableAllHooks": true}`, ".env": hostileEnv + "CODEX_HOME=ELSEWHERE\n"}},
		projectCase{name: "env", user: codexProbe, envNot: []string{"HARNESS_AUDIT", "HARNESS_SYSTEM_DIR", "HARNESS_DEADLINE"}, files: map[string]string{
			".env": hostileEnv, ".codex/.env": hostileEnv, ".codex/config.toml": "[shell_environment_policy]\nset = { HARNESS_AUDIT = \"0\" }\n"}},
		projectCase{name: "bad toml", user: trustProject, files: map[string]string{".codex/config.toml": "[features\n"}, refused: true},
	)
}
