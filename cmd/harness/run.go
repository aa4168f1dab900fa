package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/dispatch"
	"github.com/hookkit/harness/lib/event"
)

var runCommand = &cli.Command{
	Name:      "run",
	Usage:     "fire an event at the hooks of your settings and show what Claude Code would do",
	ArgsUsage: "EVENT",
	Description: "Reads the settings Claude Code would (user, project, local; or --settings), picks the matcher\n" +
		"groups the payload matches and says why, runs every matching hook in parallel with its timeout,\n" +
		"and prints each hook's exit code, time, answer and stderr, then the aggregated verdict.\n" +
		"The payload comes from --payload FILE (- for stdin), from stdin when it is piped, or is built\n" +
		"from --tool and --input; a payload without the field the event's matcher reads (tool_name,\n" +
		"source, ...) matches only the groups whose matcher is * or empty.\n\n" +
		"Exit status: 0 the action goes ahead; 1 a hook failed (timed out, did not start, exited\n" +
		"non-zero without blocking) and the action goes ahead; 2 the action would be blocked;\n" +
		"3 the user would be asked; 64 usage error (arguments, event, payload or settings).",
	Flags: []cli.Flag{
		&cli.StringSliceFlag{Name: "settings", Usage: "settings `FILE`s, in scope order (default: ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json)"},
		&cli.StringFlag{Name: "payload", Usage: "the payload `FILE` (- for stdin)"},
		&cli.StringFlag{Name: "tool", Usage: "build a tool event's payload for this tool `NAME`"},
		&cli.StringFlag{Name: "input", Value: "{}", Usage: "the tool input, a JSON object"},
		&cli.StringFlag{Name: "project", Usage: "the project `DIR` (default: the current folder)"},
		&cli.BoolFlag{Name: "json", Usage: "print the results as JSON"},
	},
	OnUsageError: func(_ *cli.Context, err error, _ bool) error {
		return cli.Exit("harness run: "+err.Error(), exitUsage)
	},
	Action: runEvent,
}

// The exit statuses of harness run, distinct so that a script can tell them apart.
const (
	exitHookFailed = 1
	exitBlocked    = 2
	exitAsk        = 3
	exitUsage      = 64 // sysexits' EX_USAGE
)

func runEvent(c *cli.Context) error {
	if c.NArg() != 1 {
		return cli.Exit("harness run: give one event name (harness events lists them)", exitUsage)
	}
	ev := c.Args().First()
	spec, ok := event.Lookup(event.Name(ev))
	if !ok {
		return cli.Exit(fmt.Sprintf("harness run: %q is not an event of Claude Code %s (harness events lists them)%s", ev, event.Client, didYouMean(ev, eventNames())), exitUsage)
	}
	project := c.String("project")
	if project == "" {
		project, _ = os.Getwd()
	}
	project, _ = filepath.Abs(project)
	files := c.StringSlice("settings")
	if len(files) == 0 {
		home, _ := os.UserHomeDir()
		files = []string{filepath.Join(home, ".claude", "settings.json"), filepath.Join(project, ".claude", "settings.json"),
			filepath.Join(project, ".claude", "settings.local.json")}
	}
	payload, err := buildPayload(c, ev, project)
	if err != nil {
		return cli.Exit("harness run: "+err.Error(), exitUsage)
	}
	if spec.Matcher != "" && !gjson.GetBytes(payload, spec.Matcher).Exists() {
		fmt.Fprintf(c.App.ErrWriter, "harness run: the payload has no %q: only groups with matcher * or empty can match\n", spec.Matcher)
	}
	s, err := dispatch.Load(files...)
	if err != nil {
		return cli.Exit("harness run: "+err.Error(), exitUsage)
	}
	groups := s.Select(ev, payload)
	v := dispatch.Run(context.Background(), ev, payload, groups, dispatch.Env{Project: project, SessionID: gjson.GetBytes(payload, "session_id").Str})
	if c.Bool("json") {
		printRunJSON(c.App.Writer, ev, groups, v)
	} else {
		printRun(c.App.Writer, ev, spec, payload, groups, v, termWidth())
	}
	switch {
	case v.Blocked():
		return cli.Exit("", exitBlocked)
	case v.Decision == "ask":
		return cli.Exit("", exitAsk)
	}
	for _, r := range v.Results {
		if failed(r) {
			return cli.Exit("", exitHookFailed)
		}
	}
	return nil
}

