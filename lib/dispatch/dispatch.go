package dispatch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/lint"
)

// Handler is one command hook of a settings file.
type Handler struct {
	Command string
	// Callback, when set, is a Go function run instead of a command; Name names it.
	Callback Callback
	Name     string
	// If is a permission-rule filter ("Bash(git *)"), honoured on tool events only.
	If string
	// Args set means exec form (no shell); nil means shell form (sh -c).
	Args    []string
	Timeout time.Duration
	// TimeoutSet says the entry gave its own timeout (an event's default does not apply).
	TimeoutSet bool
	OnFailure  string
	// Source is the settings file it comes from; Matcher the group's matcher.
	Source, Matcher string
}

// Group is a matcher group.
type Group struct {
	Matcher string
	Hooks   []Handler
	// Source is the settings file the group is in.
	Source string
}

// Settings is the hooks of one or more settings files, by event, in the order the files were
// given (user, project, local: Claude Code runs the groups of every scope).
type Settings struct {
	Events map[string][]Group
}

// DefaultTimeout is a command hook's timeout when its entry sets none.
const DefaultTimeout = 600 * time.Second

// Load reads the hooks of the settings files that exist among paths.
func Load(paths ...string) (*Settings, error) {
	s := &Settings{Events: map[string][]Group{}}
	loaded := map[string]bool{}
	for _, p := range paths {
		// A file named twice (home is the project) is one scope.
		if abs, err := filepath.Abs(p); err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				abs = real
			}
			if loaded[abs] {
				continue
			}
			loaded[abs] = true
		}
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !gjson.ValidBytes(b) {
			return nil, fmt.Errorf("%s is not valid JSON", p)
		}
		gjson.GetBytes(b, "hooks").ForEach(func(ev, groups gjson.Result) bool {
			groups.ForEach(func(_, g gjson.Result) bool {
				grp := Group{Matcher: g.Get("matcher").Str, Source: p}
				g.Get("hooks").ForEach(func(_, h gjson.Result) bool {
					if t := h.Get("type").Str; t != "" && t != "command" {
						return true // http, prompt, agent and mcp_tool handlers are not run here
					}
					hd := Handler{Command: h.Get("command").Str, Timeout: DefaultTimeout, OnFailure: h.Get("onFailure").Str,
						Source: p, Matcher: grp.Matcher, If: h.Get("if").Str}
					if t := h.Get("timeout").Float(); t > 0 {
						hd.Timeout, hd.TimeoutSet = time.Duration(t*float64(time.Second)), true
					}
					if a := h.Get("args"); a.IsArray() {
						hd.Args = []string{}
						for _, x := range a.Array() {
							hd.Args = append(hd.Args, x.String())
						}
					}
					grp.Hooks = append(grp.Hooks, hd)
					return true
				})
				s.Events[ev.Str] = append(s.Events[ev.Str], grp)
				return true
			})
			return true
		})
	}
	return s, nil
}

// Match is a group chosen for a payload, and why.
type Match struct {
	Group
	Why string
}

// Select returns the groups of event ev that the payload matches, with the reason for each.
func (s *Settings) Select(ev string, payload []byte) []Match {
	spec, _ := event.Lookup(event.Name(ev))
	value, missing := "", false
	if spec.Matcher != "" {
		v := gjson.GetBytes(payload, spec.Matcher)
		value, missing = v.String(), !v.Exists()
	}
	var out []Match
	for i, g := range s.Events[ev] {
		ok, why := matches(event.Name(ev), spec, g.Matcher, value)
		if missing && ok {
			// The client always sends the field: a payload without it is a mistake of the
			// caller's, and only a group that matches every value may claim it.
			if kind, _ := lint.Classify(event.Name(ev), g.Matcher); kind != lint.All {
				ok = false
			} else {
				why += " (the payload has no " + spec.Matcher + ")"
			}
		}
		if ok {
			// The client lowers the default timeout of the first group on these events.
			if d, lower := firstGroupTimeout[ev]; lower && i == 0 {
				hs := append([]Handler(nil), g.Hooks...)
				for j := range hs {
					if !hs[j].TimeoutSet && hs[j].Callback == nil {
						hs[j].Timeout = d
					}
				}
				g.Hooks = hs
			}
			out = append(out, Match{g, why})
		}
	}
	return out
}

