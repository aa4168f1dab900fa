package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/event"
)

func events(w io.Writer, name string) error {
	if name != "" {
		s, ok := event.Lookup(event.Name(name))
		if !ok {
			return cli.Exit(fmt.Sprintf("harness events: %q is not a hook event (names are case-sensitive; run 'harness events')%s", name, didYouMean(name, eventNames())), exitUsage)
		}
		return eventDetail(w, s)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "EVENT\tMATCHER\tBLOCKS\tANSWERS")
	for _, s := range event.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, cmp.Or(s.Matcher, "-"), s.Block, cmp.Or(answers(s), "-"))
	}
	return tw.Flush()
}

func eventDetail(w io.Writer, s event.Spec) error {
	fmt.Fprintf(w, "%s\n", s.Name)
	syntax := map[event.Syntax]string{event.NoMatcher: "none (every group runs)",
		event.Wide:   "field %s; exact names may use letters, digits, _ - , | and spaces, anything else is a regexp",
		event.Narrow: "field %s; exact names may use letters, digits, _ and |, anything else is a regexp"}[s.Syntax]
	if s.Matcher != "" {
		syntax = fmt.Sprintf(syntax, s.Matcher)
	}
	fmt.Fprintf(w, "  matcher:  %s\n", syntax)
	if !s.Since.IsZero() {
		fmt.Fprintf(w, "  since:    Claude Code %s (older clients never run its hooks)\n", s.Since)
	}
	fmt.Fprintf(w, "  blocks:   %s\n", s.Block)
	fmt.Fprintf(w, "  exit 2:   %s\n", s.Exit2)
	fmt.Fprintf(w, "  answers:  %s\n", cmp.Or(answers(s), "none (output is ignored)"))
	if s.PlainContext {
		fmt.Fprintf(w, "  plain stdout on exit 0 becomes model context\n")
	}
	fmt.Fprintf(w, "  payload:\n")
	for _, fs := range [][]event.Field{event.Common, s.Fields} {
		for _, f := range fs {
			req := ""
			if f.Required {
				req = " (required)"
			}
			fmt.Fprintf(w, "    %-28s %s%s\n", f.Name, f.Kind, req)
		}
	}
	return nil
}

// answers lists what the event accepts on stdout.
func answers(s event.Spec) string {
	var a []string
	if s.StdoutPath {
		a = append(a, "path-on-stdout")
	}
	if s.Decision {
		a = append(a, "decision:block")
	}
	a = append(a, s.Specific...)
	if s.Continue {
		a = append(a, "continue")
	}
	if s.SystemMessage {
		a = append(a, "systemMessage")
	}
	return strings.Join(a, " ")
}
