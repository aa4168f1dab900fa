package summary

import (
	"fmt"
	"strings"
	"time"

	"github.com/hookkit/harness/lib/transcript"
)

// Render is a session's Markdown summary. It depends on the Doc alone, so the same transcript
// gives the same bytes.
func Render(d Doc) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Session %s\n\n", d.Session)
	fmt.Fprintf(&b, "- Project: %s\n", d.Project)
	if d.Start != "" {
		fmt.Fprintf(&b, "- Start: %s\n- End: %s\n- Duration: %s\n", d.Start, d.End, dur(d.DurationS))
	}
	status := "in progress"
	if d.Final {
		status = "ended"
		if d.EndReason != "" {
			status += " (" + d.EndReason + ")"
		}
	}
	fmt.Fprintf(&b, "- Status: %s\n", status)
	fmt.Fprintf(&b, "- Transcript: %s\n", d.Transcript)
	body(&b, d.Summary)
	if len(d.Agents) > 0 {
		fmt.Fprintf(&b, "\n## Captured subagent outputs (%d)\n\n", len(d.Agents))
		for _, a := range d.Agents {
			if a.Type == "" {
				a.Type = "subagent"
			}
			fmt.Fprintf(&b, "- %s %s (%s, tool calls: %d): %s\n", a.Type, a.AgentID, dur(a.DurationS), a.Work.ToolCalls, a.LastMessage)
		}
	}
	if d.LastMessage != "" {
		fmt.Fprintf(&b, "\n## Last assistant message\n\n> %s\n", d.LastMessage)
	}
	return []byte(b.String())
}

// body renders what the transcript says, shared by sessions and subagent runs.
func body(b *strings.Builder, s transcript.Summary) {
	if s.Unreadable != "" {
		// Zeros here would be a summary of nothing that looks real.
		fmt.Fprintf(b, "\n## Not summarised\n\n%s: what was asked, run and written is not known.\n", s.Unreadable)
		return
	}
	list(b, "Prompts", s.Prompts, func(p string) string { return p }, true)
	fmt.Fprintf(b, "\n## Tool calls (%d)\n\n", s.ToolCalls)
	if s.ToolCalls == 0 {
		b.WriteString("None.\n")
	}
	for _, n := range s.ToolsByCount() {
		fmt.Fprintf(b, "- %s: %d\n", n, s.Tools[n])
	}
	list(b, "Files created", s.Created, code, false)
	list(b, "Files edited", s.Edited, code, false)
	list(b, "Commands", s.Commands, code, false)
	if len(s.Failures) > 0 {
		fmt.Fprintf(b, "\n## Failures (%d)\n\n", len(s.Failures))
		for _, e := range s.Failures {
			fmt.Fprintf(b, "- %s %s: %s\n", e.Tool, code(e.Input), e.Reason)
		}
	}
	if len(s.Blocked) > 0 {
		fmt.Fprintf(b, "\n## Blocked (%d)\n\n", len(s.Blocked))
		for _, e := range s.Blocked {
			if e.Tool != "" {
				fmt.Fprintf(b, "- %s %s, by %s: %s\n", e.Tool, code(e.Input), e.By, e.Reason)
			} else {
				fmt.Fprintf(b, "- %s hook: %s\n", e.By, e.Reason)
			}
		}
	}
	if len(s.Subagents) > 0 {
		fmt.Fprintf(b, "\n## Subagents (%d)\n\n", len(s.Subagents))
		for _, a := range s.Subagents {
			fmt.Fprintf(b, "- %s %q (%s, %s, tool calls: %d): %s\n", a.Type, a.Description, a.Status,
				dur(float64(a.DurationMS)/1000), a.ToolUses, a.Result)
		}
	}
	list(b, "Left open (the last todo list)", s.Open, func(p string) string { return p }, false)
	if len(s.Compactions) > 0 {
		fmt.Fprintf(b, "\n## Compactions (%d)\n\n", len(s.Compactions))
		for _, c := range s.Compactions {
			fmt.Fprintf(b, "- %s %s, %d tokens before\n", c.Time, c.Trigger, c.PreTokens)
		}
	}
	if s.Omitted > 0 {
		fmt.Fprintf(b, "\n(%d more failures, blocks, subagents or compactions not listed)\n", s.Omitted)
	}
	if s.Skipped > 0 {
		fmt.Fprintf(b, "\n(%d of %d transcript lines could not be read)\n", s.Skipped, s.Lines)
	}
}

func list(b *strings.Builder, title string, l transcript.List, f func(string) string, numbered bool) {
	if l.Total == 0 && !numbered {
		return
	}
	fmt.Fprintf(b, "\n## %s (%d)\n\n", title, l.Total)
	if l.Total == 0 {
		b.WriteString("None.\n")
	}
	for i, s := range l.Items {
		if numbered {
			fmt.Fprintf(b, "%d. %s\n", i+1, s)
		} else {
			fmt.Fprintf(b, "- %s\n", f(s))
		}
	}
	if n := l.Total - len(l.Items); n > 0 {
		fmt.Fprintf(b, "- ... and %d more\n", n)
	}
}

// dur is a duration rounded for people: 395ms, 4.2s, 3m12s.
func dur(secs float64) string {
	d := time.Duration(secs * float64(time.Second))
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	default:
		return d.Round(time.Second).String()
	}
}

// RenderAgent is a captured subagent run as Markdown.
func RenderAgent(a Agent) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Subagent %s\n\n", a.AgentID)
	fmt.Fprintf(&b, "- Type: %s\n- Parent session: %s\n", a.Type, a.Session)
	if a.Start != "" {
		fmt.Fprintf(&b, "- Start: %s\n- End: %s\n", a.Start, a.End)
	}
	fmt.Fprintf(&b, "- Duration: %s\n- Transcript: %s\n", dur(a.DurationS), a.Transcript)
	body(&b, a.Work)
	if a.LastMessage != "" {
		fmt.Fprintf(&b, "\n## What it returned\n\n> %s\n", a.LastMessage)
	}
	return []byte(b.String())
}
