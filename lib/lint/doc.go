// Package lint checks hook files for the mistakes their client accepts without a word: in
// Claude Code's settings files, unknown events and keys, events newer than the Claude Code
// installed, matchers that select other tools than they seem to, bad timeouts, commands that
// cannot run, and harness guards wired so that they could fail open; in the other clients'
// files (ClientFile), the same in that client's own terms: its event names and timeout unit,
// what its matchers can select, and for Codex the trust each hook needs.
package lint
