package briefing

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/settings"
)

// riskyEnv are the variables that, set through a project's settings `env`, change what every
// program the client starts does once it runs (docs/configuration.md, "Trust model"). A name
// ending in "*" is a prefix. Names are compared in upper case.
var riskyEnv = []string{
	// the dynamic loader: code loaded into every program
	"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_*",
	// the shell: files sourced and commands run around every command, and where programs are found
	"BASH_ENV", "ENV", "ZDOTDIR", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "PATH",
	"CLAUDE_CODE_SHELL_PREFIX", "CLAUDE_CODE_SHELL", "CLAUDE_ENV_FILE",
	// interpreters: code run or loaded at every start
	"NODE_OPTIONS", "NODE_PATH", "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PERL5OPT", "PERL5LIB",
	"PERLLIB", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
	// git and ssh: configuration and helper programs
	"GIT_CONFIG*", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXEC_PATH", "GIT_ASKPASS", "GIT_PROXY_COMMAND",
	"GIT_EXTERNAL_DIFF", "GIT_TEMPLATE_DIR", "SSH_ASKPASS",
	// where the conversation and downloads go
	"ANTHROPIC_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NODE_EXTRA_CA_CERTS",
	"NODE_TLS_REJECT_UNAUTHORIZED",
	// the harness's own old variables: the hooks ignore them, but a repository setting them is trying
	"HARNESS_*",
}

// riskyCommands are the settings keys that name a program the client runs: set by a project,
// it runs with the user's rights and no guard sees it.
var riskyCommands = []string{"apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "gcpAuthRefresh",
	"otelHeadersHelper", "statusLine", "fileSuggestion"}

// ProjectSettings names what the project's own settings (.claude/settings.json and
// .claude/settings.local.json in each of dirs, the project root and the session's folder) set
// that the harness cannot stop: risky `env` keys, the project's own hooks (not those the
// installer put there, by the manifest in harnessHome), disableAllHooks in force, the commands
// the client runs for it (apiKeyHelper, statusLine, ...) and the MCP servers and plugins it
// enables. Key names only, never a value. "" when there is nothing to say.
func ProjectSettings(harnessHome string, dirs ...string) string {
	var found []string
	seen := map[string]bool{}
	for _, dir := range dirs {
		if dir == "" || seen[filepath.Clean(dir)] {
			continue
		}
		seen[filepath.Clean(dir)] = true
		// Local over project, as the client merges scalar keys.
		disabled, disabledIn := false, -1
		var files [][]string // per file: its name, then what it sets
		for _, name := range []string{"settings.json", "settings.local.json"} {
			path := filepath.Join(dir, ".claude", name)
			data, err := os.ReadFile(path)
			if err != nil || !gjson.ValidBytes(data) {
				continue
			}
			doc := gjson.ParseBytes(data)
			items := []string{filepath.Join(".claude", name)}
			if keys := envKeys(doc.Get("env")); len(keys) > 0 {
				items = append(items, "env "+strings.Join(keys, ", "))
			}
			if events := ownHooks(doc.Get("hooks"), path, harnessHome); len(events) > 0 {
				items = append(items, "hooks of its own on "+strings.Join(events, ", "))
			}
			for _, k := range riskyCommands {
				if v := doc.Get(gjson.Escape(k)); v.Exists() && v.Type != gjson.Null {
					items = append(items, k)
				}
			}
			if doc.Get("enableAllProjectMcpServers").Bool() || len(doc.Get("enabledMcpjsonServers").Array()) > 0 {
				items = append(items, "the MCP servers of .mcp.json")
			}
			if doc.Get("enabledPlugins").IsObject() && len(doc.Get("enabledPlugins").Map()) > 0 {
				items = append(items, "enabledPlugins")
			}
			if v := doc.Get("disableAllHooks"); v.Exists() {
				disabled, disabledIn = v.Bool(), len(files)
			}
			files = append(files, items)
		}
		if disabled {
			files[disabledIn] = append(files[disabledIn], "disableAllHooks (every hook in user and project settings is off; only managed ones run)")
		}
		for _, items := range files {
			if len(items) > 1 {
				found = append(found, items[0]+": "+strings.Join(items[1:], "; "))
			}
		}
	}
	if len(found) == 0 {
		return ""
	}
	return "this project's settings set what the harness cannot stop. " + strings.Join(found, ". ") +
		". What they start runs with the user's rights and no guard sees it: check them before trusting this repository (docs/configuration.md, Trust model)."
}

// envKeys are the names in env that riskyEnv lists, sorted.
func envKeys(env gjson.Result) []string {
	var out []string
	env.ForEach(func(k, _ gjson.Result) bool {
		name := strings.ToUpper(k.String())
		for _, r := range riskyEnv {
			if p, ok := strings.CutSuffix(r, "*"); ok && strings.HasPrefix(name, p) || name == r {
				out = append(out, clean(k.String()))
				break
			}
		}
		return true
	})
	slices.Sort(out)
	return slices.Compact(out)
}

// ownHooks are the events on which hooks has a handler the installer did not write there.
func ownHooks(hooks gjson.Result, path, harnessHome string) []string {
	if !hooks.IsObject() {
		return nil
	}
	var ours map[string]bool // the commands the installer wrote into this file
	var out []string
	hooks.ForEach(func(ev, groups gjson.Result) bool {
		own := false
		groups.ForEach(func(_, g gjson.Result) bool {
			g.Get("hooks").ForEach(func(_, h gjson.Result) bool {
				if ours == nil {
					ours = installed(harnessHome, path)
				}
				if !ours[h.Get("command").String()] || h.Get("type").String() != "command" {
					own = true
				}
				return !own
			})
			return !own
		})
		if own {
			out = append(out, clean(ev.String()))
		}
		return true
	})
	slices.Sort(out)
	return out
}

// installed are the hook commands the manifest in harnessHome says the installer wrote into
// the settings file at path.
func installed(harnessHome, path string) map[string]bool {
	out := map[string]bool{}
	m, err := settings.LoadManifest(harnessHome)
	if err != nil {
		return out
	}
	for _, rec := range m.Files {
		if filepath.Clean(rec.Path) != filepath.Clean(path) {
			continue
		}
		for _, e := range rec.Entries {
			gjson.GetBytes(e.Group, "hooks.#.command").ForEach(func(_, c gjson.Result) bool {
				out[c.String()] = true
				return true
			})
		}
	}
	return out
}
