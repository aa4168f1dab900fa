#!/bin/sh
# install.sh: build every hook and the harness CLI into $HARNESS_HOME/bin (default
# ~/.claude/harness/bin), then wire the hooks into Claude Code with `harness install`.
#
#   ./install.sh                          user scope: ~/.claude/settings.json
#   ./install.sh --scope project|local [--project DIR]
#   ./install.sh --dry-run                builds in a temporary directory, shows the settings
#                                         diff, and changes no file
#   ./install.sh --only SecurityValidator
#   ./install.sh --client codex|copilot|qwen|droid|gemini|opencode|kilo|pi|grok|antigravity [--scope project]
#                                         that client's own hook file instead (docs/clients.md)
#   ./install.sh --serve [--listen 127.0.0.1:8765]
#                                         Claude Code's guards answered by harness serve, behind
#                                         a systemd user socket (docs/serve.md)
#   ./install.sh --uninstall [--purge]    remove exactly what was installed (--purge: and the
#                                         binaries, logs, backups and the link on PATH)
#
# Other flags go to `harness install` (see harness install --help). Safe to run twice.
# `harness` itself goes on PATH: a link in ~/.local/bin when that is on PATH, or the line to add.
# Every flag is checked before anything is built: --help prints this and builds nothing, and
# a flag that neither this script nor harness install (or uninstall) takes, a word, or a value
# that --client, --scope, --form or --only does not take, exits 64 having built nothing.
set -eu

# The flags of harness install and harness uninstall (tests/install_script_test.go keeps
# these lists equal to theirs): those that take a value, and those that do not.
install_valued="only form bin from defaults agent system-dir prefix managed-dir client scope project settings listen"
install_bool="dry-run on-error managed print force serve"
uninstall_valued="prefix client scope project settings"
uninstall_bool="force purge managed dry-run"

# The values a flag can take, where the set is closed (tests/install_script_test.go keeps
# clients equal to harness's): checked before anything is built, like the flags.
clients="claude codex copilot qwen kimi qoder droid gemini docker-agent vtcode opencode kilo pi grok antigravity"
scopes="user project local"
forms="auto exec shell"

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

# nearest WORD KNOWN: the word of KNOWN that WORD most likely misspells (as harness's
# did-you-mean: two edits, one for short words, two swapped letters being one), or nothing.
nearest() {
	awk -v w="$1" -v known="$2" 'BEGIN {
		n = split(known, k, " "); lim = length(w) <= 4 ? 2 : 3; best = ""
		a = tolower(w)
		for (x = 1; x <= n; x++) {
			b = tolower(k[x]); la = length(a); lb = length(b)
			for (i = 0; i <= la; i++) d[i, 0] = i
			for (j = 0; j <= lb; j++) d[0, j] = j
			for (i = 1; i <= la; i++) for (j = 1; j <= lb; j++) {
				c = substr(a, i, 1) == substr(b, j, 1) ? 0 : 1
				v = d[i-1, j] + 1; if (d[i, j-1] + 1 < v) v = d[i, j-1] + 1
				if (d[i-1, j-1] + c < v) v = d[i-1, j-1] + c
				if (i > 1 && j > 1 && substr(a, i, 1) == substr(b, j-1, 1) && substr(a, i-1, 1) == substr(b, j, 1) && d[i-2, j-2] + 1 < v) v = d[i-2, j-2] + 1
				d[i, j] = v
			}
			if (d[la, lb] < lim) { best = k[x]; lim = d[la, lb] }
		}
		if (best != "") print best
	}'
}

refuse() {
	echo "install.sh: $1 (./install.sh --help)" >&2
	exit 64
}

