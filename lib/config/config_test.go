package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The system scope gives defaults that the user and the project override key by key, except the
// locked keys it sets: those stay the system's, and a lower scope that sets one is told so.
func TestLoadSystemScope(t *testing.T) {
	root := t.TempDir()
	sc := Scopes{System: filepath.Join(root, "etc"), Home: filepath.Join(root, "home"), Project: filepath.Join(root, "proj")}
	home, proj := sc.Home, sc.Project
	user := Scopes{System: sc.System, Home: home}
	write(t, sc.SystemPath(), `{"context": {"canary": true, "caps": {"total": 4000, "wip": 900}}, "summary": {"keep": 50}, "doctor": {"never_ran_after": "36h"}}`)
	write(t, UserPath(home), `{"context": {"canary": false, "caps": {"total": 6000}}, "doctor": {"never_ran_after": "1000h"}}`)
	write(t, ProjectPath(proj), `{"summary": {"keep": 10}}`)
	c := Load(sc)
	if got := c.Int("context.caps.total", 8000); got != 6000 {
		t.Errorf("context.caps.total = %d, want the user's 6000 over the system's default", got)
	}
	if got := c.Int("context.caps.wip", 1500); got != 900 {
		t.Errorf("context.caps.wip = %d, want the system's 900", got)
	}
	if got := c.Int("summary.keep", 200); got != 50 {
		t.Errorf("summary.keep = %d, want the system's 50: a project never lowers the retention", got)
	}
	if !c.Bool("context.canary", true) || c.Duration("doctor.never_ran_after", 24*time.Hour) != 36*time.Hour {
		t.Errorf("locked keys: canary %v, never_ran_after %v", c.Bool("context.canary", true), c.Duration("doctor.never_ran_after", 0))
	}
	want := []string{
		UserPath(home) + ": context.canary is locked by the system configuration " + sc.SystemPath() + "; ignored",
		UserPath(home) + ": doctor.never_ran_after is locked by the system configuration " + sc.SystemPath() + "; ignored",
		ProjectPath(proj) + ": summary.keep is read from the user and system configuration only, never a project's; ignored",
	}
	if !reflect.DeepEqual(c.Problems, want) {
		t.Errorf("problems:\n%q\nwant\n%q", c.Problems, want)
	}

	// The organisation's audit endpoint is locked too: a user cannot send the trail elsewhere.
	write(t, sc.SystemPath(), `{"audit": {"ship": {"endpoint": "https://otel.example.com:4318"}}}`)
	write(t, UserPath(home), `{"audit": {"ship": {"endpoint": "http://127.0.0.1:9", "batch": 64}}}`)
	c = Load(user)
	if got := c.Get("audit.ship.endpoint").Str; got != "https://otel.example.com:4318" || c.Int("audit.ship.batch", 512) != 64 {
		t.Errorf("audit.ship.endpoint = %q, batch %d: want the system's endpoint and the user's batch", got, c.Int("audit.ship.batch", 512))
	}
	if len(c.Problems) != 1 || !strings.Contains(c.Problems[0], "audit.ship.endpoint is locked") {
		t.Errorf("problems: %q", c.Problems)
	}

	// Without a system file, nothing is locked and the user decides.
	write(t, UserPath(home), `{"context": {"canary": false, "caps": {"total": 6000}}, "doctor": {"never_ran_after": "1000h"}}`)
	os.Remove(sc.SystemPath())
	c = Load(user)
	if c.Bool("context.canary", true) || c.Duration("doctor.never_ran_after", 0) != 1000*time.Hour || len(c.Problems) != 0 {
		t.Errorf("no system scope: canary %v, never_ran_after %v, problems %q", c.Bool("context.canary", true), c.Duration("doctor.never_ran_after", 0), c.Problems)
	}
	// A duration that does not parse is reported and falls back to the default.
	write(t, UserPath(home), `{"doctor": {"never_ran_after": "a day"}}`)
	c = Load(user)
	if c.Duration("doctor.never_ran_after", 24*time.Hour) != 24*time.Hour || len(c.Problems) != 1 || !strings.Contains(c.Problems[0], `should be a positive duration such as "24h"`) {
		t.Errorf("bad duration: %v, %q", c.Duration("doctor.never_ran_after", 24*time.Hour), c.Problems)
	}
}

// LoadScopes hands each file its scope; the senior one (system, else user) may loosen, the
// others get an error naming who decides.
func TestLoadScopesSenior(t *testing.T) {
	dir := t.TempDir()
	sys, user, proj := filepath.Join(dir, "sys.json"), filepath.Join(dir, "user.json"), filepath.Join(dir, "proj.json")
	for _, f := range []string{user, proj} {
		write(t, f, `{"loose": true}`)
	}
	var p int
	used, _, err := LoadScopes(Files{System: sys, User: user}, &p, applyLoose)
	if err != nil || !reflect.DeepEqual(used, []string{user}) {
		t.Errorf("no system file, the user loosens: %v, %v", used, err)
	}
	used, problems, err := LoadScopes(Files{User: user, Project: proj}, &p, applyLoose)
	if err != nil || !reflect.DeepEqual(used, []string{user}) || !reflect.DeepEqual(problems, []string{"project policy file " + proj + ` is ignored: "loose" loosens the guard, and a project policy may only tighten it; put it in the user policy`}) {
		t.Errorf("project: %v, %q, %v", used, problems, err)
	}
	write(t, sys, `{"loose": true}`)
	_, _, err = LoadScopes(Files{System: sys, User: user}, &p, applyLoose)
	if err == nil || err.Error() != "policy file "+user+`: "loose" loosens the guard, and a user policy may only tighten it: the system policy `+sys+" decides that" {
		t.Errorf("user under a system policy: %v", err)
	}
	write(t, user, `{}`)
	used, _, err = LoadScopes(Files{System: sys, User: user}, &p, applyLoose)
	if err != nil || !reflect.DeepEqual(used, []string{sys, user}) {
		t.Errorf("system loosens, user tightens: %v, %v", used, err)
	}
}

// applyLoose counts the rules ("rule": true) of each file it applies, and refuses a file that
// sets "loose" where it may not or that sets "bad".
func applyLoose(n *int, doc gjson.Result, s Scope) error {
	if doc.Get("rule").Bool() {
		*n++
	}
	if doc.Get("loose").Bool() {
		return s.Loosens(`"loose"`)
	}
	if doc.Get("bad").Exists() {
		return errors.New("bad key")
	}
	return nil
}
