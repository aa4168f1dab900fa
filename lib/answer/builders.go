package answer

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/verdict"
)

// Answers that fit many events.

type blockAnswer struct {
	reason string
	tag    verdict.Tag
}

// Block blocks the event's action in the form every mode honours: exit 2 with the reason on
// stderr, prefixed with the hook's name; on PermissionRequest, which ignores exit 2, a JSON deny.
// On PostToolUse and PostToolUseFailure the call already ran: the reason is fed back to the model.
// Events that cannot be blocked refuse it.
func Block(reason string) Answer { return blockAnswer{reason: reason} }

// Guard answers a guard's ruling on a call, tagged with the rule that made it: Deny blocks as
// Block does; Ask asks the user (permissionDecision "ask" on PreToolUse and
// PreSkillShellCommand), the reason prefixed with the hook's name as a block's is; Allow is
// silence, never "allow", so the user's own permission rules and prompts still apply. The tag
// reaches the recorder in the reply, never the output.
func Guard(a verdict.Action, reason string, tag verdict.Tag) Answer {
	switch a {
	case verdict.Deny:
		return blockAnswer{reason, tag}
	case verdict.Ask:
		return PreToolUse{Decision: Ask, Reason: reason, Tag: tag, signed: true}
	}
	return nil
}

func (a blockAnswer) render(ev event.Name, hook string) (Reply, error) {
	msg := strings.TrimSpace(a.reason)
	if msg == "" {
		msg = "blocked"
	}
	if hook != "" {
		msg = hook + ": " + msg
	}
	spec, ok := event.Lookup(ev)
	exit2 := Reply{Stderr: msg + "\n", Code: Blocked, Decision: verdict.Denied, Reason: msg, Tag: a.tag}
	switch {
	case !ok:
		// An event newer than the table: exit 2 is the block every blockable event honours.
		return exit2, nil
	case spec.Block == event.Blocks || spec.Block == event.Feedback:
		return exit2, nil
	case spec.Block == event.JSONOnly:
		return PermissionRequest{Behavior: DenyRequest, Message: msg, tag: a.tag}.render(ev, hook)
	}
	return Reply{}, fmt.Errorf("%s cannot be blocked", ev)
}

type contextAnswer struct{ text string }

// Context adds text to the model's context (additionalContext) on the events that take it:
// SessionStart, Setup, UserPromptSubmit, UserPromptExpansion, PreToolUse, PostToolUse,
// PostToolUseFailure, PostToolBatch, SubagentStart, Stop, SubagentStop, PostModelSwitch.
// On Stop and SubagentStop it makes the conversation continue.
func Context(text string) Answer { return contextAnswer{text} }

func (a contextAnswer) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	if a.text == "" {
		d.fail("empty context")
	}
	d.context(a.text)
	return d.reply()
}

type endAnswer struct{ reason string }

// End ends Claude's processing after this hook ("continue": false); the reason is shown to the
// user, not the model. On PreToolUse the tool call itself still runs: use a deny to stop it.
func End(reason string) Answer { return endAnswer{reason} }

func (a endAnswer) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.common("", &Halt{a.reason})
	return d.reply()
}

type messageAnswer struct{ text string }

// Message shows a notice to the user (systemMessage); the model never sees it.
func Message(text string) Answer { return messageAnswer{text} }

func (a messageAnswer) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	if a.text == "" {
		d.fail("empty systemMessage")
	}
	d.common(a.text, nil)
	return d.reply()
}

type watchAnswer struct{ paths []string }

// Watch replaces the list of files FileChanged watches (CwdChanged, FileChanged). Paths must be absolute.
func Watch(paths ...string) Answer { return watchAnswer{paths} }

func (a watchAnswer) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.CwdChanged, event.FileChanged)
	d.watch(a.paths)
	return d.reply()
}

func (d *doc) watch(paths []string) {
	if paths == nil {
		return
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			d.fail("watch path %q is not absolute", p)
		}
	}
	d.specific("watchPaths", paths)
}

