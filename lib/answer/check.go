package answer

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// Check explains every way a hook's output for event ev is not what Claude Code 2.1.332
// accepts and acts on (nil when it is): a JSON answer's top-level fields, its
// hookSpecificOutput fields and their values, checked against the event table. Plain text is
// only checked where it means something (WorktreeCreate's path, PreCompact's instructions).
func Check(ev event.Name, code int, stdout []byte) []string {
	spec, ok := event.Lookup(ev)
	if !ok {
		return []string{fmt.Sprintf("%q is not an event of Claude Code %s", ev, event.Client)}
	}
	out := strings.TrimSpace(string(stdout))
	if code == 2 {
		if spec.Block == event.JSONOnly {
			return []string{fmt.Sprintf("exit 2 is ignored on %s: %s", ev, spec.Exit2)}
		}
		return nil
	}
	if out == "" || !strings.HasPrefix(out, "{") {
		return nil // no answer, or plain text (context, instructions or a path, as the event reads it)
	}
	if !gjson.Valid(out) {
		return []string{"stdout starts with { but is not valid JSON: Claude Code reads it as plain text and the answer is lost"}
	}
	var probs []string
	add := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }
	j := gjson.Parse(out)
	j.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "continue":
			if !spec.Continue {
				add("%s ignores continue", ev)
			} else if v.Type != gjson.True && v.Type != gjson.False {
				add("continue must be true or false, not %s", v.Raw)
			}
		case "stopReason":
			if !spec.Continue {
				add("%s ignores stopReason", ev)
			}
		case "systemMessage":
			if !spec.SystemMessage {
				add("%s ignores systemMessage", ev)
			}
		case "suppressOutput":
		case "decision":
			switch {
			case !spec.Decision:
				add("%s does not take a top-level decision (%s)", ev, v.Raw)
			case v.Str != "block":
				add("decision %s on %s: the only value is \"block\"", v.Raw, ev)
			}
		case "reason":
			if j.Get("decision").Str != "block" {
				add("reason goes with decision:\"block\"")
			}
		case "hookSpecificOutput":
			if got := v.Get("hookEventName").Str; got != string(ev) {
				add("hookSpecificOutput.hookEventName is %q, not %q", got, ev)
			}
			v.ForEach(func(f, x gjson.Result) bool {
				if f.Str == "hookEventName" {
					return true
				}
				if !spec.Accepts(f.Str) {
					add("hookSpecificOutput.%s is not accepted by %s (it takes: %s)", f.Str, ev, strings.Join(spec.Specific, ", "))
					return true
				}
				if f.Str == "permissionDecision" {
					allowed := []string{"allow", "deny", "ask"}
					if ev == event.PreToolUse || ev == event.PreSkillShellCommand {
						allowed = append(allowed, "defer")
					}
					ok := false
					for _, a := range allowed {
						ok = ok || x.Str == a
					}
					if !ok {
						add("permissionDecision %s on %s: it must be one of %s", x.Raw, ev, strings.Join(allowed, ", "))
					}
				}
				return true
			})
		default:
			add("top-level field %s is not part of the hook protocol", k.Str)
		}
		return true
	})
	if ev == event.PreToolUse && j.Get("decision").Exists() {
		add("PreToolUse answers with hookSpecificOutput.permissionDecision, not a top-level decision")
	}
	return probs
}