// failed reports a hook that did not do its job: timed out, did not start, or exited with
// neither 0 nor the blocking 2.
func failed(r dispatch.Result) bool {
	return r.TimedOut || r.StartErr != nil || r.Code != 0 && r.Code != 2
}

// termWidth is the width rows are cut to: $COLUMNS, else 100.
func termWidth() int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n >= 40 {
		return n
	}
	return 100
}

// buildPayload reads the payload, or builds one with the fields the real client sends.
func buildPayload(c *cli.Context, ev, project string) ([]byte, error) {
	var b []byte
	var err error
	switch p := c.String("payload"); {
	case p == "-":
		b, err = io.ReadAll(c.App.Reader)
	case p != "":
		b, err = os.ReadFile(p)
	case c.String("tool") == "" && piped(c.App.Reader):
		if b, err = io.ReadAll(c.App.Reader); err == nil && len(bytes.TrimSpace(b)) == 0 {
			b = defaultPayload(ev, project) // an empty pipe, as from a script or CI
		}
	case c.String("tool") != "":
		in := c.String("input")
		if !gjson.Valid(in) || !gjson.Parse(in).IsObject() {
			return nil, fmt.Errorf("--input must be a JSON object: %s", in)
		}
		o := `{}`
		for _, kv := range []struct{ k, v string }{{"session_id", "harness-run"}, {"transcript_path", ""}, {"cwd", project},
			{"permission_mode", "default"}, {"hook_event_name", ev}, {"tool_name", c.String("tool")}} {
			o, _ = sjson.Set(o, kv.k, kv.v)
		}
		o, _ = sjson.SetRaw(o, "tool_input", in)
		o, _ = sjson.Set(o, "tool_use_id", "toolu_harness_run")
		return []byte(o), nil
	default:
		b = defaultPayload(ev, project)
	}
	if err != nil {
		return nil, err
	}
	if !gjson.ValidBytes(b) || !gjson.ParseBytes(b).IsObject() {
		return nil, fmt.Errorf("the payload is not a JSON object")
	}
	if got := gjson.GetBytes(b, "hook_event_name").Str; got != ev {
		b, _ = sjson.SetBytes(b, "hook_event_name", ev)
	}
	return b, nil
}

// defaultPayload is the payload of an event given nothing else: the fields every event has.
func defaultPayload(ev, project string) []byte {
	return []byte(fmt.Sprintf(`{"session_id":"harness-run","transcript_path":"","cwd":%q,"hook_event_name":%q}`, project, ev))
}

// piped reports stdin that is a pipe or a file, not a terminal or /dev/null.
func piped(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return r != nil
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice == 0
}

