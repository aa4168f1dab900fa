package settings

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/dialect"
)

func TestTrustIdentity(t *testing.T) {
	tests := []struct{ name, ev, group, want string }{
		// The example of ../shared/protocol/clients/codex.md, "Trust".
		{"codex.md's example", "PreToolUse",
			`{"matcher":"Bash","hooks":[{"type":"command","command":"/x/SecurityValidator","timeout":5}]}`,
			`{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"/x/SecurityValidator","timeout":5,"type":"command"}],"matcher":"Bash"}`},
		{"no matcher: left out", "UserPromptSubmit",
			`{"hooks":[{"type":"command","command":"'/h/SecretGuard' --client=codex --timeout=10","timeout":10}]}`,
			`{"event_name":"user_prompt_submit","hooks":[{"async":false,"command":"'/h/SecretGuard' --client=codex --timeout=10","timeout":10,"type":"command"}]}`},
		{"no timeout: 600", "Stop", `{"hooks":[{"type":"command","command":"x"}]}`,
			`{"event_name":"stop","hooks":[{"async":false,"command":"x","timeout":600,"type":"command"}]}`},
		{"timeout at least 1, async and statusMessage kept", "SessionStart",
			`{"matcher":"startup","hooks":[{"type":"command","command":"x","timeout":0,"async":true,"statusMessage":"hi"}]}`,
			`{"event_name":"session_start","hooks":[{"async":true,"command":"x","statusMessage":"hi","timeout":1,"type":"command"}],"matcher":"startup"}`},
		{"serde_json escaping: <, >, & as they are", "PreToolUse",
			`{"matcher":"*","hooks":[{"type":"command","command":"a && b > \"c\" <\\d\u0001","timeout":5}]}`,
			`{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"a && b > \"c\" <\\d\u0001","timeout":5,"type":"command"}],"matcher":"*"}`},
		{"onFailure and other fields are not hashed", "PreToolUse",
			`{"matcher":"Bash","hooks":[{"type":"command","command":"x","timeout":5,"onFailure":"block"}]}`,
			`{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"x","timeout":5,"type":"command"}],"matcher":"Bash"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrustIdentity(tt.ev, []byte(tt.group), 0); got != tt.want {
				t.Errorf("identity\n got %s\nwant %s", got, tt.want)
			}
			sum := sha256.Sum256([]byte(tt.want))
			if got, want := TrustHash(tt.ev, []byte(tt.group), 0), "sha256:"+hex.EncodeToString(sum[:]); got != want {
				t.Errorf("hash %s, want %s", got, want)
			}
		})
	}
}

func TestSnakeEvent(t *testing.T) {
	want := map[string]string{
		"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use", "UserPromptSubmit": "user_prompt_submit",
		"SessionStart": "session_start", "SessionEnd": "session_end", "Stop": "stop",
		"PermissionRequest": "permission_request", "PreCompact": "pre_compact", "PostCompact": "post_compact",
		"SubagentStart": "subagent_start", "SubagentStop": "subagent_stop",
	}
	for ev, w := range want {
		if got := SnakeEvent(ev); got != w {
			t.Errorf("SnakeEvent(%s) = %s, want %s", ev, got, w)
		}
	}
	if got := TrustKey("/home/dev/.codex/hooks.json", "PreToolUse", 0, 0); got != "/home/dev/.codex/hooks.json:pre_tool_use:0:0" {
		t.Errorf("TrustKey = %s", got)
	}
}

func TestCheckTopKeys(t *testing.T) {
	d, err := dialect.Lookup(string(dialect.Codex))
	if err != nil {
		t.Fatal(err)
	}
	for in, bad := range map[string]string{
		`{"hooks":{}}`:                    "",
		`{"description":"x","hooks":{}}`:  "",
		`{}`:                              "",
		`{"$schema":"s","hooks":{}}`:      `"$schema"`,
		`{"hooks":{},"model":"o3","x":1}`: `"model", "x"`,
	} {
		err := CheckTopKeys(d, "hooks.json", []byte(in))
		switch {
		case bad == "" && err != nil:
			t.Errorf("%s: %v", in, err)
		case bad != "" && (err == nil || !strings.Contains(err.Error(), "top-level key(s) "+bad+":")):
			t.Errorf("%s: %v, want the keys %s named", in, err, bad)
		}
	}
}
