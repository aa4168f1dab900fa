// Package briefing builds LoadContext's session briefing: what the model would otherwise spend
// tool calls to learn (the previous session, work in progress, the project's shape, the user's
// prompt files) and, for hosts that do not inject them, the repository snapshot and machine
// facts Claude Code already gives. Each section is switchable and capped; a section whose
// command fails or times out is left out, with the reason on the debug writer.
package briefing
