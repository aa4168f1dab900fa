// Hook: AgentOutputCapture
// Event: SubagentStop
// Matcher: *
// Failure policy: open
//
// Saves what each subagent returned and what it did (from its own transcript) as Markdown and
// JSON in its session's folder under $HARNESS_HOME, and adds it to the session's summary. The
// subagent's transcript is read in whichever client format it is in (lib/transcript).
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
	Name:        "AgentOutputCapture",
	Description: "saves each subagent's answer and tool use, redacted, next to its session's summary",
	Policy:      hook.Open,
	Events:      []hook.Binding{{Event: event.SubagentStop, Matcher: "*", Timeout: 10}},
}

func main() { hook.Main(spec, run) }

func run(ctx context.Context, in event.Input) (answer.Answer, error) {
	w := hook.Locate(ctx, in)
	p := in.SubagentStop()
	id := in.SessionID()
	path := p.AgentTranscriptPath()
	work, _, err := transcript.Fold(path, nil, func() *transcript.State {
		st := transcript.New(id, w.Project, w.Home)
		st.Agent = true
		return st
	})
	if err != nil {
		return nil, err
	}
	if path == "" {
		// Not every client names the subagent's transcript: zeros would look like a real run.
		work.Unreadable = "the client named no agent transcript (agent_transcript_path)"
	}
	a := summary.Agent{AgentID: in.AgentID(), Type: in.AgentType(), Session: id, Transcript: path,
		Start: work.Start, End: work.End, DurationS: work.Duration().Seconds(), LastMessage: work.LastMessage, Work: work}
	if m := p.LastAssistantMessage(); m != "" {
		a.LastMessage = transcript.Clean(m, transcript.MaxLast)
	}
	store := summary.Open(w.HarnessHome, w.Project, summary.Retention(w.Scopes()))
	unlock, err := store.LockSession(id)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if _, err := store.SaveAgent(a); err != nil {
		return nil, err
	}
	// The session's summary lists the capture at once; the next Stop rewrites it the same way.
	if d, ok := store.Load(id); ok {
		d.Agents = store.Agents(id)
		return nil, store.Save(d)
	}
	return nil, nil
}
