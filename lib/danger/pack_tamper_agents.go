package danger

import (
	"cmp"
	"encoding/json"
	"os"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// agentCLI is an agent's command line: the flags and variables that start it with its hooks off
// (nothing guards what it runs) or its approvals off (it runs every tool call unasked). A flag
// written "--flag=value" matches both spellings of that value (--flag value, --flag=value).
type agentCLI struct {
	name                   string   // as the reason says it
	progs                  []string // program names ("claude-code*": npx @anthropic-ai/claude-code@VERSION)
	hooksOff, approvalsOff []string
	// hooksEnv and approvalsEnv are variables that do the same when set to a true value.
	hooksEnv, approvalsEnv []string
	// settings: --settings FILE|JSON and --setting-sources LIST, read as Claude Code reads them.
	settings bool
}

// agentCLIs are the agents whose command lines are judged, with their flags as their own help
// and the pages in shared/protocol/clients give them.
var agentCLIs = [...]agentCLI{
	{name: "Claude Code", progs: []string{"claude", "claude-code*"}, settings: true,
		hooksOff:     []string{"--bare", "--safe-mode", "--restricted"},
		hooksEnv:     []string{"CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE"},
		approvalsOff: []string{"--dangerously-skip-permissions", "--permission-mode=bypassPermissions"}},
	{name: "Codex", progs: []string{"codex", "codex@*"},
		hooksOff:     []string{"--disable=hooks", "-c=features.hooks=false", "--config=features.hooks=false"},
		approvalsOff: []string{"--dangerously-bypass-approvals-and-sandbox", "--yolo"}},
	{name: "Gemini CLI", progs: []string{"gemini", "gemini-cli*"},
		approvalsOff: []string{"--yolo", "-y", "--approval-mode=yolo"}},
	{name: "Qwen Code", progs: []string{"qwen", "qwen-code*"},
		hooksOff:     []string{"--safe-mode"},
		approvalsOff: []string{"--yolo", "-y", "--approval-mode=yolo"}},
	{name: "Copilot CLI", progs: []string{"copilot", "copilot@*"},
		approvalsOff: []string{"--allow-all-tools", "--allow-all", "--yolo"},
		approvalsEnv: []string{"COPILOT_ALLOW_ALL"}},
	{name: "droid", progs: []string{"droid"}, approvalsOff: []string{"--skip-permissions-unsafe"}},
	{name: "Kimi Code", progs: []string{"kimi", "kimi-code*"}, approvalsOff: []string{"--yolo"}},
	{name: "docker-agent", progs: []string{"docker-agent", "cagent"}, approvalsOff: []string{"--yolo"}},
}

// agentNames are the program names of agentCLIs, for the pack's programs.
var agentNames = []string{"claude", "claude-code*", "codex", "codex@*", "gemini", "gemini-cli*", "qwen", "qwen-code*",
	"copilot", "copilot@*", "droid", "kimi", "kimi-code*", "docker-agent", "cagent"}

// agent: an agent started from this session with its hooks or its approvals off runs whatever
// it is told with no guard at all, or with no one to ask. One started as it is installed
// (claude -p "...", codex exec "...") has its own hooks and stays silent.
func (j *judge) agent(c *shell.Cmd) {
	var a *agentCLI
	for i := range agentCLIs {
		for _, p := range agentCLIs[i].progs {
			if p == c.Name || strings.HasSuffix(p, "*") && strings.HasPrefix(c.Name, p[:len(p)-1]) {
				a = &agentCLIs[i]
			}
		}
	}
	if a == nil {
		return
	}
	var env []string
	if len(a.hooksEnv)+len(a.approvalsEnv) > 0 {
		env = j.environ(c)
	}
	if f := flagGiven(c.Args, a.hooksOff); f != "" {
		j.add(c, tamperAgentHooks, c.Name+" "+f+" starts "+a.name+" with its hooks off: nothing would guard what it runs", "")
	} else if v := envTrue(env, a.hooksEnv); v != "" {
		j.add(c, tamperAgentHooks, v+" starts "+a.name+" with its hooks off: nothing would guard what it runs", "")
	}
	if f := flagGiven(c.Args, a.approvalsOff); f != "" {
		j.add(c, tamperAgentApprovals, c.Name+" "+f+" starts "+a.name+" approving every tool call itself, with no one to ask", "")
	} else if v := envTrue(env, a.approvalsEnv); v != "" {
		j.add(c, tamperAgentApprovals, v+" starts "+a.name+" approving every tool call itself, with no one to ask", "")
	}
	if a.settings {
		j.claudeSettings(c)
	}
}

// environ is what c is given in its environment by the line: its own assignments, those an
// export before it made (export CLAUDE_CODE_SIMPLE=1; claude ...), and those given to a command
// it is nested in (CLAUDE_CODE_SIMPLE=1 bash -c 'claude ...').
func (j *judge) environ(c *shell.Cmd) []string {
	env := c.Env
	for _, e := range j.an.Cmds {
		if e == c {
			break
		}
		switch {
		case e.Name == "export" || e.Name == "declare" && slices.Contains(e.Args, "-x"):
			env = append(env[:len(env):len(env)], e.Args...)
		case len(e.Env) > 0 && len(e.Via) < len(c.Via):
			env = append(env[:len(env):len(env)], e.Env...)
		}
	}
	return env
}

// claudeSettings judges Claude Code's --setting-sources (a list without user, project or local
// drops the hooks installed there) and --settings (a file or JSON that sets disableAllHooks or
// allowManagedHooksOnly, or makes bypassPermissions the default).
func (j *judge) claudeSettings(c *shell.Cmd) {
	for i, a := range c.Args {
		if a == "--" {
			return
		}
		name, val, ok := strings.Cut(a, "=")
		if !ok && i+1 < len(c.Args) {
			val = c.Args[i+1]
		}
		switch name {
		case "--setting-sources":
			for _, s := range [...]string{"user", "project", "local"} {
				if !slices.Contains(strings.Split(strings.ReplaceAll(val, " ", ""), ","), s) {
					j.add(c, tamperAgentHooks, "--setting-sources "+cmp.Or(val, `""`)+" starts Claude Code without its "+s+" settings, and the hooks installed there", "")
					break
				}
			}
		case "--settings":
			text := val
			if !strings.HasPrefix(strings.TrimSpace(val), "{") {
				b, err := os.ReadFile(j.res(c, val))
				if err != nil || len(b) > 1<<20 {
					continue
				}
				text = string(b)
			}
			hooks, approvals := settingsOff(text)
			if hooks != "" {
				j.add(c, tamperAgentHooks, "its --settings set "+hooks+", which starts Claude Code with its hooks off: nothing would guard what it runs", "")
			}
			if approvals != "" {
				j.add(c, tamperAgentApprovals, "its --settings set "+approvals+", which starts Claude Code approving every tool call itself, with no one to ask", "")
			}
		}
	}
}

// settingsOff reads Claude Code settings for what turns the hooks off (disableAllHooks,
// allowManagedHooksOnly) and the approvals off (defaultMode bypassPermissions). Text that is not
// JSON is read for the words.
func settingsOff(text string) (hooks, approvals string) {
	if !strings.Contains(text, "HooksOnly") && !strings.Contains(text, "disableAllHooks") && !strings.Contains(text, "bypassPermissions") {
		return "", ""
	}
	var s struct {
		DisableAllHooks       bool `json:"disableAllHooks"`
		AllowManagedHooksOnly bool `json:"allowManagedHooksOnly"`
		Permissions           struct {
			DefaultMode string `json:"defaultMode"`
		} `json:"permissions"`
	}
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		// JSON with comments, or cut short: judged by its words.
		s.DisableAllHooks = strings.Contains(text, "disableAllHooks")
		s.AllowManagedHooksOnly = strings.Contains(text, "allowManagedHooksOnly")
		if strings.Contains(text, "bypassPermissions") {
			s.Permissions.DefaultMode = "bypassPermissions"
		}
	}
	switch {
	case s.DisableAllHooks:
		hooks = "disableAllHooks"
	case s.AllowManagedHooksOnly:
		hooks = "allowManagedHooksOnly"
	}
	if s.Permissions.DefaultMode == "bypassPermissions" {
		approvals = "defaultMode bypassPermissions"
	}
	return hooks, approvals
}

// flagGiven returns the first of flags given in args (before --), as given.
func flagGiven(args, flags []string) string {
	for i, a := range args {
		if a == "--" {
			return ""
		}
		for _, f := range flags {
			name, val, ok := strings.Cut(f, "=")
			switch {
			case a == f:
				return a
			case ok && a == name && i+1 < len(args) && args[i+1] == val:
				return a + " " + val
			}
		}
	}
	return ""
}

// envTrue returns the first of names set to a true value in env (NAME=value entries), as set.
func envTrue(env, names []string) string {
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		if !slices.Contains(names, k) {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "", "0", "false", "no", "off", "n":
			continue
		}
		return e
	}
	return ""
}
