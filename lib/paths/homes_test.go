package paths

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// A project's settings can set HOME for the hooks and the commands alike. The account's own
// home (OwnerHome, from the password database) keeps every protection of home: the same call
// is judged as it is when HOME is the real home, and without an owner home as before. ~ still
// means HOME, and what the policy allows under ~/ stays under HOME.
func TestOwnerHomeKeepsHomeProtections(t *testing.T) {
	tests := []struct {
		name, tool, input string
		pol               Policy
		want, before      Action // with OwnerHome /home/u; with none (as before)
		rule              string // the rule with OwnerHome
	}{
		{"read aws credentials", "Read", `{"file_path":"/home/u/.aws/credentials"}`, Policy{}, Deny, Allow, "credentials.read"},
		{"cat a key", "Bash", `{"command":"cat /home/u/.ssh/id_rsa"}`, Policy{}, Deny, Deny, "credentials.read"},
		{"cat the ssh config", "Bash", `{"command":"cat /home/u/.ssh/config"}`, Policy{}, Allow, Allow, ""},
		{"read gpg's keys", "Read", `{"file_path":"/home/u/.gnupg/pubring.kbx"}`, Policy{}, Deny, Allow, "credentials.read"},
		{"read the netrc", "Read", `{"file_path":"/home/u/.netrc"}`, Policy{}, Deny, Allow, "credentials.read"},
		{"archive the home", "Bash", `{"command":"tar czf /tmp/h.tgz /home/u"}`, Policy{}, Deny, Allow, "credentials.read"},
		{"grep the home", "Bash", `{"command":"grep -r token /home/u/.config"}`, Policy{}, Ask, Allow, "ask.read-tree"},
		{"write authorized_keys", "Write", `{"file_path":"/home/u/.ssh/authorized_keys","content":"k"}`, Policy{}, Deny, Deny, "credentials"},
		{"write the user settings", "Write", `{"file_path":"/home/u/.claude/settings.json","content":"{}"}`, Policy{}, Deny, Deny, "read-only.claude-settings"},
		{"write a rc file", "Write", `{"file_path":"/home/u/.bashrc","content":"x"}`, Policy{}, Deny, Deny, "outside-project"},
		{"write a rc file in an allowed dir", "Write", `{"file_path":"/home/u/.bashrc","content":"x"}`, Policy{AllowDirs: []string{"/home/u"}}, Ask, Allow, "ask.rc-file"},
		{"append to a rc file", "Bash", `{"command":"echo x >> /home/u/.zshrc"}`, Policy{}, Deny, Deny, "outside-project"},
		{"HOME's rc file asks", "Write", `{"file_path":"/repo/fake/.bashrc","content":"x"}`, Policy{}, Ask, Ask, "ask.rc-file"},
		{"policy deny under ~", "Write", `{"file_path":"/home/u/notes/x","content":"x"}`, Policy{AllowDirs: []string{"/home/u"}, Deny: []string{"~/notes/**"}}, Deny, Allow, "policy.deny"},
		{"allow_read under ~ is HOME's", "Read", `{"file_path":"/home/u/.aws/config"}`, Policy{AllowRead: []string{"~/.aws/config"}}, Deny, Allow, "credentials.read"},
		{"allow_read under ~ in HOME", "Read", `{"file_path":"/repo/fake/.aws/config"}`, Policy{AllowRead: []string{"~/.aws/config"}}, Allow, Allow, ""},
		{"the fake home stays home", "Read", `{"file_path":"/repo/fake/.aws/credentials"}`, Policy{}, Deny, Deny, "credentials.read"},
		{"~ is HOME", "Bash", `{"command":"cat ~/.ssh/id_rsa"}`, Policy{}, Deny, Deny, "credentials.read"},
		{"an ordinary read", "Read", `{"file_path":"/home/u/notes.txt"}`, Policy{}, Allow, Allow, ""},
		{"a project write", "Write", `{"file_path":"/repo/proj/a.go","content":"x"}`, Policy{}, Allow, Allow, ""},
	}
	for _, tt := range tests {
		for _, owner := range []string{"/home/u", ""} {
			e := Env{Cwd: "/repo/proj", Home: "/repo/fake", OwnerHome: owner, Project: "/repo/proj", Temp: []string{"/tmp"}}
			js, err := e.JudgeCall(tt.tool, event.ToolInput{Result: gjson.Parse(tt.input)}, &tt.pol, nil)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			got, rule := Allow, ""
			if len(js) > 0 {
				got, rule = js[0].Action, js[0].Rule
			}
			want := tt.want
			if owner == "" {
				want = tt.before
			}
			if got != want || owner != "" && rule != tt.rule {
				t.Errorf("%s, owner home %q: got %s [%s], want %s [%s]", tt.name, owner, got, rule, want, tt.rule)
			}
		}
	}
}

// An owner home that is HOME, or none, changes nothing.
func TestOwnerHomeSameAsHome(t *testing.T) {
	for _, e := range []Env{{Home: "/home/u", OwnerHome: "/home/u"}, {Home: "/home/u"}} {
		if hs := e.homes(); len(hs) != 1 || hs[0] != "/home/u" {
			t.Errorf("%+v: homes %q", e, hs)
		}
	}
	if hs := (Env{OwnerHome: "/home/u"}).homes(); len(hs) != 1 || hs[0] != "/home/u" {
		t.Errorf("no HOME: homes %q", hs)
	}
}
