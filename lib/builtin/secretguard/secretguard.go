package secretguard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/secret"
	"github.com/hookkit/harness/lib/state"
	"github.com/hookkit/harness/lib/verdict"
)

var Spec = hook.Spec{
	Name:        "SecretGuard",
	Description: "blocks prompts that hold credentials and asks before commands that embed them",
	Policy:      hook.Closed,
	Record:      audit.Verdict,
	Events: []hook.Binding{
		{Event: event.UserPromptSubmit, Timeout: 10},
		{Event: event.PreToolUse, Matcher: "Bash|PowerShell", Timeout: 5},
		{Event: event.PreSkillShellCommand, Matcher: "Bash|PowerShell", Timeout: 5},
		{Event: event.SessionEnd, Matcher: "*", Timeout: 1},
	},
}

func Run(ctx context.Context, in event.Input) (answer.Answer, error) {
	w := hook.Locate(ctx, in)
	record := pendingRecord(w, in.SessionID())
	if err := secret.ScrubPending(record, in.Event() == event.SessionEnd); err != nil {
		fmt.Fprintf(os.Stderr, "SecretGuard: %v\n", err) // the decision does not depend on it
	}
	switch in.Event() {
	case event.UserPromptSubmit:
		prompt := in.UserPromptSubmit().Prompt()
		ms := secret.Scan(prompt)
		if len(ms) == 0 {
			return nil, nil
		}
		// Only a Claude Code session has files to clean up after (a canary or a test has no
		// transcript, and must not touch the user's history).
		if tp := in.TranscriptPath(); tp != "" {
			history := filepath.Join(hook.ClaudeDirOf(ctx, w.Home), "history.jsonl")
			if err := secret.ScrubBlocked(record, in.SessionID(), len(prompt), tp, history); err != nil {
				fmt.Fprintf(os.Stderr, "SecretGuard: %v\n", err)
			}
		}
		return answer.Block(fmt.Sprintf("your prompt contains %s, so it was not sent to the model. Send it again without the secret: "+
			"keep credentials in environment variables or a credentials file, and refer to them by name.", list(ms))), nil
	case event.PreToolUse, event.PreSkillShellCommand:
		bash, err := in.Tool().ToolInput().Bash()
		if err != nil {
			return nil, err
		}
		ms := secret.Scan(bash.Command)
		if len(ms) == 0 {
			return nil, nil
		}
		return answer.Guard(verdict.Ask, fmt.Sprintf("the command embeds %s as a literal, "+
			"which ends up in the transcript and the shell history; use an environment variable instead.", list(ms)), verdict.Tag{}), nil
	}
	return nil, nil
}

// pendingRecord is where this session's files awaiting a second scrub are listed.
func pendingRecord(w hook.Where, session string) string {
	return filepath.Join(state.ProjectDir(w.HarnessHome, w.Project), "secretguard", state.SafeName(session)+".json")
}

// list names the kinds found, and how many of each: "an AWS access key ID and 2 GitHub tokens".
func list(ms []secret.Match) string {
	count := map[secret.Kind]int{}
	for _, m := range ms {
		count[m.Kind]++
	}
	var parts []string
	for _, k := range secret.Kinds(ms) {
		d := k.Describe()
		if n := count[k]; n > 1 {
			_, noun, _ := strings.Cut(d, " ")
			d = fmt.Sprintf("%d %ss", n, noun)
		}
		parts = append(parts, d)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
