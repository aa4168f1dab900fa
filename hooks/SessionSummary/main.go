// Hook: SessionSummary
// Event: Stop, SessionEnd
// Matcher: * (SessionEnd)
// Failure policy: open
//
// Keeps a Markdown summary and its JSON twin per session under $HARNESS_HOME (lib/summary),
// read from the transcript as a stream (lib/transcript), in Claude Code's format or the other
// clients' (a format it does not know is said so). Each Stop resumes from the checkpoint
// the last run left, so the work is the new lines only and SessionEnd fits its 1.5 s budget;
// the same transcript always gives the same bytes. Every text is redacted. The summary
// records how much of the transcript it covers: a client that writes its transcript behind
// its last hook (Qwen Code, whose last event headless is Stop) has the rest folded in by the
// next session's LoadContext (summary.CatchUp).
package main

import (
	"context"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/summary"
	"github.com/hookkit/harness/lib/transcript"
)

var spec = hook.Spec{
	Name:        "SessionSummary",
	Description: "writes a redacted Markdown and JSON summary of each session, updated at every stop",
	Policy:      hook.Open,
	Events: []hook.Binding{
		{Event: event.Stop, Timeout: 10},
		{Event: event.SessionEnd, Matcher: "*", Timeout: 1},
	},
}

func main() { hook.Main(spec, run) }

func run(ctx context.Context, in event.Input) (answer.Answer, error) {
	w := hook.Locate(ctx, in)
	id := in.SessionID()
	store := summary.Open(w.HarnessHome, w.Project, summary.Retention(w.Scopes()))
	unlock, err := store.LockSession(id)
	if err != nil {
		return nil, err
	}
	defer unlock()
	path, cp := in.TranscriptPath(), store.Checkpoint(id)
	if path == "" && cp != nil {
		path = cp.Path // Copilot's SessionEnd names no transcript: the one its Stop read
	}
	sum, cp, err := transcript.Fold(path, cp, func() *transcript.State {
		return transcript.New(id, w.Project, w.Home)
	})
	if err != nil {
		return nil, err
	}
	if err := store.SaveCheckpoint(id, cp); err != nil {
		return nil, err
	}
	d := summary.Doc{Summary: sum, Transcript: path, TranscriptBytes: cp.Size, DurationS: sum.Duration().Seconds(), Agents: store.Agents(id)}
	switch in.Event() {
	case event.Stop:
		// The transcript may lag behind the hook; the payload has the final reply.
		if m := in.Stop().LastAssistantMessage(); m != "" {
			d.LastMessage = transcript.Clean(m, transcript.MaxLast)
		}
	case event.SessionEnd:
		d.Final, d.EndReason = true, in.SessionEnd().Reason()
		if prev, ok := store.Load(id); ok && d.LastMessage == "" {
			d.LastMessage = prev.LastMessage
		}
	}
	return nil, store.Save(d)
}
