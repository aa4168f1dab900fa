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
	"github.com/hookkit/harness/lib/builtin/writeprotector"
	"github.com/hookkit/harness/lib/hook"
)

func main() { hook.Main(writeprotector.Spec, writeprotector.Run) }
