// Package settings installs and removes hooks in each client's own files (Claude Code's
// settings.json and the other clients' JSON files, Codex's hooks.json with the trust tables of
// its config.toml, a docker-agent agent's YAML, VT Code's vtcode.toml) and places the binaries
// of a managed install. Every file is edited in place: each byte it does not own stays, a parse
// before and after each edit checks that exactly that edit was made, and a manifest records
// what was added so that uninstall takes exactly that away again.
package settings
