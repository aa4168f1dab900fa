package tests

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// wiring is one hook on one event as settings.json declares it or --describe reports it.
type wiring struct {
	Hook    string
	Event   event.Name
	Matcher string
	Timeout int
}

// The repository's settings.json is valid Claude Code settings with a matcher (where the event
// has one) and a timeout on every entry, and it wires exactly what the hooks describe.
func TestDefaultSettingsMatchTheHooks(t *testing.T) {
	raw, err := os.ReadFile("../settings.json")
	if err != nil {
		t.Fatal(err)
	}
	if !gjson.ValidBytes(raw) {
		t.Fatal("settings.json is not valid JSON")
	}
	hooks := gjson.GetBytes(raw, "hooks")
	if !hooks.IsObject() {
		t.Fatal("settings.json has no hooks object")
	}
	var declared []wiring
	hooks.ForEach(func(ev, groups gjson.Result) bool {
		spec, ok := event.Lookup(event.Name(ev.Str))
		if !ok {
			t.Errorf("settings.json: %q is not a hook event", ev.Str)
			return true
		}
		for _, g := range groups.Array() {
			m := g.Get("matcher")
			if spec.Matcher != "" && m.Str == "" {
				t.Errorf("settings.json: a %s group has no matcher", ev.Str)
			}
			if spec.Matcher == "" && m.Exists() {
				t.Errorf("settings.json: %s takes no matcher", ev.Str)
			}
			for _, h := range g.Get("hooks").Array() {
				if h.Get("type").Str != "command" || h.Get("timeout").Int() <= 0 {
					t.Errorf("settings.json: %s handler %s needs type command and a timeout", ev.Str, h.Raw)
				}
				declared = append(declared, wiring{strings.Trim(filepath.Base(h.Get("command").Str), `"`), spec.Name, m.Str, int(h.Get("timeout").Int())})
			}
		}
		return true
	})

	var described []wiring
	for pkg := range deps(t, "../hooks/...") {
		name := filepath.Base(pkg)
		d := describe(t, name)
		for _, e := range d.Events {
			described = append(described, wiring{d.Name, e.Event, e.Matcher, e.Timeout})
		}
	}
	key := func(a, b wiring) int {
		return strings.Compare(a.Hook+string(a.Event)+a.Matcher, b.Hook+string(b.Event)+b.Matcher)
	}
	slices.SortFunc(declared, key)
	slices.SortFunc(described, key)
	if !slices.Equal(declared, described) {
		t.Errorf("settings.json and the hooks' --describe disagree:\nsettings.json: %+v\n--describe:    %+v", declared, described)
	}
}
