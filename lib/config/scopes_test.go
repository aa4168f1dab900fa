package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fault is a policy file a repository (or a mistake) could leave in a scope's place.
type fault struct {
	name string
	// make puts the fault at path, or skips the test where it cannot be made.
	make func(t *testing.T, path string)
	// why is what the problem or the error says about it.
	why string
}

// faults are the files a guard must survive in the project scope and refuse in the owner's.
var faults = []fault{
	{"unparsable", func(t *testing.T, p string) { write(t, p, `{`) }, "not valid JSON"},
	{"array", func(t *testing.T, p string) { write(t, p, `[{"rule": true}]`) }, "not a JSON object"},
	{"loosening", func(t *testing.T, p string) { write(t, p, `{"rule": true, "loose": true}`) }, `"loose" loosens the guard`},
	{"rejected half way", func(t *testing.T, p string) { write(t, p, `{"rule": true, "bad": 1}`) }, "bad key"},
	{"oversize", func(t *testing.T, p string) {
		write(t, p, `{"rule": true`+strings.Repeat(" ", MaxFile)+`}`)
	}, "larger than 1048576 bytes"},
	{"directory", func(t *testing.T, p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}, "not a regular file (a folder)"},
	{"FIFO", func(t *testing.T, p string) { mkfifo(t, p) }, "not a regular file (a FIFO)"},
	{"symlink to a FIFO", func(t *testing.T, p string) {
		mkfifo(t, p+".fifo")
		symlink(t, p+".fifo", p)
	}, "not a regular file (a FIFO)"},
	{"symlink to /dev/zero", func(t *testing.T, p string) {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero")
		}
		symlink(t, "/dev/zero", p)
	}, "not a regular file (a device)"},
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symlinks:", err)
	}
}

// within fails the test when f has not returned after a few seconds: a FIFO must never block
// a hook.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("still reading after 5 s")
	}
}

// A project policy file that does not parse, loosens, is rejected, is too large or is not a
// regular file is ignored whole, with a problem naming it and why; the owner's files still
// apply and nothing blocks.
func TestLoadScopesIgnoresABrokenProjectPolicy(t *testing.T) {
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			user, proj := filepath.Join(dir, "user.json"), filepath.Join(dir, "proj", "security.json")
			write(t, user, `{"rule": true}`)
			f.make(t, proj)
			var n int
			var used, problems []string
			var err error
			within(t, func() { used, problems, err = LoadScopes(Files{User: user, Project: proj}, &n, applyLoose) })
			if err != nil || n != 1 || !reflect.DeepEqual(used, []string{user}) {
				t.Errorf("want the user's policy alone: %d rules from %v, %v", n, used, err)
			}
			if len(problems) != 1 || !strings.HasPrefix(problems[0], "project policy file "+proj+" is ignored: ") || !strings.Contains(problems[0], f.why) {
				t.Errorf("problems %q, want one naming %s and %q", problems, proj, f.why)
			}
		})
	}
}

// The same faults in the owner's files fail closed: the guard blocks, naming the file.
func TestLoadScopesBrokenOwnerPolicyFailsClosed(t *testing.T) {
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			sys, user := filepath.Join(dir, "sys.json"), filepath.Join(dir, "home", "security.json")
			write(t, sys, `{"rule": true}`)
			f.make(t, user)
			var n int
			var err error
			within(t, func() { _, _, err = LoadScopes(Files{System: sys, User: user}, &n, applyLoose) })
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != user || !strings.Contains(err.Error(), f.why) {
				t.Errorf("got %v, want a *FileError naming %s and %q", err, user, f.why)
			}
		})
	}
}

// A project whose policy file is the user's own (a project at the home folder, whose
// .claude/harness is the harness home) does not read it twice, nor make it junior.
func TestLoadScopesProjectIsTheUserFile(t *testing.T) {
	user := filepath.Join(t.TempDir(), "security.json")
	write(t, user, `{"rule": true, "loose": true}`)
	var n int
	used, problems, err := LoadScopes(Files{User: user, Project: user}, &n, applyLoose)
	if err != nil || n != 1 || len(problems) != 0 || !reflect.DeepEqual(used, []string{user}) {
		t.Errorf("%d rules from %v, problems %q, %v", n, used, problems, err)
	}
}

// The shared configuration reads its files the same way: a FIFO or a folder in the project's
// place is a problem, never a hang; and a project never sets the keys that watch the guards
// or keep the records.
func TestLoadProjectConfiguration(t *testing.T) {
	root := t.TempDir()
	sc := Scopes{Home: filepath.Join(root, "home"), Project: filepath.Join(root, "proj")}
	write(t, UserPath(sc.Home), `{"summary": {"keep": 300}}`)
	write(t, ProjectPath(sc.Project), `{"context": {"canary": false, "caps": {"total": 5000}}, "summary": {"keep": 1}, "doctor": {"never_ran_after": "10000h"}, "audit": {"ship": {"endpoint": "http://example.com:4318", "batch": 1}}}`)
	c := Load(sc)
	if !c.Bool("context.canary", true) || c.Int("summary.keep", 200) != 300 || c.Duration("doctor.never_ran_after", time.Hour) != time.Hour ||
		c.Get("audit.ship.endpoint").Exists() || c.Int("audit.ship.batch", 512) != 512 {
		t.Errorf("a project set an owner's key: canary %v, keep %d, never_ran_after %v, endpoint %q, batch %d", c.Bool("context.canary", true),
			c.Int("summary.keep", 200), c.Duration("doctor.never_ran_after", time.Hour), c.Get("audit.ship.endpoint").Str, c.Int("audit.ship.batch", 512))
	}
	if c.Int("context.caps.total", 8000) != 5000 {
		t.Errorf("context.caps.total = %d, want the project's 5000", c.Int("context.caps.total", 8000))
	}
	var keys []string
	for _, p := range c.Problems {
		if k, ok := strings.CutSuffix(strings.TrimPrefix(p, ProjectPath(sc.Project)+": "), " is read from the user and system configuration only, never a project's; ignored"); ok {
			keys = append(keys, k)
		}
	}
	if want := []string{"context.canary", "summary.keep", "doctor.never_ran_after", "audit.ship.endpoint", "audit.ship.batch"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("reported keys %q, want %q (problems %q)", keys, want, c.Problems)
	}

	for _, f := range faults[5:] { // not regular files
		t.Run(f.name, func(t *testing.T) {
			sc := Scopes{Project: t.TempDir()}
			f.make(t, ProjectPath(sc.Project))
			var c *Config
			within(t, func() { c = Load(sc) })
			if len(c.Problems) != 1 || !strings.Contains(c.Problems[0], f.why) {
				t.Errorf("problems %q, want one saying %q", c.Problems, f.why)
			}
		})
	}
}
