// Package event is the table of Claude Code's hook events and typed, lazy access to their payloads.
package event
