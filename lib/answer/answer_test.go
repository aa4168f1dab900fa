package answer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/verdict"
)

// The rules below are copied by hand from REFERENCE.md §5.3-5.6 and §5.13, independently of
// the event table, so a mistake in either shows up as a disagreement.

var specificFields = map[event.Name][]string{
	event.PreToolUse:          {"permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"},
	event.PermissionRequest:   {"decision"},
	event.PermissionDenied:    {"retry"},
	event.PostToolUse:         {"additionalContext", "updatedToolOutput", "updatedMCPToolOutput", "classifierContext"},
	event.PostToolUseFailure:  {"additionalContext"},
	event.PostToolBatch:       {"additionalContext"},
	event.UserPromptSubmit:    {"additionalContext", "sessionTitle", "suppressOriginalPrompt"},
	event.UserPromptExpansion: {"additionalContext", "suppressOriginalPrompt"},
	event.SessionStart:        {"additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"},
	event.Setup:               {"additionalContext"},
	event.SubagentStart:       {"additionalContext"},
	event.Stop:                {"additionalContext"},
	event.SubagentStop:        {"additionalContext"},
	event.Elicitation:         {"action", "content"},
	event.ElicitationResult:   {"action", "content"},
	event.CwdChanged:          {"watchPaths"},
	event.FileChanged:         {"watchPaths"},
	event.MessageDisplay:      {"displayContent"},
	event.PreModelSwitch:      {"permissionDecision", "permissionDecisionReason"},
	event.PostModelSwitch:     {"additionalContext"},
	// §5.13 lists updatedInput too, but Claude Code blocks the command instead of running it.
	event.PreSkillShellCommand: {"permissionDecision", "permissionDecisionReason"},
}

var decisionBlock = set(event.UserPromptSubmit, event.UserPromptExpansion, event.PostToolUse,
	event.PostToolUseFailure, event.PostToolBatch, event.Stop, event.SubagentStop, event.ConfigChange,
	event.PreCompact, event.TaskCreated, event.PreSkillShellCommand)

// Events that drop continue (and, except the last three, systemMessage).
var dropsContinue = set(event.InstructionsLoaded, event.MessageDisplay, event.Notification,
	event.PreCompact, event.PostCompact, event.SessionEnd, event.WorktreeCreate, event.WorktreeRemove,
	event.Elicitation, event.ElicitationResult, event.ConfigChange, event.StopFailure,
	event.TaskCreated, event.CwdChanged, event.FileChanged, event.DirectoryAdded)
var keepsSystemMessage = set(event.TaskCreated, event.CwdChanged, event.FileChanged, event.DirectoryAdded)

// Exit 2 does something for the model or the action on these events.
var exit2Honoured = set(event.PreToolUse, event.UserPromptSubmit, event.UserPromptExpansion,
	event.Stop, event.SubagentStop, event.TeammateIdle, event.TaskCreated, event.TaskCompleted,
	event.ConfigChange, event.PreCompact, event.PostToolBatch, event.PostToolUse,
	event.PostToolUseFailure, event.Elicitation, event.ElicitationResult, event.WorktreeCreate,
	event.PreModelSwitch, event.PreSkillShellCommand)

func set(ns ...event.Name) map[event.Name]bool {
	m := map[event.Name]bool{}
	for _, n := range ns {
		m[n] = true
	}
	return m
}

