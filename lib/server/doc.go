// Package server answers Claude Code's HTTP hooks by running the hooks in-process (hook.Call):
// the checks on who may ask, the sessions registered at their start, and the rendering of each
// answer as the JSON an HTTP hook may give.
package server
