package dialect

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookkit/harness/lib/event"
)

// The client's side of a hook call, for `harness doctor --client X`: a Claude Code payload
// rewritten the way the client sends it, the matcher and timeout read the way the client
// reads them, and an answer read the way the client reads it (../shared/protocol/clients/).

// ClaudeEvent returns the Claude Code event for the client's name of it.
func (d *Dialect) ClaudeEvent(name string) event.Name { return d.claudeEvent(name) }

// Payload rewrites a Claude Code payload into the client's shape: the reverse of In. Event and
// tool names become the client's (Copilot CLI sends Claude Code's tool names, with its own
// argument names), arguments are renamed back, and a Write or Edit becomes Codex's apply_patch
// with the patch text.
func (d *Dialect) Payload(claude []byte) ([]byte, error) {
	if d.Identity {
		return claude, nil
	}
	if !gjson.ValidBytes(claude) {
		return nil, fmt.Errorf("the payload is not JSON")
	}
	out, err := d.payload(claude)
	if err != nil || !d.NativeOnly || d.Native == nil {
		return out, err
	}
	return d.Native.render(out)
}

// PayloadTool returns the tool a payload in the client's shape names ("" when none).
func (d *Dialect) PayloadTool(payload []byte) string {
	if d.NativeOnly && d.Native != nil {
		for _, f := range d.Native.Fields {
			if f[1] == "tool_name" {
				return gjson.GetBytes(payload, f[0]).Str
			}
		}
	}
	return gjson.GetBytes(payload, "tool_name").Str
}

// render moves a payload's Claude Code fields to the format's own (the reverse of Fields), and
// its event to the format's key and name (none where the format names no event).
func (n *Native) render(out []byte) ([]byte, error) {
	var err error
	if ev := gjson.GetBytes(out, "hook_event_name").Str; ev != "" {
		if n.EventKey != "" && n.Name != nil {
			out, err = sjson.SetBytes(out, n.EventKey, n.Name(event.Name(ev)))
		}
		if err == nil {
			out, err = sjson.DeleteBytes(out, "hook_event_name")
		}
	}
	for _, f := range n.Fields {
		v := gjson.GetBytes(out, f[1])
		if err != nil || !v.Exists() || gjson.GetBytes(out, f[0]).Exists() {
			continue
		}
		if out, err = sjson.SetRawBytes(out, f[0], []byte(v.Raw)); err == nil {
			out, err = sjson.DeleteBytes(out, f[1])
		}
	}
	return out, err
}

// payload is Payload in Claude Code's shape, with the client's names.
func (d *Dialect) payload(claude []byte) ([]byte, error) {
	out := claude
	var err error
	set := func(path string, v any) {
		if err == nil {
			out, err = sjson.SetBytes(out, path, v)
		}
	}
	del := func(path string) {
		if err == nil {
			out, err = sjson.DeleteBytes(out, path)
		}
	}
	if ev := gjson.GetBytes(out, "hook_event_name").Str; ev != "" {
		if n, ok := d.Event(event.Name(ev)); ok {
			set("hook_event_name", n)
		}
	}
	if p := gjson.GetBytes(out, "prompt"); d.PromptParts && p.Type == gjson.String {
		set("prompt", []map[string]string{{"type": "text", "text": p.Str}})
	}
	if e := gjson.GetBytes(out, "error"); d.ErrorObject && e.Type == gjson.String {
		set("error", map[string]any{"code": "internal", "message": e.Str, "retryable": false})
	}
	tool := gjson.GetBytes(out, "tool_name").Str
	if tool == "" {
		return out, err
	}
	input := gjson.GetBytes(out, "tool_input")
	if d.PatchWrites && (tool == "Write" || tool == "Edit") {
		// Codex writes files with apply_patch: {"command": the patch text}.
		set("tool_name", "apply_patch")
		set("tool_input", map[string]string{"command": patchText(tool, input)})
		return out, err
	}
	// In the input's own key order: the same payload, the same bytes.
	back := map[string]string{}
	for from, to := range d.Args[tool] {
		back[to] = from
	}
	input.ForEach(func(k, v gjson.Result) bool {
		if from, ok := back[k.Str]; ok {
			del("tool_input." + k.Str)
			if err == nil {
				out, err = sjson.SetRawBytes(out, "tool_input."+from, []byte(v.Raw))
			}
		}
		return true
	})
	if !d.ClaudeToolNames {
		if names := d.clientTools(tool); len(names) > 0 && names[0] != tool {
			set("tool_name", names[0])
		}
	}
	return out, err
}