// checkReply fails unless r is an answer REFERENCE.md says ev accepts and acts on.
func checkReply(ev event.Name, r Reply) error {
	switch r.Code {
	case OK:
	case Blocked:
		if !exit2Honoured[ev] {
			return fmt.Errorf("exit 2 on %s, which does not honour it", ev)
		}
		if strings.TrimSpace(r.Stderr) == "" || len(r.Stdout) != 0 {
			return fmt.Errorf("exit 2 needs a reason on stderr and nothing on stdout")
		}
		return nil
	default:
		return fmt.Errorf("exit code %d is never an answer", r.Code)
	}
	if len(r.Stdout) == 0 {
		return nil
	}
	if ev == event.PreCompact && !strings.HasPrefix(string(r.Stdout), "{") {
		// Plain text on PreCompact: instructions appended to the compaction prompt.
		if strings.TrimSpace(string(r.Stdout)) == "" {
			return fmt.Errorf("empty PreCompact instructions")
		}
		return nil
	}
	if ev == event.WorktreeCreate {
		if strings.Count(string(r.Stdout), "\n") != 1 || !strings.HasSuffix(string(r.Stdout), "\n") {
			return fmt.Errorf("WorktreeCreate path must be one line: %q", r.Stdout)
		}
		return nil
	}
	if !gjson.ValidBytes(r.Stdout) || !gjson.ParseBytes(r.Stdout).IsObject() {
		return fmt.Errorf("stdout is not one JSON object: %q", r.Stdout)
	}
	if strings.Count(strings.TrimSpace(string(r.Stdout)), "\n") != 0 {
		return fmt.Errorf("stdout is not one line: %q", r.Stdout)
	}
	var err error
	gjson.ParseBytes(r.Stdout).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "continue":
			if dropsContinue[ev] || v.Type != gjson.False {
				err = fmt.Errorf("continue=%s on %s", v.Raw, ev)
			}
		case "stopReason":
			if !gjson.GetBytes(r.Stdout, "continue").Exists() {
				err = fmt.Errorf("stopReason without continue:false")
			}
		case "systemMessage":
			if dropsContinue[ev] && !keepsSystemMessage[ev] {
				err = fmt.Errorf("systemMessage on %s, which drops it", ev)
			}
		case "decision":
			if !decisionBlock[ev] || v.Str != "block" {
				err = fmt.Errorf("decision %s on %s", v.Raw, ev)
			}
		case "reason":
			if gjson.GetBytes(r.Stdout, "decision").Str != "block" || v.Str == "" {
				err = fmt.Errorf("reason without decision:block")
			}
		case "hookSpecificOutput":
			err = checkSpecific(ev, v)
		default:
			err = fmt.Errorf("top-level field %s is not accepted", k.Str)
		}
		return err == nil
	})
	return err
}

func checkSpecific(ev event.Name, hso gjson.Result) error {
	if got := hso.Get("hookEventName").Str; got != string(ev) {
		return fmt.Errorf("hookEventName %q on %s", got, ev)
	}
	var err error
	hso.ForEach(func(k, v gjson.Result) bool {
		f := k.Str
		if f == "hookEventName" {
			return true
		}
		ok := false
		for _, a := range specificFields[ev] {
			ok = ok || a == f
		}
		if !ok {
			err = fmt.Errorf("hookSpecificOutput.%s is not accepted by %s", f, ev)
			return false
		}
		switch f {
		case "permissionDecision":
			allowed := "allow deny ask"
			if ev == event.PreToolUse || ev == event.PreSkillShellCommand {
				allowed += " defer"
			}
			if !strings.Contains(" "+allowed+" ", " "+v.Str+" ") {
				err = fmt.Errorf("permissionDecision %q on %s", v.Str, ev)
			}
		case "decision":
			switch v.Get("behavior").Str {
			case "allow":
				v.ForEach(func(k, _ gjson.Result) bool {
					if k.Str != "behavior" && k.Str != "updatedInput" && k.Str != "updatedPermissions" {
						err = fmt.Errorf("decision.%s with allow", k.Str)
					}
					return true
				})
			case "deny":
				v.ForEach(func(k, _ gjson.Result) bool {
					if k.Str != "behavior" && k.Str != "message" && k.Str != "interrupt" {
						err = fmt.Errorf("decision.%s with deny", k.Str)
					}
					return true
				})
			default:
				err = fmt.Errorf("decision.behavior %s", v.Get("behavior").Raw)
			}
		case "action":
			if v.Str != "accept" && v.Str != "decline" && v.Str != "cancel" {
				err = fmt.Errorf("action %q", v.Str)
			}
		case "updatedInput", "content":
			if !v.IsObject() {
				err = fmt.Errorf("%s is not an object", f)
			}
		case "watchPaths":
			if !v.IsArray() {
				err = fmt.Errorf("watchPaths is not an array")
			}
		case "retry", "reloadSkills", "suppressOriginalPrompt":
			if v.Type != gjson.True {
				err = fmt.Errorf("%s = %s", f, v.Raw)
			}
		}
		return err == nil
	})
	return err
}

