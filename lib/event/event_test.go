package event

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/tidwall/gjson"
)

// The 34 events of REFERENCE.md §4.1, in its order (PreSkillShellCommand: 2.1.332).
var referenceEvents = []Name{
	SessionStart, Setup, InstructionsLoaded, UserPromptSubmit, UserPromptExpansion, MessageDisplay,
	PreToolUse, PermissionRequest, PermissionDenied, PostToolUse, PostToolUseFailure, PostToolBatch,
	Notification, SubagentStart, SubagentStop, TaskCreated, TaskCompleted, Stop, StopFailure,
	TeammateIdle, ConfigChange, CwdChanged, DirectoryAdded, FileChanged, WorktreeCreate,
	WorktreeRemove, PreCompact, PostCompact, PreModelSwitch, PostModelSwitch, Elicitation,
	ElicitationResult, SessionEnd, PreSkillShellCommand,
}

// What each captured payload's matcher is compared against, written out by hand.
var capturedMatch = map[string]string{
	"CwdChanged.json": "", "InstructionsLoaded.json": "session_start", "MessageDisplay.json": "",
	"PermissionRequest.json": "Bash", "PermissionRequest.Write.json": "Write", "PostCompact.json": "manual",
	"PostModelSwitch.json": "claude-sonnet-5-5", "PreModelSwitch.json": "claude-sonnet-5-5",
	"PostToolBatch.json": "", "PostToolBatch.subagent.json": "", "PostToolUse.json": "Bash",
	"PostToolUse.Agent.json": "Agent", "PostToolUse.subagent.json": "Bash", "PostToolUseFailure.json": "Bash",
	"PreCompact.json": "manual", "PreToolUse.json": "Bash", "PreToolUse.Agent.json": "Agent",
	"PreToolUse.Write.json": "Write", "PreToolUse.subagent.json": "Bash", "SessionEnd.json": "other",
	"SessionStart.json": "startup", "SessionStart.compact.json": "compact", "Setup.json": "init",
	"Stop.json": "", "Stop.stop_hook_active.json": "", "StopFailure.json": "unknown",
	"SubagentStart.json": "general-purpose", "SubagentStop.json": "general-purpose", "SubagentStop.compact.json": "",
	"PreSkillShellCommand.json": "Bash", "UserPromptExpansion.json": "e2e-hello", "UserPromptSubmit.json": "", "UserPromptSubmit.slash-command.json": "",
}

// The input side of REFERENCE.md §4.1 and §2.5, copied by hand: matcher field and syntax.
var referenceMatchers = map[Name]string{
	SessionStart: "source", Setup: "trigger", InstructionsLoaded: "load_reason", UserPromptSubmit: "",
	UserPromptExpansion: "command_name", MessageDisplay: "", PreToolUse: "tool_name", PermissionRequest: "tool_name",
	PermissionDenied: "tool_name", PostToolUse: "tool_name", PostToolUseFailure: "tool_name", PostToolBatch: "",
	Notification: "notification_type", SubagentStart: "agent_type", SubagentStop: "agent_type", TaskCreated: "",
	TaskCompleted: "", Stop: "", StopFailure: "error", TeammateIdle: "", ConfigChange: "source", CwdChanged: "",
	DirectoryAdded: "source", FileChanged: "file_path", WorktreeCreate: "", WorktreeRemove: "", PreCompact: "trigger",
	PostCompact: "trigger", PreModelSwitch: "to_model", PostModelSwitch: "to_model", Elicitation: "mcp_server_name",
	ElicitationResult: "mcp_server_name", SessionEnd: "reason", PreSkillShellCommand: "tool_name",
}

func TestMatchersAgreeWithReference(t *testing.T) {
	for n, want := range referenceMatchers {
		s, _ := Lookup(n)
		if s.Matcher != want {
			t.Errorf("%s: matcher field %q, reference %q", n, s.Matcher, want)
		}
		wantSyntax := Wide
		switch {
		case want == "":
			wantSyntax = NoMatcher
		case n == FileChanged || n == StopFailure:
			wantSyntax = Narrow
		}
		if s.Syntax != wantSyntax {
			t.Errorf("%s: syntax %v, reference %v", n, s.Syntax, wantSyntax)
		}
	}
	for _, tt := range []struct{ payload, want string }{
		{`{"hook_event_name":"FileChanged","file_path":"/home/dev/proj/.envrc","event":"change"}`, ".envrc"},
		{`{"hook_event_name":"PreModelSwitch","to_model":"claude-opus-5-5[1m]"}`, "claude-opus-5-5"},
		{`{"hook_event_name":"UserPromptSubmit","prompt":"x"}`, ""},
	} {
		in, err := Parse([]byte(tt.payload))
		if err != nil || in.MatchValue() != tt.want {
			t.Errorf("%s: MatchValue %q, %v", tt.payload, in.MatchValue(), err)
		}
	}
}

