package hook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/state"
)

// A client that drops SessionStart hooks' output but hands the model a prompt hook's
// (dialect.StartOnPrompt) has its context hooks wired on UserPromptSubmit. The runtime runs such
// a hook, which handles SessionStart and not UserPromptSubmit, as a SessionStart at the session's
// first prompt, and answers every later prompt with nothing: the hook itself never knows.

// startsOnPrompt reports whether a payload of event ev is a prompt that stands in for
// SessionStart for this hook and client.
func (r runner) startsOnPrompt(ev event.Name) bool {
	return ev == event.UserPromptSubmit && r.dia.StartOnPrompt && !r.handles(event.UserPromptSubmit) && r.handles(event.SessionStart)
}

// firstPrompt claims the session's first prompt for the hook: true the first time, false for
// every later prompt of the session. The claim is a file created exclusively beside the
// session's other state, so two prompts never both win.
func firstPrompt(w Where, hook, session string) (bool, error) {
	if session == "" {
		return true, nil // no session to remember it by: the context is given, not lost
	}
	dir := filepath.Join(state.ProjectDir(w.HarnessHome, w.Project), "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, fmt.Errorf("noting the session's first prompt: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, state.SafeName(session)+"."+hook+".prompted"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("noting the session's first prompt: %w", err)
	}
	return true, f.Close()
}

// asSessionStart rewrites a prompt's payload (already in Claude Code's terms) into the
// SessionStart of a session that starts now.
func asSessionStart(data []byte) (event.Input, error) {
	out, err := sjson.SetBytes(data, "hook_event_name", string(event.SessionStart))
	if err == nil {
		out, err = sjson.SetBytes(out, "source", "startup")
	}
	for _, k := range []string{"prompt", "is_steer"} {
		if err == nil {
			out, err = sjson.DeleteBytes(out, k)
		}
	}
	if err != nil {
		return event.Input{}, err
	}
	return event.Parse(out)
}

// asPromptReply renders a SessionStart answer as the prompt's: the same context and message,
// under the prompt's event name.
func asPromptReply(reply answer.Reply) answer.Reply {
	if gjson.GetBytes(reply.Stdout, "hookSpecificOutput.hookEventName").Exists() {
		if out, err := sjson.SetBytes(reply.Stdout, "hookSpecificOutput.hookEventName", string(event.UserPromptSubmit)); err == nil {
			reply.Stdout = out
		}
	}
	return reply
}
