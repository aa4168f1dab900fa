// Hook: LoadContext
// Event: SessionStart
// Matcher: startup|resume|clear|compact
// Failure policy: open
//
// Injects a compact briefing at the start of a session (lib/briefing): the previous session's
// summary (first brought up to date from its checkpoint when its transcript grew after it was
// written, as Qwen Code's does after its last hook, Stop; past one second it is shown as it
// is and stderr says so), work in progress, the project's shape, the user's prompt files, and, for hosts other
// than Claude Code, the repository snapshot and machine facts. It also runs the guards' canary
// (harness doctor's) and warns the user and the model when a guard does not enforce, and names
// the project's policy files the guards ignore (lib/config.LoadScopes) and what the project's own
// settings start that no guard sees (risky env keys such as LD_PRELOAD, hooks of its own,
// disableAllHooks, apiKeyHelper, ...; names only). Configured in the shared harness
// configuration (lib/config); a slow or failing command costs its section, never the session.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/briefing"
	"github.com/hookkit/harness/lib/canary"
	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/danger"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/gitstate"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/paths"
)

var spec = hook.Spec{
	Name:        "LoadContext",
	Description: "injects a briefing at session start: previous session, work in progress, project shape, prompt files",
	Policy:      hook.Open,
	Events:      []hook.Binding{{Event: event.SessionStart, Matcher: "startup|resume|clear|compact", Timeout: 5}},
	Flags: []hook.Flag{{Name: "--preview", Args: "[project] [source]",
		Usage: "print the briefing a session starting in project (default: the current folder) would get", Run: preview}},
}

func main() { hook.Main(spec, run) }

func run(ctx context.Context, in event.Input) (answer.Answer, error) {
	w := hook.Locate(ctx, in)
	// The repository's state now is what PromptContext compares each prompt against.
	gitstate.Snapshot(w.HarnessHome, w.Project, in.SessionID())
	text := build(ctx, w, hook.SetupOf(ctx).Clock(), in.SessionID(), in.SessionStart().Source(), in.AgentType() != "", os.Stderr)
	a := answer.SessionStart{Context: text}
	// What the project's own settings start that no guard sees (LD_PRELOAD, its own hooks, ...),
	// named to the user and the model; key names only.
	if in.AgentType() == "" {
		if note := briefing.ProjectSettings(w.HarnessHome, w.Project, w.Cwd); note != "" {
			a.SystemMessage = "harness: " + note
			a.Context = strings.TrimSpace("NOTE from the harness: " + note + "\n\n" + a.Context)
		}
	}
	// The guards' canary (harness doctor's), at the start of every session: a guard that is
	// broken, missing or slow is announced to the user and the model, not discovered later.
	if config.Load(w.Scopes()).Bool("context.canary", true) && in.AgentType() == "" {
		fails, err := canary.Guards(w.HarnessHome, canaryLimit)
		if err != nil {
			fmt.Fprintln(os.Stderr, "LoadContext: canary:", err)
		}
		if len(fails) > 0 {
			warn := "harness: a guard is NOT enforcing, so the calls it should stop would go through: " +
				strings.Join(fails, "; ") + ". Run `harness doctor` to see why; the install (./install.sh, with --client X for another client's file) puts it back."
			a.SystemMessage = strings.TrimSpace(warn + "\n" + a.SystemMessage)
			a.Context = strings.TrimSpace("WARNING from the harness: " + warn + "\n\n" + a.Context)
		}
	}
	if a.Context == "" && a.SystemMessage == "" {
		return nil, nil
	}
	return a, nil
}

// canaryLimit bounds each guard's canary at session start: slower than this is "slow".
const canaryLimit = 1500 * time.Millisecond

func build(ctx context.Context, w hook.Where, now time.Time, session, source string, subagent bool, debug io.Writer) string {
	cfg := config.Load(w.Scopes())
	for _, p := range cfg.Problems {
		fmt.Fprintln(debug, "LoadContext:", p)
	}
	text := briefing.Build(ctx, briefing.Options{Project: w.Project, Home: w.Home, HarnessHome: w.HarnessHome,
		Session: session, Source: source, Subagent: subagent, ClaudeCode: os.Getenv("CLAUDECODE") == "1",
		Now: now, Config: cfg, Debug: debug})
	if note := briefing.Ignored(ignoredPolicies(w.Scopes())); note != "" {
		text = strings.TrimSpace(note + "\n\n" + text)
	}
	return text
}

// ignoredPolicies are the guards' project policy files that are ignored, and why. A broken
// user or system policy is the canary's to report (the guard blocks every call).
func ignoredPolicies(s config.Scopes) []string {
	if s.Project == "" {
		return nil
	}
	var out []string
	if p, err := danger.LoadPolicy(danger.PolicyFiles(s)); err == nil {
		out = append(out, p.Problems...)
	}
	if p, err := paths.LoadPolicy(paths.PolicyFiles(s)); err == nil {
		out = append(out, p.Problems...)
	}
	return out
}

// preview prints the briefing for people, with the reasons for any section left out.
func preview(s hook.Setup, args []string, stdout, stderr io.Writer) answer.Code {
	dir, source := ".", "startup"
	if len(args) > 0 {
		dir = args[0]
	}
	if len(args) > 1 {
		source = args[1]
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		fmt.Fprintln(stderr, "LoadContext:", err)
		return answer.Failed
	}
	w := s.Where(event.Input{})
	w.Cwd, w.Project = abs, abs
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	fmt.Fprintln(stdout, build(ctx, w, s.Clock(), "", source, false, stderr))
	return answer.OK
}
