#!/bin/sh
# install.sh: build every hook and the harness CLI into $HARNESS_HOME/bin (default
# ~/.claude/harness/bin). Wiring the hooks into Claude Code's settings.json arrives with the
# installer issue; until then this script prints each hook's wiring.
set -eu

cd "$(dirname "$0")"
: "${HARNESS_HOME:=${HOME:?HOME is not set}/.claude/harness}"
bin="$HARNESS_HOME/bin"

if ! command -v go >/dev/null 2>&1; then
	echo "install.sh: Go is not installed (or not on PATH). Install Go 1.26 or newer from https://go.dev/dl/ and run ./install.sh again." >&2
	exit 1
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

mkdir -p "$bin"
printf 'building %s hooks and the harness CLI into %s ... ' "$count" "$bin"
# shellcheck disable=SC2086 # one argument per package; hook names have no spaces
go build -trimpath -ldflags="$ldflags" -o "$bin/" $pkgs
echo ok

echo
if [ "$count" -eq 0 ]; then
	echo "No hooks exist yet in hooks/; built the harness CLI only."
else
	echo "Built hooks and how each is to be wired (event, matcher, timeout):"
	"$bin/harness" describe "$bin"
fi
echo
echo "Installed into $bin. To undo: rm -r \"$bin\""
