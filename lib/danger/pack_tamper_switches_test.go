package danger

import "testing"

// TestHookSwitches: a command that writes a setting with which a project's file switches off the
// hooks the user installed for a client is denied; the same file written otherwise asks, and
// the words elsewhere are data.
func TestHookSwitches(t *testing.T) {
	checkPack(t, []packCase{
		{`echo '{"hooksConfig": {"enabled": false}}' > .gemini/settings.json`, "tamper.disable-hooks"},
		{`echo '{"disableAllHooks": true}' > .qwen/settings.json`, "tamper.disable-hooks"},
		{`printf '[features]\ncodex_hooks = false\n' >> .codex/config.toml`, "tamper.disable-hooks"},
		{`printf '[features]\nhooks = false\n' >> .codex/config.toml`, "tamper.disable-hooks"},
		{`echo '{"hooks": {"hooksDisabled": true}}' > .factory/settings.json`, "tamper.disable-hooks"},
		// Through a pipe the setting is in what the writer (tee, cat, dd, sponge) is given.
		{`echo '{"disableAllHooks": true}' | tee .github/copilot/settings.local.json`, "tamper.disable-hooks"},
		{`printf '{"hooksConfig":{"enabled":false}}' | tee -a .gemini/settings.json > /dev/null`, "tamper.disable-hooks"},
		{`jq '.hooks.hooksDisabled = true' .factory/settings.json | sponge .factory/settings.json`, "tamper.disable-hooks"},
		{`echo '{"disableAllHooks": true}' | cat > ~/.claude/settings.json`, "tamper.disable-hooks"},
		{`cat other.json | tee .github/copilot/settings.local.json`, "tamper.planted"},
		{`echo 'disableAllHooks is documented' | tee notes.md`, ""},
		{`tee .github/copilot/settings.local.json <<< '{"disableAllHooks": true}'`, "tamper.disable-hooks"},
		{`echo '{"disableAllHooks": true}' > sub/.GitHub/copilot/settings.json`, "tamper.disable-hooks"},
		{`echo '{"model": "x"}' > .github/copilot/settings.json`, "tamper.planted"},
		{`echo '{"hooksDisabled": true}' > notes.json`, ""},
		{`echo 'codex_hooks = false is how a trusted project switches Codex hooks off' >> notes.md`, ""},
	})
}