func TestTableHasEveryEvent(t *testing.T) {
	if len(referenceEvents) != 34 || len(All()) != 34 {
		t.Fatalf("want 34 events, reference lists %d, table has %d", len(referenceEvents), len(All()))
	}
	for _, n := range referenceEvents {
		s, ok := Lookup(n)
		if !ok {
			t.Errorf("%s missing from the table", n)
			continue
		}
		if s.Exit2 == "" {
			t.Errorf("%s: no exit-2 behaviour", n)
		}
		if s.Matcher != "" {
			if _, ok := s.Field(s.Matcher); !ok {
				t.Errorf("%s: matcher field %q is not a payload field", n, s.Matcher)
			}
			if s.Syntax == NoMatcher {
				t.Errorf("%s: matcher field without a matcher syntax", n)
			}
		} else if s.Syntax != NoMatcher {
			t.Errorf("%s: matcher syntax without a matcher field", n)
		}
		if s.Block == JSONOnly && !s.Accepts("decision") {
			t.Errorf("%s: blocks by JSON only but accepts no decision", n)
		}
		if s.Decision && s.Block == NoBlock {
			t.Errorf("%s: takes decision:block but cannot block", n)
		}
	}
	if Name("preToolUse").Known() {
		t.Error("event names are case-sensitive")
	}
}

