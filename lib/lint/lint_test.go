package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// corpus pins the findings, as "severity rule path", of every settings file in testdata/.
// Each file shows one mistake (or a few of a kind); the clean-* files must stay silent.
var corpus = []struct {
	file string
	want []string
}{
	{"clean-harness-absolute-paths.json", nil},
	{"clean-user-settings.json", nil},
	{"clean-no-hooks.json", nil},
	{"guard-fails-open.json", []string{
		// no onFailure; onFailure continue, and a timeout no longer than its deadline; its
		// deadline from its own timeout (a larger --timeout does not lengthen it); a timeout
		// below its own; SessionEnd blocks nothing, so needs no onFailure. Every guard's
		// command expands ${HARNESS_BIN}, which a project's env could point elsewhere.
		"warning guard.command-env hooks.PreToolUse[0].hooks[0].command",
		"warning guard.on-failure hooks.PreToolUse[0].hooks[0].onFailure",
		"warning guard.command-env hooks.PreToolUse[0].hooks[1].command",
		"warning guard.on-failure hooks.PreToolUse[0].hooks[1].onFailure",
		"warning guard.timeout hooks.PreToolUse[0].hooks[1].timeout",
		"warning guard.command-env hooks.PreToolUse[0].hooks[2].command",
		"warning guard.command-env hooks.PreToolUse[0].hooks[3].command",
		"warning guard.timeout hooks.PreToolUse[0].hooks[3].timeout",
		"warning guard.command-env hooks.PreToolUse[0].hooks[4].command",
		"warning guard.command-env hooks.SessionEnd[0].hooks[0].command",
	}},
	{"matcher-javascript-only-constructs.json", nil}, // lookaround and backreferences are valid JavaScript

	{"json-trailing-comma.json", []string{"error json.syntax"}},
	{"json-comment.json", []string{"error json.syntax"}},
	{"json-not-object.json", []string{"error json.not-object"}},
	{"json-duplicate-keys.json", []string{
		"error json.duplicate-key hooks.PreToolUse",
		"error json.duplicate-key hooks.PostToolUse[0].hooks[0].timeout",
	}},
	{"hooks-not-object.json", []string{"error hooks.not-object hooks"}},
	{"hooks-disabled.json", []string{"warning hooks.disabled disableAllHooks"}},
	// Keys Claude Code does not read are ignored in silence: errors where that loses a
	// safety setting (hooks, onFailure, permission rules), warnings elsewhere.
	{"key-mistakes.json", []string{
		"error key.unknown permisions",
		"error key.unknown hook",
		"error key.unknown permissions.Ask",
		"warning key.misplaced hooks.PreToolUse[0].if",
		"error key.unknown hooks.PreToolUse[0].hooks[0].onfailure",
		"warning key.unknown hooks.PreToolUse[0].hooks[1].timout",
		"warning key.misplaced hooks.PreToolUse[0].hooks[1].matcher",
		"warning key.unknown hooks.PreToolUse[0].hooks[2].colour",
		"warning key.unknown hooks.PreToolUse[1].matchers",
		"error key.unknown hooks.PreToolUse[1].hook",
		"error group.no-hooks hooks.PreToolUse[1]",
	}},
	{"event-hooks-not-array.json", []string{
		"error event.not-array hooks.PreToolUse",
		"error event.not-array hooks.Notification",
	}},
	{"event-unknown-names.json", []string{
		"error event.unknown hooks.preToolUse",
		"error event.unknown hooks.PostToolUsed",
		"error event.unknown hooks.OnFileSave",
	}},
	{"shape-broken-groups.json", []string{
		"error group.not-object hooks.PreToolUse[0]",
		"error group.no-hooks hooks.PreToolUse[1]",
		"error group.no-hooks hooks.PreToolUse[2].hooks",
		"error handler.not-object hooks.PreToolUse[3].hooks[0]",
		"error handler.type hooks.PreToolUse[3].hooks[1].type",
		"error handler.type hooks.PreToolUse[3].hooks[2].type",
		"error handler.missing-field hooks.PreToolUse[3].hooks[3].command",
		"error event.not-array hooks.Stop",
	}},
	{"handler-type-unsupported.json", []string{
		"error handler.unsupported hooks.Notification[0].hooks[0].type",
		"error handler.unsupported hooks.SessionStart[0].hooks[0].type",
		"error handler.unsupported hooks.PermissionRequest[0].hooks[0].type",
		"error handler.missing-field hooks.PostToolUse[0].hooks[0].url",
		"error handler.missing-field hooks.PostToolUse[0].hooks[1].tool",
	}},
	{"matcher-unanchored-regex.json", []string{
		"warning matcher.unanchored hooks.PreToolUse[0].matcher",
		"warning matcher.unanchored hooks.PreToolUse[3].matcher",
		"warning matcher.unanchored hooks.PostToolUse[0].matcher",
	}},
	{"matcher-invalid-regex.json", []string{
		"error matcher.regex-invalid hooks.PreToolUse[0].matcher",
		"error matcher.regex-invalid hooks.PreToolUse[1].matcher",
		"error matcher.regex-invalid hooks.PreToolUse[2].matcher",
		"error matcher.regex-invalid hooks.PreToolUse[3].matcher",
		"error matcher.regex-invalid hooks.SubagentStart[0].matcher",
	}},
	{"matcher-mcp-server-alone.json", []string{
		"error matcher.mcp-server hooks.PreToolUse[0].matcher",
		"error matcher.mcp-server hooks.PreToolUse[1].matcher",
	}},
	{"matcher-wrong-case.json", []string{
		"error matcher.case hooks.PreToolUse[0].matcher",
		"error matcher.case hooks.PreToolUse[1].matcher",
		"error matcher.case hooks.PreToolUse[2].matcher",
	}},
	{"matcher-on-event-without-matcher.json", []string{
		"warning matcher.ignored hooks.Stop[0].matcher",
		"warning matcher.star-file hooks.FileChanged[0].matcher",
		"warning matcher.separator hooks.FileChanged[1].matcher",
	}},
	{"timeout-mistakes.json", []string{
		"warning timeout.missing hooks.PreToolUse[0].hooks[0].timeout",
		"error timeout.invalid hooks.PreToolUse[0].hooks[1].timeout",
		"error timeout.invalid hooks.PreToolUse[0].hooks[2].timeout",
		"error timeout.invalid hooks.PreToolUse[0].hooks[3].timeout",
		"warning timeout.milliseconds hooks.PreToolUse[0].hooks[4].timeout",
		"warning timeout.missing hooks.UserPromptSubmit[0].hooks[0].timeout",
	}},
	{"session-end-budget.json", []string{
		"warning timeout.missing hooks.SessionEnd[0].hooks[0].timeout",
		"warning timeout.session-end hooks.SessionEnd[0].hooks[2].timeout",
	}},
	{"if-on-non-tool-event.json", []string{
		"error if.never-runs hooks.Stop[0].hooks[0].if",
		"error if.never-runs hooks.UserPromptSubmit[0].hooks[0].if",
		"error if.invalid hooks.PostToolUse[0].hooks[0].if",
	}},
	{"exec-form-missing-programs.json", []string{
		"error exec.not-found hooks.PreToolUse[0].hooks[0].command",
		"error exec.not-found hooks.PreToolUse[0].hooks[1].command",
		"error exec.not-found hooks.PreToolUse[0].hooks[2].command",
		"error exec.not-found hooks.PreToolUse[0].hooks[3].command",
		"error exec.args hooks.PreToolUse[0].hooks[8].args",
		"warning shell.ignored hooks.PreToolUse[0].hooks[8].shell",
	}},
	{"shell-form-missing-programs.json", []string{
		"warning shell.not-found hooks.PostToolUse[0].hooks[0].command",
		"warning shell.not-found hooks.PostToolUse[0].hooks[1].command",
		"warning shell.not-found hooks.PostToolUse[0].hooks[2].command",
		"warning command.relative-path hooks.PostToolUse[0].hooks[3].command",
	}},
	{"shell-form-quoting.json", []string{
		"warning shell.unquoted-space hooks.PreToolUse[0].hooks[0].command",
		"warning shell.backslash-path hooks.PreToolUse[0].hooks[1].command",
		"warning shell.unbalanced-quotes hooks.PreToolUse[0].hooks[2].command",
		"warning shell.unquoted-var hooks.PreToolUse[0].hooks[3].command",
		"warning shell.quoted-tilde hooks.PreToolUse[0].hooks[4].command",
		"error shell.unknown hooks.PreToolUse[0].hooks[6].shell",
	}},
	{"onfailure-mistakes.json", []string{
		"error onfailure.invalid hooks.PreToolUse[0].hooks[0].onFailure",
		"warning onfailure.ignored hooks.PreToolUse[0].hooks[1].onFailure",
		"warning onfailure.ignored hooks.PreToolUse[0].hooks[2].onFailure",
		"warning onfailure.ignored hooks.Stop[0].hooks[0].onFailure",
	}},
	{"duplicate-handlers.json", []string{
		"warning handler.duplicate hooks.PreToolUse[1].hooks[0]",
		"warning handler.duplicate hooks.PreToolUse[3].hooks[0]",
		"warning handler.duplicate hooks.PreToolUse[5].hooks[0]",
		"warning handler.duplicate hooks.Stop[1].hooks[0]",
	}},
}

