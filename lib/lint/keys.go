package lint

import (
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/spell"
)

// The keys Claude Code 2.1.330 reads at each level of a settings file (REFERENCE.md §2.1,
// §2.3). Any other key is ignored without a word, so a misspelled one is a setting that is
// silently not there.
var (
	groupKeys   = []string{"matcher", "hooks"}
	commonKeys  = []string{"type", "if", "timeout", "statusMessage", "once", "onFailure"}
	handlerKeys = map[string][]string{
		"command":  {"command", "args", "shell", "async", "asyncRewake"},
		"http":     {"url", "headers", "allowedEnvVars"},
		"mcp_tool": {"server", "tool", "input"},
		"prompt":   {"prompt", "model", "continueOnBlock"},
		"agent":    {"prompt", "model"},
	}
	// topKeys are the top-level settings that touch hooks and permissions, and the common
	// others. The full list is long and grows with every release, so at the top level only a
	// near miss of one of these is reported.
	topKeys = []string{"$schema", "hooks", "disableAllHooks", "allowManagedHooksOnly", "allowedHttpHookUrls",
		"httpHookAllowedEnvVars", "permissions", "env", "model", "statusLine", "sandbox", "apiKeyHelper",
		"enabledPlugins", "cleanupPeriodDays", "includeCoAuthoredBy", "outputStyle", "enableAllProjectMcpServers",
		"enabledMcpjsonServers", "disabledMcpjsonServers", "allowManagedPermissionRulesOnly", "respectGitignore"}
	permissionKeys = []string{"allow", "deny", "ask", "defaultMode", "additionalDirectories", "disableBypassPermissionsMode"}
	// safetyKeys are the keys whose silent absence weakens a guard: no hooks at all, a guard
	// that fails open, permission rules that are not there. A key that misses one of them is
	// an error; any other unknown key a warning.
	safetyKeys = map[string]bool{"hooks": true, "onFailure": true, "permissions": true, "deny": true, "ask": true}
)

// unknownKeys reports the keys of an object (at path) that are not in known, with the known
// key each most likely means. nearOnly reports only near misses (for levels whose list is not
// complete); elsewhere a key on the wrong level is named as such (elsewhere lists the keys of
// the other levels, and where they belong).
func (c *checker) unknownKeys(ms []member, path string, known []string, nearOnly bool, elsewhere map[string]string) {
	for _, m := range ms {
		if slices.Contains(known, m.key) {
			continue
		}
		p := join(path, m.key)
		best := spell.Nearest(m.key, known)
		switch {
		case best != "":
			sev := Warning
			if safetyKeys[best] {
				sev = Error
			}
			c.add(sev, "key.unknown", p, "%q is not a key Claude Code reads here, so it is ignored; did you mean %q?%s", m.key, best, consequence(best))
		case elsewhere[m.key] != "":
			sev := Warning
			if safetyKeys[m.key] {
				sev = Error
			}
			c.add(sev, "key.misplaced", p, "%q is ignored here: it belongs %s%s", m.key, elsewhere[m.key], consequence(m.key))
		case !nearOnly:
			c.add(Warning, "key.unknown", p, "%q is not a key Claude Code reads here, so it is ignored (known: %s)", m.key, strings.Join(known, ", "))
		}
	}
}

// consequence says what ignoring a safety key costs.
func consequence(key string) string {
	switch key {
	case "hooks":
		return " (as written, none of these hooks run)"
	case "onFailure":
		return " (as written, the hook fails open: a crash or timeout lets the action through)"
	case "permissions", "deny", "ask":
		return " (as written, these permission rules do not apply)"
	}
	return ""
}

// groupElsewhere and handlerElsewhere say where a key written on the wrong level belongs.
var (
	groupElsewhere = map[string]string{"if": "on each handler in hooks", "timeout": "on each handler in hooks",
		"onFailure": "on each handler in hooks", "type": "on each handler in hooks", "command": "on a handler in hooks",
		"args": "on a handler in hooks", "async": "on each handler in hooks", "statusMessage": "on each handler in hooks"}
	handlerElsewhere = map[string]string{"matcher": "on the matcher group, next to hooks"}
	topElsewhere     = map[string]string{"matcher": "on a matcher group in hooks.<Event>", "onFailure": "on a handler in hooks.<Event>[].hooks",
		"allow": "in permissions", "deny": "in permissions", "ask": "in permissions"}
)

func handlerKnown(typ string) []string { return append(slices.Clone(commonKeys), handlerKeys[typ]...) }