// firstGroupTimeout is the default timeout of the first group's handlers on the events where
// Claude Code lowers it (REFERENCE.md §2.3: UserPromptSubmit 30 s, MessageDisplay 10 s).
var firstGroupTimeout = map[string]time.Duration{"UserPromptSubmit": 30 * time.Second, "MessageDisplay": 10 * time.Second}

func matches(ev event.Name, spec event.Spec, m, value string) (bool, string) {
	kind, err := lint.Classify(ev, m)
	if err != nil {
		return false, ""
	}
	switch kind {
	case lint.All:
		if spec.Matcher == "" {
			return true, string(ev) + " takes no matcher: every group runs"
		}
		return true, fmt.Sprintf("matcher %q matches every %s", m, spec.Matcher)
	case lint.Exact:
		for _, n := range lint.Names(m) {
			if alias, ok := aliases[n]; n == value || spec.Matcher == "tool_name" && ok && alias == value {
				return true, fmt.Sprintf("%s %q is in the exact list %q", spec.Matcher, value, m)
			}
		}
		return false, ""
	}
	re, err := regexp2.Compile(m, regexp2.ECMAScript)
	if err != nil {
		return false, ""
	}
	re.MatchTimeout = time.Second
	if ok, _ := re.MatchString(value); ok {
		return true, fmt.Sprintf("%s %q matches the regular expression /%s/", spec.Matcher, value, m)
	}
	return false, ""
}

// aliases are the legacy tool names a matcher may still use for the renamed tools.
var aliases = map[string]string{"Task": "Agent", "KillShell": "TaskStop", "KillBash": "TaskStop", "ListPeers": "ListAgents",
	"Brief": "SendUserMessage", "ListMcpResources": "ListMcpResourcesTool", "ReadMcpResource": "ReadMcpResourceTool"}

// toolEvents are the events whose handlers' if filters are evaluated; elsewhere a handler with
// an if never runs.
var toolEvents = map[string]bool{"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true,
	"PermissionRequest": true, "PermissionDenied": true}

// ifMatches evaluates a handler's permission-rule filter: "Tool" or "Tool(pattern)", the
// pattern a glob (* for anything) over the Bash command (each subcommand, leading VAR=x
// stripped) or the file path of file tools. What cannot be read runs the hook (fail open).
func ifMatches(rule string, payload []byte) bool {
	tool := gjson.GetBytes(payload, "tool_name").Str
	name, pat, hasPat := strings.Cut(rule, "(")
	if name != tool && aliases[name] != tool {
		return false
	}
	if !hasPat {
		return true
	}
	pat = strings.TrimSuffix(pat, ")")
	in := gjson.GetBytes(payload, "tool_input")
	if tool == "Bash" {
		for _, sub := range splitCommand(in.Get("command").Str) {
			if glob(pat, sub) {
				return true
			}
		}
		return false
	}
	for _, k := range []string{"file_path", "notebook_path", "path", "url", "pattern"} {
		if v := in.Get(k); v.Exists() {
			return glob(pat, v.Str) || glob("**/"+strings.TrimPrefix(pat, "./"), v.Str)
		}
	}
	return true
}

// splitCommand splits a command on && || ; | and newlines, and strips leading VAR=x words.
func splitCommand(c string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(c, func(r rune) bool { return r == ';' || r == '&' || r == '|' || r == '\n' }) {
		f := strings.Fields(part)
		for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "=") {
			f = f[1:]
		}
		if len(f) > 0 {
			out = append(out, strings.Join(f, " "))
		}
	}
	return out
}

// glob matches s against a pattern where * is any run of characters (** too).
func glob(pat, s string) bool {
	re := "^" + regexp.QuoteMeta(pat) + "$"
	re = strings.ReplaceAll(re, `\*\*`, ".*")
	re = strings.ReplaceAll(re, `\*`, ".*")
	ok, _ := regexp.MatchString(re, s)
	return ok
}