func captured(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob("testdata/captured/*.json")
	if err != nil || len(files) < 30 {
		t.Fatalf("captured payloads: %d files, %v", len(files), err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	return out
}

// accessorName maps a payload field to the accessor that returns it.
func accessorName(field string) string {
	switch field {
	case "event":
		return "FileEvent"
	case "mcp_server":
		return "MCPServer"
	case "mcp_server_name":
		return "MCPServerName"
	}
	var b strings.Builder
	for _, part := range strings.Split(field, "_") {
		switch part {
		case "id", "url", "usd", "ttl", "ms":
			b.WriteString(strings.ToUpper(part))
		default:
			r := []rune(part)
			r[0] = unicode.ToUpper(r[0])
			b.WriteString(string(r))
		}
	}
	return b.String()
}

// sameValue reports whether an accessor's result carries the raw field.
func sameValue(got any, raw gjson.Result) bool {
	switch v := got.(type) {
	case string:
		if raw.IsObject() { // effort: the accessor returns its level
			return v == raw.Get("level").String()
		}
		return v == raw.String()
	case bool:
		return v == raw.Bool()
	case int64:
		return v == raw.Int()
	case float64:
		return v == raw.Float()
	case gjson.Result:
		return v.Raw == raw.Raw
	case ToolInput:
		return v.Raw == raw.Raw
	case []BatchCall:
		return len(v) == len(raw.Array())
	}
	return false
}

func TestCapturedPayloadsRoundTrip(t *testing.T) {
	for file, data := range captured(t) {
		t.Run(file, func(t *testing.T) {
			in, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			want := Name(strings.SplitN(file, ".", 2)[0])
			if in.Event() != want {
				t.Fatalf("event %q, want %q", in.Event(), want)
			}
			spec, ok := in.Spec()
			if !ok {
				t.Fatalf("%s not in the table", want)
			}
			view := reflect.ValueOf(in.View())
			gjson.ParseBytes(data).ForEach(func(k, v gjson.Result) bool {
				if _, ok := spec.Field(k.Str); !ok {
					t.Errorf("field %s is not in the table for %s", k.Str, want)
				}
				m := view.MethodByName(accessorName(k.Str))
				if !m.IsValid() {
					t.Errorf("field %s has no accessor %s on %s", k.Str, accessorName(k.Str), view.Type())
					return true
				}
				if got := m.Call(nil)[0].Interface(); !sameValue(got, v) {
					t.Errorf("%s() = %#v, payload has %s", accessorName(k.Str), got, v.Raw)
				}
				return true
			})
			if got, want := in.MatchValue(), capturedMatch[file]; got != want {
				t.Errorf("MatchValue() = %q, want %q", got, want)
			}
			if !reflect.DeepEqual(in.Raw(), []byte(strings.TrimSpace(string(data)))) {
				t.Error("Raw() is not the payload")
			}
		})
	}
}

func TestUnknownFieldsStayReachable(t *testing.T) {
	in, err := Parse([]byte(`{"hook_event_name":"Stop","new_field":{"x":[1,2]},"stop_hook_active":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := in.Get("new_field.x.1").Int(); got != 2 {
		t.Errorf("new_field.x.1 = %d", got)
	}
	if !in.Stop().StopHookActive() {
		t.Error("stop_hook_active lost")
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", ``, "stdin is empty"},
		{"whitespace", " \n\t ", "stdin is empty"},
		{"not json", `rm -rf /`, `not a JSON object (starts with 'r')`},
		{"array", `[{"hook_event_name":"Stop"}]`, `not a JSON object (starts with '[')`},
		{"string", `"Stop"`, `not a JSON object (starts with '"')`},
		{"truncated", `{"hook_event_name":"PreToolUse","tool_name":"Ba`, "not valid JSON (truncated or malformed)"},
		{"too deep", `{"hook_event_name":"Stop","x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`, "JSON nested deeper than 512 levels"},
		{"trailing garbage", `{"hook_event_name":"Stop"} {}`, "not valid JSON (truncated or malformed)"},
		{"invalid utf8", "{\"hook_event_name\":\"Stop\",\"x\":\"\xff\"}", "not valid UTF-8"},
		{"no event", `{"session_id":"s"}`, "hook_event_name is missing"},
		{"null event", `{"hook_event_name":null}`, "hook_event_name is missing"},
		{"numeric event", `{"hook_event_name":7}`, "hook_event_name is number, not a string"},
		{"empty event", `{"hook_event_name":""}`, "hook_event_name is empty"},
		{"wrong type", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"rm -rf /"}`,
			"PreToolUse: field tool_input is string, want object"},
		{"wrong common type", `{"hook_event_name":"Stop","cwd":42}`, "Stop: field cwd is number, want string"},
		{"missing required", `{"hook_event_name":"PreToolUse","tool_input":{}}`,
			"PreToolUse: required field tool_name is missing"},
		{"required null", `{"hook_event_name":"UserPromptSubmit","prompt":null}`,
			"UserPromptSubmit: required field prompt is missing"},
		{"first problem in table order", `{"tool_input":"x","cwd":42,"hook_event_name":"PreToolUse","tool_name":"Bash"}`,
			"PreToolUse: field cwd is number, want string"},
		{"a repeated key is read as its first", `{"hook_event_name":"Stop","cwd":42,"cwd":"/p"}`,
			"Stop: field cwd is number, want string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an InputError", err)
			}
			if ie.Reason != tt.want {
				t.Errorf("reason %q, want %q", ie.Reason, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("message is not one line: %q", err)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	for _, s := range []string{
		`{"hook_event_name":"SomeFutureEvent","whatever":1}`,
		`{"hook_event_name":"PreCompact","trigger":"auto","custom_instructions":null}`,
		"\n  {\"hook_event_name\":\"Stop\"}\n",
	} {
		if _, err := Parse([]byte(s)); err != nil {
			t.Errorf("Parse(%s): %v", s, err)
		}
	}
}

func TestToolInputs(t *testing.T) {
	data := captured(t)
	pre := func(file string) ToolInput {
		in, err := Parse(data[file])
		if err != nil {
			t.Fatal(err)
		}
		return in.PreToolUse().ToolInput()
	}
	if got := must(pre("PreToolUse.json").Bash()); got != (Bash{Command: "echo hi", Description: "Print hi"}) {
		t.Errorf("Bash = %+v", got)
	}
	if got := must(pre("PreToolUse.Write.json").Write()); got != (Write{"/home/dev/proj/out.txt", "hello\n"}) {
		t.Errorf("Write = %+v", got)
	}
	if got := must(pre("PreToolUse.Agent.json").Agent()); got != (Agent{"SUBTASK-1: say hello", "Sub task", "general-purpose", "", false}) {
		t.Errorf("Agent = %+v", got)
	}

	ti := func(s string) ToolInput { return ToolInput{gjson.Parse(s)} }
	me := must(ti(`{"file_path":"/p/a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":true}]}`).MultiEdit())
	if want := (MultiEdit{"/p/a.go", []Edit{{"/p/a.go", "a", "b", false}, {"/p/a.go", "c", "d", true}}}); !reflect.DeepEqual(me, want) {
		t.Errorf("MultiEdit = %+v", me)
	}
	if got := must(ti(`{"file_path":"/p/a","old_string":"x","new_string":"y","replace_all":true}`).Edit()); got != (Edit{"/p/a", "x", "y", true}) {
		t.Errorf("Edit = %+v", got)
	}
	if got := must(ti(`{"notebook_path":"/p/n.ipynb","cell_id":"c1","new_source":"print()","cell_type":"code","edit_mode":"replace"}`).NotebookEdit()); got != (NotebookEdit{"/p/n.ipynb", "c1", "print()", "code", "replace"}) {
		t.Errorf("NotebookEdit = %+v", got)
	}
	if got := must(ti(`{"file_path":"/p/a","offset":10,"limit":5}`).Read()); got != (Read{"/p/a", 10, 5}) {
		t.Errorf("Read = %+v", got)
	}
	if got := must(ti(`{"pattern":"**/*.go","path":"/p"}`).Glob()); got != (Glob{"**/*.go", "/p"}) {
		t.Errorf("Glob = %+v", got)
	}
	if got := must(ti(`{"pattern":"TODO","path":"/p","glob":"*.go","output_mode":"content","-i":true,"multiline":true}`).Grep()); got != (Grep{Pattern: "TODO", Path: "/p", Glob: "*.go", OutputMode: "content", CaseInsensitive: true, Multiline: true}) {
		t.Errorf("Grep = %+v", got)
	}
	if got := must(ti(`{"url":"https://example.com","prompt":"sum"}`).WebFetch()); got != (WebFetch{"https://example.com", "sum"}) {
		t.Errorf("WebFetch = %+v", got)
	}
	if got := must(ti(`{"query":"go","allowed_domains":["go.dev"],"blocked_domains":["a.b","c.d"]}`).WebSearch()); !reflect.DeepEqual(got, WebSearch{"go", []string{"go.dev"}, []string{"a.b", "c.d"}}) {
		t.Errorf("WebSearch = %+v", got)
	}
	if got := must(ti(`{"command":"sleep 1","timeout":120000,"run_in_background":true}`).Bash()); got != (Bash{"sleep 1", "", 120000, true}) {
		t.Errorf("Bash = %+v", got)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A missing or mistyped required field is an error, never a silent "".
func TestToolInputsRejectMistypedFields(t *testing.T) {
	ti := func(s string) ToolInput { return ToolInput{gjson.Parse(s)} }
	for _, tt := range []struct {
		err  error
		want string
	}{
		{second(ti(`{"command":["rm","-rf","/"]}`).Bash()), "invalid hook input: tool_input.command is array, not a string"},
		{second(ti(`{"file_path":"/p/.env"}`).Bash()), "invalid hook input: tool_input.command is missing"},
		{second(ti(`{"file_path":"/p/a","content":null}`).Write()), "invalid hook input: tool_input.content is missing"},
		{second(ti(`{"file_path":7,"old_string":"a","new_string":"b"}`).Edit()), "invalid hook input: tool_input.file_path is number, not a string"},
		{second(ti(`{"file_path":"/p/a","edits":{}}`).MultiEdit()), "invalid hook input: tool_input.edits is not an array"},
		{second(ti(`{}`).NotebookEdit()), "invalid hook input: tool_input.notebook_path is missing"},
		{second(ti(`{}`).WebFetch()), "invalid hook input: tool_input.url is missing"},
	} {
		if tt.err == nil || tt.err.Error() != tt.want {
			t.Errorf("got %v, want %s", tt.err, tt.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestToolNames(t *testing.T) {
	if CanonicalTool("Task") != "Agent" || CanonicalTool("KillShell") != "TaskStop" || CanonicalTool("Bash") != "Bash" {
		t.Error("CanonicalTool")
	}
	for _, tt := range []struct {
		name, server, tool string
		ok                 bool
	}{
		{"mcp__memory__create_entities", "memory", "create_entities", true},
		{"mcp__plugin_x_srv__do", "plugin_x_srv", "do", true},
		{"mcp__memory", "", "", false},
		{"Bash", "", "", false},
	} {
		s, tl, ok := MCPTool(tt.name)
		if s != tt.server || tl != tt.tool || ok != tt.ok {
			t.Errorf("MCPTool(%q) = %q %q %v", tt.name, s, tl, ok)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, b := range captured(f) {
		f.Add(b)
	}
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Parse(data)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("bad error %q", err)
			}
			return
		}
		if in.Event() == "" || !gjson.ValidBytes(in.Raw()) {
			t.Fatalf("accepted an input without an event or with invalid JSON")
		}
		_ = in.View()
		_ = in.MatchValue()
	})
}

// REFERENCE.md §10: the versions that added events.
func TestSince(t *testing.T) {
	added := map[Name]Version{PreSkillShellCommand: {2, 1, 332}, PreModelSwitch: {2, 1, 251}, PostModelSwitch: {2, 1, 251}}
	for _, s := range All() {
		if s.Since != added[s.Name] {
			t.Errorf("%s: since %v, want %v", s.Name, s.Since, added[s.Name])
		}
		if Client.Less(s.Since) {
			t.Errorf("%s: since %v, after the table's client %v", s.Name, s.Since, Client)
		}
	}
	skill, _ := Lookup(PreSkillShellCommand)
	for _, tt := range []struct {
		v    Version
		want bool
	}{{Version{2, 1, 330}, false}, {Version{2, 1, 331}, false}, {Version{2, 1, 332}, true}, {Version{2, 2, 0}, true}, {Version{3, 0, 0}, true}} {
		if got := skill.In(tt.v); got != tt.want {
			t.Errorf("PreSkillShellCommand in %v: %v, want %v", tt.v, got, tt.want)
		}
	}
	if stop, _ := Lookup(Stop); !stop.In(Version{1, 0, 0}) {
		t.Error("an event without a version is in every client")
	}
}

func TestParseVersion(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Version
		ok   bool
	}{
		{"2.1.332 (Claude Code)\n", Version{2, 1, 332}, true},
		{"claude 2.1.330", Version{2, 1, 330}, true},
		{"v10.20.30-beta.1", Version{10, 20, 30}, true},
		{"1.2 then 3.4.5", Version{3, 4, 5}, true},
		{"Claude Code", Version{}, false},
		{"", Version{}, false},
	} {
		got, ok := ParseVersion(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if s := (Version{2, 1, 332}).String(); s != "2.1.332" {
		t.Errorf("String() = %q", s)
	}
}

func TestPreSkillShellCommand(t *testing.T) {
	in, err := Parse(captured(t)["PreSkillShellCommand.json"])
	if err != nil {
		t.Fatal(err)
	}
	p := in.PreSkillShellCommand()
	bash, err := p.ToolInput().Bash()
	if err != nil || bash.Command != "touch ran-none.txt && echo E2E-OUT-none" {
		t.Errorf("Bash() = %+v, %v", bash, err)
	}
	if p.ToolName() != "Bash" || p.CommandName() != "sk" || p.CommandSource() != "projectSettings" || p.InvokedBy() != "user" {
		t.Errorf("view: %s %s %s %s", p.ToolName(), p.CommandName(), p.CommandSource(), p.InvokedBy())
	}
	// A payload without a command parses (the guard decides), but its command cannot be read.
	for _, payload := range []string{
		`{"hook_event_name":"PreSkillShellCommand","tool_name":"Bash","tool_input":{}}`,
		`{"hook_event_name":"PreSkillShellCommand","tool_name":"Bash","tool_input":{"command":7}}`,
	} {
		in, err := Parse([]byte(payload))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := in.PreSkillShellCommand().ToolInput().Bash(); err == nil {
			t.Errorf("%s: Bash() read a command", payload)
		}
	}
	if _, err := Parse([]byte(`{"hook_event_name":"PreSkillShellCommand","tool_name":"Bash"}`)); err == nil {
		t.Error("a PreSkillShellCommand without tool_input parsed")
	}
}
