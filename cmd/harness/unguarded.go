package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/settings"
)

// unguardedWindow is how far back doctor looks for sessions that ran with no harness hook.
const unguardedWindow = 30 * 24 * time.Hour

// transcriptPeek caps what is read of one transcript: the first tool call is all it needs.
const transcriptPeek = 4 << 20

// unguardedShown caps the sessions doctor names one by one; the rest are counted.
const unguardedShown = 10

// everySession are the events on which a recording hook runs in every session that makes a
// tool call, whatever the tool: with one of them installed, a session with tool calls and no
// record ran without the harness.
var everySession = map[string]bool{"SessionStart": true, "UserPromptSubmit": true}

// unguardedSession is a Claude Code session that made tool calls while no harness hook ran.
type unguardedSession struct {
	ID, Project, Transcript string
	At                      time.Time // its first tool call after the window opened
	Why, WhyFile            string    // disableAllHooks and the file that sets it, when found
}

// unguardedCheck is the window and transcripts of the check, or why it does not apply.
type unguardedCheck struct {
	Since     time.Time // the later of the window's start and the user-scope install
	ClaudeDir string
	Skip      string
}

// unguardedScope decides whether the check applies: only to an install of Claude Code's hooks
// in the user's own settings (claudeDir/settings.json, recorded in harnessHome's manifest) with
// a recording hook on an event every session has. Hooks there are what a project's
// disableAllHooks turns off; a managed install's are not.
func unguardedScope(harnessHome, claudeDir string, now time.Time) (unguardedCheck, error) {
	c := unguardedCheck{Since: now.Add(-unguardedWindow), ClaudeDir: claudeDir}
	m, err := settings.LoadManifest(harnessHome)
	if err != nil {
		return c, err
	}
	user := filepath.Join(claudeDir, "settings.json")
	if real, err := filepath.EvalSymlinks(user); err == nil {
		user = real
	}
	var at time.Time
	found, recording := false, false
	for _, rec := range m.Files {
		path := rec.Path
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
		if rec.Client != "" || path != user {
			continue
		}
		found = true
		for _, e := range rec.Entries {
			if recorded[e.Hook] && everySession[e.Event] {
				recording = true
			}
		}
		if t, err := time.Parse(time.RFC3339, rec.Installed); err == nil && (at.IsZero() || t.Before(at)) {
			at = t
		}
	}
	switch {
	case !found:
		c.Skip = "no hooks installed in Claude Code's user settings: sessions without them are not looked for"
	case !recording:
		c.Skip = "no installed hook records every session (AuditLog on SessionStart or UserPromptSubmit), so a session without the harness cannot be told from the trail"
	case at.After(c.Since):
		c.Since = at
	}
	return c, nil
}