// samples is one of every answer this package can build, each with every field it has set.
var samples = map[string]Answer{
	"block":         Block("rm -rf / deletes the root; remove a build directory by name instead"),
	"context":       Context("branch main, 2 files changed"),
	"end":           End("budget exhausted"),
	"message":       Message("harness: 3 files formatted"),
	"watch":         Watch("/home/dev/proj/.env", "/home/dev/proj/.envrc"),
	"display":       Display("**shown**"),
	"worktree":      WorktreePath("/home/dev/wt/feature"),
	"compact":       CompactInstructions("Always preserve: the list of failing tests."),
	"pretool-deny":  PreToolUse{Decision: Deny, Reason: "no", Context: "ctx", SystemMessage: "m", Halt: &Halt{"stop"}},
	"pretool-allow": PreToolUse{Decision: Allow, Reason: "safe", UpdatedInput: []byte(`{"command":"ls -la"}`)},
	"pretool-ask":   PreToolUse{Decision: Ask, Reason: "check"},
	"pretool-defer": PreToolUse{Decision: Defer},
	"model-deny":    PreModelSwitch{Decision: Deny, Reason: "stay on opus", SystemMessage: "m", Halt: &Halt{}},
	"request-allow": PermissionRequest{Behavior: AllowRequest, UpdatedInput: []byte(`{"command":"ls"}`),
		UpdatedPermissions: []byte(`[{"type":"setMode","mode":"acceptEdits","destination":"session"}]`)},
	"request-deny": PermissionRequest{Behavior: DenyRequest, Message: "no", Interrupt: true, SystemMessage: "m"},
	"denied-retry": PermissionDenied{Retry: true, SystemMessage: "m", Halt: &Halt{"x"}},
	"posttool": PostToolUse{Block: "lint failed", Context: "ctx", UpdatedToolOutput: []byte(`{"stdout":"x"}`),
		ClassifierContext: "cc", SystemMessage: "m", Halt: &Halt{"x"}},
	"feedback": Feedback{Block: "tests fail", Context: "ctx", SystemMessage: "m", Halt: &Halt{"x"}},
	"prompt":   Prompt{Block: "no secrets", Context: "ctx", SessionTitle: "t", SuppressOriginalPrompt: true, SystemMessage: "m", Halt: &Halt{"x"}},
	"session": SessionStart{Context: "ctx", InitialUserMessage: "go", SessionTitle: "t",
		WatchPaths: []string{"/p/.env"}, ReloadSkills: true, SystemMessage: "m", Halt: &Halt{"x"}},
	"elicit": Elicitation{Action: Accept, Content: []byte(`{"name":"x"}`)},
}

// Every answer, on every event, either renders to something the event accepts or is refused.
func TestEveryAnswerOnEveryEventIsAcceptedOrRefused(t *testing.T) {
	accepted := map[string]int{}
	for name, a := range samples {
		for _, spec := range event.All() {
			r, err := Render(a, spec.Name, "Hook")
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("%s on %s: error is not one line: %q", name, spec.Name, err)
				}
				continue
			}
			accepted[name]++
			if err := checkReply(spec.Name, r); err != nil {
				t.Errorf("%s on %s: %v", name, spec.Name, err)
			}
			// The table-driven checker the CLI uses agrees with the hand-copied rules.
			if probs := Check(spec.Name, int(r.Code), r.Stdout); len(probs) > 0 {
				t.Errorf("%s on %s: Check: %v", name, spec.Name, probs)
			}
		}
	}
	for name := range samples {
		if accepted[name] == 0 {
			t.Errorf("%s is accepted by no event", name)
		}
	}
}

// Check explains the mistakes people make in hand-written hooks.
func TestCheckExplains(t *testing.T) {
	for _, c := range []struct {
		ev   event.Name
		out  string
		want string
	}{
		{event.PreToolUse, `{"decision":"ask"}`, "PreToolUse answers with hookSpecificOutput.permissionDecision"},
		{event.PreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"block"}}`, `permissionDecision "block" on PreToolUse`},
		{event.PostToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"x"}}`, `hookEventName is "PreToolUse", not "PostToolUse"`},
		{event.Stop, `{"decision":"approve"}`, `decision "approve" on Stop`},
		{event.SessionEnd, `{"continue":false}`, "SessionEnd ignores continue"},
		{event.UserPromptSubmit, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","permissionDecision":"deny"}}`, "not accepted by UserPromptSubmit"},
		{event.PreToolUse, `{"permission":"deny"}`, "top-level field permission"},
		{event.PreToolUse, `{"broken"`, "not valid JSON"},
		{event.PreSkillShellCommand, `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"allow","updatedInput":{"command":"ls"}}}`,
			"hookSpecificOutput.updatedInput is not accepted by PreSkillShellCommand"},
		{"PreSkilShellCommand", `{}`, `"PreSkilShellCommand" is not an event of Claude Code 2.1.332`},
	} {
		probs := Check(c.ev, 0, []byte(c.out))
		if !strings.Contains(strings.Join(probs, "; "), c.want) {
			t.Errorf("%s %s: %v, want %q", c.ev, c.out, probs, c.want)
		}
	}
	if probs := Check(event.PermissionRequest, 2, nil); len(probs) != 1 {
		t.Errorf("exit 2 on PermissionRequest: %v", probs)
	}
}

