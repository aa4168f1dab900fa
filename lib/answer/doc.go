// Package answer builds hook answers that Claude Code accepts: the exit code, at most one JSON
// document on stdout, and stderr, checked against the event that fired.
package answer
