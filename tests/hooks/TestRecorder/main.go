// Hook: TestRecorder
// Event: SessionStart, UserPromptSubmit, Stop
// Matcher: * (SessionStart)
// Failure policy: open
//
// A context hook that exists to exercise the runtime in tests: the prompt picks its behaviour.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
)

var spec = hook.Spec{
	Name:        "TestRecorder",
	Description: "test context hook: describes the session and counts prompt words",
	Policy:      hook.Open,
	Events: []hook.Binding{
		{Event: event.SessionStart, Matcher: "startup|resume|clear|compact", Timeout: 10},
		{Event: event.UserPromptSubmit, Timeout: 10},
		{Event: event.Stop, Timeout: 10},
	},
}

func main() { hook.Main(spec, run) }

func run(ctx context.Context, in event.Input) (answer.Answer, error) {
	switch in.Event() {
	case event.SessionStart:
		return answer.Context(fmt.Sprintf("session %s (%s) in %s", in.SessionID(), in.SessionStart().Source(), in.Cwd())), nil
	case event.UserPromptSubmit:
		p := in.UserPromptSubmit().Prompt()
		switch p {
		case "panic":
			panic("prompt asked for a panic")
		case "hang":
			<-ctx.Done()
			return answer.Context("too late"), nil
		case "hang-error":
			<-ctx.Done()
			return nil, ctx.Err() // races the runtime's own answer at the deadline
		case "fail":
			return nil, errors.New("state directory unwritable")
		case "chatty":
			fmt.Println("debug: a stray print that must not corrupt the answer")
			os.NewFile(1, "fd1").WriteString("debug: a raw write to file descriptor 1\n")
		}
		return answer.Context(fmt.Sprintf("the prompt has %d words", len(strings.Fields(p)))), nil
	}
	return nil, nil
}
