package lint

import (
	"os"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// ForClient adds to a report of File a warning for each event the file uses that came after
// client, the Claude Code installed here: that client never runs those hooks (an unknown event
// does not invalidate a settings file, its hooks are just skipped), so a guard wired there
// guards nothing until Claude Code is updated.
func ForClient(r Report, client event.Version) Report {
	data, err := os.ReadFile(r.File)
	if err != nil {
		return r // File has reported it
	}
	return forClient(r, data, client)
}

func forClient(r Report, data []byte, client event.Version) Report {
	if client.Less(event.OnFailureSince) {
		// That client has no onFailure: asking for one is advice it cannot take.
		kept := r.Findings[:0:0]
		for _, f := range r.Findings {
			if f.Rule != "guard.on-failure" {
				kept = append(kept, f)
			}
		}
		r.Findings = kept
	}
	hooks := gjson.GetBytes(data, "hooks")
	if !hooks.IsObject() {
		return r
	}
	var order []string // the file's events, in document order
	hooks.ForEach(func(k, v gjson.Result) bool {
		order = append(order, k.Str)
		spec, ok := event.Lookup(event.Name(k.Str))
		if !ok || spec.In(client) {
			return true
		}
		path := join("hooks", k.Str)
		f := Finding{Warning, "event.newer", path, string(spec.Name) + " came in Claude Code " + spec.Since.String() +
			" and the installed claude is " + client.String() + ": it never runs these hooks; update Claude Code"}
		r.Findings = insertAt(r.Findings, f, len(order)-1, order)
		return true
	})
	return r
}

// insertAt puts f in document order: before the first finding about the event at index at or
// a later one, else after the last finding about any event, else at the end.
func insertAt(fs []Finding, f Finding, at int, order []string) []Finding {
	pos, lastEvent := len(fs), -1
	for i, x := range fs {
		n := eventIndex(x.Path, order)
		if n >= at {
			pos = i
			break
		}
		if n >= 0 {
			lastEvent = i
		}
	}
	if pos == len(fs) && lastEvent >= 0 {
		pos = lastEvent + 1
	}
	return append(fs[:pos], append([]Finding{f}, fs[pos:]...)...)
}

// eventIndex returns which of the file's events a finding's path is under (-1 for none).
func eventIndex(path string, order []string) int {
	best := -1
	for i, ev := range order {
		p := join("hooks", ev)
		if rest, ok := strings.CutPrefix(path, p); ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
			best = i // a repeated key: the last copy is the one Claude Code keeps
		}
	}
	return best
}
