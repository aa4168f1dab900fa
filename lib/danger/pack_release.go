package danger

import (
	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	releaseUnpublish = &Rule{ID: "release.unpublish", Action: Ask, Radius: Medium, Instead: "publish a fixed version, or deprecate this one (npm deprecate), which warns users without breaking their builds"}
)

var packRelease = pack{name: "release", title: "package releases",
	rules: []*Rule{releaseUnpublish},
	known: (*judge).release,
}

// The options of the registry clients that take a value, so that their values are not read as
// the subcommand.
var (
	releaseOpts = shell.Opts{Short: "w", Long: []string{"registry", "otp", "tag", "workspace", "userconfig", "version", "vers", "index", "token", "host", "key", "platform"}}
	nugetOpts   = shell.Opts{Short: "sk", Long: []string{"source", "api-key", "configfile"}}
)

// release: a published version taken back from a package registry.
func (j *judge) release(c *shell.Cmd) {
	opts := releaseOpts
	switch c.Name {
	case "npm", "yarn", "pnpm", "cargo", "gem":
	case "dotnet", "nuget":
		opts = nugetOpts
	default:
		return // every known command comes here: parse only the registry clients
	}
	p := opts.Parse(c.Args)
	ops := p.Operands
	what := ""
	switch c.Name {
	case "npm", "yarn", "pnpm":
		if at(ops, 0) == "unpublish" {
			what = c.Name + " unpublish removes a published version from the registry: builds that depend on it break, and the version number cannot be used again"
		}
	case "cargo":
		if at(ops, 0) == "yank" && !p.Has("undo") {
			what = "cargo yank withdraws a published crate version: projects without it locked can no longer resolve it"
		}
	case "gem":
		if at(ops, 0) == "yank" {
			what = "gem yank removes a published version from the registry: builds that depend on it break"
		}
	case "dotnet", "nuget":
		if c.Name == "dotnet" && at(ops, 0) == "nuget" {
			ops = ops[1:]
		}
		if at(ops, 0) == "delete" {
			what = c.Name + " nuget delete unlists or deletes a published version: builds that depend on it can break"
		}
	}
	if what != "" {
		j.add(c, releaseUnpublish, what, "")
	}
}
