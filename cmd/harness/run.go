package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
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
		"The payload comes from --payload, from stdin, or is built from --tool and --input.\n" +
		"Exit 2 when the action would be blocked.",
	Flags: []cli.Flag{
		&cli.StringSliceFlag{Name: "settings", Usage: "settings `FILE`s, in scope order (default: ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json)"},
		&cli.StringFlag{Name: "payload", Usage: "the payload `FILE` (- for stdin)"},
		&cli.StringFlag{Name: "tool", Usage: "build a tool event's payload for this tool `NAME`"},
		&cli.StringFlag{Name: "input", Value: "{}", Usage: "the tool input, a JSON object"},
		&cli.StringFlag{Name: "project", Usage: "the project `DIR` (default: the current folder)"},
		&cli.BoolFlag{Name: "json", Usage: "print the results as JSON"},
	},
	Action: runEvent,
}

func runEvent(c *cli.Context) error {
	if c.NArg() != 1 {
		return cli.Exit("harness run: give one event name (harness events lists them)", 2)
	}
	ev := c.Args().First()
	spec, ok := event.Lookup(event.Name(ev))
	if !ok {
		return cli.Exit(fmt.Sprintf("harness run: %q is not an event of Claude Code 2.1.330 (harness events lists them)", ev), 2)
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
		return cli.Exit("harness run: "+err.Error(), 2)
	}
	s, err := dispatch.Load(files...)
	if err != nil {
		return cli.Exit("harness run: "+err.Error(), 2)
	}
	groups := s.Select(ev, payload)
	v := dispatch.Run(context.Background(), ev, payload, groups, dispatch.Env{Project: project, SessionID: gjson.GetBytes(payload, "session_id").Str})
	if c.Bool("json") {
		printRunJSON(c.App.Writer, ev, groups, v)
	} else {
		printRun(c.App.Writer, ev, spec, payload, groups, v)
	}
	if v.Blocked() {
		return cli.Exit("", 2)
	}
	return nil
}

// buildPayload reads the payload, or builds one with the fields the real client sends.
func buildPayload(c *cli.Context, ev, project string) ([]byte, error) {
	var b []byte
	var err error
	switch p := c.String("payload"); {
	case p == "-":
		b, err = io.ReadAll(os.Stdin)
	case p != "":
		b, err = os.ReadFile(p)
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
		b = []byte(fmt.Sprintf(`{"session_id":"harness-run","transcript_path":"","cwd":%q,"hook_event_name":%q}`, project, ev))
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

func printRun(w io.Writer, ev string, spec event.Spec, payload []byte, groups []dispatch.Match, v dispatch.Verdict) {
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
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nHOOK\tEXIT\tTIME\tANSWER\tSTDERR")
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
			answer += ": " + oneLine(r.Outcome.Reason, 80)
		}
		answer += " (" + r.Outcome.Note + ")"
		fmt.Fprintf(tw, "%s\t%s\t%v\t%s\t%s\n", dispatch.HookName(r.Handler), exit, r.Took.Round(time.Millisecond), answer, oneLine(r.Stderr, 60))
	}
	tw.Flush()
	verdict := "the action goes ahead"
	switch {
	case v.Stop:
		verdict = "Claude stops: " + v.StopReason
	case v.Decision == "deny" || v.Decision == "block":
		verdict = "blocked: " + strings.Join(v.Reasons, "; ")
	case v.Decision == "ask":
		verdict = "the user is asked (headless: denied)"
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