// patchText is the apply_patch text of a Write (an added file) or an Edit (an updated one).
func patchText(tool string, input gjson.Result) string {
	path := input.Get("file_path").Str
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		// Codex takes a patch path as written (relative to cwd): name the file meant.
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, rest)
		}
	}
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	if tool == "Write" {
		b.WriteString("*** Add File: " + path + "\n")
		for line := range strings.Lines(input.Get("content").Str) {
			b.WriteString("+" + strings.TrimSuffix(line, "\n") + "\n")
		}
	} else {
		b.WriteString("*** Update File: " + path + "\n@@\n")
		for line := range strings.Lines(input.Get("old_string").Str) {
			b.WriteString("-" + strings.TrimSuffix(line, "\n") + "\n")
		}
		for line := range strings.Lines(input.Get("new_string").Str) {
			b.WriteString("+" + strings.TrimSuffix(line, "\n") + "\n")
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

// HookTimeout is how long the client lets a handler run, given its timeout field as written
// (set false when there is none).
func (d *Dialect) HookTimeout(v float64, set bool) time.Duration {
	switch {
	case d.Millis && (!set || v <= 0):
		return 60 * time.Second
	case d.Millis:
		return time.Duration(v * float64(time.Millisecond))
	case d.LegacyMillis && set && v >= 1000:
		return time.Duration(v * float64(time.Millisecond))
	case !set || v <= 0:
		return d.DefaultTimeout
	}
	return time.Duration(v * float64(time.Second))
}

// Reading is what the client makes of a hook's answer to a call.
type Reading struct {
	// Decision is "block" (the call or prompt is stopped), "ask" (the client asks the user:
	// it does not go through silently), or "allow" (it goes ahead).
	Decision string
	// Why says how the client read it.
	Why string
}

// Read reads a hook's answer (exit code, stdout, stderr) to event ev the way the client does.
func (d *Dialect) Read(ev event.Name, code int, stdout, stderr string) Reading {
	out, errText := strings.TrimSpace(stdout), strings.TrimSpace(stderr)
	if d.OnlyToolBlocks && ev != event.PreToolUse {
		return Reading{"allow", fmt.Sprintf("exit %d: only PreToolUse can block in %s", code, d.Name())}
	}
	if d.TopDecision {
		return d.readTop(ev, code, out, errText)
	}
	js := gjson.Result{}
	if strings.HasPrefix(out, "{") && gjson.Valid(out) {
		js = gjson.Parse(out)
	}
	if d.OnlyDeny {
		switch p := js.Get("hookSpecificOutput.permissionDecision").Str; {
		case code == 2:
			return Reading{"block", "exit 2"}
		case code != 0:
			return Reading{"allow", fmt.Sprintf("exit %d: a failed hook, the call runs", code)}
		case p == "deny":
			return Reading{"block", "permissionDecision deny"}
		case p != "":
			return Reading{"allow", "permissionDecision " + p + ", which " + d.Title + " does not honour: the call runs"}
		case js.Get("decision").Exists():
			return Reading{"allow", "a top-level decision, which " + d.Title + " ignores"}
		}
		return Reading{"allow", "exit 0 without a decision"}
	}
	if ev == event.UserPromptSubmit {
		switch {
		case js.Get("decision").Str == "block":
			return Reading{"block", `{"decision":"block"}`}
		case d.JSONPromptBlock && code == 2:
			return Reading{"allow", "exit 2, which " + d.Title + " ignores on a prompt"}
		case code == 2:
			return Reading{"block", "exit 2"}
		}
		return Reading{"allow", fmt.Sprintf("exit %d without a block", code)}
	}
	if code == 2 {
		if d.ReasonRequired && errText == "" {
			return Reading{"allow", "exit 2 with nothing on stderr: a failed hook, the call runs"}
		}
		return Reading{"block", "exit 2"}
	}
	if code != 0 {
		return Reading{"allow", fmt.Sprintf("exit %d: a failed hook, the call runs", code)}
	}
	switch p := js.Get("hookSpecificOutput.permissionDecision").Str; p {
	case "deny":
		if d.ReasonRequired && js.Get("hookSpecificOutput.permissionDecisionReason").Str == "" {
			return Reading{"allow", "a deny without a reason: a failed hook, the call runs"}
		}
		return Reading{"block", "permissionDecision deny"}
	case "ask", "defer":
		if d.NoAsk {
			return Reading{"allow", "permissionDecision " + p + ", which " + d.Title + " does not honour: the call runs"}
		}
		return Reading{"block", "permissionDecision " + p + ": denied, as no one can be asked headless"}
	case "":
		if js.Get("decision").Str == "block" {
			return Reading{"block", `{"decision":"block"}`}
		}
		return Reading{"allow", "exit 0 without a decision"}
	default:
		return Reading{"allow", "permissionDecision " + p}
	}
}

// readTop reads an answer whose decision is top-level (Gemini CLI's and its successors'): stdout,
// or stderr, as JSON first, then the exit code.
func (d *Dialect) readTop(ev event.Name, code int, out, errText string) Reading {
	text := out
	if text == "" {
		text = errText
	}
	if j := gjson.Parse(text); strings.HasPrefix(text, "{") && gjson.Valid(text) {
		switch dec := j.Get("decision").Str; {
		case dec == "deny" || dec == "block":
			return Reading{"block", "top-level decision: " + dec}
		case slices.Contains(d.TopAsks, dec):
			return Reading{"ask", "top-level decision: " + dec}
		case dec == "allow":
			return Reading{"allow", "top-level decision: allow"}
		case dec == "" && !d.TopAllow:
		case ev == event.PreToolUse && d.TopAllow:
			return Reading{"ask", fmt.Sprintf("top-level decision %q, which %s takes for a malformed answer: it asks", dec, d.Name())}
		}
		if code == 2 && d.ExitTwoDenies {
			return Reading{"block", "exit 2"}
		}
		if p := j.Get("hookSpecificOutput.permissionDecision").Str; p != "" {
			return Reading{"allow", fmt.Sprintf("hookSpecificOutput.permissionDecision %q, which %s ignores", p, d.Title)}
		}
		return Reading{"allow", fmt.Sprintf("JSON without a decision, exit %d", code)}
	}
	switch {
	case code >= 2 && !d.TopAllow:
		return Reading{"block", fmt.Sprintf("exit %d", code)}
	case ev == event.PreToolUse && d.TopAllow:
		return Reading{"ask", fmt.Sprintf("exit %d without a decision, which %s takes for a malformed answer: it asks", code, d.Name())}
	}
	return Reading{"allow", fmt.Sprintf("exit %d without a decision", code)}
}