type displayAnswer struct{ text string }

// Display replaces what the user sees of an assistant message (MessageDisplay); the model and the
// transcript keep the original.
func Display(text string) Answer { return displayAnswer{text} }

func (a displayAnswer) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.MessageDisplay)
	d.specific("displayContent", a.text)
	return d.reply()
}

type worktreeAnswer struct{ path string }

// WorktreePath answers WorktreeCreate with the directory of the worktree the hook created: a
// command hook prints it as its last stdout line.
func WorktreePath(path string) Answer { return worktreeAnswer{path} }

func (a worktreeAnswer) render(ev event.Name, _ string) (Reply, error) {
	switch spec, _ := event.Lookup(ev); {
	case !spec.StdoutPath:
		return Reply{}, fmt.Errorf("a worktree path answers WorktreeCreate, not %s", ev)
	case a.path == "" || strings.ContainsAny(a.path, "\n\r"):
		return Reply{}, fmt.Errorf("WorktreeCreate answer: worktree path %q is not one line", a.path)
	case filepath.IsAbs(a.path) && filepath.Clean(a.path) != a.path:
		return Reply{}, fmt.Errorf("WorktreeCreate answer: %q has . or .. parts, which Claude Code refuses", a.path)
	}
	return Reply{Stdout: []byte(a.path + "\n")}, nil
}

// Answers for one event (or a pair that shares a shape).

// PreToolUse answers a tool call before it runs, and a skill's inline shell command
// (PreSkillShellCommand), which takes the same decisions: there deny, ask and defer all keep
// the command from running, and UpdatedInput and Context are refused (Claude Code blocks a
// changed command rather than run it, and takes no context there).
type PreToolUse struct {
	Decision Permission
	// Reason goes to the model on deny, to the user on allow and ask.
	Reason string
	// UpdatedInput replaces the whole tool input (a JSON object).
	UpdatedInput  []byte
	Context       string
	SystemMessage string
	Halt          *Halt
	// Tag names the rule behind the decision, for the record; it is never written.
	Tag verdict.Tag
	// signed prefixes the reason with the hook's name (Guard's ask).
	signed bool
}

func (a PreToolUse) render(ev event.Name, hook string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.PreToolUse, event.PreSkillShellCommand)
	if a.signed && hook != "" {
		a.Reason = hook + ": " + a.Reason
	}
	d.decision(a.Decision, a.Reason, Allow, Deny, Ask, Defer)
	d.decided.Tag = a.Tag
	if a.UpdatedInput != nil {
		d.specificRaw("updatedInput", a.UpdatedInput, "object")
	}
	d.context(a.Context)
	d.common(a.SystemMessage, a.Halt)
	return d.reply()
}

func (d *doc) decision(p Permission, reason string, allowed ...Permission) {
	if p == (Permission{}) {
		if reason != "" {
			d.fail("a reason without a decision")
		}
		return
	}
	ok := false
	for _, a := range allowed {
		ok = ok || a == p
	}
	if !ok {
		d.fail("%s does not take permissionDecision %q", d.ev, p.v)
	}
	d.specific("permissionDecision", p.v)
	if reason != "" {
		d.specific("permissionDecisionReason", reason)
	}
	d.decide(verdict.Decision(p.v), reason, verdict.Tag{})
}

// PreModelSwitch answers a model switch before it happens (allow, deny or ask).
type PreModelSwitch struct {
	Decision      Permission
	Reason        string
	SystemMessage string
	Halt          *Halt
}

func (a PreModelSwitch) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.PreModelSwitch)
	d.decision(a.Decision, a.Reason, Allow, Deny, Ask)
	d.common(a.SystemMessage, a.Halt)
	return d.reply()
}

// Behavior is a PermissionRequest verdict.
type Behavior struct{ v string }

