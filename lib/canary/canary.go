package canary

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/dispatch"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/settings"
)

// Case is one canary payload and the verdict a working guard gives it.
type Case struct {
	Name    string
	Event   string
	Payload string // JSON with {{PROJECT}} for the scratch project folder, {{HOME}} for the user's home
	// Want is "stop" (deny, ask or block: the call does not go through silently) or "silent".
	Want string
}

// Cases are the canaries of the harness's own guards, by hook name and event.
var Cases = map[string][]Case{
	"SecurityValidator": {
		{Name: "rm -rf ~", Event: "PreToolUse", Want: "stop",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~"},"tool_use_id":"canary-1"}`},
		{Name: "chmod -R 777 ./build", Event: "PreToolUse", Want: "stop",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"chmod -R 777 ./build"},"tool_use_id":"canary-7"}`},
		{Name: "ls -la", Event: "PreToolUse", Want: "silent",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"},"tool_use_id":"canary-2"}`},
		// A skill's inline command, which no PreToolUse hook sees.
		{Name: "skill runs git reset --hard", Event: "PreSkillShellCommand", Want: "stop",
			Payload: skill(`git reset --hard`, 8)},
		{Name: "skill runs git status", Event: "PreSkillShellCommand", Want: "silent",
			Payload: skill(`git status`, 9)},
	},
	"WriteProtector": {
		{Name: "write ~/.ssh/id_rsa", Event: "PreToolUse", Want: "stop",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"~/.ssh/id_rsa","content":"x"},"tool_use_id":"canary-3"}`},
		{Name: "write a project file", Event: "PreToolUse", Want: "silent",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"{{PROJECT}}/notes.txt","content":"x"},"tool_use_id":"canary-4"}`},
		// The read route: a key's content would go to the model and its provider.
		{Name: "read ~/.ssh/id_canary", Event: "PreToolUse", Want: "stop",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"{{HOME}}/.ssh/id_canary"},"tool_use_id":"canary-14"}`},
		{Name: "read a project file", Event: "PreToolUse", Want: "silent",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"{{PROJECT}}/notes.txt"},"tool_use_id":"canary-15"}`},
		{Name: "skill writes ~/.ssh/authorized_keys", Event: "PreSkillShellCommand", Want: "stop",
			Payload: skill(`echo ssh-ed25519 AAAA >> ~/.ssh/authorized_keys`, 10)},
		{Name: "skill writes a project file", Event: "PreSkillShellCommand", Want: "silent",
			Payload: skill(`echo x > notes.txt`, 11)},
	},
	"SecretGuard": {
		{Name: "command with a literal token", Event: "PreToolUse", Want: "stop",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"curl -H 'Authorization: token ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde' https://api.github.com/user"},"tool_use_id":"canary-5"}`},
		{Name: "command with a variable", Event: "PreToolUse", Want: "silent",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"curl -H \"Authorization: token $GITHUB_TOKEN\" https://api.github.com/user"},"tool_use_id":"canary-6"}`},
		{Name: "skill command with a literal token", Event: "PreSkillShellCommand", Want: "stop",
			Payload: skill(`curl -H 'Authorization: token ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde' https://api.github.com/user`, 12)},
		{Name: "skill command with a variable", Event: "PreSkillShellCommand", Want: "silent",
			Payload: skill(`curl -H \"Authorization: token $GITHUB_TOKEN\" https://api.github.com/user`, 13)},
		{Name: "prompt with a key", Event: "UserPromptSubmit", Want: "stop",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"UserPromptSubmit","prompt":"deploy with ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde"}`},
		{Name: "plain prompt", Event: "UserPromptSubmit", Want: "silent",
			Payload: `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"UserPromptSubmit","prompt":"list the files"}`},
	},
}

// skill is the payload of a skill's inline shell command (!`command`), as Claude Code 2.1.332
// sends it; command is JSON-escaped already.
func skill(command string, n int) string {
	return `{"session_id":"canary","cwd":"{{PROJECT}}","hook_event_name":"PreSkillShellCommand","tool_name":"Bash","tool_input":{"command":"` +
		command + `"},"tool_use_id":"canary:inner:preamble-` + strconv.Itoa(n) + `","command_name":"canary","command_source":"projectSettings","invoked_by":"user"}`
}

// Result is one canary run.
type Result struct {
	Case Case
	// Got is what Claude Code would do: "deny", "ask", "defer", "block", "silent", or "allow".
	Got  string
	Took time.Duration
	// Problem is why the guard failed the canary ("" when it passed).
	Problem string
	// How says how another client read the answer.
	How string
}

// OK says whether the guard answered as a working guard does.
func (r Result) OK() bool { return r.Problem == "" }

// Run runs one case against the program with its arguments, within timeout, with project as
// the scratch project folder, through lib/dispatch: run and read exactly as Claude Code would
// (onFailure is not assumed: a guard must answer on its own). The payloads' session id is
// "canary", which the guards do not record (lib/audit.Verdict): a canary is not a tool call.
func Run(program string, args []string, timeout time.Duration, project string, c Case) Result {
	payload := fill(c.Payload, project)
	h := dispatch.Handler{Command: program, Args: append([]string{}, args...), Timeout: timeout}
	v := dispatch.Run(context.Background(), c.Event, []byte(payload), []dispatch.Match{{Group: dispatch.Group{Hooks: []dispatch.Handler{h}}}},
		dispatch.Env{Project: project, SessionID: "canary", Base: os.Environ()})
	out := v.Results[0]
	r := Result{Case: c, Took: out.Took, Got: out.Outcome.Decision}
	if r.Got == "" {
		r.Got = "silent"
	}
	switch {
	case out.TimedOut:
		r.Got, r.Problem = "allow", fmt.Sprintf("no answer within its %v timeout: Claude Code lets the call through", timeout)
	case out.StartErr != nil:
		r.Got, r.Problem = "allow", "does not start: "+out.StartErr.Error()
	case len(answer.Check(event.Name(c.Event), out.Code, []byte(out.Stdout))) > 0:
		r.Problem = fmt.Sprintf("printed output Claude Code cannot use (exit %d): %s", out.Code,
			strings.Join(answer.Check(event.Name(c.Event), out.Code, []byte(out.Stdout)), "; "))
	case c.Want == "stop" && (r.Got == "silent" || r.Got == "allow"):
		r.Problem = fmt.Sprintf("let a dangerous call through (%s, exit %d)", r.Got, out.Code)
	case c.Want == "silent" && r.Got != "silent":
		r.Problem = fmt.Sprintf("did not stay silent on a safe call: %s (exit %d) %.200s", r.Got, out.Code,
			strings.TrimSpace(out.Stdout+" "+out.Stderr))
	}
	return r
}

// Fill is a case's payload for the scratch project folder, as Run sends it.
func Fill(payload, project string) string { return fill(payload, project) }

// fill puts the scratch project and the user's home into a payload, JSON-escaped. The home is
// spelled out, as Claude Code spells out every path it sends; the guard runs with the same HOME.
func fill(payload, project string) string {
	home, _ := os.UserHomeDir()
	esc := func(s string) string { b, _ := json.Marshal(s); return string(b[1 : len(b)-1]) }
	return strings.NewReplacer("{{PROJECT}}", esc(project), "{{HOME}}", esc(home)).Replace(payload)
}

// Scratch makes the project folder the canaries run in.
func Scratch() (string, func(), error) {
	dir, err := os.MkdirTemp("", "harness-canary-")
	if err != nil {
		return "", nil, err
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	return real, func() { os.RemoveAll(dir) }, nil
}

// Handler is one hook handler the installer wrote, as its client will run it.
type Handler struct {
	File, Hook, Event string
	Program           string
	Args              []string
	Timeout           time.Duration
	// URL is the address of an HTTP hook (serve mode), which no program runs.
	URL string
	// Client is the client that runs it; nil for Claude Code. For another client, Event is
	// the Claude Code event and ClientEvent the client's name for it, and Command, Matcher and
	// TimeoutText are as written in the client's file.
	Client                                     *dialect.Dialect
	ClientEvent, Command, Matcher, TimeoutText string
}

// Check runs one case against an installed handler the way its client runs it, within timeout.
func Check(h Handler, timeout time.Duration, project string, c Case) Result {
	if h.Client == nil {
		return Run(h.Program, h.Args, timeout, project, c)
	}
	return runClient(h, timeout, project, c)
}

// runClient runs a case as another client does: the payload in the client's shape, the group
// chosen by the client's reading of the matcher, the command line as written, through a
// shell, within the timeout as the client reads it, and the answer read as the client reads
// it (an ask such a client runs anyway is not a stop).
func runClient(h Handler, timeout time.Duration, project string, c Case) Result {
	d := h.Client
	r := Result{Case: c, Got: "allow"}
	payload, err := d.Payload([]byte(fill(c.Payload, project)))
	if err != nil {
		r.Problem = "the canary cannot be put in " + d.Title + "'s shape: " + err.Error()
		return r
	}
	if tool := d.PayloadTool(payload); tool != "" && !d.Selects(h.Matcher, tool) {
		r.Got, r.How = "silent", fmt.Sprintf("the matcher %q does not select %s", h.Matcher, tool)
		if c.Want == "stop" {
			r.Problem = fmt.Sprintf("never runs for this call: its matcher %q does not select %s's tool %s", h.Matcher, d.Title, tool)
		}
		return r
	}
	hd := dispatch.Handler{Command: h.Command, Timeout: timeout}
	v := dispatch.Run(context.Background(), h.ClientEvent, payload, []dispatch.Match{{Group: dispatch.Group{Hooks: []dispatch.Handler{hd}}}},
		dispatch.Env{Project: project, SessionID: "canary", Base: os.Environ()})
	out := v.Results[0]
	r.Took = out.Took
	switch {
	case out.TimedOut:
		r.Problem = fmt.Sprintf("no answer within its timeout (%q as %s reads it: %v): %s lets the call through", h.TimeoutText, d.Title, timeout, d.Title)
		return r
	case out.StartErr != nil:
		r.Problem = "does not start: " + out.StartErr.Error()
		return r
	}
	rd := d.Read(event.Name(c.Event), out.Code, out.Stdout, out.Stderr)
	r.Got, r.How = rd.Decision, rd.Why
	if r.Got == "allow" && out.Code == 0 && strings.TrimSpace(out.Stdout) == "" {
		r.Got = "silent"
	}
	secs := installedSecs(h.Args)
	switch {
	case c.Want == "stop" && secs > 0 && h.Timeout < time.Duration(secs)*time.Second:
		// It answered in time here, by luck: the client kills it before its own deadline.
		r.Problem = fmt.Sprintf("%s gives it %v (%q), less than the %ds it is installed to answer in: killed before it answers, the call runs",
			d.Title, h.Timeout, h.TimeoutText, secs)
	case c.Want == "stop" && (r.Got == "silent" || r.Got == "allow"):
		r.Problem = fmt.Sprintf("let a dangerous call through (%s reads %s)", d.Title, rd.Why)
	case c.Want == "silent" && r.Got != "silent" && r.Got != "allow":
		r.Problem = fmt.Sprintf("did not stay silent on a safe call: %s (%s) %.200s", r.Got, rd.Why, strings.TrimSpace(out.Stdout+" "+out.Stderr))
	}
	return r
}

// Installed lists the handlers recorded in the installer's manifest.
func Installed(harnessHome string) ([]Handler, error) {
	m, err := settings.LoadManifest(harnessHome)
	if err != nil {
		return nil, err
	}
	var hs []Handler
	for _, rec := range m.Files {
		if rec.Client != "" {
			d, err := dialect.Lookup(rec.Client)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", rec.Path, err)
			}
			if !d.Identity {
				hs = append(hs, clientHandlers(rec, d)...)
				continue
			}
		}
		for _, e := range rec.Entries {
			h := gjson.GetBytes(e.Group, "hooks.0")
			in := Handler{File: rec.Path, Hook: e.Hook, Event: e.Event, Timeout: 60 * time.Second}
			if t := h.Get("timeout").Int(); t > 0 {
				in.Timeout = time.Duration(t) * time.Second
			}
			cmd := h.Get("command").Str
			if h.Get("type").Str == "http" {
				in.URL = h.Get("url").Str
			} else if h.Get("args").Exists() {
				in.Program = cmd
				for _, a := range h.Get("args").Array() {
					in.Args = append(in.Args, a.Str)
				}
			} else {
				in.Program = settings.Program(cmd)
				if rest, ok := strings.CutPrefix(cmd, settings.ShellQuote(in.Program)); ok {
					in.Args = strings.Fields(rest)
				}
			}
			hs = append(hs, in)
		}
	}
	return hs, nil
}

// installedSecs is the --timeout=N a handler's command gives the hook (0 when none).
func installedSecs(args []string) int {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--timeout="); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}

// clientHandlers lists the handlers of another client's file as written there (an entry the
// user edited is found by its command), or as installed when the file cannot be read.
func clientHandlers(rec *settings.Record, d *dialect.Dialect) []Handler {
	var raw []byte
	if f, err := settings.Read(rec.Path); err == nil {
		raw = f.Raw
	}
	var hs []Handler
	for _, e := range rec.Entries {
		g := gjson.ParseBytes(e.Group)
		if i := settings.Locate(raw, e); i >= 0 {
			g = gjson.GetBytes(raw, fmt.Sprintf("hooks.%s.%d", escape(e.Event), i))
		}
		hd := g.Get("hooks.0")
		t := hd.Get("timeout")
		cmd := hd.Get("command").Str
		in := Handler{File: rec.Path, Hook: e.Hook, Event: string(d.ClaudeEvent(e.Event)), ClientEvent: e.Event,
			Client: d, Command: cmd, Matcher: g.Get("matcher").Str, Program: settings.Program(cmd),
			Timeout: d.HookTimeout(t.Float(), t.Exists()), TimeoutText: "no timeout"}
		if t.Exists() {
			in.TimeoutText = "timeout " + t.Raw
		}
		if rest, ok := strings.CutPrefix(cmd, settings.ShellQuote(in.Program)); ok {
			in.Args = strings.Fields(rest)
		}
		hs = append(hs, in)
	}
	return hs
}

// escape protects the gjson path characters in an event name.
func escape(key string) string {
	return strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`, "|", `\|`, "#", `\#`, "@", `\@`).Replace(key)
}

// Guards runs every canary of every guard handler installed for this user (settings.Homes: the
// user's install, the managed one, the one the caller belongs to) in parallel, each within the
// smaller of its handler's timeout and limit, and returns the failures ("" entries dropped):
// what LoadContext warns about at the start of a session.
func Guards(harnessHome string, limit time.Duration) ([]string, error) {
	var hs []Handler
	for _, home := range settings.Homes(harnessHome, settings.Prefix()) {
		got, err := Installed(home)
		if err != nil {
			return nil, err
		}
		hs = append(hs, got...)
	}
	project, done, err := Scratch()
	if err != nil {
		return nil, err
	}
	defer done()
	type job struct {
		h Handler
		c Case
	}
	var jobs []job
	for _, h := range hs {
		if h.URL != "" {
			continue // serve mode's HTTP hook: serve-register checks the server at the start, doctor its canaries
		}
		for _, c := range Cases[h.Hook] {
			if c.Event == h.Event {
				jobs = append(jobs, job{h, c})
			}
		}
	}
	out := make([]string, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := min(j.h.Timeout, limit)
			r := Check(j.h, t, project, j.c)
			if !r.OK() {
				// Where it fails, said whole: the session may be another client's, whose
				// guards are fine.
				where := "Claude Code's " + j.h.File
				if j.h.Client != nil {
					where = j.h.Client.Title + "'s " + j.h.File
				}
				out[i] = fmt.Sprintf("%s on %s in %s (%s): %s", j.h.Hook, j.h.Event, where, j.c.Name, r.Problem)
			}
		}()
	}
	wg.Wait()
	var fails []string
	for _, f := range out {
		if f != "" {
			fails = append(fails, f)
		}
	}
	return fails, nil
}
