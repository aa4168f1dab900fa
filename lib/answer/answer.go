package answer

import (
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/tidwall/gjson"
	"github.com/tidwall/pretty"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/object"
	"github.com/hookkit/harness/lib/verdict"
)

// Code is a hook process's exit code, as Claude Code reads it.
type Code int

const (
	// OK: success; stdout is read (JSON when it is one JSON object, else plain text).
	OK Code = 0
	// Failed: a non-blocking error; the action goes ahead and stderr goes to the debug log.
	Failed Code = 1
	// Blocked: a blocking error on events that honour it; stderr carries the reason.
	Blocked Code = 2
)

// Reply is exactly what a hook process writes and how it exits, and what it decided.
type Reply struct {
	Stdout []byte
	Stderr string
	Code   Code
	// Decision, Reason and Tag say what the answer decided, in the words the model or user
	// reads, and the rule behind it: the runtime hands them to the recorder, so nothing reads
	// them back out of the output. They are never written.
	Decision verdict.Decision
	Reason   string
	Tag      verdict.Tag
}

// Answer is what a hook decided. Only this package's types are answers, and each renders only
// for the events that accept it, so a hook cannot print an answer Claude Code rejects or ignores.
type Answer interface {
	render(ev event.Name, hook string) (Reply, error)
}

// Render turns an answer into the reply for event ev from the named hook. A nil answer is
// silence: exit 0, no output. An answer the event does not accept is an error.
func Render(a Answer, ev event.Name, hook string) (Reply, error) {
	if a == nil {
		return Reply{}, nil
	}
	return a.render(ev, hook)
}

// Permission is a permission decision for PreToolUse, PreSkillShellCommand and PreModelSwitch.
type Permission struct{ v string }

var (
	// Allow skips the permission prompt (settings deny and ask rules still apply).
	Allow = Permission{"allow"}
	// Deny blocks the call in every mode; the reason goes to the model.
	Deny = Permission{"deny"}
	// Ask forces a permission prompt; in headless mode it is a denial.
	Ask = Permission{"ask"}
	// Defer stops a headless (-p) run with the call pending (PreToolUse); on
	// PreSkillShellCommand the command does not run.
	Defer = Permission{"defer"}
)

func (p Permission) String() string { return p.v }

// Halt ends Claude's processing after this hook ("continue": false); Reason is shown to the user.
type Halt struct{ Reason string }

// doc builds one JSON object; raw values are compacted so the answer stays one line; the first error sticks.
type doc struct {
	ev   event.Name
	spec event.Spec
	obj  object.Object
	err  error
	// decided is what the reply decided, why, and by which rule (Reply's Decision, Reason, Tag).
	decided Reply
}

// decide notes what the answer decides, for the reply's typed fields.
func (d *doc) decide(dec verdict.Decision, reason string, tag verdict.Tag) {
	d.decided.Decision, d.decided.Reason, d.decided.Tag = dec, reason, tag
}

func newDoc(ev event.Name) *doc {
	spec, ok := event.Lookup(ev)
	d := &doc{ev: ev, spec: spec}
	if !ok {
		d.err = fmt.Errorf("event %q is not one this harness knows how to answer", ev)
	}
	return d
}

func (d *doc) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%s answer: %s", d.ev, fmt.Sprintf(format, args...))
	}
}

func (d *doc) set(path string, v any) {
	if d.err == nil {
		d.obj.Set(path, v)
	}
}

func (d *doc) setRaw(path string, raw []byte, want string) {
	if d.err != nil {
		return
	}
	r := gjson.ParseBytes(raw)
	ok := gjson.ValidBytes(raw) && (want == "object" && r.IsObject() || want == "array" && r.IsArray() || want == "any")
	if !ok {
		d.fail("%s must be a JSON %s", path[strings.LastIndexByte(path, '.')+1:], want)
		return
	}
	d.obj.Set(path, object.Raw(pretty.Ugly(raw)))
}

// specific sets a hookSpecificOutput field (or a path inside one), refusing a field the event
// does not accept.
func (d *doc) specific(field string, v any) {
	if top, _, _ := strings.Cut(field, "."); !d.spec.Accepts(top) {
		d.fail("%s does not accept %s", d.ev, field)
		return
	}
	d.set("hookSpecificOutput.hookEventName", string(d.ev))
	d.set("hookSpecificOutput."+field, v)
}

func (d *doc) specificRaw(field string, raw []byte, want string) {
	if !d.spec.Accepts(field) {
		d.fail("%s does not accept %s", d.ev, field)
		return
	}
	d.set("hookSpecificOutput.hookEventName", string(d.ev))
	d.setRaw("hookSpecificOutput."+field, raw, want)
}

// context sets additionalContext when text is not empty.
func (d *doc) context(text string) {
	if text != "" {
		d.specific("additionalContext", text)
	}
}

// block sets the top-level decision:block with its reason.
func (d *doc) block(reason string) {
	if reason == "" {
		return
	}
	if !d.spec.Decision {
		d.fail("%s takes no decision:block", d.ev)
		return
	}
	d.set("decision", "block")
	d.set("reason", reason)
	if d.decided.Decision == "" {
		d.decide(verdict.Blocked, reason, verdict.Tag{})
	}
}

// common sets the universal fields the event honours.
func (d *doc) common(systemMessage string, halt *Halt) {
	if systemMessage != "" {
		if !d.spec.SystemMessage {
			d.fail("%s ignores systemMessage", d.ev)
		}
		d.set("systemMessage", systemMessage)
	}
	if halt != nil {
		if !d.spec.Continue {
			d.fail("%s ignores continue", d.ev)
		}
		d.set("continue", false)
		if halt.Reason != "" {
			d.set("stopReason", halt.Reason)
		}
	}
}

func (d *doc) reply() (Reply, error) {
	if d.err != nil {
		return Reply{}, d.err
	}
	if len(d.obj) == 0 {
		return Reply{}, nil
	}
	r := d.decided
	r.Stdout = append(d.obj.AppendJSON(nil), '\n')
	return r, nil
}

// only refuses an answer type on events it is not made for.
func (d *doc) only(evs ...event.Name) {
	for _, e := range evs {
		if d.ev == e {
			return
		}
	}
	d.fail("this answer is for %v, not %s", evs, d.ev)
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }
