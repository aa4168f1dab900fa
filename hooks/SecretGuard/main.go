// Hook: SecretGuard
// Event: UserPromptSubmit; PreToolUse
// Matcher: Bash (PreToolUse)
// Failure policy: closed
//
// Keeps credentials out of the model's context and out of commands. A prompt that holds a
// secret is blocked before the model sees it, with a reason that names the kind of secret and
// never the secret itself. A Bash command that embeds a literal credential asks the user.
package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/secret"
)

var spec = hook.Spec{
	Name:        "SecretGuard",
	Description: "blocks prompts that hold credentials and asks before commands that embed them",
	Policy:      hook.Closed,
	Record:      true,
	Events: []hook.Binding{
		{Event: event.UserPromptSubmit, Timeout: 10},
		{Event: event.PreToolUse, Matcher: "Bash", Timeout: 5},
	},
}

func main() { hook.Main(spec, run) }

func run(ctx context.Context, in event.Input) (answer.Answer, error) {
	switch in.Event() {
	case event.UserPromptSubmit:
		ms := secret.Scan(in.UserPromptSubmit().Prompt())
		if len(ms) == 0 {
			return nil, nil
		}
		return answer.Block(fmt.Sprintf("your prompt contains %s, so it was not sent to the model. Send it again without the secret: "+
			"keep credentials in environment variables or a credentials file, and refer to them by name.", list(ms))), nil
	case event.PreToolUse:
		bash, err := in.PreToolUse().ToolInput().Bash()
		if err != nil {
			return nil, err
		}
		ms := secret.Scan(bash.Command)
		if len(ms) == 0 {
			return nil, nil
		}
		return answer.PreToolUse{Decision: answer.Ask, Reason: fmt.Sprintf("SecretGuard: the command embeds %s as a literal, "+
			"which ends up in the transcript and the shell history; use an environment variable instead.", list(ms))}, nil
	}
	return nil, nil
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
