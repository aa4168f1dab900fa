// Hook: SecretGuard
// Event: UserPromptSubmit, PreToolUse, PreSkillShellCommand, SessionEnd
// Matcher: Bash|PowerShell (PreToolUse, PreSkillShellCommand), * (SessionEnd)
// Failure policy: closed
//
// Keeps credentials out of the model's context, out of commands and off the disk. A prompt
// that holds a secret is blocked before the model sees it, with a reason that names the kind
// of secret and never the secret itself. A Bash command that embeds a literal credential asks
// the user, whether the model runs it or a skill's inline !`cmd` does (there an ask keeps the
// command from running: a skill cannot wait for approval). Claude Code writes a prompt to its transcript (and prompt history) before the
// hooks run and again in its block notice: the blocked secret is masked in place in those
// files at once, and once more on the next call or at the session's end (lib/secret).
package main

import (
	"github.com/hookkit/harness/lib/builtin/secretguard"
	"github.com/hookkit/harness/lib/hook"
)

func main() { hook.Main(secretguard.Spec, secretguard.Run) }
