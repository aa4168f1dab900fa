package hook

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/event"
)

// Where is where a hook call happens: the directories every guard resolves paths against.
type Where struct {
	// Cwd is the payload's cwd; Project is CLAUDE_PROJECT_DIR (each falls back on the other).
	Cwd, Project string
	// Home is $HOME: where ~ points in a command, since the command sees the same variable.
	Home string
	// OwnerHome is the account's home as the password database (on Windows, the process's
	// token) gives it, when it is not Home: a project's settings can set HOME for the hooks and
	// the commands alike, so the guards protect both homes. "" when it is Home, or not known
	// (macOS, an account the file does not list).
	OwnerHome string
	// HarnessHome and SystemDir are the harness's own folders (Setup), never the environment's.
	HarnessHome, SystemDir string
	// Client is the client that made the call (Setup.Client): the records name it.
	Client string
}

// Locate reads where a call happens from its payload, the hook's setup and the project root
// the client gives.
func Locate(ctx context.Context, in event.Input) Where { return SetupOf(ctx).Where(in) }

// Where is Locate for a setup in hand.
func (s Setup) Where(in event.Input) Where {
	home, _ := os.UserHomeDir()
	project := os.Getenv("CLAUDE_PROJECT_DIR")
	if s.served() {
		// In a server nothing comes from its environment: the root and home the session
		// registered, never the payload's cwd (which follows cd) for the root.
		home, project = s.userHome, s.project
	}
	account := ownerHome()
	owner := account
	if owner == filepath.Clean(home) {
		owner = ""
	}
	w := Where{Cwd: in.Cwd(), Project: projectDir(project, home, owner), Home: home, OwnerHome: owner,
		HarnessHome: s.Home, SystemDir: s.SystemDir, Client: s.Client()}
	if w.HarnessHome == "" {
		// No --home and no install beside the binary: the compiled default under the
		// account's own home, which no variable moves; $HOME only where the password
		// database does not say (macOS, Windows).
		w.HarnessHome = config.DefaultHome(cmp.Or(account, home))
	}
	if w.Project == "" {
		w.Project = w.Cwd
	}
	if w.Cwd == "" {
		w.Cwd = w.Project
	}
	return w
}

// served reports whether the call runs in a server (Call) rather than a process.
func (s Setup) served() bool { return s.env != nil }

// projectDir is the project root the client names, unless it would widen what the guards
// allow beyond any real project: a relative path, the root, a home directory or a folder
// above one (a variable a project's settings could set). Then the payload's cwd stands in.
func projectDir(dir string, homes ...string) string {
	if dir == "" || !filepath.IsAbs(dir) {
		return ""
	}
	dir = filepath.Clean(dir)
	if dir == string(filepath.Separator) {
		return ""
	}
	for _, home := range homes {
		if home != "" && (dir == home || strings.HasPrefix(home, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))) {
			return ""
		}
	}
	return dir
}

// Scopes are the configuration scopes of the call.
func (w Where) Scopes() config.Scopes {
	return config.Scopes{System: w.SystemDir, Home: w.HarnessHome, Project: w.Project}
}

// ClaudeDir is Claude Code's own configuration folder for a home: $CLAUDE_CONFIG_DIR, else
// ~/.claude (user settings, prompt history, transcripts).
func ClaudeDir(home string) string { return claudeDir(home, os.LookupEnv) }

// ClaudeDirOf is ClaudeDir for a hook call: $CLAUDE_CONFIG_DIR as the call sees it (Env).
func ClaudeDirOf(ctx context.Context, home string) string { return claudeDir(home, Env(ctx)) }

func claudeDir(home string, env func(string) (string, bool)) string {
	if dir, _ := env("CLAUDE_CONFIG_DIR"); dir != "" {
		return dir
	}
	return home + "/.claude"
}
