// Package dialect declares, as data, what each hook client other than Claude Code (Codex CLI,
// GitHub Copilot CLI, Qwen Code, Factory droid, Gemini CLI, docker-agent, VT Code) names, fires
// and reads differently, for the installer, linter, doctor and canaries to read; and translates
// at the edge of every hook: a payload is rewritten into Claude Code's shape before any hook
// reads it (Detect names the client by the payload's shape when the command line does not), and
// the answer is rendered the way the client reads it, choosing the safe answer where the client
// cannot express one. Payload and Read play the client's side for `harness doctor --client`.
package dialect