// Env is the environment of a run: the payload's session and project, and the base
// environment (os.Environ() when nil).
type Env struct {
	Project, SessionID string
	Base               []string
	// Progress, when set, receives each hook's start, output and finish.
	Progress chan<- Progress
}

// Callback is a Go function registered as a hook: it gets the event and the payload and
// answers as a command would, with stdout and an exit code.
type Callback func(ctx context.Context, ev string, payload []byte) (stdout string, code int)

// Progress is one step of a hook's run: "started", "output" (its stdout and stderr), or
// "finished" with the outcome ("success", "error", "cancelled").
type Progress struct {
	Kind, Hook, Event string
	Stdout, Stderr    string
	Outcome           string
}

func (e Env) emit(ctx context.Context, p Progress) {
	if e.Progress == nil {
		return
	}
	select {
	case e.Progress <- p:
	case <-ctx.Done():
	}
}

// Result is one handler's run, as the client reads it.
type Result struct {
	Handler  Handler
	Code     int
	Stdout   string
	Stderr   string
	Took     time.Duration
	TimedOut bool
	// StartErr is set when the command could not be started.
	StartErr error
	// Async is set when the hook answered {"async": true} and was run again.
	Async   bool
	Outcome Outcome
}

// Outcome is what one result means for the action.
type Outcome struct {
	// Decision: "deny", "defer", "ask", "allow" (permission decisions), "block" (a blocking
	// exit 2, decision:block, or onFailure:block on a failure), or "" (no decision).
	Decision string
	Reason   string
	Context  string
	// Stop is continue:false with its reason.
	Stop          bool
	StopReason    string
	SystemMessage string
	UpdatedInput  []byte
	// Note says, for people, how the output was read.
	Note string
}

// Verdict is the aggregate over every result.
type Verdict struct {
	Decision string
	// Reasons are the reasons given for the decision that won: a deny's, or an ask's.
	Reasons      []string
	Context      string
	Stop         bool
	StopReason   string
	UpdatedInput []byte
	Results      []Result
}

// Blocked reports whether the action would not go ahead.
func (v Verdict) Blocked() bool { return v.Decision == "deny" || v.Decision == "block" || v.Stop }

// Run runs every handler of the matched groups once (identical handlers de-duplicated), in
// parallel, and aggregates their results.
func Run(ctx context.Context, ev string, payload []byte, groups []Match, env Env) Verdict {
	seen := map[string]bool{}
	var hs []Handler
	for _, g := range groups {
		for _, h := range g.Hooks {
			if h.If != "" && (!toolEvents[ev] || !ifMatches(h.If, payload)) {
				continue
			}
			key := h.Command + "\x00" + strings.Join(h.Args, "\x00") + fmt.Sprint(h.Args == nil) + "\x00" + h.Name
			if !seen[key] {
				seen[key] = true
				hs = append(hs, h)
			}
		}
	}
	results := make([]Result, len(hs))
	var wg sync.WaitGroup
	for i, h := range hs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runOne(ctx, ev, payload, h, env)
		}()
	}
	wg.Wait()
	return aggregate(ev, results)
}

func runOne(ctx context.Context, ev string, payload []byte, h Handler, env Env) Result {
	name := HookName(h)
	env.emit(ctx, Progress{Kind: "started", Hook: name, Event: ev})
	r := runOnce(ctx, ev, payload, h, env)
	// The two-phase async answer: {"async": true, "asyncTimeout": N} on the first line asks to
	// be run again with that timeout (seconds, 30 when unset) for the real answer.
	if first, _, _ := strings.Cut(strings.TrimSpace(r.Stdout), "\n"); r.Code == 0 && gjson.Get(first, "async").Bool() {
		h.Timeout = 30 * time.Second
		if t := gjson.Get(first, "asyncTimeout").Float(); t > 0 {
			h.Timeout = time.Duration(t * float64(time.Second))
		}
		r = runOnce(ctx, ev, payload, h, env)
		r.Async = true
	}
	if r.Stdout != "" || r.Stderr != "" {
		env.emit(ctx, Progress{Kind: "output", Hook: name, Event: ev, Stdout: r.Stdout, Stderr: r.Stderr})
	}
	outcome := "success"
	switch {
	case r.TimedOut:
		outcome = "cancelled"
	case r.Code != 0:
		outcome = "error"
	}
	env.emit(ctx, Progress{Kind: "finished", Hook: name, Event: ev, Outcome: outcome})
	return r
}

