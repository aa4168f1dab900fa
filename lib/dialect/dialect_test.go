package dialect

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/verdict"
)

var update = flag.Bool("update", false, "rewrite the translated goldens")

// captured lists the payloads the real clients sent (testdata/<client>/*.json, copied from
// shared/protocol/clients), skipping the goldens. Qoder CLI's are not captured but built as
// its bundle builds them (createBaseInput and the fire*Event of each event), and Grok Build's
// as its hooks guide shows them: neither runs here.
func captured(t *testing.T) map[Client][]string {
	t.Helper()
	out := map[Client][]string{}
	for _, c := range []Client{Codex, Copilot, Qwen, Droid, Gemini, DockerAgent, Kimi, Qoder, Grok, Antigravity} {
		files, err := filepath.Glob(filepath.Join("testdata", string(c), "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no captured payloads for %s", c)
		}
		out[c] = files
	}
	return out
}

// Every captured payload of every client becomes a payload Claude Code's parser accepts, with
// Claude Code's event name; the exact bytes are pinned in testdata/translated.
func TestInCaptured(t *testing.T) {
	// lib/transcript gives the digest Kimi Code's transcript path needs, in the hooks that read one.
	Sum256Hex = func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	t.Cleanup(func() { Sum256Hex = nil })
	for c, files := range captured(t) {
		d, err := Lookup(string(c))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			name := filepath.Base(f)
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.In(data)
			if d.Native != nil && strings.HasPrefix(name, "native.") {
				// A client's own format that names no event: refused with the reason, never guessed.
				if _, ok := err.(NoEventError); !ok {
					t.Errorf("%s/%s: got %v, want a NoEventError", c, name, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s/%s: %v", c, name, err)
				continue
			}
			in, err := event.Parse(got)
			if err != nil {
				t.Errorf("%s/%s: translated payload does not parse: %v\n%s", c, name, err, got)
				continue
			}
			if !in.Event().Known() {
				t.Errorf("%s/%s: event %q is not Claude Code's", c, name, in.Event())
			}
			// An empty cwd is filled with the hook's working directory: pinned as <wd>.
			wd, _ := os.Getwd()
			got = bytes.ReplaceAll(got, []byte(`"`+wd+`"`), []byte(`"<wd>"`))
			// A transcript found by the client's layout is under the home: pinned as <home>.
			if home, err := os.UserHomeDir(); err == nil {
				got = bytes.ReplaceAll(got, []byte(`"`+home+string(filepath.Separator)), []byte(`"<home>/`))
			}
			golden := filepath.Join("testdata", "translated", string(c), name)
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				os.WriteFile(golden, got, 0o644)
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./lib/dialect -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s/%s: translated payload changed:\ngot  %s\nwant %s", c, name, got, want)
			}
		}
	}
}

