// Package settings reads and edits Claude Code settings files in place, keeping every byte it
// does not own, and records what it added so that it can take exactly that away again.
package settings