// hermetic points HOME at testdata/home and PATH at the system directories, so command
// lookups see the same files on every machine.
func hermetic(t *testing.T) {
	t.Helper()
	home, err := filepath.Abs("testdata/home")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("PATH", "/usr/bin:/bin")
}

func TestCorpus(t *testing.T) {
	hermetic(t)
	for _, tc := range corpus {
		t.Run(strings.TrimSuffix(tc.file, ".json"), func(t *testing.T) {
			r := File(filepath.Join("testdata", tc.file))
			var got []string
			for _, f := range r.Findings {
				got = append(got, strings.TrimSpace(fmt.Sprintf("%s %s %s", f.Severity, f.Rule, f.Path)))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("findings:\n got  %q\n want %q\nmessages:\n%s", got, tc.want, messages(r))
			}
		})
	}
}

func messages(r Report) string {
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "  %s: %s\n", f.Path, f.Message)
	}
	return b.String()
}

// The repository's settings.json is a template in exec form with absolute paths: used as it
// is, a guard runs the managed install's binary or cannot start (and blocks), and nothing in it
// expands a variable a project's env could set. Its only findings are programs not there.
func TestTemplateRunsNothingAnEnvNames(t *testing.T) {
	r := File(filepath.Join("..", "..", "settings.json"))
	commands := 0
	for _, f := range r.Findings {
		if f.Rule != "exec.not-found" || f.Severity != Error {
			t.Errorf("the template: %s %s %s: %s", f.Severity, f.Rule, f.Path, f.Message)
		}
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	gjson.GetBytes(b, "hooks").ForEach(func(_, groups gjson.Result) bool {
		for _, h := range groups.Get("#.hooks|@flatten").Array() {
			commands++
			if cmd := h.Get("command").Str; !strings.HasPrefix(cmd, "/opt/harness/bin/") || !h.Get("args").IsArray() {
				t.Errorf("the template runs %q (args %s): want exec form under /opt/harness/bin", cmd, h.Get("args").Raw)
			}
		}
		return true
	})
	if commands < 20 {
		t.Errorf("the template has %d commands", commands)
	}
}

// Every settings file in testdata/ is in the table, so none is silently left unchecked.
func TestCorpusIsComplete(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !slices.ContainsFunc(corpus, func(c struct {
			file string
			want []string
		}) bool {
			return c.file == filepath.Base(f)
		}) {
			t.Errorf("%s has no entry in corpus", f)
		}
	}
	if len(files) < 18 {
		t.Errorf("the corpus has %d files, want at least 15 broken and 3 clean ones", len(files))
	}
}