// What each client's tools become: the name and the arguments a hook reads.
func TestInTools(t *testing.T) {
	tests := []struct {
		client Client
		file   string
		event  event.Name
		tool   string
		fields map[string]string // tool_input field -> value
	}{
		{Codex, "PreToolUse.json", event.PreToolUse, "Bash", map[string]string{"command": "rm -rf ~"}},
		{Codex, "PreToolUse.apply_patch.json", event.PreToolUse, "apply_patch", map[string]string{"command": "*** Begin Patch\n*** Add File: ../outside.txt\n+escaped\n*** End Patch\n"}},
		{Copilot, "PreToolUse.Write.json", event.PreToolUse, "Write", map[string]string{"file_path": "/home/dev/outside.txt", "content": "escaped"}},
		{Copilot, "permissionRequest.json", event.PermissionRequest, "Bash", map[string]string{"command": "echo safe-ran > safe-ran.txt"}},
		{Qwen, "PreToolUse.write_file.json", event.PreToolUse, "Write", map[string]string{"file_path": "/home/dev/outside.txt", "content": "escaped"}},
		{Qwen, "PreToolUse.json", event.PreToolUse, "Bash", nil},
		{Droid, "PreToolUse.json", event.PreToolUse, "Bash", nil},
		{Droid, "PreToolUse.Create.json", event.PreToolUse, "Write", map[string]string{"file_path": "/home/dev/outside.txt", "content": "escaped"}},
		{Gemini, "BeforeTool.json", event.PreToolUse, "Bash", nil},
		{Gemini, "BeforeTool.write_file.json", event.PreToolUse, "Write", map[string]string{"file_path": "notes/inside.txt", "content": "hello"}},
		{Gemini, "AfterTool.json", event.PostToolUse, "Bash", nil},
		{Gemini, "BeforeAgent.hook-context.json", event.UserPromptSubmit, "", nil},
		{Gemini, "AfterAgent.hook-context.json", event.Stop, "", nil},
		{Gemini, "PreCompress.json", event.PreCompact, "", nil},
		{DockerAgent, "pre_tool_use.json", event.PreToolUse, "Bash", map[string]string{"command": "rm -rf ~"}},
		{DockerAgent, "pre_tool_use.write_file.json", event.PreToolUse, "Write", map[string]string{"file_path": "../outside.txt", "content": "escaped"}},
		{Kimi, "PreToolUse.json", event.PreToolUse, "Bash", map[string]string{"command": "rm -rf ~"}},
		{Kimi, "PreToolUse.Write.json", event.PreToolUse, "Write", map[string]string{"file_path": "/home/dev/outside.txt", "content": "escaped"}},
		{Kimi, "UserPromptSubmit.json", event.UserPromptSubmit, "", nil},
		{Kimi, "PostToolUseFailure.json", event.PostToolUseFailure, "Bash", map[string]string{"command": "rm -rf ~"}},
		{Kimi, "SessionStart.json", event.SessionStart, "", nil},
		{Qoder, "PreToolUse.Write.json", event.PreToolUse, "Write", map[string]string{"file_path": "/home/dev/outside.txt", "content": "escaped"}},
		{Qoder, "UserPromptSubmit.json", event.UserPromptSubmit, "", nil},
		{Grok, "PreToolUse.json", event.PreToolUse, "Bash", map[string]string{"command": "rm -rf ~"}},
		{Grok, "PreToolUse.search_replace.json", event.PreToolUse, "Edit", map[string]string{"file_path": "/home/dev/outside.txt", "new_string": "escaped"}},
		{Grok, "PreToolUse.write_file.json", event.PreToolUse, "Write", map[string]string{"file_path": "/home/dev/outside.txt", "content": "escaped"}},
		{Grok, "SessionStart.json", event.SessionStart, "", nil},
		{Antigravity, "PreToolUse.json", event.PreToolUse, "Bash", map[string]string{"command": "cd -- '/home/dev/proj' && rm -rf ~"}},
		{Antigravity, "PreToolUse.write_to_file.json", event.PreToolUse, "Write", map[string]string{"file_path": "/home/dev/outside.txt", "content": "escaped"}},
		{Antigravity, "PreToolUse.view_file.json", event.PreToolUse, "Read", map[string]string{"file_path": "/home/dev/.ssh/id_rsa"}},
		{Antigravity, "PostToolUse.json", event.PostToolUse, "Bash", nil},
		{DockerAgent, "post_tool_use.json", event.PostToolUse, "Bash", map[string]string{"command": "echo safe-ran > safe-ran.txt"}},
	}
	for _, tt := range tests {
		d, _ := Lookup(string(tt.client))
		data, err := os.ReadFile(filepath.Join("testdata", string(tt.client), tt.file))
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.In(data)
		if err != nil {
			t.Fatalf("%s/%s: %v", tt.client, tt.file, err)
		}
		in, err := event.Parse(got)
		if err != nil {
			t.Fatalf("%s/%s: %v", tt.client, tt.file, err)
		}
		if in.Event() != tt.event {
			t.Errorf("%s/%s: event %s, want %s", tt.client, tt.file, in.Event(), tt.event)
		}
		if tool := in.Get("tool_name").Str; tool != tt.tool {
			t.Errorf("%s/%s: tool %q, want %q", tt.client, tt.file, tool, tt.tool)
		}
		for k, v := range tt.fields {
			if got := in.Get("tool_input." + k).Str; got != v {
				t.Errorf("%s/%s: tool_input.%s = %q, want %q", tt.client, tt.file, k, got, v)
			}
		}
	}
}

