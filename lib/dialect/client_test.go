package dialect

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/verdict"
)

func must(t *testing.T, c Client) *Dialect {
	t.Helper()
	d, err := Lookup(string(c))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Payload puts a Claude Code payload in the client's shape, and In takes it back.
func TestPayload(t *testing.T) {
	bash := `{"hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`
	write := `{"hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Write","tool_input":{"file_path":"/p/a.txt","content":"hi\n"}}`
	tests := []struct {
		client    Client
		in        string
		event     string
		tool      string
		inputKeys string
	}{
		{Codex, bash, "PreToolUse", "Bash", "command"},
		{Codex, write, "PreToolUse", "apply_patch", "command"},
		{Copilot, write, "PreToolUse", "Write", "path,file_text"},
		{Qwen, bash, "PreToolUse", "run_shell_command", "command"},
		{Droid, bash, "PreToolUse", "Execute", "command"},
		{Droid, write, "PreToolUse", "Create", "file_path,content"},
		{Gemini, bash, "BeforeTool", "run_shell_command", "command"},
		{Gemini, write, "BeforeTool", "write_file", "file_path,content"},
		{Kimi, write, "PreToolUse", "Write", "content,path"},
		{Kimi, bash, "PreToolUse", "Bash", "command"},
	}
	for _, tt := range tests {
		d := must(t, tt.client)
		out, err := d.Payload([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		j := gjson.ParseBytes(out)
		var keys []string
		j.Get("tool_input").ForEach(func(k, _ gjson.Result) bool { keys = append(keys, k.Str); return true })
		if j.Get("hook_event_name").Str != tt.event || j.Get("tool_name").Str != tt.tool || strings.Join(keys, ",") != tt.inputKeys {
			t.Errorf("%s: %s", tt.client, out)
		}
		back, err := d.In(out)
		if err != nil {
			t.Fatal(err)
		}
		if tt.tool == "apply_patch" {
			if ops, err := ParsePatch(gjson.GetBytes(back, "tool_input.command").Str); err != nil || ops[0].Path != "/p/a.txt" || ops[0].Kind != "add" {
				t.Errorf("%s: the patch %s: %v %v", tt.client, back, ops, err)
			}
			continue
		}
		if got, want := gjson.GetBytes(back, "tool_name").Str, gjson.Get(tt.in, "tool_name").Str; got != want {
			t.Errorf("%s: In(Payload) tool %s, want %s", tt.client, got, want)
		}
	}
}

// Read reads an answer as the client does.
func TestRead(t *testing.T) {
	ask := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r"}}`
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`
	tests := []struct {
		client       Client
		ev           event.Name
		code         int
		stdout, want string
	}{
		{Codex, event.PreToolUse, 0, ask, "allow"}, // Codex runs an ask
		{Droid, event.PreToolUse, 0, ask, "allow"},
		{Gemini, event.PreToolUse, 0, ask, "allow"}, // Gemini ignores hookSpecificOutput
		{Gemini, event.PreToolUse, 0, deny, "allow"},
		{Copilot, event.PreToolUse, 0, ask, "block"}, // denied headless
		{Qwen, event.PreToolUse, 0, ask, "block"},
		{Codex, event.PreToolUse, 2, "", "block"},
		{Codex, event.PreToolUse, 0, deny, "block"},
		{Gemini, event.PreToolUse, 2, `{"decision":"deny","reason":"r"}`, "block"},
		{Gemini, event.PreToolUse, 2, "not json", "block"},
		{Gemini, event.PreToolUse, 1, "", "allow"},
		{Copilot, event.UserPromptSubmit, 2, "", "allow"}, // Copilot ignores exit 2 on a prompt
		{Copilot, event.UserPromptSubmit, 0, `{"decision":"block","reason":"r"}`, "block"},
		{Qwen, event.UserPromptSubmit, 2, "", "block"},
		{Droid, event.PreToolUse, 1, "", "allow"},
		// Kimi Code: exit 2 or a deny, on every event; an ask and a top-level decision run.
		{Kimi, event.PreToolUse, 0, ask, "allow"},
		{Kimi, event.PreToolUse, 0, deny, "block"},
		{Kimi, event.PreToolUse, 0, `{"decision":"block","reason":"r"}`, "allow"},
		{Kimi, event.UserPromptSubmit, 0, `{"decision":"block","reason":"r"}`, "allow"},
		{Kimi, event.UserPromptSubmit, 2, "", "block"},
		{Kimi, event.PreToolUse, 1, "", "allow"},
	}
	for _, tt := range tests {
		stderr := ""
		if tt.code == 2 {
			stderr = "reason"
		}
		if got := must(t, tt.client).Read(tt.ev, tt.code, tt.stdout, stderr); got.Decision != tt.want {
			t.Errorf("%s %s exit %d %s: %s (%s), want %s", tt.client, tt.ev, tt.code, tt.stdout, got.Decision, got.Why, tt.want)
		}
	}
}

func TestSelectsAndTimeout(t *testing.T) {
	tests := []struct {
		client  Client
		matcher string
		tool    string
		want    bool
	}{
		{Codex, "Bash", "Bash", true},
		{Codex, "Write|Edit|MultiEdit|NotebookEdit|Bash", "apply_patch", true},
		{Qwen, "Bash", "run_shell_command", true},
		{Droid, "Bash", "Execute", false}, // no aliases
		{Droid, "Create|ApplyPatch|Edit|Execute", "Execute", true},
		{Gemini, "^(run_shell_command)$", "run_shell_command", true},
		{Gemini, "^(run_shell_command)$", "write_file", false},
		{Gemini, "*", "write_file", true},
		{Kimi, "*", "Bash", false}, // not a regular expression: Kimi Code runs no such hook
		{Kimi, "", "Bash", true},
		{Kimi, "^(Bash)$", "Bash", true},
		{Kimi, "^(Bash)$", "BashX", false},
		// A list with a pattern in it is a regular expression: Codex tests it on every alias,
		// Qwen Code compares each entry with the aliases first.
		{Codex, "Write|Edit|Glob|mcp__.*", "apply_patch", true},
		{Codex, "^(Write|Edit|Glob|mcp__.*)$", "apply_patch", true},
		{Codex, "^(Write|Edit|Glob|mcp__.*)$", "mcp__fs__write", true},
		{Codex, "^(Write|Edit|Glob|mcp__.*)$", "TodoWrite", false},
		{Qwen, "Write|Edit|Read|Glob|mcp__.*", "write_file", true},
		{Qwen, "Write|Edit|Read|Glob|mcp__.*", "read_file", true},
		{Qwen, "Write|Edit|Read|Glob|mcp__.*", "mcp__fs__write", true},
		{Qwen, "Write|Edit|Read|Glob|mcp__.*", "run_shell_command", false},
		{Qwen, "^(Write|Edit|Read|Glob|mcp__.*)$", "write_file", false}, // a regexp on the name alone
		{Qwen, "Write", "write_file", true},
		{Copilot, "^(Write|Edit|Glob|mcp__.*)$", "Write", true},
		{Gemini, "^(write_file|replace|mcp__.*)$", "mcp__fs__write", true},
	}
	for _, tt := range tests {
		if got := must(t, tt.client).Selects(tt.matcher, tt.tool); got != tt.want {
			t.Errorf("%s: %q selects %s = %v", tt.client, tt.matcher, tt.tool, got)
		}
	}
	for _, tt := range []struct {
		client Client
		v      float64
		set    bool
		want   time.Duration
	}{
		{Gemini, 5, true, 5 * time.Millisecond},
		{Gemini, 0, false, 60 * time.Second},
		{Codex, 5, true, 5 * time.Second},
		{Codex, 0, false, 600 * time.Second},
		{Qwen, 5000, true, 5 * time.Second},
	} {
		if got := must(t, tt.client).HookTimeout(tt.v, tt.set); got != tt.want {
			t.Errorf("%s timeout %v: %v, want %v", tt.client, tt.v, got, tt.want)
		}
	}
}

// Kimi Code's prompt and failure come back as its parts and its error object, and In makes
// Claude Code's strings of them again.
func TestPayloadKimiPromptAndError(t *testing.T) {
	d := must(t, Kimi)
	for _, tt := range []struct{ in, path, want, back string }{
		{`{"hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":"say \"hi\""}`, "prompt",
			`[{"text":"say \"hi\"","type":"text"}]`, `"say \"hi\""`},
		{`{"hook_event_name":"PostToolUseFailure","cwd":"/p","tool_name":"Bash","tool_input":{"command":"x"},"error":"boom"}`, "error",
			`{"code":"internal","message":"boom","retryable":false}`, `"boom"`},
	} {
		out, err := d.Payload([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := gjson.GetBytes(out, tt.path).Raw; got != tt.want {
			t.Errorf("Payload %s = %s, want %s", tt.path, got, tt.want)
		}
		back, err := d.In(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := gjson.GetBytes(back, tt.path).Raw; got != tt.back {
			t.Errorf("In %s = %s, want %s", tt.path, got, tt.back)
		}
	}
}

// Kimi Code's payloads name no transcript: its wire file is found by Kimi's own layout, the work
// directory's key made as Kimi makes it (encodeWorkDirKey), under $KIMI_CODE_HOME when set.
func TestKimiTranscriptPath(t *testing.T) {
	if Sum256Hex != nil {
		t.Fatal("lib/dialect links its own digest: the guards would link crypto")
	}
	if got := kimiTranscript("s", "/p"); got != "" {
		t.Fatalf("without the digest a path is made: %q", got)
	}
	Sum256Hex = func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	defer func() { Sum256Hex = nil }()
	// Seen in a real run: the folder Kimi Code 2.1.0 made for this work directory.
	for _, dir := range []string{"/root/.cache/harness/clients-work/kimi-177693896/proj", "/root/.cache/harness/clients-work/kimi-177693896/proj/"} {
		if got := kimiWorkDirKey(dir); got != "wd_proj_6b4c97891c8b" {
			t.Errorf("kimiWorkDirKey(%q) = %q, want wd_proj_6b4c97891c8b", dir, got)
		}
	}
	for _, tt := range []struct{ dir, slug string }{
		{"/home/dev/My Project!!", "my-project"},
		{"/home/dev/a-!b", "a--b"},
		{"/home/dev/" + strings.Repeat("x", 39) + "-y", strings.Repeat("x", 39)},
		{"/home/dev/...", "..."},
		{"/home/dev/!!", "workspace"},
		{"/", "workspace"},
	} {
		got := kimiWorkDirKey(tt.dir)
		if !regexp.MustCompile(`^wd_` + regexp.QuoteMeta(tt.slug) + `_[0-9a-f]{12}$`).MatchString(got) {
			t.Errorf("kimiWorkDirKey(%q) = %q, want wd_%s_ and 12 hex digits", tt.dir, got, tt.slug)
		}
	}
	t.Setenv("KIMI_CODE_HOME", "/opt/kimi")
	if got, want := kimiTranscript("session_1", "/root/.cache/harness/clients-work/kimi-177693896/proj"),
		"/opt/kimi/sessions/wd_proj_6b4c97891c8b/session_1/agents/main/wire.jsonl"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, bad := range []string{"", ".", "..", "../../etc", `a\b`} {
		if got := kimiTranscript(bad, "/p"); got != "" {
			t.Errorf("session %q gives %q, want none", bad, got)
		}
	}
	if got := kimiTranscript("s", ""); got != "" {
		t.Errorf("no cwd gives %q, want none", got)
	}
}

// Grok Build sends its own format only (hookEventName, camelCase fields, its tool names): doctor's
// canaries are put in it, and In takes it back to Claude Code's.
func TestPayloadNative(t *testing.T) {
	d := must(t, Grok)
	for _, tt := range []struct{ in, want, tool string }{
		{`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c1"}`,
			`{"cwd":"/p","hookEventName":"pre_tool_use","sessionId":"s","toolName":"run_terminal_command","toolInput":{"command":"ls"},"toolUseId":"c1"}`, "Bash"},
		{`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Write","tool_input":{"file_path":"/p/a","content":"x"}}`,
			`{"cwd":"/p","hookEventName":"pre_tool_use","sessionId":"s","toolName":"write_file","toolInput":{"content":"x","path":"/p/a"}}`, "Write"},
		// An MCP server's tool: server__tool in Grok, mcp__server__tool to the hooks.
		{`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"mcp__fs__write_file","tool_input":{"path":"/etc/x"}}`,
			`{"cwd":"/p","hookEventName":"pre_tool_use","sessionId":"s","toolName":"fs__write_file","toolInput":{"path":"/etc/x"}}`, "mcp__fs__write_file"},
		{`{"hook_event_name":"SessionStart","session_id":"s","cwd":"/p","source":"startup"}`,
			`{"cwd":"/p","source":"startup","hookEventName":"session_start","sessionId":"s"}`, ""},
	} {
		out, err := d.Payload([]byte(tt.in))
		if err != nil || string(out) != tt.want {
			t.Errorf("Payload(%s)\n got %s (%v)\nwant %s", tt.in, out, err, tt.want)
			continue
		}
		if got := d.PayloadTool(out); got != gjson.GetBytes(out, "toolName").Str {
			t.Errorf("PayloadTool(%s) = %q", out, got)
		}
		back, err := d.In(out)
		if err != nil {
			t.Fatal(err)
		}
		if gjson.GetBytes(back, "tool_name").Str != tt.tool || gjson.GetBytes(back, "hook_event_name").Str != gjson.Get(tt.in, "hook_event_name").Str {
			t.Errorf("In(Payload(%s)) = %s", tt.in, back)
		}
	}
}

// Antigravity CLI names no event in its payload (PostToolUse's has an error) and nests the
// call in toolCall: doctor's canaries are put in that shape, and In takes it back.
func TestPayloadAntigravity(t *testing.T) {
	d := must(t, Antigravity)
	for _, tt := range []struct{ in, want, tool string }{
		{`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			`{"conversationId":"s","toolCall":{"name":"run_command","args":{"CommandLine":"ls"}},"workspacePaths":["/p"]}`, "Bash"},
		{`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Write","tool_input":{"file_path":"/p/a","content":"x"}}`,
			`{"conversationId":"s","toolCall":{"name":"write_to_file","args":{"TargetFile":"/p/a","CodeContent":"x"}},"workspacePaths":["/p"]}`, "Write"},
	} {
		out, err := d.Payload([]byte(tt.in))
		if err != nil || string(out) != tt.want {
			t.Errorf("Payload(%s)\n got %s (%v)\nwant %s", tt.in, out, err, tt.want)
			continue
		}
		if got := d.PayloadTool(out); got != gjson.GetBytes(out, "toolCall.name").Str {
			t.Errorf("PayloadTool(%s) = %q", out, got)
		}
		back, err := d.In(out)
		if err != nil {
			t.Fatal(err)
		}
		if gjson.GetBytes(back, "tool_name").Str != tt.tool || gjson.GetBytes(back, "hook_event_name").Str != "PreToolUse" || gjson.GetBytes(back, "cwd").Str != "/p" {
			t.Errorf("In(Payload(%s)) = %s", tt.in, back)
		}
	}
}

// How Antigravity CLI reads answers: a top-level deny blocks, ask and force_ask ask, allow
// allows; a missing or malformed decision on PreToolUse fails closed (it asks), exit 2
// without one included; no other event blocks.
func TestReadAntigravity(t *testing.T) {
	for _, tt := range []struct {
		ev     event.Name
		code   int
		stdout string
		want   string
	}{
		{event.PreToolUse, 2, `{"decision":"deny","reason":"r"}`, "block"},
		{event.PreToolUse, 0, `{"decision":"deny","reason":"r"}`, "block"},
		{event.PreToolUse, 0, `{"decision":"force_ask","reason":"r"}`, "ask"},
		{event.PreToolUse, 0, `{"decision":"ask","reason":"r"}`, "ask"},
		{event.PreToolUse, 0, `{"decision":"allow"}`, "allow"},
		{event.PreToolUse, 0, "", "ask"},
		{event.PreToolUse, 0, `{"decision":"maybe"}`, "ask"},
		{event.PreToolUse, 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, "ask"},
		{event.PreToolUse, 2, "", "ask"},
		{event.PostToolUse, 2, `{"decision":"deny","reason":"r"}`, "allow"},
	} {
		if got := must(t, Antigravity).Read(tt.ev, tt.code, tt.stdout, "r"); got.Decision != tt.want {
			t.Errorf("%s exit %d %s: %s (%s), want %s", tt.ev, tt.code, tt.stdout, got.Decision, got.Why, tt.want)
		}
	}
}

// How Grok Build reads answers: a top-level deny (whatever the exit code) or exit 2 blocks on
// PreToolUse alone; Claude Code's permissionDecision, an ask of any form, and every other
// event's answer let the call or prompt through.
func TestReadGrok(t *testing.T) {
	ask := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r"}}`
	for _, tt := range []struct {
		ev     event.Name
		code   int
		stdout string
		want   string
	}{
		{event.PreToolUse, 0, `{"decision":"deny","reason":"r"}`, "block"},
		{event.PreToolUse, 1, `{"decision":"deny","reason":"r"}`, "block"},
		{event.PreToolUse, 2, "", "block"},
		{event.PreToolUse, 2, `{"suppressOutput":true}`, "block"},
		{event.PreToolUse, 0, ask, "allow"},
		{event.PreToolUse, 0, `{"decision":"ask","reason":"r"}`, "allow"},
		{event.PreToolUse, 1, "", "allow"},
		{event.PreToolUse, 0, "", "allow"},
		{event.UserPromptSubmit, 2, `{"decision":"deny","reason":"r"}`, "allow"},
		{event.UserPromptSubmit, 0, `{"decision":"block","reason":"r"}`, "allow"},
	} {
		if got := must(t, Grok).Read(tt.ev, tt.code, tt.stdout, "r"); got.Decision != tt.want {
			t.Errorf("%s exit %d %s: %s (%s), want %s", tt.ev, tt.code, tt.stdout, got.Decision, got.Why, tt.want)
		}
	}
}

// A payload in Claude Code's own shape may come from Claude Code or from any client that runs
// the hooks of Claude Code's own files (ClaudeFiles). Where such a client started the hook (its
// RunnerEnv is set), the answer is that client's form, which blocks in Claude Code too: an ask
// is never an allow in either. Elsewhere it is Claude Code's, unchanged. Generated from the
// declarations: a client declared with ClaudeFiles is covered the day it is declared.
func TestClaudeFilesNeverAllowAnAsk(t *testing.T) {
	data, err := os.ReadFile("../event/testdata/captured/PreToolUse.json")
	if err != nil {
		t.Fatal(err)
	}
	const why = "SecurityValidator: needs your approval: `chmod -R 777 ./build`"
	ask := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"` + why + `"}}` + "\n"
	askR := answer.Reply{Stdout: []byte(ask), Decision: verdict.Asked, Reason: why}

	if d := Detect(data); d != Default() {
		t.Fatalf("with no client's variable, detected as %s", d.Client)
	}
	r := Default().Out(event.PreToolUse, askR)
	if got := Default().Read(event.PreToolUse, int(r.Code), string(r.Stdout), r.Stderr); got.Decision == "allow" {
		t.Errorf("Claude Code reads its own ask as %s (%s)", got.Decision, got.Why)
	}
	n := 0
	for _, d := range All() {
		if !d.Files.ClaudeFiles {
			continue
		}
		n++
		t.Run(string(d.Client), func(t *testing.T) {
			if d.RunnerEnv == "" {
				t.Fatalf("%s runs Claude Code's hooks but declares no RunnerEnv: its payloads in Claude Code's shape cannot be told apart", d.Title)
			}
			t.Setenv(d.RunnerEnv, "pre_tool_use")
			if got := Detect(data); got != d {
				t.Fatalf("started by %s, detected as %s", d.Title, got.Client)
			}
			in, err := d.In(data)
			if err != nil || !bytes.Equal(in, data) {
				t.Fatalf("Claude Code's payload was changed: %s (%v)", in, err)
			}
			r := d.Out(event.PreToolUse, askR)
			if !strings.Contains(string(r.Stdout)+r.Stderr, why) {
				t.Errorf("the ask rendered without its reason: %d %q %q", r.Code, r.Stdout, r.Stderr)
			}
			for _, c := range []*Dialect{Default(), d} {
				if got := c.Read(event.PreToolUse, int(r.Code), string(r.Stdout), r.Stderr); got.Decision == "allow" {
					t.Errorf("%s reads the rendered ask as %s (%s)", c.Title, got.Decision, got.Why)
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no declaration runs Claude Code's own files")
	}
}