func runOnce(ctx context.Context, ev string, payload []byte, h Handler, env Env) Result {
	ctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	if h.Callback != nil {
		return runCallback(ctx, ev, payload, h)
	}
	var cmd *exec.Cmd
	if h.Args != nil {
		cmd = exec.CommandContext(ctx, h.Command, h.Args...)
	} else {
		cmd = exec.CommandContext(ctx, "sh", "-c", h.Command)
	}
	// Terminate first, kill if it does not go.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 2 * time.Second
	cmd.Dir = env.Project
	base := env.Base
	if base == nil {
		base = os.Environ()
	}
	cmd.Env = append(append([]string{}, base...), "CLAUDE_PROJECT_DIR="+env.Project, "CLAUDE_CODE_SESSION_ID="+env.SessionID,
		"VT_PROJECT_DIR="+env.Project, "VT_SESSION_ID="+env.SessionID, "VT_HOOK_EVENT="+ev)
	cmd.Stdin = bytes.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Result{Handler: h, Took: time.Since(start), Stdout: out.String(), Stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		r.TimedOut, r.Code = true, -1
	case errors.As(err, &ee):
		r.Code = ee.ExitCode()
	case err != nil:
		r.StartErr, r.Code = err, -1
	}
	r.Outcome = Read(ev, r)
	return r
}

// runCallback runs a Go hook within the handler's timeout; a panic is a failed hook.
func runCallback(ctx context.Context, ev string, payload []byte, h Handler) Result {
	type answer struct {
		out  string
		code int
	}
	done := make(chan answer, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- answer{"", -1}
			}
		}()
		out, code := h.Callback(ctx, ev, append([]byte(nil), payload...))
		done <- answer{out, code}
	}()
	r := Result{Handler: h}
	select {
	case a := <-done:
		r.Stdout, r.Code = a.out, a.code
		if a.code == -1 {
			r.StartErr = errors.New("the callback panicked")
		}
	case <-ctx.Done():
		r.TimedOut, r.Code = true, -1
	}
	r.Took = time.Since(start)
	r.Outcome = Read(ev, r)
	return r
}

// HookName is how a handler is shown: its name, or its program and arguments.
func HookName(h Handler) string {
	switch {
	case h.Name != "":
		return h.Name
	case h.Args != nil:
		return strings.TrimSpace(filepath.Base(h.Command) + " " + strings.Join(h.Args, " "))
	}
	return h.Command
}

// Read interprets one result as Claude Code 2.1.330 does for the event.
func Read(ev string, r Result) Outcome {
	spec, _ := event.Lookup(event.Name(ev))
	failed := func(what string) Outcome {
		if r.Handler.OnFailure == "block" && spec.Block != event.NoBlock && !noOnFailure[ev] {
			return Outcome{Decision: "block", Reason: what, Note: "onFailure: block"}
		}
		return Outcome{Note: what + ": a non-blocking error, the action goes ahead"}
	}
	switch {
	case r.TimedOut:
		return failed(fmt.Sprintf("timed out after %v", r.Handler.Timeout))
	case r.StartErr != nil:
		return failed("could not start: " + r.StartErr.Error())
	}
	if r.Code == 2 && (spec.Block == event.Blocks || spec.Block == event.Feedback) {
		return Outcome{Decision: "block", Reason: strings.TrimSpace(r.Stderr), Note: "exit 2: " + spec.Exit2}
	}
	out := strings.TrimSpace(r.Stdout)
	if strings.HasPrefix(out, "{") && !gjson.Valid(out) && r.Handler.OnFailure == "block" {
		return failed("printed JSON that does not parse")
	}
	if strings.HasPrefix(out, "{") && gjson.Valid(out) {
		o := readJSON(spec, gjson.Parse(out))
		if r.Code != 0 {
			o.Note = fmt.Sprintf("exit %d with a JSON answer: honoured as on exit 0", r.Code)
		}
		return o
	}
	if r.Code != 0 {
		if r.Code == 2 {
			return Outcome{Note: "exit 2 is ignored on " + ev}
		}
		return failed(fmt.Sprintf("exit %d", r.Code))
	}
	if out != "" && spec.PlainContext {
		return Outcome{Context: out, Note: "plain stdout: added to the model's context"}
	}
	if out != "" {
		return Outcome{Note: "plain stdout: debug log only"}
	}
	return Outcome{Note: "silent"}
}