// A shell command with its own directory is judged as `cd DIR && command`; the payload's cwd
// (and so the project) stays the session's; an empty cwd is filled in first.
func TestInDirectory(t *testing.T) {
	wd, _ := os.Getwd()
	tests := []struct {
		client  Client
		in      string
		cwd     string
		command string
	}{
		{Qwen, `{"hook_event_name":"PreToolUse","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"rm -rf .","directory":"../other"}}`,
			"/p", "cd -- '../other' && rm -rf ."},
		{Gemini, `{"hook_event_name":"BeforeTool","cwd":"","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"/etc"}}`,
			wd, "cd -- '/etc' && ls"},
		{DockerAgent, `{"hook_event_name":"pre_tool_use","cwd":"","tool_name":"shell","tool_input":{"cmd":"rm -rf proj","cwd":"/srv"}}`,
			wd, "cd -- '/srv' && rm -rf proj"},
		{DockerAgent, `{"hook_event_name":"pre_tool_use","cwd":"","tool_name":"shell","tool_input":{"cmd":"ls","cwd":"it's"}}`,
			wd, `cd -- 'it'\''s' && ls`},
		{Gemini, `{"hook_event_name":"BeforeTool","cwd":"","tool_name":"read_file","tool_input":{}}`, wd, ""},
	}
	for _, tt := range tests {
		d, _ := Lookup(string(tt.client))
		got, err := d.In([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if cwd := gjson.GetBytes(got, "cwd").Str; cwd != tt.cwd {
			t.Errorf("%s %s: cwd = %q, want %q", tt.client, tt.in, cwd, tt.cwd)
		}
		if cmd := gjson.GetBytes(got, "tool_input.command").Str; cmd != tt.command {
			t.Errorf("%s %s: command = %q, want %q", tt.client, tt.in, cmd, tt.command)
		}
	}
}

// Claude Code's own payloads pass untouched, and are detected as Claude Code's.
func TestClaudeUntouched(t *testing.T) {
	files, _ := filepath.Glob("../event/testdata/captured/*.json")
	if len(files) == 0 {
		t.Fatal("no Claude Code payloads")
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		d := Detect(data)
		if d != Default() {
			t.Errorf("%s: detected as %s", filepath.Base(f), d.Client)
		}
		got, err := d.In(data)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: Claude Code's payload was changed (%v)", filepath.Base(f), err)
		}
	}
}

// Without --client, every captured payload is read as its own client's.
func TestDetect(t *testing.T) {
	for c, files := range captured(t) {
		for _, f := range files {
			data, _ := os.ReadFile(f)
			if got := Detect(data).Client; got != c {
				t.Errorf("%s/%s: detected as %s", c, filepath.Base(f), got)
			}
		}
	}
}

const reason = "SecurityValidator: blocked `git push --force`"

func reply(code answer.Code, stdout, stderr string) answer.Reply {
	return answer.Reply{Stdout: []byte(stdout), Stderr: stderr, Code: code}
}

func TestOut(t *testing.T) {
	ask := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"` + reason + `"}}` + "\n"
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + reason + `"}}` + "\n"
	block := reply(answer.Blocked, "", reason+"\n")
	// A decision travels in the reply's typed fields, as answer.Render sets them.
	askR := answer.Reply{Stdout: []byte(ask), Decision: verdict.Asked, Reason: reason}
	denyR := answer.Reply{Stdout: []byte(deny), Decision: verdict.Denied, Reason: reason}
	ctx := `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"briefing"}}` + "\n"
	promptCtx := `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"notes"}}` + "\n"
	approvalCodex := reason + "\nThis needs the user's approval, and Codex CLI cannot ask for it here, so it is blocked. To go ahead, the user can run it themselves, or allow it by policy (the rule's id in \"disable\" of $HARNESS_HOME/security.json).\n"
	tests := []struct {
		client Client
		ev     event.Name
		in     answer.Reply
		want   answer.Reply
	}{
		// Claude Code: as rendered.
		{Claude, event.PreToolUse, askR, askR},
		// Codex and droid run an ask: it becomes a block that says how to approve.
		{Codex, event.PreToolUse, askR, reply(answer.Blocked, "", approvalCodex)},
		{Droid, event.PreToolUse, askR, reply(answer.Blocked, "", strings.Replace(approvalCodex, "Codex CLI", "Factory droid", 1))},
		{Codex, event.PreToolUse, block, block},
		{Codex, event.PreToolUse, denyR, denyR},
		{Codex, event.SessionStart, reply(0, ctx, ""), reply(0, ctx, "")},
		// Copilot: a block is a JSON deny at exit 0 (exit 2 loses the reason); a prompt block
		// is {"decision":"block"}; context is top-level; an ask stays an ask.
		{Copilot, event.PreToolUse, block, denyR},
		{Copilot, event.PreToolUse, askR, askR},
		{Copilot, event.UserPromptSubmit, block, reply(0, `{"decision":"block","reason":"`+reason+`"}`+"\n", "")},
		{Copilot, event.SessionStart, reply(0, ctx, ""), reply(0, `{"additionalContext":"briefing"}`+"\n", "")},
		{Copilot, event.UserPromptSubmit, reply(0, promptCtx, ""), reply(0, `{"additionalContext":"notes"}`+"\n", "")},
		// Qwen reads Claude Code's answers.
		{Qwen, event.PreToolUse, askR, askR},
		{Qwen, event.PreToolUse, block, block},
		// Gemini: a top-level decision (with exit 2 and the reason on stderr as well), an ask
		// blocks, event names in hookEventName are Gemini's.
		{Gemini, event.PreToolUse, block, reply(answer.Blocked, `{"decision":"deny","reason":"`+reason+`"}`+"\n", reason+"\n")},
		{Gemini, event.PreToolUse, denyR, reply(answer.Blocked, `{"decision":"deny","reason":"`+reason+`"}`+"\n", reason+"\n")},
		{Gemini, event.UserPromptSubmit, reply(0, promptCtx, ""), reply(0, `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"notes"}}`+"\n", "")},
		{Gemini, event.SessionStart, reply(0, ctx, ""), reply(0, ctx, "")},
		// docker-agent reads only exit 2 (an ask would run under --yolo) and snake_case JSON.
		{DockerAgent, event.PreToolUse, block, block},
		{DockerAgent, event.PreToolUse, denyR, reply(answer.Blocked, "", reason+"\n")},
		{DockerAgent, event.PreToolUse, askR, reply(answer.Blocked, "", strings.Replace(approvalCodex, "Codex CLI", "docker-agent", 1))},
		{DockerAgent, event.SessionStart, reply(0, ctx, ""), reply(0, `{"hook_specific_output":{"hook_event_name":"session_start","additional_context":"briefing"}}`+"\n", "")},
		{DockerAgent, event.UserPromptSubmit, block, block},
		// Kimi Code runs an ask; a prompt hook's stdout goes to the model as it is, so context
		// is the plain text and nothing else.
		{Kimi, event.PreToolUse, askR, reply(answer.Blocked, "", strings.Replace(approvalCodex, "Codex CLI", "Kimi Code", 1))},
		{Kimi, event.PreToolUse, block, block},
		{Kimi, event.UserPromptSubmit, block, block},
		{Kimi, event.UserPromptSubmit, reply(0, promptCtx, ""), reply(0, "notes\n", "")},
		{Kimi, event.UserPromptSubmit, reply(0, `{"suppressOutput":true}`+"\n", ""), reply(0, "", "")},
		// Qoder CLI: Claude Code's answers, but an ask is a block (its headless ask was not seen).
		{Qoder, event.PreToolUse, askR, reply(answer.Blocked, "", strings.Replace(approvalCodex, "Codex CLI", "Qoder CLI", 1))},
		{Qoder, event.PreToolUse, block, block},
		{Qoder, event.SessionStart, reply(0, ctx, ""), reply(0, ctx, "")},
		{Qoder, event.UserPromptSubmit, reply(0, promptCtx, ""), reply(0, promptCtx, "")},
		// Grok Build: a top-level deny on stdout and exit 2, the reason on stderr (Claude
		// Code reads exit 2); context passes as it is (Grok ignores it).
		{Grok, event.PreToolUse, block, reply(answer.Blocked, `{"decision":"deny","reason":"`+reason+`"}`+"\n", reason+"\n")},
		{Grok, event.PreToolUse, denyR, reply(answer.Blocked, `{"decision":"deny","reason":"`+reason+`"}`+"\n", reason+"\n")},
		{Grok, event.SessionStart, reply(0, ctx, ""), reply(0, ctx, "")},
		// Antigravity CLI: a deny on stdout and exit 2; an ask is force_ask (ask would honour an
		// earlier "always allow"); silence on PreToolUse is a malformed answer there, on which
		// it asks, so an allow is said out loud.
		{Antigravity, event.PreToolUse, block, reply(answer.Blocked, `{"decision":"deny","reason":"`+reason+`"}`+"\n", reason+"\n")},
		{Antigravity, event.PreToolUse, askR, reply(0, `{"decision":"force_ask","reason":"`+reason+`"}`+"\n", "")},
		{Antigravity, event.PreToolUse, reply(0, "", ""), reply(0, `{"decision":"allow"}`+"\n", "")},
		{Antigravity, event.PostToolUse, reply(0, "", ""), reply(0, "", "")},
		{Antigravity, event.PreToolUse, reply(answer.Failed, "", "AuditLog: skipped: x\n"), reply(answer.Failed, "", "AuditLog: skipped: x\n")},
		// Silence and failures of record hooks pass as they are.
		{Gemini, event.PostToolUse, reply(0, "", ""), reply(0, "", "")},
		{Copilot, event.PostToolUse, reply(answer.Failed, "", "AuditLog: skipped: x\n"), reply(answer.Failed, "", "AuditLog: skipped: x\n")},
	}
	for _, tt := range tests {
		d, _ := Lookup(string(tt.client))
		got := d.Out(tt.ev, tt.in)
		if got.Code != tt.want.Code || string(got.Stdout) != string(tt.want.Stdout) || got.Stderr != tt.want.Stderr {
			t.Errorf("%s %s %q:\ngot  %d %q %q\nwant %d %q %q", tt.client, tt.ev, tt.in.Stdout,
				got.Code, got.Stdout, got.Stderr, tt.want.Code, tt.want.Stdout, tt.want.Stderr)
		}
	}
}

