// Hook: TestGuard
// Event: PreToolUse, PermissionRequest
// Matcher: Bash
// Failure policy: closed
//
// A guard that exists to exercise the runtime in tests: the Bash command picks its behaviour.
package main

import (
	"context"
	"errors"
	"strings"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
)

var spec = hook.Spec{
	Name:        "TestGuard",
	Description: "test guard: blocks Bash commands that mention 'forbidden'",
	Policy:      hook.Closed,
	Events: []hook.Binding{
		{Event: event.PreToolUse, Matcher: "Bash", Timeout: 5},
		{Event: event.PermissionRequest, Matcher: "Bash", Timeout: 5},
	},
}

func main() { hook.Main(spec, run) }

var spun int

func run(ctx context.Context, in event.Input) (answer.Answer, error) {
	bash, err := in.PreToolUse().ToolInput().Bash()
	if err != nil {
		return nil, err
	}
	cmd := bash.Command
	switch {
	case strings.Contains(cmd, "forbidden"):
		return answer.Block("the command mentions 'forbidden'; run something else"), nil
	case strings.Contains(cmd, "panic"):
		_ = strings.Fields(cmd)[99] // index out of range: a real runtime panic
	case strings.Contains(cmd, "hang"):
		select {} // ignores ctx on purpose: the runtime must not wait for it
	case strings.Contains(cmd, "spin"):
		for spun >= 0 { // busy, never blocks: only preemption lets the deadline through
			spun++
		}
	case strings.Contains(cmd, "fail"):
		return nil, errors.New("policy file unreadable")
	case strings.Contains(cmd, "wrong-answer"):
		return answer.Feedback{Block: "not a PreToolUse answer"}, nil
	case strings.Contains(cmd, "allow") && in.Event() == event.PreToolUse:
		return answer.PreToolUse{Decision: answer.Allow, Reason: "allowed by TestGuard"}, nil
	}
	return nil, nil
}
