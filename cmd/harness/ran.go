package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/settings"
)

// recorded are the hooks that leave an audit record whenever they run: AuditLog on every event
// it is wired on, the guards with their verdict on every call.
var recorded = map[string]bool{"AuditLog": true, "SecurityValidator": true, "WriteProtector": true, "SecretGuard": true}

// defaultNeverRanAfter is doctor.never_ran_after's default.
const defaultNeverRanAfter = 24 * time.Hour

// neverRan reports, for each hook installed for Claude Code (in the manifests of homes), whether
// it has appeared in the audit trail of harnessHome since its install: "configured but never
// ran" once doctor.never_ran_after has passed and Claude Code has run a session since.
func neverRan(scopes config.Scopes, homes []string, files map[string]bool, now time.Time) ([]finding, error) {
	harnessHome := scopes.Home
	after := config.Load(scopes).Duration("doctor.never_ran_after", defaultNeverRanAfter)
	since := map[string]time.Time{} // hook -> its earliest install
	where := map[string]string{}    // hook -> a settings file that runs it
	for _, h := range homes {
		m, err := settings.LoadManifest(h)
		if err != nil {
			return nil, err
		}
		fallback := time.Time{}
		if st, err := os.Stat(settings.ManifestPath(h)); err == nil {
			fallback = st.ModTime() // a manifest from before install times were recorded
		}
		for _, rec := range m.Files {
			if rec.Client != "" || files != nil && !files[rec.Path] {
				continue
			}
			at, err := time.Parse(time.RFC3339, rec.Installed)
			if err != nil {
				at = fallback
			}
			for _, e := range rec.Entries {
				if t, ok := since[e.Hook]; !ok || at.Before(t) {
					since[e.Hook], where[e.Hook] = at, rec.Path
				}
			}
		}
	}
	if len(since) == 0 {
		return nil, nil
	}
	hooks := make([]string, 0, len(since))
	earliest := now
	for h, t := range since {
		hooks = append(hooks, h)
		if recorded[h] && t.Before(earliest) {
			earliest = t
		}
	}
	sort.Strings(hooks)
	last, err := lastRecords(harnessHome, since, earliest)
	if err != nil {
		return nil, err
	}
	userHome, _ := os.UserHomeDir()
	sessions := sessionTimes(hook.ClaudeDir(userHome), earliest)
	var out []finding
	for _, h := range hooks {
		f := finding{ID: "ran:" + h, Check: "ran", Hook: h, File: where[h]}
		t := since[h]
		ago := now.Sub(t).Round(time.Minute)
		n := 0
		for _, s := range sessions {
			if s.After(t) {
				n++
			}
		}
		switch {
		case !recorded[h]:
			f.Status, f.Message = "skip", h+" leaves no audit record, so whether it ran cannot be told from the trail"
		case !last[h].IsZero():
			f.Status, f.Message = "ok", fmt.Sprintf("last recorded %s (installed %s)", last[h].UTC().Format(time.RFC3339), t.UTC().Format(time.RFC3339))
		case now.Sub(t) < after:
			f.Status, f.Message = "skip", fmt.Sprintf("installed %s ago: judged once doctor.never_ran_after (%s) has passed", ago, after)
		case n == 0:
			f.Status, f.Message = "skip", fmt.Sprintf("no record since the install %s ago, but Claude Code has run no session since either", ago)
		default:
			f.Status, f.Message = "fail", fmt.Sprintf("configured but never ran: no audit record since the install %s ago, although Claude Code ran %d session(s) since; is %s loaded (claude --debug hooks) and are hooks enabled?", ago, n, where[h])
		}
		out = append(out, f)
	}
	return out, nil
}

// lastRecords finds, in the audit trail, the newest record of each hook since its install. The
// files are read newest first, only those written to since the earliest install, only their
// lines that name a hook, and no further once no older file can hold a newer record.
func lastRecords(harnessHome string, since map[string]time.Time, earliest time.Time) (map[string]time.Time, error) {
	last := map[string]time.Time{}
	names, err := filepath.Glob(filepath.Join(harnessHome, "projects", "*", "audit", "*.jsonl"))
	if err != nil {
		return nil, err
	}
	type file struct {
		name string
		mod  time.Time
	}
	var files []file
	for _, n := range names {
		if st, err := os.Stat(n); err == nil && !st.ModTime().Before(earliest) {
			files = append(files, file{n, st.ModTime()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
	for _, fl := range files {
		done := true
		for h := range since {
			if recorded[h] && last[h].Before(fl.mod) {
				done = false
			}
		}
		if done {
			break
		}
		if err := scanRecords(fl.name, since, last); err != nil {
			return nil, err
		}
	}
	return last, nil
}

// scanRecords updates last with the records of one audit file.
func scanRecords(name string, since, last map[string]time.Time) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("reading the audit trail: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, []byte(`"hook":"`)) {
			continue
		}
		r := gjson.GetManyBytes(line, "hook", "time")
		from, ok := since[r[0].Str]
		if !ok {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, r[1].Str)
		if err == nil && !t.Before(from) && t.After(last[r[0].Str]) {
			last[r[0].Str] = t
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading %s: %w", name, err)
	}
	return nil
}

// sessionTimes are the last-write times of Claude Code's session transcripts written since
// from: the sign that the client ran.
func sessionTimes(claudeDir string, from time.Time) []time.Time {
	names, _ := filepath.Glob(filepath.Join(claudeDir, "projects", "*", "*.jsonl"))
	var out []time.Time
	for _, n := range names {
		if st, err := os.Stat(n); err == nil && st.ModTime().After(from) {
			out = append(out, st.ModTime())
		}
	}
	return out
}
