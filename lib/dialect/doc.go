// Package dialect translates the hook protocols of other clients (Codex CLI, GitHub Copilot
// CLI, Qwen Code, Factory droid, Gemini CLI) to and from Claude Code's: a payload is rewritten
// into Claude Code's shape before any hook reads it, and a hook's answer is rendered the way
// the client reads it, choosing the safe answer where the client cannot express one.
package dialect
