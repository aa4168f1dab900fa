package paths

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// TestRules checks the rules as declared: ids unique, every deny with advice, every Rule
// declared in the package's files listed (so the catalog knows it).
func TestRules(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rules {
		if seen[r.ID] {
			t.Errorf("rule %s is declared twice", r.ID)
		}
		seen[r.ID] = true
		if r.Action == Deny && r.Instead == "" {
			t.Errorf("rule %s denies without advice (Instead)", r.ID)
		}
	}
	files, _ := filepath.Glob("*.go")
	decl := regexp.MustCompile(`&Rule\{ID: "([^"]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, _ := os.ReadFile(f)
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			if !seen[m[1]] {
				t.Errorf("%s declares rule %s, which the rules list leaves out", f, m[1])
			}
		}
	}
}

// TestEveryRuleHit names, for each rule, a write or read it must decide: the ids are those
// WriteProtector's reasons and the audit records carry.
func TestEveryRuleHit(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, proj := root+"/home", root+"/home/proj"
	os.MkdirAll(home+"/.ssh", 0o700)
	os.WriteFile(home+"/.ssh/id_rsa", []byte("key"), 0o600)
	os.MkdirAll(proj, 0o755)
	e := Env{Cwd: proj, Home: home, Project: proj, Temp: []string{root + "/tmp"}, HarnessHome: home + "/.claude/harness"}
	pol := &Policy{Deny: []string{"secret/**"}, ReadOnly: []string{"vendor/**"}, Ask: []string{"docs/**"}, AskWorkflows: true,
		DenyRead: []string{"notes/**"}}
	hit := map[string]bool{}
	for _, tt := range []struct {
		rule, path string
		read       *Access
	}{
		{"policy.deny", proj + "/secret/x", nil},
		{"credentials", home + "/.ssh/id_rsa", nil},
		{"read-only.claude-settings", home + "/.claude/settings.json", nil},
		{"read-only.harness", home + "/.claude/harness/bin/x", nil},
		{"read-only.system", "/etc/hosts", nil},
		{"read-only.git", proj + "/.git/config", nil},
		{"policy.read-only", proj + "/vendor/x.go", nil},
		{"ask.rc-file", home + "/.bashrc", nil},
		{"outside-project", root + "/elsewhere/x", nil},
		{"ask.env", proj + "/.env", nil},
		{"ask.project-settings", proj + "/.claude/settings.json", nil},
		{"ask.planted", proj + "/.envrc", nil},
		{"ask.ci-workflow", proj + "/.github/workflows/ci.yml", nil},
		{"policy.ask", proj + "/docs/a.md", nil},
		{"policy.deny-read", "", &Access{Path: proj + "/notes/x", How: "Read", Read: true}},
		{"ask.key-read", "", &Access{Path: proj + "/server.key", How: "Read", Read: true}},
		{"credentials.read", "", &Access{Path: home + "/.ssh/id_rsa", How: "Read", Read: true}},
		{"ask.env-read", "", &Access{Path: proj + "/.env", How: "Read", Read: true}},
		{"ask.read-tree", "", &Access{Path: home, How: "Grep", Read: true, Tree: true}},
	} {
		var v Verdict
		if tt.read != nil {
			v = e.JudgeRead(*tt.read, pol)
		} else {
			v = e.Judge(tt.path, pol)
		}
		if v.Rule != tt.rule {
			t.Errorf("%s%v: rule %q (%v, %s), want %s", tt.path, tt.read, v.Rule, v.Action, v.Why, tt.rule)
		}
		if tag := v.Tag(); tag.Rule != v.Rule || tag.Pack != tier(v.Rule) {
			t.Errorf("%s: tagged %+v", v.Rule, tag)
		}
		hit[tt.rule] = true
	}
	// The rules a write's content decides: a private key's text.
	for _, tt := range []struct{ rule, path string }{
		{"credentials.private-key", proj + "/deploy/key.txt"},
		{"ask.key-fixture", proj + "/testdata/key.txt"},
	} {
		js, err := e.JudgeCall("Write", keyInput(tt.path), pol, nil)
		if err != nil || len(js) == 0 || js[0].Rule != tt.rule {
			t.Errorf("Write of a private key to %s: %+v %v, want %s", tt.path, js, err, tt.rule)
		}
		hit[tt.rule] = true
	}
	// The rule a write's settings decide: a client's hooks switched off (hooksoff.go).
	off, _ := json.Marshal(map[string]string{"file_path": proj + "/.claude/settings.json", "content": `{"disableAllHooks": true}`})
	if j, ok := e.HooksOff("Write", event.ToolInput{Result: gjson.ParseBytes(off)}); !ok || j.Rule != "hooks-off" || j.Tag().Pack != "hooks-off" {
		t.Errorf("Write of disableAllHooks to the project's settings: %+v %v, want hooks-off", j, ok)
	}
	hit["hooks-off"] = true
	for _, r := range rules {
		if !hit[r.ID] {
			t.Errorf("no case hits rule %s", r.ID)
		}
	}
}

// keyInput is a Write tool input of a private key's text to p.
func keyInput(p string) event.ToolInput {
	b, _ := json.Marshal(map[string]string{"file_path": p, "content": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"})
	return event.ToolInput{Result: gjson.ParseBytes(b)}
}

// A private key written into the project, by name or by content, is denied, except in test
// fixtures, where it is asked about; its public half and ordinary text are not keys.
func TestPrivateKeysInTheProject(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, proj := root+"/home", root+"/home/proj"
	e := Env{Cwd: proj, Home: home, Project: proj, Temp: []string{root + "/tmp"}}
	text := func(p, content string) event.ToolInput {
		b, _ := json.Marshal(map[string]string{"file_path": p, "content": content})
		return event.ToolInput{Result: gjson.ParseBytes(b)}
	}
	for _, r := range []string{proj + "/id_rsa", proj + "/deploy/id_ed25519"} {
		if v := e.JudgeRead(Access{Path: r, How: "Read", Read: true}, nil); v.Rule != "ask.key-read" {
			t.Errorf("Read %s: %+v, want ask.key-read", r, v)
		}
	}
	for _, tt := range []struct {
		in   event.ToolInput
		want string
	}{
		{text(proj+"/id_rsa", "x"), "credentials"},
		{text(proj+"/deploy/id_ed25519_ci", "x"), "credentials"},
		{text(proj+"/certs/server.key", "x"), "credentials"},
		{text(proj+"/testdata/id_rsa", "x"), "ask.key-fixture"},
		{text(proj+"/tests/fixtures/tls.pem", "x"), "ask.key-fixture"},
		{keyInput(proj + "/config/app.yml"), "credentials.private-key"},
		{keyInput(proj + "/test/keys.txt"), "ask.key-fixture"},
		{keyInput(root + "/tmp/k"), ""},
		{text(proj+"/id_rsa.pub", "ssh-ed25519 AAAA dev@x"), ""},
		{text(proj+"/README.md", "run ssh-keygen; never commit -----BEGIN RSA PUBLIC KEY----- blocks"), ""},
	} {
		js, err := e.JudgeCall("Write", tt.in, nil, nil)
		if err != nil || len(js) == 0 || js[0].Rule != tt.want {
			t.Errorf("Write %s: %+v %v, want %q", tt.in.Get("file_path"), js, err, tt.want)
		}
	}
}

// A deny or ask reads as the guard prints it: the verb, the path as the call named it, how,
// why, the rule, and the advice on a line of its own.
func TestJudgedReason(t *testing.T) {
	v := Verdict{Path: "/etc/hosts"}.with(roSystem, "/etc/hosts is a system path")
	got := Judged{Access{Path: "/etc/hosts", How: "Write"}, v}.Reason()
	want := "blocked writing `/etc/hosts` (Write): /etc/hosts is a system path [rule read-only.system].\n" +
		"Instead: write inside the project, or ask the user to change system files."
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	read := Judged{Access{Path: ".env", How: "cat", Read: true}, Verdict{}.with(askEnvRead, ".env is an environment file")}
	if r := read.Reason(); !strings.HasPrefix(r, "asks before reading `.env` (cat): ") {
		t.Errorf("read: %q", r)
	}
	if r := (Judged{}).Reason(); r != "" {
		t.Errorf("allow: %q", r)
	}
}

// A reason names what was refused in printable text: a path known only at run time reads as
// $NAME or …, never as the analysis's marker bytes.
func TestReasonIsPrintable(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, proj := root+"/home", root+"/home/proj"
	os.MkdirAll(home+"/.ssh", 0o700)
	e := Env{Cwd: proj, Home: home, Project: proj}
	for _, cmd := range []string{`cat ~/.ssh/$X`, `find ~/.ssh/$X -name "*" -exec cat {} \;`} {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		js, err := e.JudgeCall("Bash", event.ToolInput{Result: gjson.ParseBytes(b)}, nil, nil)
		if err != nil || len(js) == 0 || js[0].Action == Allow {
			t.Fatalf("%s: %+v %v", cmd, js, err)
		}
		for _, r := range js[0].Reason() {
			if r < 0x20 && r != '\n' {
				t.Errorf("%s: the reason holds the control byte %#x: %q", cmd, r, js[0].Reason())
				break
			}
		}
	}
}