// Whatever dialect renders a block, Claude Code reads it as a block too: a dialect detected by
// mistake never lets a blocked call through.
func TestBlocksStayBlocks(t *testing.T) {
	block := reply(answer.Blocked, "", reason+"\n")
	for _, d := range All() {
		for _, ev := range []event.Name{event.PreToolUse, event.UserPromptSubmit} {
			got := d.Out(ev, block)
			if got.Code == answer.Blocked {
				continue
			}
			js := gjson.ParseBytes(got.Stdout)
			if js.Get("hookSpecificOutput.permissionDecision").Str != "deny" && js.Get("decision").Str != "block" {
				t.Errorf("%s %s: a block rendered as %d %q %q", d.Client, ev, got.Code, got.Stdout, got.Stderr)
			}
		}
	}
}

func TestMatchers(t *testing.T) {
	tests := []struct {
		client Client
		ev     event.Name
		in     string
		want   []string
	}{
		{Codex, event.PreToolUse, "Bash", []string{"Bash"}},
		{Droid, event.PreToolUse, "Bash", []string{"Execute"}},
		{Droid, event.PreToolUse, "Write|Edit|MultiEdit|NotebookEdit|Bash", []string{"Create|ApplyPatch|Edit|MultiEdit|Execute"}},
		{Droid, event.PreToolUse, "*", []string{"*"}},
		{Gemini, event.PreToolUse, "Bash", []string{"^(run_shell_command)$"}},
		{Gemini, event.PreToolUse, "Write|Edit|MultiEdit|NotebookEdit|Bash", []string{"^(write_file|replace|run_shell_command)$"}},
		{Gemini, event.SessionStart, "startup|resume|clear|compact", []string{"startup", "resume", "clear"}},
		{Gemini, event.SessionStart, "", []string{"startup", "resume", "clear"}},
		{Qwen, event.SessionStart, "startup|resume|clear|compact", []string{"startup|resume|clear|compact"}},
		{DockerAgent, event.PreToolUse, "Write|Edit|MultiEdit|NotebookEdit|Bash", []string{"write_file|edit_file|shell"}},
		// An anchored list: kept where the client reads it with its aliases, the bare list
		// where an anchored pattern would lose them (Qwen), the client's names elsewhere.
		{Claude, event.PreToolUse, "^(Write|Edit|mcp__.*)$", []string{"^(Write|Edit|mcp__.*)$"}},
		{Codex, event.PreToolUse, "^(Write|Edit|mcp__.*)$", []string{"^(Write|Edit|mcp__.*)$"}},
		{Qwen, event.PreToolUse, "^(Write|Edit|mcp__.*)$", []string{"Write|Edit|mcp__.*"}},
		{Droid, event.PreToolUse, "^(Write|Edit|Bash|mcp__.*)$", []string{"Create|ApplyPatch|Edit|Execute|mcp__.*"}},
		{Gemini, event.PreToolUse, "^(Write|Edit|Bash|mcp__.*)$", []string{"^(write_file|replace|run_shell_command|mcp__.*)$"}},
		{Gemini, event.PreToolUse, "Edit.*", []string{"Edit.*"}}, // the author's own pattern, as written
		// Kimi Code: its own tools only, anchored; "*" is no matcher there, so none is written.
		{Kimi, event.PreToolUse, "Bash|PowerShell", []string{"^(Bash)$"}},
		{Kimi, event.PreToolUse, "^(Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|Read|NotebookRead|Grep|Glob|mcp__.*)$", []string{"^(Write|Edit|Bash|Read|Grep|Glob|mcp__.*)$"}},
		{Kimi, event.PostToolUse, "*", []string{""}},
		{Kimi, event.SessionStart, "*", []string{""}},
		{Kimi, event.SessionStart, "startup|resume|clear|compact", []string{"startup|resume|clear|compact"}},
		// Grok Build: its own tools, anchored; no matcher on a lifecycle event, none for "*".
		{Grok, event.PreToolUse, "Bash|PowerShell", []string{"^(run_terminal_command)$"}},
		{Grok, event.PreToolUse, "^(Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|Read|NotebookRead|Grep|Glob|mcp__.*)$",
			[]string{"^(write_file|search_replace|run_terminal_command|read_file|grep|list_dir|.*__.*)$"}},
		{Grok, event.PostToolUse, "*", []string{""}},
		{Grok, event.SessionStart, "startup|resume|clear|compact", []string{""}},
		{Grok, event.Stop, "*", []string{""}},
		// Antigravity CLI: its own tools, anchored.
		{Antigravity, event.PreToolUse, "Bash|PowerShell", []string{"^(run_command)$"}},
		{Antigravity, event.PreToolUse, "^(Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|Read|NotebookRead|Grep|Glob|mcp__.*)$",
			[]string{"^(write_to_file|edit_file|replace_file_content|multi_replace_file_content|run_command|view_file|grep_search|find_by_name|mcp__.*)$"}},
		{Antigravity, event.PostToolUse, "*", []string{"*"}},
	}
	for _, tt := range tests {
		d, _ := Lookup(string(tt.client))
		if got := d.Matchers(tt.ev, tt.in); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s %s %q: got %q, want %q", tt.client, tt.ev, tt.in, got, tt.want)
		}
	}
}