func TestTableAgreesWithReference(t *testing.T) {
	for _, s := range event.All() {
		if fmt.Sprint(s.Specific) != fmt.Sprint(specificFields[s.Name]) && !(len(s.Specific) == 0 && specificFields[s.Name] == nil) {
			t.Errorf("%s: table accepts %v, reference %v", s.Name, s.Specific, specificFields[s.Name])
		}
		if s.Decision != decisionBlock[s.Name] {
			t.Errorf("%s: decision %v", s.Name, s.Decision)
		}
		if s.Continue == dropsContinue[s.Name] {
			t.Errorf("%s: continue %v", s.Name, s.Continue)
		}
		if s.SystemMessage != (!dropsContinue[s.Name] || keepsSystemMessage[s.Name]) {
			t.Errorf("%s: systemMessage %v", s.Name, s.SystemMessage)
		}
		if (s.Block == event.Blocks || s.Block == event.Feedback) != exit2Honoured[s.Name] {
			t.Errorf("%s: block %v", s.Name, s.Block)
		}
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		a      Answer
		ev     event.Name
		stdout string
		stderr string
		code   Code
	}{
		{nil, event.PreToolUse, "", "", OK},
		{Block("rm -rf / would delete everything"), event.PreToolUse, "", "Guard: rm -rf / would delete everything\n", Blocked},
		{Block("  spaced\n"), event.Stop, "", "Guard: spaced\n", Blocked},
		{Block("no"), event.PermissionRequest,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Guard: no"}}}` + "\n", "", OK},
		{Block("lint failed"), event.PostToolUse, "", "Guard: lint failed\n", Blocked},
		{Context("hello"), event.SessionStart,
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"hello"}}` + "\n", "", OK},
		{Context(`quote " and ` + "\n newline"), event.UserPromptSubmit,
			`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"quote \" and \n newline"}}` + "\n", "", OK},
		{End("done"), event.Stop, `{"continue":false,"stopReason":"done"}` + "\n", "", OK},
		{PreToolUse{Decision: Deny, Reason: "protected path"}, event.PreToolUse,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"protected path"}}` + "\n", "", OK},
		{PreToolUse{Decision: Allow, UpdatedInput: []byte(`{"command":"ls"}`)}, event.PreToolUse,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}` + "\n", "", OK},
		{PermissionRequest{Behavior: AllowRequest}, event.PermissionRequest,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}` + "\n", "", OK},
		{Feedback{Block: "run the tests first"}, event.Stop,
			`{"decision":"block","reason":"run the tests first"}` + "\n", "", OK},
		{Prompt{Block: "holds a key"}, event.UserPromptSubmit,
			`{"decision":"block","reason":"holds a key"}` + "\n", "", OK},
		{WorktreePath("/w/x"), event.WorktreeCreate, "/w/x\n", "", OK},
		{CompactInstructions("  keep the plan\n"), event.PreCompact, "keep the plan\n", "", OK},
		{PostToolUse{}, event.PostToolUse, "", "", OK},
		{PreToolUse{Decision: Allow, UpdatedInput: []byte("{\n  \"command\": \"a  b\",\n  \"x\": [1, 2]\n}")}, event.PreToolUse,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"a  b","x":[1,2]}}}` + "\n", "", OK},
		{Context("<b> & </b>"), event.Stop,
			`{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"\u003cb\u003e \u0026 \u003c/b\u003e"}}` + "\n", "", OK},
		// A skill's inline command: exit 2 and a deny both keep it from running.
		{Block("git reset --hard discards uncommitted changes"), event.PreSkillShellCommand, "",
			"Guard: git reset --hard discards uncommitted changes\n", Blocked},
		{PreToolUse{Decision: Ask, Reason: "Guard: check"}, event.PreSkillShellCommand,
			`{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"ask","permissionDecisionReason":"Guard: check"}}` + "\n", "", OK},
		{PreToolUse{Decision: Defer}, event.PreSkillShellCommand,
			`{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"defer"}}` + "\n", "", OK},
		{Watch("/a", "/b"), event.FileChanged,
			`{"hookSpecificOutput":{"hookEventName":"FileChanged","watchPaths":["/a","/b"]}}` + "\n", "", OK},
	}
	for i, tt := range tests {
		r, err := Render(tt.a, tt.ev, "Guard")
		if err != nil {
			t.Errorf("%d: %v", i, err)
			continue
		}
		if string(r.Stdout) != tt.stdout || r.Stderr != tt.stderr || r.Code != tt.code {
			t.Errorf("%d: got %q %q %d\nwant %q %q %d", i, r.Stdout, r.Stderr, r.Code, tt.stdout, tt.stderr, tt.code)
		}
		if err := checkReply(tt.ev, r); err != nil {
			t.Errorf("%d: %v", i, err)
		}
	}
}

