package writeprotector

import (
	"context"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/paths"
)

var Spec = hook.Spec{
	Name:        "WriteProtector",
	Description: "blocks writes to credentials, system paths and places outside the project, and reads of credentials; asks before .env and rc files and files another program runs later",
	Policy:      hook.Closed,
	Record:      audit.Verdict,
	Events: []hook.Binding{
		{Event: event.PreToolUse, Matcher: "^(Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|Read|NotebookRead|Grep|Glob|mcp__.*)$", Timeout: 5},
		{Event: event.PreSkillShellCommand, Matcher: "Bash|PowerShell", Timeout: 5},
	},
}

func Run(ctx context.Context, in event.Input) (answer.Answer, error) {
	// Both events carry tool_name and tool_input; a skill's command is judged as the tool it names.
	call := in.Tool()
	w := hook.Locate(ctx, in)
	pol, err := paths.LoadPolicy(paths.PolicyFiles(w.Scopes()))
	if err != nil {
		return nil, err
	}
	for _, p := range pol.Problems {
		hook.Problem(ctx, p)
	}
	temp := []string{"/tmp", "/var/tmp", "/private/tmp"}
	lookup := hook.Env(ctx)
	if t, _ := lookup("TMPDIR"); paths.TempDir(t) {
		temp = append(temp, t)
	}
	env := paths.Env{Cwd: w.Cwd, Home: w.Home, OwnerHome: w.OwnerHome, Project: w.Project, Temp: temp, HarnessHome: w.HarnessHome}
	// A client's hooks switched off in a project's settings: denied whatever the file's tier.
	if j, ok := env.HooksOff(call.ToolName(), call.ToolInput()); ok {
		return answer.Guard(j.Action, j.Reason(), j.Tag()), nil
	}
	js, err := env.JudgeCall(call.ToolName(), call.ToolInput(), pol, lookup)
	if err != nil || len(js) == 0 {
		return nil, err
	}
	j := js[0]
	return answer.Guard(j.Action, j.Reason(), j.Tag()), nil
}
