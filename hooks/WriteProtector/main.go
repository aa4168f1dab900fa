// Hook: WriteProtector
// Event: PreToolUse, PreSkillShellCommand
// Matcher: ^(Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|Read|NotebookRead|Grep|Glob|mcp__.*)$ (PreToolUse),
// Bash|PowerShell (PreSkillShellCommand)
// Failure policy: closed
//
// Guards the files a tool call writes and reads. Every path a call writes (file_path,
// notebook_path, an MCP tool's path arguments, and for Bash and PowerShell the redirections and
// file-writing commands the shell analysis finds) is resolved (~, .., relative paths, symlinks,
// Windows separators) and judged by tier: no access (credentials), read-only (system paths,
// .git internals, the harness's and Claude Code's own settings), ask (.env files, shell rc
// files, the project's Claude settings, and files another program runs later: .mcp.json,
// .envrc, .husky/, the other clients' project settings, lib/paths' planted list), and outside
// the project and the temp directories: deny. Every path a call reads (Read, NotebookRead, Grep, Glob, an MCP tool that reads, and
// the files a shell command prints, copies, archives or searches) is judged by the no-access
// tier alone: credentials are denied, .env files ask. Skills' inline shell commands
// (PreSkillShellCommand) are judged as Bash. Command danger is SecurityValidator's business.
package main

import (
	"context"
	"os"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/paths"
)

var spec = hook.Spec{
	Name:        "WriteProtector",
	Description: "blocks writes to credentials, system paths and places outside the project, and reads of credentials; asks before .env and rc files and files another program runs later",
	Policy:      hook.Closed,
	Record:      audit.Verdict,
	Events: []hook.Binding{
		{Event: event.PreToolUse, Matcher: "^(Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|Read|NotebookRead|Grep|Glob|mcp__.*)$", Timeout: 5},
		{Event: event.PreSkillShellCommand, Matcher: "Bash|PowerShell", Timeout: 5},
	},
}

func main() { hook.Main(spec, run) }

func run(ctx context.Context, in event.Input) (answer.Answer, error) {
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
	if t := os.Getenv("TMPDIR"); paths.TempDir(t) {
		temp = append(temp, t)
	}
	env := paths.Env{Cwd: w.Cwd, Home: w.Home, OwnerHome: w.OwnerHome, Project: w.Project, Temp: temp, HarnessHome: w.HarnessHome}
	js, err := env.JudgeCall(call.ToolName(), call.ToolInput(), pol, os.LookupEnv)
	if err != nil || len(js) == 0 {
		return nil, err
	}
	j := js[0]
	return answer.Guard(j.Action, j.Reason(), j.Tag()), nil
}
