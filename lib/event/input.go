package event

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
)

// Input is one hook payload: the raw bytes Claude Code sent, read lazily with gjson.
// Every field, known or not, stays reachable through Get.
type Input struct {
	raw  []byte
	json string // raw, viewed as a string without a copy: values read from it are not copied either
	name Name
}

// InputError says why a payload is not a hook input. Its message is one line.
type InputError struct{ Reason string }

func (e *InputError) Error() string { return "invalid hook input: " + e.Reason }

func invalid(format string, args ...any) error {
	return &InputError{Reason: fmt.Sprintf(format, args...)}
}

// Parse checks that data is one JSON object in valid UTF-8 naming its event in hook_event_name,
// and, for a known event, that every field it has is of the right type and none required is missing.
// Events this table does not know parse too, so a newer client's events reach the hook.
// The Input reads data in place: the caller must not change data afterwards.
func Parse(data []byte) (Input, error) {
	trimmed := bytes.TrimSpace(data)
	switch {
	case len(trimmed) == 0:
		return Input{}, invalid("stdin is empty")
	case !utf8.Valid(data):
		return Input{}, invalid("not valid UTF-8")
	case trimmed[0] != '{':
		return Input{}, invalid("not a JSON object (starts with %q)", firstRune(trimmed))
	case tooDeep(trimmed):
		return Input{}, invalid("JSON nested deeper than %d levels", maxDepth)
	case !gjson.ValidBytes(trimmed):
		return Input{}, invalid("not valid JSON (truncated or malformed)")
	}
	in := Input{raw: trimmed, json: unsafe.String(&trimmed[0], len(trimmed))}
	ev := in.Get("hook_event_name")
	switch {
	case !ev.Exists() || ev.Type == gjson.Null:
		return Input{}, invalid("hook_event_name is missing")
	case ev.Type != gjson.String:
		return Input{}, invalid("hook_event_name is %s, not a string", kindOf(ev))
	case ev.Str == "":
		return Input{}, invalid("hook_event_name is empty")
	}
	in.name = Name(ev.Str)
	spec, ok := Lookup(in.name)
	if !ok {
		return in, nil
	}
	// One pass over the top-level members finds every known field (the first of a repeated
	// key, as Get does); the checks then run in table order, so the first problem reported
	// does not depend on the payload's key order.
	fields := append(Common[:len(Common):len(Common)], spec.Fields...)
	values := make([]gjson.Result, len(fields))
	gjson.Parse(in.json).ForEach(func(k, v gjson.Result) bool {
		for i, f := range fields {
			if f.Name == k.Str && !values[i].Exists() {
				values[i] = v
			}
		}
		return true
	})
	for i, f := range fields {
		if err := in.check(f, values[i]); err != nil {
			return Input{}, err
		}
	}
	return in, nil
}

func (in Input) check(f Field, v gjson.Result) error {
	if !v.Exists() || v.Type == gjson.Null {
		if f.Required {
			return invalid("%s: required field %s is missing", in.name, f.Name)
		}
		return nil
	}
	if f.Kind != Any && kindOf(v) != f.Kind.String() {
		return invalid("%s: field %s is %s, want %s", in.name, f.Name, kindOf(v), f.Kind)
	}
	return nil
}

func kindOf(v gjson.Result) string {
	switch {
	case v.Type == gjson.String:
		return "string"
	case v.Type == gjson.Number:
		return "number"
	case v.Type == gjson.True, v.Type == gjson.False:
		return "bool"
	case v.Type == gjson.Null:
		return "null"
	case v.IsArray():
		return "array"
	}
	return "object"
}

// maxDepth bounds JSON nesting: validation recurses, and real payloads nest a few levels.
const maxDepth = 512

// tooDeep reports whether brackets outside strings nest past maxDepth.
func tooDeep(b []byte) bool {
	depth, inString := 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > maxDepth {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

func firstRune(b []byte) rune {
	r, _ := utf8.DecodeRune(b)
	return r
}

// Raw returns the payload exactly as received (surrounding whitespace trimmed).
func (in Input) Raw() []byte { return in.raw }

// Get returns any field by gjson path, including fields this package does not know.
func (in Input) Get(path string) gjson.Result { return gjson.Get(in.json, path) }

func (in Input) str(path string) string { return in.Get(path).String() }

// Event returns hook_event_name.
func (in Input) Event() Name { return in.name }

// Spec returns the table entry of the payload's event; false for an event the table does not know.
func (in Input) Spec() (Spec, bool) { return Lookup(in.name) }

// MatchValue returns the payload value the event's matcher is compared against ("" when none):
// the base name of file_path for FileChanged, to_model without a [1m] suffix for the model
// switch events, the field itself elsewhere.
func (in Input) MatchValue() string {
	s, ok := in.Spec()
	if !ok || s.Matcher == "" {
		return ""
	}
	v := in.str(s.Matcher)
	switch s.Name {
	case FileChanged:
		if i := strings.LastIndexAny(v, `/\`); i >= 0 {
			v = v[i+1:]
		}
	case PreModelSwitch, PostModelSwitch:
		v = strings.TrimSuffix(v, "[1m]")
	}
	return v
}

// Common fields.

func (in Input) SessionID() string      { return in.str("session_id") }
func (in Input) TranscriptPath() string { return in.str("transcript_path") }
func (in Input) Cwd() string            { return in.str("cwd") }
func (in Input) HookEventName() string  { return in.str("hook_event_name") }
func (in Input) PermissionMode() string { return in.str("permission_mode") }
func (in Input) PromptID() string       { return in.str("prompt_id") }

// AgentID is set only inside a subagent: the reliable "am I in a subagent" test.
func (in Input) AgentID() string   { return in.str("agent_id") }
func (in Input) AgentType() string { return in.str("agent_type") }

// Effort returns effort.level ("" when absent).
func (in Input) Effort() string { return in.str("effort.level") }

// InSubagent reports whether the payload comes from inside a subagent.
func (in Input) InSubagent() bool { return in.Get("agent_id").Exists() }