// The messages a reader acts on: positions, suggestions, the names a regexp also matches.
func TestMessages(t *testing.T) {
	hermetic(t)
	tests := []struct {
		file, path, want string
	}{
		{"json-trailing-comma.json", "", "invalid JSON at line 8, column 9: trailing comma before ]"},
		{"json-comment.json", "", "invalid JSON at line 2, column 3: comments are not allowed in JSON"},
		{"event-unknown-names.json", "hooks.preToolUse", "did you mean PreToolUse? (names are case-sensitive)"},
		{"event-unknown-names.json", "hooks.PostToolUsed", "did you mean PostToolUse?"},
		{"matcher-unanchored-regex.json", "hooks.PreToolUse[0].matcher", `"Edit.*" is a regular expression, tested unanchored, and also matches MultiEdit and NotebookEdit; anchor it (^Edit.*$)`},
		{"matcher-unanchored-regex.json", "hooks.PreToolUse[3].matcher", "anchor it (^(Write|Edit.*)$) or list names (Edit|Write)"},
		{"matcher-invalid-regex.json", "hooks.PreToolUse[0].matcher", "missing closing )"},
		{"matcher-mcp-server-alone.json", "hooks.PreToolUse[0].matcher", "use mcp__memory__.* for its tools"},
		{"matcher-wrong-case.json", "hooks.PreToolUse[0].matcher", "did you mean Bash?"},
		{"matcher-wrong-case.json", "hooks.PreToolUse[1].matcher", "did you mean Write?"},
		{"matcher-on-event-without-matcher.json", "hooks.FileChanged[1].matcher", "write .envrc|package.json"},
		{"timeout-mistakes.json", "hooks.PreToolUse[0].hooks[4].timeout", "timeout is in seconds: 5000 is 83.3 minutes; did you mean 5?"},
		{"session-end-budget.json", "hooks.SessionEnd[0].hooks[2].timeout", "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"},
		{"exec-form-missing-programs.json", "hooks.PreToolUse[0].hooks[1].command", "${CLAUDE_PROJECT_DIR}/scripts/not-executable.sh is not executable"},
		{"shell-form-quoting.json", "hooks.PreToolUse[0].hooks[0].command", "~/My Hooks/guard.sh looks like one path with a space in it"},
		{"shell-form-quoting.json", "hooks.PreToolUse[0].hooks[2].command", `the " quote is never closed`},
		{"duplicate-handlers.json", "hooks.PreToolUse[1].hooks[0]", "same command as hooks.PreToolUse[0].hooks[0]"},
	}
	for _, tc := range tests {
		r := File(filepath.Join("testdata", tc.file))
		found := false
		for _, f := range r.Findings {
			found = found || f.Path == tc.path && strings.Contains(f.Message, tc.want)
		}
		if !found {
			t.Errorf("%s: no finding at %q containing %q; got:\n%s", tc.file, tc.path, tc.want, messages(r))
		}
	}
}

