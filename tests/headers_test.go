package tests

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/event"
)

// Each hook's doc header (// Hook:, // Event:, // Matcher:, // Failure policy:) says what its
// --describe says: the header is what a reader sees first, the description what the installer
// wires.
//
// Events are separated by commas. A matcher may name the events it is for in parentheses,
// "Bash|PowerShell (PreToolUse, PreSkillShellCommand), * (SessionEnd)"; one without such a
// list is every event that takes a matcher (a parenthesis that names no events is a note).
func TestHookHeaders(t *testing.T) {
	names, err := filepath.Glob("../hooks/*/main.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("no hooks found: %v", err)
	}
	for _, file := range names {
		name := filepath.Base(filepath.Dir(file))
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			h := header(string(src))
			d := describe(t, name)
			if h["Hook"] != d.Name {
				t.Errorf("// Hook: %q, --describe name %q", h["Hook"], d.Name)
			}
			if h["Failure policy"] != d.Policy {
				t.Errorf("// Failure policy: %q, --describe policy %q", h["Failure policy"], d.Policy)
			}
			var events []string
			want := map[event.Name]string{}
			for _, e := range d.Events {
				events = append(events, string(e.Event))
				want[e.Event] = e.Matcher
			}
			if got := splitList(h["Event"]); !slices.Equal(got, events) {
				t.Errorf("// Event: %v, --describe events %v", got, events)
			}
			got := map[event.Name]string{}
			for _, e := range d.Events {
				got[e.Event] = ""
			}
			for _, item := range splitList(h["Matcher"]) {
				m, on := matcherFor(item)
				for _, e := range d.Events {
					if on == nil && e.Matcher != "" || slices.Contains(on, e.Event) {
						got[e.Event] = m
					}
				}
			}
			for _, e := range d.Events {
				if got[e.Event] != want[e.Event] {
					t.Errorf("// Matcher: gives %s %q, --describe %q", e.Event, got[e.Event], want[e.Event])
				}
			}
		})
	}
}

// header reads the Key: value lines of the comment that opens a file, up to its first blank
// comment line; a line with no key continues the value above it.
func header(src string) map[string]string {
	h := map[string]string{}
	last := ""
	for _, line := range strings.Split(src, "\n") {
		text, ok := strings.CutPrefix(line, "//")
		text = strings.TrimSpace(text)
		if !ok || text == "" {
			break
		}
		if k, v, ok := strings.Cut(text, ":"); ok && !strings.ContainsAny(k, "|*(") {
			last = k
			h[k] = strings.TrimSpace(v)
			continue
		}
		if last != "" {
			h[last] += " " + text
		}
	}
	return h
}

// splitList splits a comma-separated list at the commas outside parentheses.
func splitList(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// matcherFor splits "M (E1, E2)" into the matcher and the events it is for: nil when the
// parenthesis is absent or names no events.
func matcherFor(item string) (string, []event.Name) {
	m, rest, ok := strings.Cut(item, " (")
	if !ok {
		return item, nil
	}
	var on []event.Name
	for _, e := range splitList(strings.TrimSuffix(rest, ")")) {
		if !event.Name(e).Known() {
			return m, nil
		}
		on = append(on, event.Name(e))
	}
	return m, on
}