var (
	AllowRequest = Behavior{"allow"}
	DenyRequest  = Behavior{"deny"}
)

// PermissionRequest answers a permission prompt; exit 2 means nothing there, only this denies.
type PermissionRequest struct {
	Behavior Behavior
	// With AllowRequest: the input to run instead (a JSON object), and permission updates to
	// apply (a JSON array of {type, ...} entries as in permission_suggestions).
	UpdatedInput       []byte
	UpdatedPermissions []byte
	// With DenyRequest: the message the model gets, and whether to stop Claude as well.
	Message       string
	Interrupt     bool
	SystemMessage string
	Halt          *Halt
	// tag names the rule behind a guard's deny (Guard, on PermissionRequest).
	tag verdict.Tag
}

func (a PermissionRequest) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.PermissionRequest)
	switch a.Behavior {
	case AllowRequest:
		if a.Message != "" || a.Interrupt {
			d.fail("message and interrupt go with deny")
		}
		d.specific("decision.behavior", "allow")
		d.decide(verdict.Allowed, "", verdict.Tag{})
		if a.UpdatedInput != nil {
			d.setRaw("hookSpecificOutput.decision.updatedInput", a.UpdatedInput, "object")
		}
		if a.UpdatedPermissions != nil {
			d.setRaw("hookSpecificOutput.decision.updatedPermissions", a.UpdatedPermissions, "array")
		}
	case DenyRequest:
		if a.UpdatedInput != nil || a.UpdatedPermissions != nil {
			d.fail("updatedInput and updatedPermissions go with allow")
		}
		d.specific("decision.behavior", "deny")
		if a.Message != "" {
			d.set("hookSpecificOutput.decision.message", a.Message)
		}
		d.decide(verdict.Denied, a.Message, a.tag)
		if a.Interrupt {
			d.set("hookSpecificOutput.decision.interrupt", true)
		}
	default:
		d.fail("a decision needs a behavior (AllowRequest or DenyRequest)")
	}
	d.common(a.SystemMessage, a.Halt)
	return d.reply()
}

// PermissionDenied answers an auto-mode denial; Retry tells the model it may try again.
type PermissionDenied struct {
	Retry         bool
	SystemMessage string
	Halt          *Halt
}

func (a PermissionDenied) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.PermissionDenied)
	if a.Retry {
		d.specific("retry", true)
	}
	d.common(a.SystemMessage, a.Halt)
	return d.reply()
}

// PostToolUse answers a tool call that succeeded.
type PostToolUse struct {
	// Block feeds a reason back to the model (decision:block); the call already ran.
	Block   string
	Context string
	// UpdatedToolOutput replaces what the model sees of the tool's output (any JSON value; for
	// built-in tools it must match the tool's output shape or Claude Code ignores it).
	UpdatedToolOutput []byte
	// ClassifierContext informs the auto-mode classifier (at most 2,000 UTF-16 units).
	ClassifierContext string
	SystemMessage     string
	Halt              *Halt
}

func (a PostToolUse) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.PostToolUse)
	d.block(a.Block)
	d.context(a.Context)
	if a.UpdatedToolOutput != nil {
		d.specificRaw("updatedToolOutput", a.UpdatedToolOutput, "any")
	}
	if a.ClassifierContext != "" {
		if n := utf16Len(a.ClassifierContext); n > 2000 {
			d.fail("classifierContext is %d UTF-16 units, over 2,000", n)
		}
		d.specific("classifierContext", a.ClassifierContext)
	}
	d.common(a.SystemMessage, a.Halt)
	return d.reply()
}

// Feedback answers the events whose JSON can only block with a reason and add context:
// PostToolUseFailure, PostToolBatch, Stop and SubagentStop. On Stop and SubagentStop, Block keeps
// the agent working with the reason as its next instruction: check stop_hook_active first.
type Feedback struct {
	Block         string
	Context       string
	SystemMessage string
	Halt          *Halt
}

