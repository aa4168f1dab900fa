// Package paths resolves the paths a tool call writes and judges them against tiers: no access
// (credentials), read-only (system, git internals, the guard's own files), ask (.env, shell rc
// files, the project's Claude settings, files another program runs later) and, outside the
// project and the temp directories, deny. Each rule is declared once, as data, in rules.go.
package paths