func TestUnreadableFile(t *testing.T) {
	r := File(filepath.Join("testdata", "no-such-file.json"))
	want := []Finding{{Error, "file.unreadable", "", "cannot read the file: no such file or directory"}}
	if r.File != "testdata/no-such-file.json" || !slices.Equal(r.Findings, want) {
		t.Errorf("got %+v", r)
	}
	if r.Count(Error) != 1 || r.Count(Warning) != 0 {
		t.Errorf("counts: %d errors, %d warnings", r.Count(Error), r.Count(Warning))
	}
}

// A file in .claude/ resolves ${CLAUDE_PROJECT_DIR} to the directory above it.
func TestProjectDir(t *testing.T) {
	hermetic(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".claude", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude", "hooks", "guard.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
		{"type":"command","command":"${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh","args":[],"timeout":5},
		{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh --strict","timeout":5},
		{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/missing.sh","timeout":5}]}]}}`)
	r := Bytes(filepath.Join(root, ".claude", "settings.json"), settings)
	if len(r.Findings) != 1 || r.Findings[0].Rule != "shell.not-found" || r.Findings[0].Path != "hooks.PreToolUse[0].hooks[2].command" {
		t.Errorf("got:\n%s", messages(r))
	}
}

// Bytes never returns nil findings, so the JSON output says [] and not null.
func TestNoFindingsIsEmpty(t *testing.T) {
	if r := Bytes("x.json", []byte(`{}`)); r.Findings == nil || len(r.Findings) != 0 {
		t.Errorf("got %#v", r.Findings)
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		event   event.Name
		matcher string
		want    Kind
		err     string
	}{
		{event.PreToolUse, "", All, ""},
		{event.PreToolUse, "*", All, ""},
		{event.PreToolUse, "Bash", Exact, ""},
		{event.PreToolUse, "Write|Edit", Exact, ""},
		{event.PreToolUse, "Edit, Write", Exact, ""},
		{event.PreToolUse, "mcp__brave-search", Exact, ""},
		{event.SubagentStart, "code-reviewer", Exact, ""},
		{event.PreToolUse, "Edit.*", Regexp, ""},
		{event.PreToolUse, "mcp__memory__.*", Regexp, ""},
		{event.PreToolUse, "^(?!Read$).*", Regexp, ""},
		{event.PreToolUse, "(?<=a)b|(?<!c)d", Regexp, ""},
		{event.PreToolUse, `^(Web)\1$`, Regexp, ""},
		{event.PreToolUse, `^(?<tool>Web)\k<tool>$`, Regexp, ""},
		{event.PreToolUse, `[^]`, Regexp, ""},
		{event.PreToolUse, `[]`, Regexp, ""},
		{event.PreToolUse, `\u0042ash\/x\q`, Regexp, ""},
		{event.PreToolUse, `[\b\d]`, Regexp, ""},
		{event.SubagentStart, "my-plugin:reviewer", Regexp, ""},
		{event.PreToolUse, "(Edit", Regexp, "missing closing )"},
		{event.PreToolUse, "[Edit", Regexp, "missing closing ]"},
		{event.PreToolUse, "*Edit", Regexp, "missing argument to repetition operator"},
		{event.PreToolUse, "Edit**", Regexp, "invalid nested repetition operator"},
		{event.PreToolUse, `Edit\`, Regexp, `\ at end of pattern`},
		{event.PreToolUse, "(?i)bash", Regexp, "invalid group"},
		{event.PreToolUse, "(?P<x>a)", Regexp, "invalid group"},
		{event.FileChanged, "package.json", Regexp, ""}, // the dot: Narrow has no exact dot either
		{event.FileChanged, "go.mod|go.sum", Regexp, ""},
		{event.FileChanged, "Makefile|Dockerfile", Exact, ""},
		{event.StopFailure, "rate-limit", Regexp, ""}, // - is not in the narrow set
		{event.Stop, "Bash", All, ""},                 // ignored: Stop takes no matcher
		{"preToolUse", "Bash", All, `unknown event "preToolUse"`},
	}
	for _, tc := range tests {
		got, err := Classify(tc.event, tc.matcher)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || !strings.Contains(gotErr, tc.err) || (tc.err == "") != (err == nil) {
			t.Errorf("Classify(%s, %q) = %v, %q; want %v, %q", tc.event, tc.matcher, got, gotErr, tc.want, tc.err)
		}
	}
}

func TestNames(t *testing.T) {
	if got := Names(" Edit, Write|MultiEdit||"); !slices.Equal(got, []string{"Edit", "Write", "MultiEdit"}) {
		t.Errorf("got %q", got)
	}
}

func TestReadShell(t *testing.T) {
	tests := []struct {
		cmd   string
		first string // the program's value, "" when there is none
		dyn   bool
		open  string // what is never closed, "" when the command parses
	}{
		{`/bin/sh -c 'exit 0'`, "/bin/sh", false, ""},
		{`"$HOME"/x.sh`, "/home/u/x.sh", false, ""},
		{`~/x.sh arg`, "/home/u/x.sh", false, ""},
		{`~bob/x.sh`, "~bob/x.sh", true, ""},
		{`A=1 B="x y" /bin/x`, "/bin/x", false, ""},
		{`"${CLAUDE_PROJECT_DIR}"/h.sh`, "/p/h.sh", false, ""},
		{`"${HARNESS_HOME:-$HOME/.claude/harness}/bin/SecurityValidator"`, "/bin/SecurityValidator", true, ""},
		{`$(which jq) .`, "", true, ""},
		{"`which jq` .", "", true, ""},
		{`# comment` + "\n" + `/bin/x`, "/bin/x", false, ""},
		{`( /bin/x )`, "/bin/x", false, ""},
		{`/bin/x; /bin/y`, "/bin/x", false, ""},
		{`/bin/x*`, "/bin/x*", true, ""},
		{`echo 'it''s`, "echo", false, `'`},
		{`echo "a`, "echo", false, `"`},
		{`echo ${A`, "echo", false, "${"},
	}
	for _, tc := range tests {
		sc := readShell(tc.cmd, "/home/u", "/p")
		var w word
		if len(sc.words) > 0 {
			w = sc.words[0]
		}
		if w.value != tc.first || w.dynamic != tc.dyn || sc.open != tc.open {
			t.Errorf("readShell(%q): first %q dynamic %v open %q; want %q %v %q", tc.cmd, w.value, w.dynamic, sc.open, tc.first, tc.dyn, tc.open)
		}
	}
}

func ExampleClassify() {
	for _, m := range []string{"*", "Write|Edit", "Edit.*", "(Edit"} {
		kind, err := Classify(event.PreToolUse, m)
		fmt.Printf("%-12q %v %v\n", m, kind, err)
	}
	// Output:
	// "*"          all <nil>
	// "Write|Edit" exact list <nil>
	// "Edit.*"     regular expression <nil>
	// "(Edit"      regular expression missing closing )
}

// The linter reads anyone's files: no input may make it panic.
func FuzzBytes(f *testing.F) {
	for _, tc := range corpus {
		if b, err := os.ReadFile(filepath.Join("testdata", tc.file)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := Bytes("settings.json", data)
		for _, x := range r.Findings {
			if x.Rule == "" || x.Message == "" || (x.Severity != Error && x.Severity != Warning) {
				t.Errorf("malformed finding %+v", x)
			}
		}
	})
}

func FuzzClassify(f *testing.F) {
	for _, m := range []string{"Edit.*", `(?<=a)\1[^]`, `\u00`, "(?i:x)", `[\`, "mcp__x|Bash"} {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, m string) {
		for _, ev := range []event.Name{event.PreToolUse, event.FileChanged} {
			Classify(ev, m)
		}
		readShell(m, "/h", "/p")
		if a := anchor(m); !strings.HasPrefix(a, "^") || !strings.HasSuffix(a, "$") {
			t.Errorf("anchor(%q) = %q", m, a)
		}
	})
}

// What the parser's tree shows beyond the first word: compound commands, assignments that sh
// does not split, here-documents bash closes at the end, and commands sh cannot parse.
func TestShellForm(t *testing.T) {
	hermetic(t)
	tests := []struct {
		cmd   string
		rules []string
	}{
		{`if /no/such; then :; fi`, []string{"shell.not-found"}},
		{`{ /no/such; }`, []string{"shell.not-found"}},
		{`export A=1; /no/such`, nil},
		{`A=$(/no/such); /bin/sh`, nil},
		{`A=$CLAUDE_PROJECT_DIR/x /bin/sh`, nil},
		{`/bin/sh > $CLAUDE_PROJECT_DIR/log`, []string{"shell.unquoted-var"}},
		{`cat <<EOF`, nil},
		{`echo $(date`, []string{"shell.unbalanced-quotes"}},
		{`/bin/sh |`, []string{"shell.syntax"}},
		{`C:\hooks\x.exe "$CLAUDE_PROJECT_DIR"`, []string{"shell.backslash-path"}},
	}
	for _, tc := range tests {
		c := &checker{home: "/home/u", project: "/p"}
		c.shellForm(tc.cmd, "command")
		var got []string
		for _, f := range c.findings {
			got = append(got, f.Rule)
		}
		if !slices.Equal(got, tc.rules) {
			t.Errorf("%s: got %q, want %q\n%s", tc.cmd, got, tc.rules, messages(Report{Findings: c.findings}))
		}
	}
}