# check NAME VALUE: refuses a value outside a flag's closed set, naming the nearest one.
check() {
	case "$1" in
	client) known=$clients ;;
	scope) known=$scopes ;;
	form) known=$forms ;;
	only)
		# Hooks imported with --from have names of their own.
		[ "$from" = no ] || return 0
		known=$(cd "$(dirname "$0")" && for d in hooks/*/; do d=${d%/}; printf '%s\n' "${d#hooks/}"; done | paste -sd' ' -)
		old_ifs=$IFS
		IFS=,
		for h in $2; do
			IFS=$old_ifs
			case " $known " in
			*" $h "*) ;;
			*)
				near=$(nearest "$h" "$known")
				refuse "--only: no hook \"$h\"${near:+; did you mean \"$near\"?} (hooks: $known)"
				;;
			esac
		done
		IFS=$old_ifs
		return 0
		;;
	*) return 0 ;;
	esac
	case " $known " in
	*" $2 "*) return 0 ;;
	esac
	near=$(nearest "$2" "$known")
	refuse "--$1 \"$2\" is not one of: $known${near:+; did you mean \"$near\"?}"
}

# Read every flag first: whether to uninstall decides which flags are right.
uninstall=no
dry=no
from=no
client="Claude Code"
for arg in "$@"; do
	case "$arg" in
	-h | -help | --help) usage; exit 0 ;;
	--uninstall | -uninstall) uninstall=yes ;;
	--from | -from | --from=* | -from=*) from=yes ;;
	esac
done
if [ "$uninstall" = yes ]; then
	valued=$uninstall_valued
	bool="uninstall $uninstall_bool"
else
	valued=$install_valued
	bool="uninstall $install_bool"
fi
want=""
for arg in "$@"; do
	if [ -n "$want" ]; then
		# A flag where the value should be is a slip: a value with a dash is --flag=-value.
		case "$arg" in
		-?*) refuse "flag \"--$want\" needs a value" ;;
		esac
		check "$want" "$arg"
		[ "$want" = client ] && client=$arg
		want=""
		continue
	fi
	case "$arg" in
	-*) ;;
	*) refuse "unexpected argument \"$arg\": it takes only flags" ;;
	esac
	name=${arg#-}
	name=${name#-}
	value=no
	case "$name" in
	*=*)
		value=yes
		check "${name%%=*}" "${name#*=}"
		[ "${name%%=*}" = client ] && client=${name#*=}
		name=${name%%=*}
		;;
	esac
	case " $valued " in
	*" $name "*) [ "$value" = yes ] || want=$name; continue ;;
	esac
	case " $bool " in
	*" $name "*) [ "$name" = dry-run ] && dry=yes; continue ;;
	esac
	case " $install_valued $install_bool " in
	*" $name "*) refuse "\"--$name\" does not go with --uninstall" ;;
	esac
	near=$(nearest "$name" "$valued $bool")
	if [ -n "$near" ]; then
		refuse "unknown flag \"${arg%%=*}\"; did you mean \"--$near\"?"
	fi
	refuse "unknown flag \"${arg%%=*}\""
done
[ -z "$want" ] || refuse "flag \"--$want\" needs a value"
[ "$client" = claude ] && client="Claude Code"

cd "$(dirname "$0")"
: "${HARNESS_HOME:=${HOME:?HOME is not set}/.claude/harness}"
export HARNESS_HOME
bin="$HARNESS_HOME/bin"

if ! command -v go >/dev/null 2>&1; then
	echo "install.sh: Go is not installed (or not on PATH). Install Go 1.26 or newer from https://go.dev/dl/ and run ./install.sh again." >&2
	exit 1
fi

if [ "$uninstall" = yes ]; then
	if [ ! -x "$bin/harness" ]; then
		echo "install.sh: nothing to uninstall ($bin/harness is not there)" >&2
		exit 1
	fi
	args=""
	for arg in "$@"; do
		case "$arg" in --uninstall | -uninstall) ;; *) args="$args $arg" ;; esac
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

if [ "$dry" = yes ]; then
	echo "what wiring them into $client would change (dry run):"
	"$out/harness" install --built="$out" "$@"
else
	echo "wiring them into $client:"
	"$bin/harness" install "$@"
fi