// TestMatchersSelectEveryTool installs every tool matcher of the default wiring for every client
// and checks, the way the client reads matchers, that the matcher written selects each tool the
// client sends for a tool Claude Code's matcher names (the aliases included), and an MCP tool
// where it names those.
func TestMatchersSelectEveryTool(t *testing.T) {
	matchers := []string{"Bash|PowerShell", "^(Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|Read|NotebookRead|Grep|Glob|mcp__.*)$"}
	for _, d := range All() {
		for _, m := range matchers {
			written := d.Matchers(event.PreToolUse, m)
			if len(written) != 1 {
				t.Fatalf("%s: %q written as %q", d.Client, m, written)
			}
			entries, _ := listEntries(m)
			for _, name := range entries {
				var sent []string
				if name == "mcp__.*" {
					sent = []string{"mcp__fs__write_file"}
				} else {
					sent = d.clientTools(name)
					if d.ClaudeToolNames {
						sent = nil // it sends Claude Code's names (with its own argument names)
					}
					p, err := d.Payload([]byte(`{"hook_event_name":"PreToolUse","tool_name":"` + name + `","tool_input":{}}`))
					if err != nil {
						t.Fatal(err)
					}
					if n := d.PayloadTool(p); (len(sent) > 0 || d.ClaudeToolNames) && !slices.Contains(sent, n) {
						sent = append(sent, n)
					}
				}
				for _, tool := range sent {
					if !d.Selects(written[0], tool) {
						t.Errorf("%s: %q (written for %q) does not select %s, which %s sends for %s", d.Client, written[0], m, tool, d.Title, name)
					}
				}
			}
		}
	}
}

