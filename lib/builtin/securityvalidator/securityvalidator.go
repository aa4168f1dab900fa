package securityvalidator

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/danger"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/shell"
)

const name = "SecurityValidator"

var Spec = hook.Spec{
	Name:        name,
	Description: "blocks destructive and dangerous Bash and PowerShell commands; silent on everyday work",
	Policy:      hook.Closed,
	Record:      audit.Verdict,
	Events: []hook.Binding{
		{Event: event.PreToolUse, Matcher: "Bash|PowerShell", Timeout: 5},
		{Event: event.PreSkillShellCommand, Matcher: "Bash|PowerShell", Timeout: 5},
	},
	Flags: []hook.Flag{{Name: "--explain", Args: "'<command>' [cwd]",
		Usage: "print the parse, the commands found, the rules that matched and the decision", Run: explain},
		{Name: "--rules", Args: "[--json]", Usage: "list every rule: its pack, id, action, blast radius and advice", Run: rules}},
}

func Run(ctx context.Context, in event.Input) (answer.Answer, error) {
	// Both events and both shells carry the command as tool_input.command; a missing one fails
	// closed.
	call := in.Tool()
	cmd, err := call.ToolInput().Bash()
	if err != nil {
		return nil, err
	}
	input, err := judgeInput(hook.Locate(ctx, in), hook.Env(ctx))
	if err != nil {
		return nil, err
	}
	for _, p := range input.Policy.Problems {
		hook.Problem(ctx, p)
	}
	judge := danger.Judge
	if call.ToolName() == "PowerShell" {
		judge = danger.JudgePowerShell
	}
	v := judge(cmd.Command, input)
	return answer.Guard(v.Action, v.Reason(), v.Tag()), nil
}

// judgeInput describes the machine the command runs on and loads the policy files.
func judgeInput(w hook.Where, env func(string) (string, bool)) (danger.Input, error) {
	pol, err := danger.LoadPolicy(danger.PolicyFiles(w.Scopes()))
	if err != nil {
		return danger.Input{}, err
	}
	return danger.Input{Policy: pol, HarnessHome: w.HarnessHome, SystemDir: w.SystemDir, OwnerHome: w.OwnerHome, World: shell.World{Cwd: w.Cwd, Home: w.Home, Project: w.Project, Env: env}}, nil
}

// explainInput is a payload that says only where the command runs.
func explainInput(cwd string) event.Input {
	in, _ := event.Parse([]byte(fmt.Sprintf(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":""},"cwd":%q}`, cwd)))
	return in
}

func explain(s hook.Setup, args []string, stdout, stderr io.Writer) answer.Code {
	if len(args) == 0 || len(args) > 2 {
		fmt.Fprintln(stderr, "usage: SecurityValidator --explain '<command>' [cwd]")
		return answer.Failed
	}
	cwd, _ := os.Getwd()
	if len(args) == 2 {
		cwd = args[1]
	}
	input, err := judgeInput(s.Where(explainInput(cwd)), os.LookupEnv)
	if err != nil {
		fmt.Fprintf(stderr, "SecurityValidator: %v\n", err)
		return answer.Failed
	}
	for _, p := range input.Policy.Problems {
		fmt.Fprintf(stderr, "SecurityValidator: %s\n", p)
	}
	v := danger.Judge(args[0], input)
	danger.Explain(stdout, args[0], input, v)
	switch v.Action {
	case danger.Deny:
		fmt.Fprintf(stdout, "answer:   exit 2, stderr:\n  %s: %s\n", name, strings.ReplaceAll(v.Reason(), "\n", "\n  "))
	case danger.Ask:
		fmt.Fprintf(stdout, "answer:   exit 0, permissionDecision \"ask\": %s\n", v.Reason())
	default:
		fmt.Fprintf(stdout, "answer:   exit 0, no output (the user's own permission rules decide)\n")
	}
	return answer.OK
}

func rules(_ hook.Setup, args []string, stdout, stderr io.Writer) answer.Code {
	if len(args) > 1 || len(args) == 1 && args[0] != "--json" {
		fmt.Fprintln(stderr, "usage: SecurityValidator --rules [--json]")
		return answer.Failed
	}
	if err := danger.WriteCatalog(stdout, len(args) == 1); err != nil {
		fmt.Fprintf(stderr, "SecurityValidator: %v\n", err)
		return answer.Failed
	}
	return answer.OK
}
