package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hookkit/harness/lib/state"
)

// Session is what a session's start told the server: what a hook process of that session
// would read from its environment. The server takes the project root from here, never from a
// payload's cwd (which follows cd).
type Session struct {
	ID      string `json:"session"`
	Project string `json:"project"`
	Home    string `json:"home"`
	TempDir string `json:"tmpdir,omitempty"`
	// ClaudeDir is CLAUDE_CONFIG_DIR when the session has it: where SecretGuard finds the
	// prompt history it cleans.
	ClaudeDir string `json:"claude_config_dir,omitempty"`
}

// sessionFile is where a session's registration is kept: under the harness home, so that a
// restarted server still knows every session, and out of any project's reach.
func sessionFile(home, id string) string {
	return filepath.Join(home, "serve", "sessions", state.SafeName(id)+".json")
}

// Register records a session's start (written atomically, readable by its owner alone).
func Register(home, id string, s Session) error {
	if id == "" {
		return errors.New("the payload names no session_id")
	}
	if err := s.check(); err != nil {
		return err
	}
	s.ID = id
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	f := sessionFile(home, id)
	if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
		return fmt.Errorf("registering the session: %w", err)
	}
	if err := state.Write(f, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("registering the session: %w", err)
	}
	return nil
}

// Lookup reads a session's registration.
func Lookup(home, id string) (Session, error) {
	var s Session
	if id == "" {
		return s, errors.New("the payload names no session_id")
	}
	b, err := os.ReadFile(sessionFile(home, id))
	if errors.Is(err, os.ErrNotExist) {
		return s, fmt.Errorf("session %s was never registered (its SessionStart hook, harness serve-register, did not run)", state.SafeName(id))
	}
	if err != nil {
		return s, fmt.Errorf("reading the session's registration: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("the session's registration is damaged: %w", err)
	}
	if s.ID != id {
		// Two ids that differ only in characters a file name cannot hold share a file.
		return s, fmt.Errorf("session %s was never registered (its file names another session)", state.SafeName(id))
	}
	return s, s.check()
}

func (s Session) check() error {
	switch {
	case !filepath.IsAbs(s.Project):
		return fmt.Errorf("the session's project root %q is not an absolute path", s.Project)
	case !filepath.IsAbs(s.Home):
		return fmt.Errorf("the session's home %q is not an absolute path", s.Home)
	case s.TempDir != "" && !filepath.IsAbs(s.TempDir):
		return fmt.Errorf("the session's temp folder %q is not an absolute path", s.TempDir)
	case s.ClaudeDir != "" && !filepath.IsAbs(s.ClaudeDir):
		return fmt.Errorf("the session's Claude Code folder %q is not an absolute path", s.ClaudeDir)
	}
	return nil
}

// Unregister forgets a session (doctor's canary session, once its canaries ran).
func Unregister(home, id string) error {
	err := os.Remove(sessionFile(home, id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
