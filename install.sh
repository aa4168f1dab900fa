#!/bin/sh
# install.sh: build every hook and the harness CLI into $HARNESS_HOME/bin (default
# ~/.claude/harness/bin), then wire the hooks into Claude Code with `harness install`.
#
#   ./install.sh                          user scope: ~/.claude/settings.json
#   ./install.sh --scope project|local [--project DIR]
#   ./install.sh --dry-run                builds in a temporary directory, shows the settings
#                                         diff, and changes no file
#   ./install.sh --only SecurityValidator
#   ./install.sh --client codex|copilot|qwen|droid|gemini [--scope project]
#                                         that client's own hook file instead (docs/clients.md)
#   ./install.sh --uninstall [--purge]    remove exactly what was installed (--purge: and the
#                                         binaries, logs, backups and the link on PATH)
#
# Other flags go to `harness install` (see harness install --help). Safe to run twice.
# `harness` itself goes on PATH: a link in ~/.local/bin when that is on PATH, or the line to add.
set -eu

cd "$(dirname "$0")"
: "${HARNESS_HOME:=${HOME:?HOME is not set}/.claude/harness}"
export HARNESS_HOME
bin="$HARNESS_HOME/bin"

if ! command -v go >/dev/null 2>&1; then
	echo "install.sh: Go is not installed (or not on PATH). Install Go 1.26 or newer from https://go.dev/dl/ and run ./install.sh again." >&2
	exit 1
fi

uninstall=no
dry=no
for arg in "$@"; do
	[ "$arg" = "--uninstall" ] && uninstall=yes
	[ "$arg" = "--dry-run" ] && dry=yes
done
if [ "$uninstall" = yes ]; then
	if [ ! -x "$bin/harness" ]; then
		echo "install.sh: nothing to uninstall ($bin/harness is not there)" >&2
		exit 1
	fi
	args=""
	for arg in "$@"; do
		[ "$arg" = "--uninstall" ] || args="$args $arg"
	done
	# shellcheck disable=SC2086 # flags are single words
	exec "$bin/harness" uninstall $args
fi

version=$(git describe --tags --always --dirty 2>/dev/null || echo devel)
ldflags="-s -w -X github.com/hookkit/harness/lib/hook.Version=$version"

# Each hook is a main package in hooks/<Name>/.
pkgs="./cmd/harness"
count=0
for dir in hooks/*/; do
	[ -d "$dir" ] || continue
	ls "$dir"*.go >/dev/null 2>&1 || continue
	pkgs="$pkgs ./${dir%/}"
	count=$((count + 1))
done

# A dry run builds into a temporary directory, which goes away: it changes no file.
out="$bin"
if [ "$dry" = yes ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/harness-dry-run.XXXXXX")
	trap 'rm -rf "$out"' EXIT
else
	mkdir -p "$bin"
fi
printf 'building %s hooks and the harness CLI into %s ... ' "$count" "$out"
# shellcheck disable=SC2086 # one argument per package; hook names have no spaces
CGO_ENABLED=0 go build -trimpath -ldflags="$ldflags" -o "$out/" $pkgs
echo ok

client="Claude Code"
prev=""
for arg in "$@"; do
	case "$prev$arg" in
	--client=*) client=${arg#--client=} ;;
	--client*) client=$arg ;;
	esac
	prev=""
	[ "$arg" = "--client" ] && prev="--client"
done
[ "$client" = claude ] && client="Claude Code"
if [ "$dry" = yes ]; then
	echo "what wiring them into $client would change (dry run):"
	"$out/harness" install --built="$out" "$@"
else
	echo "wiring them into $client:"
	"$bin/harness" install "$@"
fi