func printRun(w io.Writer, ev string, spec event.Spec, payload []byte, groups []dispatch.Match, v dispatch.Verdict, width int) {
	if spec.Matcher != "" {
		fmt.Fprintf(w, "%s, %s %q\n", ev, spec.Matcher, gjson.GetBytes(payload, spec.Matcher).String())
	} else {
		fmt.Fprintf(w, "%s\n", ev)
	}
	if len(groups) == 0 {
		fmt.Fprintln(w, "no matcher group matches: no hook runs")
	}
	for _, g := range groups {
		fmt.Fprintf(w, "group %q in %s: %s\n", g.Matcher, g.Source, g.Why)
	}
	// One row per hook, cut to the terminal's width; stderr, when it says more than the
	// answer, on an indented row of its own.
	hookW := len("HOOK")
	for _, r := range v.Results {
		hookW = max(hookW, min(28, len([]rune(dispatch.HookName(r.Handler)))))
	}
	row := func(hook, exit, took, answer string) {
		fmt.Fprintln(w, cut(fmt.Sprintf("%-*s  %-8s  %6s  %s", hookW, oneLine(hook, hookW), exit, took, oneLine(answer, width)), width))
	}
	fmt.Fprintln(w)
	row("HOOK", "EXIT", "TIME", "ANSWER")
	for _, r := range v.Results {
		exit := fmt.Sprint(r.Code)
		if r.TimedOut {
			exit = "timeout"
		} else if r.StartErr != nil {
			exit = "no start"
		}
		answer := r.Outcome.Decision
		if answer == "" {
			answer = "-"
		}
		if r.Outcome.Reason != "" {
			answer += ": " + r.Outcome.Reason
		}
		answer += " (" + r.Outcome.Note + ")"
		row(dispatch.HookName(r.Handler), exit, r.Took.Round(time.Millisecond).String(), answer)
		if e := strings.TrimSpace(r.Stderr); e != "" && e != strings.TrimSpace(r.Outcome.Reason) {
			fmt.Fprintln(w, "  "+oneLine("stderr: "+e, width-2))
		}
	}
	verdict := "the action goes ahead"
	switch {
	case v.Stop:
		verdict = "Claude stops: " + v.StopReason
	case v.Decision == "deny" || v.Decision == "block":
		verdict = "blocked: " + strings.Join(v.Reasons, "; ")
	case v.Decision == "ask":
		verdict = "the user is asked (headless: denied)"
		if len(v.Reasons) > 0 {
			verdict += ": " + strings.Join(v.Reasons, "; ")
		}
	case v.Decision == "defer":
		verdict = "deferred: a headless run stops with the call pending"
	case v.Decision == "allow":
		verdict = "allowed without a prompt (settings deny and ask rules still apply)"
	}
	fmt.Fprintf(w, "\nverdict: %s\n", verdict)
	if v.Context != "" {
		fmt.Fprintf(w, "context for the model:\n%s\n", v.Context)
	}
	if v.UpdatedInput != nil {
		fmt.Fprintf(w, "input rewritten to: %s\n", v.UpdatedInput)
	}
}

func printRunJSON(w io.Writer, ev string, groups []dispatch.Match, v dispatch.Verdict) {
	type hookOut struct {
		Hook     string  `json:"hook"`
		Exit     int     `json:"exit"`
		TimedOut bool    `json:"timed_out,omitempty"`
		TookMS   float64 `json:"took_ms"`
		Decision string  `json:"decision,omitempty"`
		Reason   string  `json:"reason,omitempty"`
		Note     string  `json:"note"`
		Stdout   string  `json:"stdout"`
		Stderr   string  `json:"stderr"`
	}
	out := struct {
		Event    string    `json:"event"`
		Groups   []string  `json:"groups"`
		Hooks    []hookOut `json:"hooks"`
		Decision string    `json:"decision"`
		Blocked  bool      `json:"blocked"`
		Reasons  []string  `json:"reasons"`
		Context  string    `json:"context,omitempty"`
	}{Event: ev, Groups: []string{}, Hooks: []hookOut{}, Decision: v.Decision, Blocked: v.Blocked(), Reasons: v.Reasons, Context: v.Context}
	for _, g := range groups {
		out.Groups = append(out.Groups, g.Why)
	}
	for _, r := range v.Results {
		out.Hooks = append(out.Hooks, hookOut{Hook: dispatch.HookName(r.Handler), Exit: r.Code, TimedOut: r.TimedOut, TookMS: float64(r.Took.Microseconds()) / 1000,
			Decision: r.Outcome.Decision, Reason: r.Outcome.Reason, Note: r.Outcome.Note, Stdout: r.Stdout, Stderr: r.Stderr})
	}
	if out.Reasons == nil {
		out.Reasons = []string{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// cut shortens one line to max runes, keeping its spacing.
func cut(s string, max int) string {
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}
