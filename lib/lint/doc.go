// Package lint checks Claude Code settings files for hook mistakes that Claude Code itself
// accepts silently: unknown events, surprising matchers, bad timeouts, commands that cannot run.
package lint
