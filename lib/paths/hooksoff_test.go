package paths

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// A file tool that would switch a client's hooks off in any client's project settings is
// denied (hooks-off), judged on the file as it would be after the call; the same files written
// with anything else keep their tier (Claude Code's project settings ask, Qoder's and Gemini's
// are planted files, which ask).
func TestHooksOff(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	proj := root + "/proj"
	os.MkdirAll(proj+"/.claude", 0o755)
	os.MkdirAll(proj+"/.qoder", 0o755)
	os.WriteFile(proj+"/.claude/settings.json", []byte(`{"disableAllHooks": false, "hooks": {}}`), 0o644)
	os.WriteFile(proj+"/.qoder/settings.json", []byte(`{"hooksConfig": {"enabled": true}}`), 0o644)
	e := Env{Cwd: proj, Home: root + "/home", Project: proj, Temp: []string{root + "/tmp"}}
	in := func(v map[string]any) string { b, _ := json.Marshal(v); return string(b) }
	write := func(p, content string) string { return in(map[string]any{"file_path": p, "content": content}) }
	edit := func(p, old, new string) string {
		return in(map[string]any{"file_path": p, "old_string": old, "new_string": new})
	}
	for _, tt := range []struct {
		tool, input string
		want        Action
		rule        string
	}{
		{"Write", write(proj+"/.claude/settings.json", `{"disableAllHooks": true}`), Deny, "hooks-off"},
		{"Write", write(".claude/settings.local.json", `{"disableAllHooks": true}`), Deny, "hooks-off"},
		{"Write", write(proj+"/.Claude/Settings.json", `{"disableAllHooks": true}`), Deny, "hooks-off"},
		{"Write", write(proj+"/.qoder/settings.json", `{"disableAllHooks": true}`), Deny, "hooks-off"},
		{"Write", write(proj+"/.qoder/settings.local.json", `{"hooksConfig": {"enabled": false}}`), Deny, "hooks-off"},
		{"Write", write(proj+"/.gemini/settings.json", `{"hooksConfig": {"enabled": false}}`), Deny, "hooks-off"},
		// JSON with comments (Gemini CLI reads it) is read for the key alone.
		{"Write", write(proj+"/.gemini/settings.json", "// off\n{\"hooksConfig\": {\"enabled\": false}}"), Deny, "hooks-off"},
		// An Edit is judged on the file it leaves: false to true switches the hooks off.
		{"Edit", edit(proj+"/.claude/settings.json", `"disableAllHooks": false`, `"disableAllHooks": true`), Deny, "hooks-off"},
		{"Edit", edit(proj+"/.qoder/settings.json", `"enabled": true`, `"enabled": false`), Deny, "hooks-off"},
		{"MultiEdit", in(map[string]any{"file_path": proj + "/.qoder/settings.json", "edits": []any{
			map[string]any{"old_string": `{`, "new_string": `{"model": "x", `},
			map[string]any{"old_string": `"enabled": true`, "new_string": `"enabled": false`}}}), Deny, "hooks-off"},
		// An edit whose old text is not there: its new text read as a fragment.
		{"Edit", edit(proj+"/.qoder/settings.json", `"nothing": 1`, `"disableAllHooks": true`), Deny, "hooks-off"},
		{"apply_patch", in(map[string]any{"command": "*** Begin Patch\n*** Add File: .qoder/settings.json\n+{\"disableAllHooks\": true}\n*** End Patch\n"}), Deny, "hooks-off"},
		// A key given twice: a reader that keeps the last switches the hooks off.
		{"Write", write(proj+"/.claude/settings.local.json", `{"disableAllHooks": false, "disableAllHooks": true}`), Deny, "hooks-off"},
		{"Write", write(proj+"/.gemini/settings.json", `{"hooksConfig": {"enabled": true}, "hooksConfig": {"enabled": false}}`), Deny, "hooks-off"},
		// In a folder of the project, or outside it: a client started there reads it.
		{"Write", write(proj+"/sub/.claude/settings.json", `{"disableAllHooks": true}`), Deny, "hooks-off"},
		{"Write", write(root+"/elsewhere/.gemini/settings.json", `{"hooksConfig": {"enabled": false}}`), Deny, "hooks-off"},
		{"Write", write(proj+"/sub/.claude/settings.local.json", `{"permissions": {"allow": ["Bash(*)"]}}`), Ask, "ask.project-settings"},
		// Settings that leave the hooks on keep the file's tier.
		{"Write", write(proj+"/.claude/settings.json", `{"disableAllHooks": false}`), Ask, "ask.project-settings"},
		{"Edit", edit(proj+"/.claude/settings.json", `"hooks": {}`, `"hooks": {}, "model": "x"`), Ask, "ask.project-settings"},
		{"Write", write(proj+"/.qoder/settings.json", `{"hooksConfig": {"enabled": true}}`), Ask, "ask.planted"},
		{"Write", write(proj+"/.qoder/settings.local.json", `{}`), Ask, "ask.planted"},
		// The word elsewhere is data.
		{"Write", write(proj+"/docs/hooks.md", `set "disableAllHooks": true to switch them off`), Allow, ""},
		{"Write", write(proj+"/settings.json", `{"disableAllHooks": true}`), Allow, ""},
	} {
		t.Run(tt.tool+" "+tt.input, func(t *testing.T) {
			var v Verdict
			if j, ok := e.HooksOff(tt.tool, event.ToolInput{Result: gjson.Parse(tt.input)}); ok {
				v = j.Verdict
			} else {
				js, err := e.JudgeCall(tt.tool, event.ToolInput{Result: gjson.Parse(tt.input)}, nil, nil)
				if err != nil || len(js) == 0 {
					t.Fatalf("%v %v", js, err)
				}
				v = js[0].Verdict
			}
			if v.Action != tt.want || v.Rule != tt.rule {
				t.Errorf("got %v %q (%s), want %v %q", v.Action, v.Rule, v.Why, tt.want, tt.rule)
			}
		})
	}
	j, _ := e.HooksOff("Write", event.ToolInput{Result: gjson.Parse(write(proj+"/.qoder/settings.json", `{"disableAllHooks": true}`))})
	if got, want := j.Reason(), "blocked writing `"+proj+"/.qoder/settings.json` (Write): it would set \"disableAllHooks\": true in "+proj+
		"/.qoder/settings.json, which switches off every hook of the project, the guards of this session with them [rule hooks-off].\n"+
		"Instead: ask the user to change hook settings themselves."; got != want {
		t.Errorf("reason:\n%s\nwant\n%s", got, want)
	}
}
