package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/lint"
	"github.com/hookkit/harness/lib/settings"
)

// writeAgentHooks renders the entries as a YAMLBlock client's hooks block (docker-agent's): tool events as matcher
// groups, the others as plain lists of handlers. Strings are JSON-quoted, which YAML reads as
// double-quoted scalars. With onError each hook says what its failure does, where the event
// lets it: a guard blocks (pre_tool_use does anyway), the others warn.
func writeAgentHooks(w io.Writer, d *dialect.Dialect, entries []settings.Entry, onError bool) error {
	var events map[string]dialect.FileEvent
	if d.FileEvents != nil {
		events = d.FileEvents()
	}
	var order []string
	byEvent := map[string][]settings.Entry{}
	for _, e := range entries {
		if _, ok := byEvent[e.Event]; !ok {
			order = append(order, e.Event)
		}
		byEvent[e.Event] = append(byEvent[e.Event], e)
	}
	q := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	var b strings.Builder
	b.WriteString("hooks:\n")
	for _, ev := range order {
		fmt.Fprintf(&b, "  %s:\n", ev)
		tool := events[ev].ToolMatched
		for _, e := range byEvent[ev] {
			indent := "    "
			if tool {
				m := e.Matcher
				if m == "" {
					m = "*"
				}
				fmt.Fprintf(&b, "    - matcher: %s\n      hooks:\n", q(m))
				indent = "        "
			}
			for _, h := range gjson.GetBytes(e.Group, "hooks").Array() {
				fmt.Fprintf(&b, "%s- type: command\n%s  command: %s\n%s  timeout: %d\n",
					indent, indent, q(h.Get("command").Str), indent, h.Get("timeout").Int())
				if onError {
					policy := "warn"
					if slices.Contains(lint.HarnessGuards, e.Hook) && events[ev].CanBlock {
						policy = "block"
					}
					fmt.Fprintf(&b, "%s  on_error: %s\n", indent, policy)
				}
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