func TestRefused(t *testing.T) {
	tests := []struct {
		a    Answer
		ev   event.Name
		want string
	}{
		{Block("x"), event.SessionStart, "SessionStart cannot be blocked"},
		{Context("x"), event.Notification, "Notification answer: Notification does not accept additionalContext"},
		{Context(""), event.SessionStart, "SessionStart answer: empty context"},
		{End("x"), event.SessionEnd, "SessionEnd answer: SessionEnd ignores continue"},
		{PreToolUse{Decision: Deny}, event.PostToolUse, "PostToolUse answer: this answer is for [PreToolUse PreSkillShellCommand], not PostToolUse"},
		{PreToolUse{Decision: Allow, UpdatedInput: []byte(`{"command":"ls"}`)}, event.PreSkillShellCommand,
			"PreSkillShellCommand answer: PreSkillShellCommand does not accept updatedInput"},
		{PreToolUse{Decision: Deny, Reason: "x", Context: "ctx"}, event.PreSkillShellCommand,
			"PreSkillShellCommand answer: PreSkillShellCommand does not accept additionalContext"},
		{PreToolUse{Reason: "why"}, event.PreToolUse, "PreToolUse answer: a reason without a decision"},
		{PreToolUse{Decision: Allow, UpdatedInput: []byte(`["ls"]`)}, event.PreToolUse, "PreToolUse answer: updatedInput must be a JSON object"},
		{PreToolUse{Decision: Allow, UpdatedInput: []byte(`{"command":`)}, event.PreToolUse, "PreToolUse answer: updatedInput must be a JSON object"},
		{PreModelSwitch{Decision: Defer}, event.PreModelSwitch, `PreModelSwitch answer: PreModelSwitch does not take permissionDecision "defer"`},
		{PermissionRequest{}, event.PermissionRequest, "PermissionRequest answer: a decision needs a behavior (AllowRequest or DenyRequest)"},
		{PermissionRequest{Behavior: AllowRequest, Message: "x"}, event.PermissionRequest, "PermissionRequest answer: message and interrupt go with deny"},
		{Feedback{Block: "x"}, event.SessionEnd, "SessionEnd answer: this answer is for [PostToolUseFailure PostToolBatch Stop SubagentStop], not SessionEnd"},
		{Prompt{SessionTitle: "t"}, event.UserPromptExpansion, "UserPromptExpansion answer: UserPromptExpansion does not accept sessionTitle"},
		{Watch("relative/.env"), event.CwdChanged, `CwdChanged answer: watch path "relative/.env" is not absolute`},
		{WorktreePath("/a/../b"), event.WorktreeCreate, `WorktreeCreate answer: "/a/../b" has . or .. parts, which Claude Code refuses`},
		{CompactInstructions("x"), event.PostCompact, "PostCompact answer: compaction instructions are for PreCompact"},
		{CompactInstructions(`{"keep": 1}`), event.PreCompact, "PreCompact answer: compaction instructions may not start with {"},
		{Elicitation{Action: Decline, Content: []byte(`{}`)}, event.Elicitation, "Elicitation answer: content goes with accept"},
		{PostToolUse{ClassifierContext: strings.Repeat("x", 2001)}, event.PostToolUse, "PostToolUse answer: classifierContext is 2001 UTF-16 units, over 2,000"},
		{Message("x"), event.InstructionsLoaded, "InstructionsLoaded answer: InstructionsLoaded ignores systemMessage"},
		{Context("x"), "FutureEvent", `event "FutureEvent" is not one this harness knows how to answer`},
	}
	for i, tt := range tests {
		_, err := Render(tt.a, tt.ev, "Guard")
		if err == nil || err.Error() != tt.want {
			t.Errorf("%d: err = %v\nwant %s", i, err, tt.want)
		}
	}
}

