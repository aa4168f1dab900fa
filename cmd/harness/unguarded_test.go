package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// firstToolCall finds the first tool call at or after the window's start, takes the file's
// time for a line with none, and reads no further than transcriptPeek.
func TestFirstToolCall(t *testing.T) {
	dir := t.TempDir()
	since := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	mod := since.Add(time.Hour)
	call := func(ts string) string {
		return `{"type":"assistant","cwd":"/p","timestamp":"` + ts + `","message":{"content":[{"type":"tool_use","name":"Bash"}]}}` + "\n"
	}
	for _, c := range []struct {
		name, text string
		ok         bool
		at         time.Time
	}{
		{"before-then-after", call("2026-10-30T00:00:00Z") + call("2026-11-02T00:00:00Z"), true, since.Add(24 * time.Hour)},
		{"no-time", `{"type":"assistant","cwd":"/p","message":{"content":[{"type":"tool_use"}]}}` + "\n", true, mod},
		{"text-only", `{"type":"user","cwd":"/p","message":{"content":"\"type\":\"tool_use\""}}` + "\n", false, time.Time{}},
		{"past-the-peek", `{"type":"user","cwd":"/p","pad":"` + strings.Repeat("x", transcriptPeek) + `"}` + "\n" + call("2026-11-02T00:00:00Z"), false, time.Time{}},
	} {
		p := filepath.Join(dir, c.name+".jsonl")
		os.WriteFile(p, []byte(c.text), 0o600)
		cwd, at, ok := firstToolCall(p, since, mod)
		if ok != c.ok || ok && (cwd != "/p" || !at.Equal(c.at)) {
			t.Errorf("%s: %q %v %v, want ok %v at %v", c.name, cwd, at, ok, c.ok, c.at)
		}
	}
}

// sessionsRecorded drops every candidate the audit trail names, whatever the hook.
func TestSessionsRecorded(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "k", "audit")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "2026-11-02.jsonl"), []byte(`{"time":"2026-11-02T00:00:00Z","session":"a","hook":"AuditLog"}`+"\n"+`not json "session":"b`+"\n"), 0o600)
	c := map[string]*unguardedSession{"a": {}, "b": {}, "c": {}}
	sessionsRecorded(home, time.Time{}, c)
	if len(c) != 2 || c["b"] == nil || c["c"] == nil {
		t.Errorf("left %v, want b and c", c)
	}
}
