package paths

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
	for _, r := range rules {
		if !hit[r.ID] {
			t.Errorf("no case hits rule %s", r.ID)
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