func TestParsePatch(t *testing.T) {
	tests := []struct {
		text string
		want []PatchOp
		err  string
	}{
		{"*** Begin Patch\n*** Add File: ../outside.txt\n+escaped\n*** End Patch\n",
			[]PatchOp{{Kind: "add", Path: "../outside.txt"}}, ""},
		{"*** Begin Patch\n*** Update File: a.go\n*** Move to: ~/.ssh/config\n@@\n-x\n+y\n*** Delete File: .env\n*** End Patch",
			[]PatchOp{{Kind: "update", Path: "a.go", MoveTo: "~/.ssh/config"}, {Kind: "delete", Path: ".env"}}, ""},
		// A heredoc wrapper, and a body line that only looks like a header.
		{"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x\n+*** Add File: y\n*** End Patch\nEOF\n",
			[]PatchOp{{Kind: "add", Path: "x"}}, ""},
		{"*** Begin Patch\n*** End Patch\n", nil, "names no file"},
		{"*** Begin Patch\n*** Move to: x\n*** End Patch\n", nil, "outside an Update"},
		{"*** Begin Patch\n*** Add File: \n+x\n*** End Patch\n", nil, "names no file"},
	}
	for _, tt := range tests {
		got, err := ParsePatch(tt.text)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.text, err, tt.err)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Errorf("%q: got %v %v, want %v", tt.text, got, err, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%q: op %d = %+v, want %+v", tt.text, i, got[i], tt.want[i])
			}
		}
	}
}

