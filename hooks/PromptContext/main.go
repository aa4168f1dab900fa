// Hook: PromptContext
// Event: UserPromptSubmit, PreCompact
// Matcher: * (PreCompact)
// Failure policy: open
//
// Per prompt, and lean: the current date and time, what moved in the repository since the
// session started (branch switched, commits made, files they changed), and the prompt files
// the user marks as per-turn. HEAD is read from the files under .git; git runs only when it
// moved. When nothing changed, only the date. Before a compaction, it adds the user's "always
// preserve" instructions (context.preserve) to the compaction prompt.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/gitstate"
	"github.com/hookkit/harness/lib/hook"
)

var spec = hook.Spec{
	Name:        "PromptContext",
	Description: "adds the date and time, and what moved in the repository since the session started, to each prompt",
	Policy:      hook.Open,
	Events: []hook.Binding{
		{Event: event.UserPromptSubmit, Timeout: 5},
		{Event: event.PreCompact, Matcher: "*", Timeout: 5},
	},
}

func main() { hook.Main(spec, run) }

const fileCap = 1500

func run(ctx context.Context, in event.Input) (answer.Answer, error) {
	w := hook.Locate(ctx, in)
	cfg := config.Load(w.Scopes())
	for _, p := range cfg.Problems {
		fmt.Fprintln(os.Stderr, "PromptContext:", p)
	}
	if in.Event() == event.PreCompact {
		keep := cfg.Strings("context.preserve", nil)
		if len(keep) == 0 {
			return nil, nil
		}
		return answer.CompactInstructions("When summarizing, always preserve:\n- " + strings.Join(keep, "\n- ")), nil
	}
	now := hook.SetupOf(ctx).Clock()
	var b strings.Builder
	fmt.Fprintf(&b, "Current date and time: %s.", now.Format("Monday 2006-01-02 15:04 MST (-07:00)"))
	if cfg.Bool("context.prompt.changes", true) {
		changes(ctx, &b, w, in.SessionID())
	}
	for _, name := range cfg.Strings("context.per_turn_files", nil) {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(w.Project, p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "PromptContext:", err)
			continue
		}
		text := strings.TrimSpace(strings.ToValidUTF8(string(data), "\uFFFD"))
		if r := []rune(text); len(r) > cfg.Int("context.caps.per_turn_file", fileCap) {
			text = string(r[:cfg.Int("context.caps.per_turn_file", fileCap)]) + "\n[... truncated by PromptContext]"
		}
		fmt.Fprintf(&b, "\n\n## %s\n%s", name, text)
	}
	return answer.Context(b.String()), nil
}

// changes says what moved since the session's starting snapshot (taken by LoadContext, or
// here at the first prompt).
func changes(ctx context.Context, b *strings.Builder, w hook.Where, session string) {
	path := gitstate.SnapshotPath(w.HarnessHome, w.Project, session)
	start, ok := gitstate.Load(path)
	now, inRepo := gitstate.Read(w.Project)
	if !ok {
		if inRepo {
			gitstate.Save(path, now)
		}
		return
	}
	if !inRepo || now == start {
		return
	}
	if now.Branch != start.Branch {
		fmt.Fprintf(b, "\nSince the session started, the branch changed from %s to %s.", name(start), name(now))
	}
	if now.Head == start.Head || start.Head == "" || now.Head == "" {
		return
	}
	// Commits only at the start and only now: a branch switched to an older or unrelated line
	// of history is not "new commits".
	counts, err1 := gitstate.Run(ctx, w.Project, time.Second, "git", "rev-list", "--left-right", "--count", start.Head+"..."+now.Head)
	stat, err2 := gitstate.Run(ctx, w.Project, time.Second, "git", "diff", "--shortstat", start.Head, now.Head)
	behind, ahead, _ := strings.Cut(strings.TrimSpace(counts), "\t")
	if err1 != nil || err2 != nil || ahead == "" {
		fmt.Fprintf(b, "\nSince the session started, HEAD moved from %.7s to %.7s.", start.Head, now.Head)
		return
	}
	switch {
	case ahead == "0":
		fmt.Fprintf(b, "\nSince the session started, HEAD moved back from %.7s to %.7s.", start.Head, now.Head)
		return
	case behind != "0":
		fmt.Fprintf(b, "\nHEAD is now %s commit(s) ahead of where the session started and %s behind it", ahead, behind)
	default:
		fmt.Fprintf(b, "\nSince the session started: %s new commit(s)", ahead)
	}
	if stat != "" {
		fmt.Fprintf(b, "; %s", strings.TrimSpace(stat))
	}
	b.WriteString(".")
}

func name(s gitstate.State) string {
	if s.Branch == "" {
		return fmt.Sprintf("a detached HEAD (%.7s)", s.Head)
	}
	return s.Branch
}