// unguarded finds the Claude Code sessions since c.Since whose transcript shows a tool call
// but whose session id appears nowhere in the audit trail of harnessHome, newest first, with
// why where their project's settings say (disableAllHooks). Best-effort: a session can delete
// or rewrite its own transcript.
func unguarded(harnessHome string, c unguardedCheck) []unguardedSession {
	names, _ := filepath.Glob(filepath.Join(c.ClaudeDir, "projects", "*", "*.jsonl"))
	candidates := map[string]*unguardedSession{}
	earliest := time.Time{}
	for _, n := range names {
		id := strings.TrimSuffix(filepath.Base(n), ".jsonl")
		if strings.HasPrefix(id, "agent-") { // an older client's subagent transcript
			continue
		}
		st, err := os.Stat(n)
		if err != nil || st.ModTime().Before(c.Since) {
			continue
		}
		cwd, at, ok := firstToolCall(n, c.Since, st.ModTime())
		if !ok {
			continue
		}
		candidates[id] = &unguardedSession{ID: id, Project: cwd, Transcript: n, At: at}
		if earliest.IsZero() || at.Before(earliest) {
			earliest = at
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	sessionsRecorded(harnessHome, earliest, candidates)
	out := make([]unguardedSession, 0, len(candidates))
	for _, s := range candidates {
		s.Why, s.WhyFile = hooksOffReason(s.Project, c.ClaudeDir)
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	return out
}

// firstToolCall reads a transcript up to its first tool call at or after since (within
// transcriptPeek bytes): the session's folder (cwd) and the call's time. A line with no time
// takes the file's.
func firstToolCall(name string, since, mod time.Time) (cwd string, at time.Time, ok bool) {
	f, err := os.Open(name)
	if err != nil {
		return "", time.Time{}, false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, transcriptPeek))
	sc.Buffer(make([]byte, 64<<10), transcriptPeek)
	for sc.Scan() {
		line := sc.Bytes()
		if cwd == "" && bytes.Contains(line, []byte(`"cwd":`)) {
			cwd = gjson.GetBytes(line, "cwd").String()
		}
		if !bytes.Contains(line, []byte(`"tool_use"`)) {
			continue
		}
		r := gjson.ParseBytes(line)
		if r.Get("type").String() != "assistant" || !r.Get(`message.content.#(type=="tool_use")`).Exists() {
			continue
		}
		at = mod
		if t, err := time.Parse(time.RFC3339Nano, r.Get("timestamp").String()); err == nil {
			at = t
		}
		if at.Before(since) {
			continue
		}
		if c := r.Get("cwd").String(); c != "" {
			cwd = c
		}
		return cwd, at, true
	}
	return "", time.Time{}, false
}

// sessionsRecorded removes from candidates every session the audit trail has a record of,
// reading only files written to since from, newest first, and no further once none is left.
func sessionsRecorded(harnessHome string, from time.Time, candidates map[string]*unguardedSession) {
	names, _ := filepath.Glob(filepath.Join(harnessHome, "projects", "*", "audit", "*.jsonl"))
	type file struct {
		name string
		mod  time.Time
	}
	var files []file
	for _, n := range names {
		if st, err := os.Stat(n); err == nil && !st.ModTime().Before(from) {
			files = append(files, file{n, st.ModTime()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
	key := []byte(`"session":"`)
	for _, fl := range files {
		if len(candidates) == 0 {
			return
		}
		f, err := os.Open(fl.name)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			i := bytes.Index(line, key)
			if i < 0 {
				continue
			}
			rest := line[i+len(key):]
			if j := bytes.IndexByte(rest, '"'); j > 0 {
				delete(candidates, string(rest[:j]))
			}
		}
		f.Close()
	}
}

// hooksOffReason says why hooks were off in a project, as its settings say now: the last of
// the user's, the project's and the project's local settings that sets disableAllHooks (the
// client's precedence), when that one sets it true.
func hooksOffReason(project, claudeDir string) (why, file string) {
	files := []string{filepath.Join(claudeDir, "settings.json")}
	if project != "" {
		files = append(files, filepath.Join(project, ".claude", "settings.json"), filepath.Join(project, ".claude", "settings.local.json"))
	}
	off, where := false, ""
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if v := gjson.GetBytes(data, "disableAllHooks"); v.Exists() {
			off, where = v.Bool(), f
		}
	}
	if !off {
		return "", ""
	}
	return fmt.Sprintf(`"disableAllHooks": true in %s`, where), where
}

// unguardedFindings are doctor's rows for the check: one per session (the newest
// unguardedShown), one for the rest, or one that says none was found or why it was not looked for.
func unguardedFindings(harnessHome, claudeDir string, now time.Time) ([]finding, error) {
	c, err := unguardedScope(harnessHome, claudeDir, now)
	if err != nil {
		return nil, err
	}
	if c.Skip != "" {
		return []finding{{ID: "unguarded", Check: "unguarded", Status: "skip", Message: c.Skip}}, nil
	}
	found := unguarded(harnessHome, c)
	if len(found) == 0 {
		return []finding{{ID: "unguarded", Check: "unguarded", Status: "ok",
			Message: fmt.Sprintf("no Claude Code session since %s made tool calls with no harness hook running (best-effort: from the client's transcripts, which a session can delete)", c.Since.UTC().Format(time.RFC3339))}}, nil
	}
	var out []finding
	for i, s := range found {
		if i == unguardedShown {
			out = append(out, finding{ID: "unguarded:more", Check: "unguarded", Status: "warn",
				Message: fmt.Sprintf("and %d more session(s) with tool calls and no harness hook running", len(found)-i)})
			break
		}
		why := "why is not found in its settings now (they may have changed, or the session ran with --settings, --bare or --safe-mode)"
		if s.Why != "" {
			why = "hooks were off: " + s.Why
		}
		project := s.Project
		if project == "" {
			project = "an unknown folder (transcript " + s.Transcript + ")"
		}
		out = append(out, finding{ID: "unguarded:" + s.ID, Check: "unguarded", Status: "warn", File: s.WhyFile,
			Message: fmt.Sprintf("session %s in %s made tool calls from %s with no harness hook running; %s. Hooks in user or project settings can be switched off by a project; `harness install --managed` puts them where they cannot be (best-effort: from the client's transcripts, which a session can delete)",
				s.ID, project, s.At.UTC().Format(time.RFC3339), why)})
	}
	return out, nil
}

// statusUnguarded is harness status's one line on the check: how many sessions of the window
// made tool calls with no harness hook running, and the newest one's project and reason.
func statusUnguarded(w io.Writer, harnessHome string) {
	userHome, _ := os.UserHomeDir()
	c, err := unguardedScope(harnessHome, hook.ClaudeDir(userHome), time.Now())
	if err != nil || c.Skip != "" {
		return
	}
	found := unguarded(harnessHome, c)
	if len(found) == 0 {
		return
	}
	s := found[0]
	why := ""
	if s.Why != "" {
		why = ", " + s.Why
	}
	fmt.Fprintf(w, "unguarded: %d Claude Code session(s) since %s made tool calls with no harness hook running (the newest in %s%s); `harness doctor` names them, `harness install --managed` closes this\n",
		len(found), c.Since.UTC().Format("2006-01-02"), cmp.Or(s.Project, "an unknown folder"), why)
}