func TestLookup(t *testing.T) {
	if _, err := Lookup("cursor"); err == nil || !strings.Contains(err.Error(), "known: claude, codex, copilot, qwen, kimi, qoder, droid, gemini, docker-agent") {
		t.Errorf("unknown client: %v", err)
	}
	for _, n := range Names() {
		if d, err := Lookup(n); err != nil || string(d.Client) != n {
			t.Errorf("%s: %v", n, err)
		}
	}
}

// For every client that cannot ask, an ask comes out as a block with the reason, and the
// client itself reads that reply as a block: generated from the declarations, so a new client
// that runs asks is covered the day it is declared.
func TestAskIsBlockWhereNoAsk(t *testing.T) {
	ask := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"` + reason + `"}}` + "\n"
	askR := answer.Reply{Stdout: []byte(ask), Decision: verdict.Asked, Reason: reason}
	n := 0
	for _, d := range All() {
		if !d.NoAsk {
			continue
		}
		n++
		got := d.Out(event.PreToolUse, askR)
		if r := d.Read(event.PreToolUse, int(got.Code), string(got.Stdout), got.Stderr); r.Decision != "block" {
			t.Errorf("%s: an ask rendered as %d %q %q, which %s reads as %s (%s)", d.Client, got.Code, got.Stdout, got.Stderr, d.Title, r.Decision, r.Why)
		}
		if !strings.Contains(string(got.Stdout)+got.Stderr, reason) || !strings.Contains(string(got.Stdout)+got.Stderr, d.Title+" cannot ask for it here") {
			t.Errorf("%s: the block does not carry the reason and how to approve: %q %q", d.Client, got.Stdout, got.Stderr)
		}
		// Claude Code, which may read the same files, blocks it too.
		if r := Default().Read(event.PreToolUse, int(got.Code), string(got.Stdout), got.Stderr); r.Decision != "block" {
			t.Errorf("%s: Claude Code reads the rendered ask as %s", d.Client, r.Decision)
		}
	}
	if n == 0 {
		t.Fatal("no declaration says its client cannot ask")
	}
}

// Detect on Claude Code's own payload, which every hook run by Claude Code without --client
// pays: every client's marks tried, none matching, the runner variables read last.
func BenchmarkDetectClaude(b *testing.B) {
	data, err := os.ReadFile("../event/testdata/captured/PreToolUse.json")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if Detect(data) != Default() {
			b.Fatal("not Claude Code's")
		}
	}
}