func (a Feedback) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.PostToolUseFailure, event.PostToolBatch, event.Stop, event.SubagentStop)
	d.block(a.Block)
	d.context(a.Context)
	d.common(a.SystemMessage, a.Halt)
	return d.reply()
}

// Prompt answers UserPromptSubmit and UserPromptExpansion.
type Prompt struct {
	// Block stops the prompt before the model sees it; the reason is shown to the user.
	Block   string
	Context string
	// SessionTitle names the session (UserPromptSubmit only).
	SessionTitle           string
	SuppressOriginalPrompt bool
	SystemMessage          string
	Halt                   *Halt
}

func (a Prompt) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.UserPromptSubmit, event.UserPromptExpansion)
	d.block(a.Block)
	d.context(a.Context)
	if a.SessionTitle != "" {
		d.specific("sessionTitle", a.SessionTitle)
	}
	if a.SuppressOriginalPrompt {
		d.specific("suppressOriginalPrompt", true)
	}
	d.common(a.SystemMessage, a.Halt)
	return d.reply()
}

// SessionStart answers the start (or resume, clear, compact, fork) of a session.
type SessionStart struct {
	Context string
	// InitialUserMessage becomes the first turn in headless (-p) mode.
	InitialUserMessage string
	// SessionTitle applies on startup, resume and fork.
	SessionTitle string
	// WatchPaths are absolute paths FileChanged hooks should watch.
	WatchPaths    []string
	ReloadSkills  bool
	SystemMessage string
	Halt          *Halt
}

func (a SessionStart) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.SessionStart)
	d.context(a.Context)
	if a.InitialUserMessage != "" {
		d.specific("initialUserMessage", a.InitialUserMessage)
	}
	if a.SessionTitle != "" {
		d.specific("sessionTitle", a.SessionTitle)
	}
	d.watch(a.WatchPaths)
	if a.ReloadSkills {
		d.specific("reloadSkills", true)
	}
	d.common(a.SystemMessage, a.Halt)
	return d.reply()
}

// Action is an answer to an MCP elicitation.
type Action struct{ v string }

var (
	Accept  = Action{"accept"}
	Decline = Action{"decline"}
	Cancel  = Action{"cancel"}
)

// Elicitation answers Elicitation (in the user's place) and ElicitationResult (overriding the user).
type Elicitation struct {
	Action Action
	// Content is the form's answer, a JSON object (with Accept).
	Content []byte
}

func (a Elicitation) render(ev event.Name, _ string) (Reply, error) {
	d := newDoc(ev)
	d.only(event.Elicitation, event.ElicitationResult)
	if a.Action == (Action{}) {
		d.fail("an elicitation answer needs an action")
	}
	d.specific("action", a.Action.v)
	if a.Content != nil {
		if a.Action != Accept {
			d.fail("content goes with accept")
		}
		d.specificRaw("content", a.Content, "object")
	}
	return d.reply()
}

type compactAnswer struct{ text string }

// CompactInstructions adds text to the instructions of a compaction (PreCompact): Claude Code
// 2.1.330 appends a PreCompact hook's plain stdout to the summary prompt, after the user's own
// /compact instructions (seen in the real client's requests).
func CompactInstructions(text string) Answer { return compactAnswer{text} }

func (a compactAnswer) render(ev event.Name, _ string) (Reply, error) {
	if ev != event.PreCompact {
		return Reply{}, fmt.Errorf("%s answer: compaction instructions are for PreCompact", ev)
	}
	t := strings.TrimSpace(a.text)
	switch {
	case t == "":
		return Reply{}, fmt.Errorf("PreCompact answer: empty compaction instructions")
	case strings.HasPrefix(t, "{"):
		// Stdout starting with { is read as JSON: the instructions would be lost.
		return Reply{}, fmt.Errorf("PreCompact answer: compaction instructions may not start with {")
	}
	return Reply{Stdout: []byte(t + "\n")}, nil
}
