package paths

import (
	"path"
	"strings"
)

// A planted file is one another program runs or loads by itself, without the agent: a client
// starting the project's MCP servers, direnv entering a folder, git firing a hook manager's
// scripts, an editor opening the folder, another coding agent reading its project settings.
// Code written there runs later, outside every guard, so a write to one asks. The list is
// closed: a file belongs here only if a program acts on it with no one choosing to run the
// project's code (a Makefile, package.json scripts or launch configurations run only when the
// user runs them, and VS Code's settings.json names programs only for features the user turns
// to, and is edited all the time: they are left out). Names are compared without case: macOS
// and Windows file systems fold it, and a repository written on Linux is opened there too.
//
// A pattern is a path relative to a folder of the project: a file (".envrc"), a folder and
// everything under it (".husky/"), or a name with * in its last part (".github/hooks/*.json").
// A folder a pattern lies in matches too: a copy or move into it may bring the file along. It
// matches at any depth, since a folder of the project (a monorepo's package, a nested
// repository) may be opened on its own, and direnv loads the .envrc of any folder entered.
var planted = []struct{ pattern, what string }{
	// Claude Code's own project settings (.claude/settings*.json) keep their tier, ask.project-settings.
	{".mcp.json", "the project's MCP servers, which Claude Code starts as programs"},
	{".claude/hooks/", "a hook script, which the project's settings run on tool calls"},
	{".envrc", "a direnv file, which the shell loads and runs on entering the folder"},
	{".husky/", "a husky git hook, which git runs on commit, push or checkout"},
	{".githooks/", "a git hooks folder (core.hooksPath), whose scripts git runs on commit, push or checkout"},
	{"lefthook.yml", lefthook}, {"lefthook.yaml", lefthook}, {"lefthook.toml", lefthook}, {"lefthook.json", lefthook},
	{".lefthook.yml", lefthook}, {".lefthook.yaml", lefthook}, {".lefthook.toml", lefthook}, {".lefthook.json", lefthook},
	{"lefthook-local.yml", lefthook}, {"lefthook-local.yaml", lefthook}, {"lefthook-local.toml", lefthook}, {"lefthook-local.json", lefthook},
	{".lefthook-local.yml", lefthook}, {".lefthook-local.yaml", lefthook}, {".lefthook-local.toml", lefthook}, {".lefthook-local.json", lefthook},
	{".pre-commit-config.yaml", "pre-commit's configuration, whose hooks git runs on commit"},
	{".vscode/tasks.json", "VS Code's tasks, which can run when the folder is opened"},
	{".vscode/mcp.json", "VS Code's MCP servers, which the editor starts as programs"},
	{".devcontainer/devcontainer.json", "a dev container's configuration, whose commands run when the container is built or opened"},
	{".devcontainer.json", "a dev container's configuration, whose commands run when the container is built or opened"},
	{".cursor/mcp.json", "Cursor's MCP servers, which the editor starts as programs"},
	{".cursor/hooks.json", "Cursor's hooks, which the editor runs on agent actions"},
	{".codex/config.toml", "Codex's project configuration, which sets its hooks, MCP servers and sandbox"},
	{".codex/hooks.json", "Codex's project hooks"},
	{".gemini/settings.json", "Gemini CLI's project settings, which set its hooks and MCP servers"},
	{".qwen/settings.json", "Qwen Code's project settings, which set its hooks and MCP servers"},
	{".factory/settings.json", "droid's project settings, which set its hooks"},
	{".factory/settings.local.json", "droid's project settings, which set its hooks"},
	{".qoder/settings.json", "Qoder CLI's project settings, which set its hooks and can switch them all off"},
	{".qoder/settings.local.json", "Qoder CLI's project settings, which set its hooks and can switch them all off"},
	{".github/hooks/*.json", "Copilot CLI's project hooks"},
	{".github/copilot/settings.json", "Copilot CLI's repository settings, which set its hooks or switch them all off"},
	{".github/copilot/settings.local.json", "Copilot CLI's repository settings, which set its hooks or switch them all off"},
	{".qoder/settings.json", "Qoder CLI's project settings, which set its hooks or switch them all off"},
	{".qoder/settings.local.json", "Qoder CLI's project settings, which set its hooks or switch them all off"},
}

// Planted says what a file is when another program runs or loads it by itself (see planted);
// rel is its path relative to the project (or any folder above it), with / separators. It
// returns "" for every other file.
func Planted(rel string) string {
	rel = strings.ToLower(strings.Trim(rel, "/"))
	if !strings.Contains(rel, ".") {
		return "" // every name on the list has a dot
	}
	for {
		for _, p := range planted {
			if plantMatch(p.pattern, rel) {
				return p.what
			}
		}
		for _, p := range planted {
			if strings.HasPrefix(p.pattern, rel+"/") {
				// A folder copied or moved into place (cp -r x .vscode, mv t.json .vscode/)
				// brings the files on the list with it.
				return "a folder that holds " + p.what
			}
		}
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return ""
		}
		rel = rel[i+1:]
	}
}

func plantMatch(pattern, rel string) bool {
	switch {
	case strings.HasSuffix(pattern, "/"):
		return strings.HasPrefix(rel, pattern) || rel+"/" == pattern
	case strings.Contains(pattern, "*"):
		ok, _ := path.Match(pattern, rel)
		return ok
	}
	return rel == pattern
}

const lefthook = "lefthook's configuration, whose commands git hooks run"

// PlantedUnder is Planted for a path p inside dir (the project): "" when p is elsewhere.
func PlantedUnder(dir, p string) string {
	if rel, ok := relTo(p, dir); ok {
		return Planted(rel)
	}
	return ""
}

// ProjectSettings reports the project's Claude Code settings (.claude/settings.json and
// settings.local.json), with the case of the part under the project folded as macOS and
// Windows fold it.
//
// In a folder of the project too: a client started there (cd sub && claude -p ...) reads it
// as its project's.
func ProjectSettings(project, p string) bool {
	rel, ok := relTo(p, project)
	rel = "/" + strings.ToLower(rel)
	return ok && (strings.HasSuffix(rel, "/.claude/settings.json") || strings.HasSuffix(rel, "/.claude/settings.local.json"))
}

// UserSettings reports the user's Claude Code settings (~/.claude/settings.json and
// settings.local.json), the case of the part under home folded.
func UserSettings(home, p string) bool {
	rel, ok := relTo(p, home)
	rel = strings.ToLower(rel)
	return ok && (rel == ".claude/settings.json" || rel == ".claude/settings.local.json")
}

// relTo returns p relative to dir when p is inside it.
func relTo(p, dir string) (string, bool) {
	if dir == "" || !strings.HasPrefix(dir, "/") || !strings.HasPrefix(p, dir+"/") {
		return "", false
	}
	return p[len(dir)+1:], true
}

// plants says what a resolved path r is when it is planted (see planted) in the project or a
// directory the policy allows, as written (lexical) or as resolved: a link at .husky/pre-commit
// that points at scripts/x.sh is still the hook git runs.
func (e Env) plants(r, lexical string, pol *Policy) string {
	for _, p := range []string{r, lexical} {
		dirs := append([]string{e.Project}, pol.AllowDirs...)
		for i, d := range dirs {
			if i > 0 {
				d = e.expand(d, e.Home)
			}
			if what := PlantedUnder(d, p); what != "" {
				return what
			}
		}
	}
	return ""
}