func FuzzRender(f *testing.F) {
	f.Add("reason", "PreToolUse", 0)
	f.Add("\xff\x00\"\\\n", "PermissionRequest", 1)
	f.Fuzz(func(t *testing.T, text, ev string, kind int) {
		var a Answer
		switch kind % 5 {
		case 0:
			a = Block(text)
		case 1:
			a = Context(text)
		case 2:
			a = PreToolUse{Decision: Deny, Reason: text, Context: text}
		case 3:
			a = Feedback{Block: text, Context: text}
		default:
			a = PermissionRequest{Behavior: DenyRequest, Message: text}
		}
		r, err := Render(a, event.Name(ev), "Hook")
		if err != nil || !event.Name(ev).Known() {
			return
		}
		if err := checkReply(event.Name(ev), r); err != nil {
			t.Fatalf("%v: %v", ev, err)
		}
	})
}

// A guard's ruling prints what Block and a signed ask print, byte for byte, and carries its
// decision, reason and rule in the reply's typed fields, which nothing writes.
func TestGuardCarriesItsRule(t *testing.T) {
	tag := verdict.Tag{Rule: "fs.rm-critical", Pack: "filesystem destruction", Radius: verdict.High}
	for _, tt := range []struct {
		name   string
		a      verdict.Action
		ev     event.Name
		same   Answer
		want   verdict.Decision
		reason string
	}{
		{"deny", verdict.Deny, event.PreToolUse, Block("no"), verdict.Denied, "G: no"},
		{"deny on a permission prompt", verdict.Deny, event.PermissionRequest, Block("no"), verdict.Denied, "G: no"},
		{"ask", verdict.Ask, event.PreToolUse, PreToolUse{Decision: Ask, Reason: "G: no"}, verdict.Asked, "G: no"},
		{"ask in a skill", verdict.Ask, event.PreSkillShellCommand, PreToolUse{Decision: Ask, Reason: "G: no"}, verdict.Asked, "G: no"},
		{"allow is silence", verdict.Allow, event.PreToolUse, nil, "", ""},
	} {
		got, err := Render(Guard(tt.a, "no", tag), tt.ev, "G")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		plain, _ := Render(tt.same, tt.ev, "G")
		if string(got.Stdout) != string(plain.Stdout) || got.Stderr != plain.Stderr || got.Code != plain.Code {
			t.Errorf("%s: prints %q %q %d, want %q %q %d", tt.name, got.Stdout, got.Stderr, got.Code, plain.Stdout, plain.Stderr, plain.Code)
		}
		wantTag := tag
		if tt.want == "" {
			wantTag = verdict.Tag{}
		}
		if got.Decision != tt.want || got.Reason != tt.reason || got.Tag != wantTag {
			t.Errorf("%s: decided %q %q %+v, want %q %q %+v", tt.name, got.Decision, got.Reason, got.Tag, tt.want, tt.reason, wantTag)
		}
	}
}

// Every answer that decides says so in its reply, as the recorder reads it.
func TestRepliesSayWhatTheyDecided(t *testing.T) {
	for _, tt := range []struct {
		a      Answer
		ev     event.Name
		want   verdict.Decision
		reason string
	}{
		{Block("stop"), event.UserPromptSubmit, verdict.Denied, "H: stop"},
		{PreToolUse{Decision: Deny, Reason: "r"}, event.PreToolUse, verdict.Denied, "r"},
		{PreToolUse{Decision: Defer}, event.PreToolUse, verdict.Deferred, ""},
		{PreToolUse{Decision: Allow, Reason: "ok"}, event.PreToolUse, verdict.Allowed, "ok"},
		{PostToolUse{Block: "fix it"}, event.PostToolUse, verdict.Blocked, "fix it"},
		{PermissionRequest{Behavior: DenyRequest, Message: "m"}, event.PermissionRequest, verdict.Denied, "m"},
		{Context("c"), event.PreToolUse, "", ""},
	} {
		got, err := Render(tt.a, tt.ev, "H")
		if err != nil {
			t.Fatalf("%T on %s: %v", tt.a, tt.ev, err)
		}
		if got.Decision != tt.want || got.Reason != tt.reason {
			t.Errorf("%T on %s: %q %q, want %q %q", tt.a, tt.ev, got.Decision, got.Reason, tt.want, tt.reason)
		}
	}
}
