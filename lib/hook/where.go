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
	w := Where{Cwd: in.Cwd(), Project: os.Getenv("CLAUDE_PROJECT_DIR"), Home: home, HarnessHome: os.Getenv("HARNESS_HOME")}
	if w.Project == "" {
		w.Project = w.Cwd
	}
	if w.Cwd == "" {
		w.Cwd = w.Project
	}
	if w.HarnessHome == "" && home != "" {
		w.HarnessHome = home + "/.claude/harness"
	}
	return w
}

// ClaudeDir is Claude Code's own configuration folder for a home: $CLAUDE_CONFIG_DIR, else
// ~/.claude (user settings, prompt history, transcripts).
func ClaudeDir(home string) string {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return dir
	}
	return home + "/.claude"
}
