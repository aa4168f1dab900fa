package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// lastRecords reads the newest files first and stops early, yet finds each hook's newest
// record even when an older file holds it.
func TestLastRecords(t *testing.T) {
	home := t.TempDir()
	at := func(h int) time.Time { return time.Date(2026, 11, 20, h, 0, 0, 0, time.UTC) }
	write := func(project, name string, mod time.Time, lines ...string) {
		dir := filepath.Join(home, "projects", project, "audit")
		os.MkdirAll(dir, 0o700)
		var b []byte
		for _, l := range lines {
			b = append(b, l+"\n"...)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mod, mod)
	}
	// Newest file: SecurityValidator at 10:00, AuditLog at 12:00. An older one holds
	// SecurityValidator at 11:00; one older than the install, a record that does not count.
	write("a", "2026-11-20.jsonl", at(12), `{"time":"2026-11-20T10:00:00Z","hook":"SecurityValidator"}`, `{"time":"2026-11-20T12:00:00Z","hook":"AuditLog"}`)
	write("b", "2026-11-20.jsonl", at(11), `{"time":"2026-11-20T11:00:00.5Z","hook":"SecurityValidator"}`, `not json`, `{"time":"2026-11-20T11:00:00Z","summary":"\"hook\":\"SecretGuard\""}`)
	write("c", "2026-11-19.jsonl", at(1), `{"time":"2026-11-20T00:30:00Z","hook":"SecretGuard"}`)
	since := map[string]time.Time{"SecurityValidator": at(2), "AuditLog": at(2), "SecretGuard": at(2), "LoadContext": at(2)}
	last, err := lastRecords(home, since, at(2))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Time{"SecurityValidator": at(11).Add(500 * time.Millisecond), "AuditLog": at(12)}
	if len(last) != len(want) || !last["SecurityValidator"].Equal(want["SecurityValidator"]) || !last["AuditLog"].Equal(want["AuditLog"]) {
		t.Errorf("last = %v, want %v", last, want)
	}
}
