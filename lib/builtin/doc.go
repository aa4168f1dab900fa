// Package builtin lists the per-tool-call hooks as library functions, for a server that runs
// them in-process; each binary under hooks/ links only its own package.
package builtin