// noOnFailure are the events where onFailure is ignored.
var noOnFailure = map[string]bool{"Stop": true, "SubagentStop": true, "TaskCompleted": true, "TeammateIdle": true}

// readJSON reads a JSON answer, mapping legacy forms (approve/block, The Harness's message,
// snake_case fields) to the current ones.
func readJSON(spec event.Spec, j gjson.Result) Outcome {
	get := func(paths ...string) gjson.Result {
		for _, p := range paths {
			if v := j.Get(p); v.Exists() {
				return v
			}
		}
		return gjson.Result{}
	}
	o := Outcome{Note: "JSON answer"}
	o.Context = get("hookSpecificOutput.additionalContext", "hook_specific_output.additional_context", "additional_context").Str
	o.SystemMessage = get("systemMessage", "system_message").Str
	if c := get("continue"); c.Exists() && !c.Bool() {
		o.Stop, o.StopReason = true, get("stopReason", "stop_reason").Str
	}
	if d := get("hookSpecificOutput.permissionDecision", "hook_specific_output.permission_decision", "permission_decision").Str; d != "" {
		o.Decision = d
		o.Reason = get("hookSpecificOutput.permissionDecisionReason", "hook_specific_output.permission_decision_reason", "permission_decision_reason").Str
		if u := get("hookSpecificOutput.updatedInput", "hook_specific_output.updated_input"); u.IsObject() {
			o.UpdatedInput = []byte(u.Raw)
		}
	}
	if b := get("hookSpecificOutput.decision.behavior").Str; b != "" {
		o.Decision, o.Reason = b, get("hookSpecificOutput.decision.message").Str
		if u := get("hookSpecificOutput.decision.updatedInput"); u.IsObject() {
			o.UpdatedInput = []byte(u.Raw)
		}
	}
	switch d := get("decision").Str; d {
	case "block":
		o.Decision = "block"
		o.Reason = get("reason", "message").Str
		if spec.Name == event.PreToolUse {
			o.Decision = "deny" // legacy PreToolUse form
		}
	case "approve":
		if spec.Name == event.PreToolUse && o.Decision == "" {
			o.Decision, o.Reason = "allow", get("reason").Str
		}
	}
	return o
}

var rank = map[string]int{"deny": 5, "block": 5, "defer": 4, "ask": 3, "allow": 2, "": 0}

func aggregate(ev string, rs []Result) Verdict {
	// Results in a stable order: by source, then command.
	sort.SliceStable(rs, func(i, j int) bool {
		return rs[i].Handler.Source+rs[i].Handler.Command < rs[j].Handler.Source+rs[j].Handler.Command
	})
	v := Verdict{Results: rs}
	var ctxs []string
	// Reasons by rank: the verdict carries those of the decision that won (an ask's reason
	// is what the user is shown).
	reasons := map[int][]string{}
	for _, r := range rs {
		o := r.Outcome
		if rank[o.Decision] > rank[v.Decision] {
			v.Decision = o.Decision
		}
		if o.Decision != "" && o.Reason != "" {
			reasons[rank[o.Decision]] = append(reasons[rank[o.Decision]], o.Reason)
		}
		if o.Context != "" {
			ctxs = append(ctxs, o.Context)
		}
		if o.Stop && !v.Stop {
			v.Stop, v.StopReason = true, o.StopReason
		}
		if o.UpdatedInput != nil && o.Decision == "allow" {
			v.UpdatedInput = o.UpdatedInput
		}
	}
	v.Reasons = reasons[rank[v.Decision]]
	if v.Decision == "block" && ev == string(event.PreToolUse) {
		v.Decision = "deny"
	}
	v.Context = strings.Join(ctxs, "\n")
	return v
}
