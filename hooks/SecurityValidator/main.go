// Hook: SecurityValidator
// Event: PreToolUse, PreSkillShellCommand
// Matcher: Bash|PowerShell
// Failure policy: closed
//
// Blocks destructive and dangerous shell commands and stays silent on everyday work: the
// model's Bash calls (PreToolUse) and the inline !`cmd` commands of skills and slash commands
// (PreSkillShellCommand, which no PreToolUse hook sees) get the same analysis. The command is
// parsed and unwrapped (lib/shell), then judged by rule packs under the embedded defaults and
// the user's and project's policy files (lib/danger). PowerShell (the tool on Windows, or a
// skill with shell: powershell) is judged as Bash judges pwsh -c: a Bash-only guard would let
// every PowerShell call through where there is no Bash tool. Claude Code also runs
// Bash-matched hooks for its Monitor tool (a command whose output it streams): judged as Bash.
// Deny: exit 2 with the rule and a safer alternative. Ask: permissionDecision "ask". Safe: no
// output, never "allow", so the user's own permission rules and prompts still apply.
package main

import (
	"github.com/hookkit/harness/lib/builtin/securityvalidator"
	"github.com/hookkit/harness/lib/hook"
)

func main() { hook.Main(securityvalidator.Spec, securityvalidator.Run) }
