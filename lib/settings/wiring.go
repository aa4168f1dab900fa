package settings

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/object"
)

// Wiring is one hook handler the default settings declare: which binary, on which event and
// matcher, with which handler fields (timeout, onFailure, statusMessage).
type Wiring struct {
	Hook, Event, Matcher string
	// Path, when set, is the program to run instead of the hook's binary in the bin directory
	// (an imported hook that is not one of ours).
	Path string
	// Handler is the handler object as the defaults write it.
	Handler string
}

// ParseWiring reads the default wiring (the repository's settings.json): every command handler,
// named by the base name of its command.
func ParseWiring(defaults []byte) ([]Wiring, error) {
	if !Valid(defaults) {
		return nil, fmt.Errorf("the default wiring is not a JSON object")
	}
	var out []Wiring
	var err error
	gjson.GetBytes(defaults, "hooks").ForEach(func(ev, groups gjson.Result) bool {
		for _, g := range groups.Array() {
			for _, h := range g.Get("hooks").Array() {
				cmd := strings.Trim(h.Get("command").Str, `"'`)
				if h.Get("type").Str != "command" || cmd == "" {
					err = fmt.Errorf("the default wiring for %s has a handler without a command", ev.Str)
					return false
				}
				out = append(out, Wiring{Hook: filepath.Base(cmd), Event: ev.Str, Matcher: g.Get("matcher").Str, Handler: h.Raw})
			}
		}
		return true
	})
	return out, err
}

// Form is how a handler runs its command.
type Form int

const (
	// Exec starts the binary directly (command + args): no shell, no quoting.
	Exec Form = iota
	// Shell runs the command through sh -c, the path quoted.
	Shell
)

// Places are the harness's folders as an install resolved them, written on every hook's
// command line: a hook reads them from there and from no environment variable.
type Places struct {
	// Home is the harness home ("" for a managed install: each user has their own).
	Home string
	// SystemDir is the administrator's scope ("" or the compiled default: not written).
	SystemDir string
}

// Args are the runtime flags that say the places (lib/hook's Setup).
func (p Places) Args() []string {
	var args []string
	if p.Home != "" {
		args = append(args, "--home="+p.Home)
	}
	if p.SystemDir != "" && p.SystemDir != config.DefaultSystemDir() {
		args = append(args, "--system-dir="+p.SystemDir)
	}
	return args
}

// shellArgs are args for sh -c, each quoted only where the shell would read it otherwise.
func shellArgs(args []string) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteByte(' ')
		if strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") != "" {
			a = ShellQuote(a)
		}
		b.WriteString(a)
	}
	return b.String()
}

// Group renders the matcher group that runs the wiring's hook from binDir.
func (w Wiring) Group(binDir string, form Form, onFailure bool, at Places) ([]byte, error) {
	bin := w.Program(binDir)
	// Our hooks are told the timeout they are installed with, so their own deadline stays
	// below it, and the harness's folders; a program imported with --from gets no arguments.
	timeout := gjson.Get(w.Handler, "timeout").Int()
	var args []string
	if w.Path == "" {
		if timeout > 0 {
			args = []string{"--timeout=" + strconv.FormatInt(timeout, 10)}
		}
		args = append(args, at.Args()...)
	}
	// The handler keeps the defaults' key order; args follows command.
	var h object.Object
	gjson.Parse(w.Handler).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "command":
			if form == Exec {
				h.Set("command", bin)
				h.Set("args", append([]string{}, args...))
			} else {
				h.Set("command", ShellQuote(bin)+shellArgs(args))
			}
		case "args":
		case "onFailure":
			if onFailure {
				h.Set(k.Str, object.Raw(v.Raw))
			}
		default:
			h.Set(k.Str, object.Raw(v.Raw))
		}
		return true
	})
	return MatcherGroup(w.Matcher, h)
}

// MatcherGroup renders a matcher group holding the one handler h: {"matcher": M, "hooks": [h]},
// without the matcher where it is "" (an event that takes none).
func MatcherGroup(matcher string, h object.Object) ([]byte, error) {
	g := `{"hooks":[]}`
	if matcher != "" {
		g, _ = sjson.Set(`{}`, "matcher", matcher)
		g, _ = sjson.SetRaw(g, "hooks", "[]")
	}
	g, err := sjson.SetRaw(g, "hooks.-1", string(h.AppendJSON(nil)))
	return []byte(g), err
}

// Program is the path the wiring runs.
func (w Wiring) Program(binDir string) string {
	if w.Path != "" {
		return w.Path
	}
	return filepath.Join(binDir, w.Hook)
}

// ShellQuote quotes a path for sh -c: single quotes, with ' as '\”.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ClientEntries renders the wiring for a client other than Claude Code, one entry per matcher
// the client needs (dialect.Matchers: its own tool names where it has no aliases, one group per
// SessionStart source where it compares them whole), none when the client has no such event.
// The handler is shell form, since these clients ignore args, and holds only type, command and
// timeout (in the client's unit): no client has onFailure. The command names the client, and
// the timeout in seconds, so that the hook's own deadline stays below the client's.
func (w Wiring) ClientEntries(binDir string, d *dialect.Dialect, at Places) ([]Entry, error) {
	name, ok := d.Event(event.Name(w.Event))
	if !ok {
		return nil, nil
	}
	secs := gjson.Get(w.Handler, "timeout").Int()
	if secs <= 0 {
		secs = 60
	}
	cmd := ShellQuote(w.Program(binDir)) + shellArgs(append([]string{"--client=" + string(d.Client), "--timeout=" + strconv.FormatInt(secs, 10)}, at.Args()...))
	h, err := sjson.Set(`{"type":"command"}`, "command", cmd)
	if err != nil {
		return nil, err
	}
	if h, err = sjson.Set(h, "timeout", d.Timeout(int(secs))); err != nil {
		return nil, err
	}
	var out []Entry
	for _, m := range d.Matchers(event.Name(w.Event), w.Matcher) {
		g := `{"hooks":[]}`
		if m != "" {
			g, _ = sjson.Set(`{}`, "matcher", m)
			g, _ = sjson.SetRaw(g, "hooks", "[]")
		}
		if g, err = sjson.SetRaw(g, "hooks.-1", h); err != nil {
			return nil, err
		}
		out = append(out, Entry{Hook: w.Hook, Event: name, Matcher: m, Group: []byte(g)})
	}
	return out, nil
}
