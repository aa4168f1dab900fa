package hook

import (
	"os"

	"github.com/hookkit/harness/lib/event"
)

// Where is where a hook call happens: the directories every guard resolves paths against.
type Where struct {
	// Cwd is the payload's cwd; Project is CLAUDE_PROJECT_DIR (each falls back on the other).
	Cwd, Project string
	Home         string
	// HarnessHome is $HARNESS_HOME, by default ~/.claude/harness.
	HarnessHome string
}

// Locate reads where a call happens from its payload and the environment Claude Code gives.
func Locate(in event.Input) Where {
	home, _ := os.UserHomeDir()
	w := Where{Cwd: in.Cwd(), Project: os.Getenv("CLAUDE_PROJECT_DIR"), Home: home, HarnessHome: HarnessHome(os.LookupEnv, home)}
	if w.Project == "" {
		w.Project = w.Cwd
	}
	if w.Cwd == "" {
		w.Cwd = w.Project
	}
	return w
}

// HarnessHome is the harness's own directory (its binaries, policies, records): $HARNESS_HOME
// as env reports it, by default ~/.claude/harness under home; "" when neither is known. env
// may be nil (no variables known). Every package that needs the directory asks this.
func HarnessHome(env func(string) (string, bool), home string) string {
	if env != nil {
		if v, ok := env("HARNESS_HOME"); ok && v != "" {
			return v
		}
	}
	if home == "" {
		return ""
	}
	return home + "/.claude/harness"
}

// ClaudeDir is Claude Code's own configuration folder for a home: $CLAUDE_CONFIG_DIR, else
// ~/.claude (user settings, prompt history, transcripts).
func ClaudeDir(home string) string {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return dir
	}
	return home + "/.claude"
}
