package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/pretty"
	"github.com/tidwall/sjson"
	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/dispatch"
	"github.com/hookkit/harness/lib/event"
)

var testCommand = &cli.Command{
	Name:      "test",
	Usage:     "golden tests for any hook command, in any language",
	ArgsUsage: "[DIR]",
	Description: "Runs every *.json case in DIR (default: hooktests). A case names the hook (command, and args for\n" +
		"exec form, relative to DIR), the event and the payload, and what it wants: verdict (deny, ask,\n" +
		"allow, defer, block, context or silent), exit, stdout, stderr (each optional). Every output is\n" +
		"also checked against what the event accepts, so an answer Claude Code would ignore fails with\n" +
		"an explanation. -update records what the hook does now into want. Exit 1 when a case fails.",
	Flags: []cli.Flag{&cli.BoolFlag{Name: "update", Usage: "record the current outputs as the expected ones"}},
	Action: func(c *cli.Context) error {
		dir := c.Args().First()
		if dir == "" {
			dir = "hooktests"
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return cli.Exit(fmt.Sprintf("harness test: no *.json cases in %s", dir), 2)
		}
		sort.Strings(files)
		failed := 0
		for _, f := range files {
			probs, line, err := runCase(f, c.Bool("update"))
			switch {
			case err != nil:
				failed++
				fmt.Fprintf(c.App.Writer, "FAIL %s: %v\n", filepath.Base(f), err)
			case len(probs) > 0:
				failed++
				fmt.Fprintf(c.App.Writer, "FAIL %s (%s)\n", filepath.Base(f), line)
				for _, p := range probs {
					fmt.Fprintf(c.App.Writer, "     %s\n", p)
				}
			default:
				fmt.Fprintf(c.App.Writer, "ok   %s (%s)\n", filepath.Base(f), line)
			}
		}
		if failed > 0 {
			return cli.Exit(fmt.Sprintf("%d of %d case(s) failed", failed, len(files)), 1)
		}
		return nil
	},
}

// runCase runs one case file and returns what is wrong with the hook's answer.
func runCase(file string, update bool) ([]string, string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, "", err
	}
	if !gjson.ValidBytes(b) {
		return nil, "", fmt.Errorf("the case is not valid JSON")
	}
	cs := gjson.ParseBytes(b)
	ev := cs.Get("event").Str
	if _, ok := event.Lookup(event.Name(ev)); !ok {
		return nil, "", fmt.Errorf("event %q is not an event of Claude Code %s", ev, event.Client)
	}
	dir, _ := filepath.Abs(filepath.Dir(file))
	h := dispatch.Handler{Command: cs.Get("command").Str, Timeout: 10 * time.Second}
	if h.Command == "" {
		return nil, "", fmt.Errorf("the case names no command")
	}
	if t := cs.Get("timeout").Float(); t > 0 {
		h.Timeout = time.Duration(t * float64(time.Second))
	}
	if a := cs.Get("args"); a.IsArray() {
		h.Args = []string{}
		for _, x := range a.Array() {
			h.Args = append(h.Args, x.String())
		}
		if !filepath.IsAbs(h.Command) && strings.Contains(h.Command, "/") {
			h.Command = filepath.Join(dir, h.Command)
		}
	}
	payload := []byte(cs.Get("payload").Raw)
	if !cs.Get("payload").IsObject() {
		return nil, "", fmt.Errorf("the case has no payload object")
	}
	if gjson.GetBytes(payload, "hook_event_name").Str == "" {
		payload, _ = sjson.SetBytes(payload, "hook_event_name", ev)
	}
	v := dispatch.Run(context.Background(), ev, payload, []dispatch.Match{{Group: dispatch.Group{Hooks: []dispatch.Handler{h}}}},
		dispatch.Env{Project: dir, SessionID: gjson.GetBytes(payload, "session_id").Str})
	r := v.Results[0]
	verdict := r.Outcome.Decision
	if verdict == "" && r.Outcome.Context != "" {
		verdict = "context"
	}
	if verdict == "" {
		verdict = "silent"
	}
	line := fmt.Sprintf("%s, exit %d, %v", verdict, r.Code, r.Took.Round(time.Millisecond))
	if r.TimedOut {
		line = "timed out after " + h.Timeout.String()
	}
	if update {
		out := string(b)
		for _, kv := range []struct {
			k string
			v any
		}{{"want.verdict", verdict}, {"want.exit", r.Code}, {"want.stdout", r.Stdout}, {"want.stderr", r.Stderr}} {
			out, _ = sjson.Set(out, kv.k, kv.v)
		}
		if err := os.WriteFile(file, pretty.Pretty([]byte(out)), 0o644); err != nil {
			return nil, line, err
		}
	}
	var probs []string
	for _, p := range answer.Check(event.Name(ev), r.Code, []byte(r.Stdout)) {
		probs = append(probs, "the answer is not one Claude Code accepts: "+p)
	}
	if r.TimedOut || r.StartErr != nil {
		probs = append(probs, r.Outcome.Note)
	}
	want := cs.Get("want")
	if update {
		return probs, line, nil
	}
	if w := want.Get("verdict"); w.Exists() && w.Str != verdict {
		probs = append(probs, fmt.Sprintf("verdict %s, want %s", verdict, w.Str))
	}
	if w := want.Get("exit"); w.Exists() && int(w.Int()) != r.Code {
		probs = append(probs, fmt.Sprintf("exit %d, want %d", r.Code, w.Int()))
	}
	if w := want.Get("stdout"); w.Exists() && w.Str != r.Stdout {
		probs = append(probs, fmt.Sprintf("stdout %q, want %q", r.Stdout, w.Str))
	}
	if w := want.Get("stderr"); w.Exists() && w.Str != r.Stderr {
		probs = append(probs, fmt.Sprintf("stderr %q, want %q", r.Stderr, w.Str))
	}
	return probs, line, nil
}
