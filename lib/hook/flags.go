package hook

import (
	"fmt"
	"strings"

	"github.com/tidwall/pretty"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/object"
)

// Description is what --describe prints: everything the installer needs to wire the hook in.
type Description struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Version     string        `json:"version"`
	Policy      string        `json:"policy"`
	Deadline    string        `json:"deadline"`
	Events      []DescribedOn `json:"events"`
}

// DescribedOn is one binding as --describe prints it.
type DescribedOn struct {
	Event   event.Name `json:"event"`
	Matcher string     `json:"matcher,omitempty"`
	Timeout int        `json:"timeout"`
	// Deadline is the hook's own on this event (Deadline is the shortest of them).
	Deadline string `json:"deadline"`
}

// Describe returns the hook's self-description.
func (s Spec) Describe() Description {
	d := Description{Name: s.Name, Description: s.Description, Version: Version,
		Policy: s.Policy.String(), Deadline: Deadline(s).String(), Events: []DescribedOn{}}
	for _, b := range s.Events {
		d.Events = append(d.Events, DescribedOn{Event: b.Event, Matcher: b.Matcher, Timeout: b.Timeout,
			Deadline: Deadline(Spec{Events: []Binding{b}}).String()})
	}
	return d
}

// JSON renders the description as indented JSON, one document ending in a newline.
func (d Description) JSON() []byte {
	var o object.Object
	o.Set("name", d.Name)
	o.Set("description", d.Description)
	o.Set("version", d.Version)
	o.Set("policy", d.Policy)
	o.Set("deadline", d.Deadline)
	evs := []byte{'['}
	for i, e := range d.Events {
		var eo object.Object
		eo.Set("event", string(e.Event))
		if e.Matcher != "" {
			eo.Set("matcher", e.Matcher)
		}
		eo.Set("timeout", e.Timeout)
		eo.Set("deadline", e.Deadline)
		if i > 0 {
			evs = append(evs, ',')
		}
		evs = eo.AppendJSON(evs)
	}
	o.Set("events", object.Raw(append(evs, ']')))
	return pretty.PrettyOptions(o.AppendJSON(nil), &pretty.Options{Width: 1, Indent: "  "})
}

func (r runner) flag(args []string) answer.Code {
	switch {
	case len(args) == 1 && args[0] == "--describe":
		r.stdout.Write(r.spec.Describe().JSON())
		return answer.OK
	case len(args) == 1 && args[0] == "--version":
		fmt.Fprintf(r.stdout, "%s %s\n", r.spec.Name, Version)
		return answer.OK
	case len(args) == 1 && (args[0] == "--help" || args[0] == "-h"):
		fmt.Fprint(r.stdout, r.usage())
		return answer.OK
	}
	for _, f := range r.spec.Flags {
		if args[0] == f.Name {
			return f.Run(*r.setup, args[1:], r.stdout, r.stderr)
		}
	}
	return r.fail(eventHint(nil, r.spec), fmt.Errorf("unknown arguments %q (a hook takes its payload on stdin; see --help)", strings.Join(args, " ")))
}

func (r runner) usage() string {
	var b strings.Builder
	s := r.spec
	fmt.Fprintf(&b, "%s: %s\n\n", s.Name, s.Description)
	fmt.Fprintf(&b, "A Claude Code hook: it reads one hook payload (JSON) on stdin and answers with\nits exit code, stdout and stderr.\n\n")
	for _, e := range s.Events {
		fmt.Fprintf(&b, "  event %s", e.Event)
		if e.Matcher != "" {
			fmt.Fprintf(&b, ", matcher %q", e.Matcher)
		}
		fmt.Fprintf(&b, ", timeout %ds\n", e.Timeout)
	}
	if s.Policy == Closed {
		fmt.Fprintf(&b, "  fails closed: bad input, a crash or its deadline (%s) blocks the call\n", Deadline(s))
	} else {
		fmt.Fprintf(&b, "  fails open: bad input, a crash or its deadline (%s) exits 1 and blocks nothing\n", Deadline(s))
	}
	fmt.Fprintf(&b, "\nUsage:\n  %s [runtime flags] < payload.json\n      runtime flags (the installer writes them): %s\n  %s --describe   print the self-description as JSON\n  %s --version\n", s.Name, setupFlags, s.Name, s.Name)
	for _, f := range s.Flags {
		fmt.Fprintf(&b, "  %s %s %s\n      %s\n", s.Name, f.Name, f.Args, f.Usage)
	}
	return b.String()
}
