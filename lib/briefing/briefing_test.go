package briefing

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/summary"
	"github.com/hookkit/harness/lib/transcript"
)

// Cap never exceeds its limit, never splits a rune, and always shows its marker.
func TestCap(t *testing.T) {
	text := strings.Repeat("héllo wörld ✓ ", 200)
	for max := len(truncationMarker); max < 300; max++ {
		got := Cap(text, max)
		if len(got) > max || !utf8.ValidString(got) || !strings.HasSuffix(got, truncationMarker) {
			t.Fatalf("Cap(%d) = %q (%d bytes)", max, got, len(got))
		}
	}
	if Cap("short", 100) != "short" {
		t.Error("a short text changed")
	}
}

// The project's file overrides the user's key by key; bad values fall back to the defaults and
// are reported, as are unknown keys.
func TestConfigScopes(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	os.WriteFile(config.UserPath(home), []byte(`{"context":{"caps":{"total":5000,"shape":100},"sections":{"wip":false},"prompt_files":["A.md"]}}`), 0o644)
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.WriteFile(config.ProjectPath(proj), []byte(`{"$schema":"x","context":{"caps":{"total":3000,"wip":"big"},"sections":{"wip":true},"secions":{}},"context.canary":false}`), 0o644)
	c := config.Load(config.Scopes{Home: home, Project: proj})
	if c.Int("context.caps.total", 1) != 3000 || c.Int("context.caps.shape", 1) != 100 || c.Int("context.caps.wip", 7) != 7 {
		t.Errorf("caps: total %d shape %d wip %d", c.Int("context.caps.total", 1), c.Int("context.caps.shape", 1), c.Int("context.caps.wip", 7))
	}
	if !c.Bool("context.sections.wip", false) || strings.Join(c.Strings("context.prompt_files", nil), ",") != "A.md" {
		t.Error("project override or user value lost")
	}
	// The bad value and the misspelt key are reported, each once, naming the file and the key.
	want := []string{config.ProjectPath(proj) + ": context.caps.wip should be a positive whole number; using its default",
		config.ProjectPath(proj) + ": unknown key context.secions, ignored",
		config.ProjectPath(proj) + `: "context.canary" is read as nested keys: write it as {"context": {...}}, ignored`}
	if strings.Join(c.Problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(c.Problems, "\n"), strings.Join(want, "\n"))
	}
}

// A command that does not answer in time costs its section, not the briefing.
func TestSlowCommandCostsItsSection(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	slow := []byte("#!/bin/sh\nexec " + sleep + " 5\n")
	os.WriteFile(filepath.Join(bin, "git"), slow, 0o755)
	os.WriteFile(filepath.Join(bin, "go"), slow, 0o755)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644)
	t.Setenv("PATH", bin)
	var debug strings.Builder
	start := time.Now()
	out := Build(context.Background(), Options{Project: dir, Config: &config.Config{}, Debug: &debug, ClaudeCode: true})
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %v", took)
	}
	if !strings.Contains(out, "## Project") || strings.Contains(out, "Work in progress") || !strings.Contains(debug.String(), "no answer within") {
		t.Errorf("briefing:\n%s\ndebug:\n%s", out, debug.String())
	}
}

// BenchmarkBriefing builds the whole briefing on a repository with 10,000 files and 5,000
// commits (made with git fast-import), work in progress and an upstream. Target: well under
// a second.
//
//	go test ./lib/briefing -run '^$' -bench Briefing -benchtime 5x
func BenchmarkBriefing(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	dir := b.TempDir()
	repo := filepath.Join(dir, "repo")
	git := func(stdin string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@x", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.MkdirAll(repo, 0o755)
	git("", "init", "-q", "-b", "main")
	var fi strings.Builder
	// The first commit holds 10,000 files in 100 folders; 4,999 more each change one file.
	fmt.Fprintf(&fi, "blob\nmark :1\ndata 6\nhello\n")
	fmt.Fprintf(&fi, "commit refs/heads/main\nmark :2\ncommitter b <b@x> 1700000000 +0000\ndata 5\nfirst\n")
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&fi, "M 100644 :1 dir%02d/file%05d.txt\n", i%100, i)
	}
	for c := 1; c < 5000; c++ {
		fmt.Fprintf(&fi, "commit refs/heads/main\ncommitter b <b@x> %d +0000\ndata 9\ncommit %02d\nM 100644 inline dir%02d/file%05d.txt\ndata 3\n%02d\n\n", 1700000000+c, c%100, c%100, c, c%100)
	}
	git(fi.String(), "fast-import", "--quiet")
	git("", "checkout", "-q", "-f", "main")
	git("", "clone", "-q", "--bare", ".", filepath.Join(dir, "remote.git"))
	git("", "remote", "add", "origin", filepath.Join(dir, "remote.git"))
	git("", "fetch", "-q", "origin")
	git("", "branch", "-q", "--set-upstream-to=origin/main")
	os.WriteFile(filepath.Join(repo, "dir00", "file00000.txt"), []byte("changed\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "new.txt"), []byte("new\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n"), 0o644)
	b.ResetTimer()
	var out string
	for i := 0; i < b.N; i++ {
		out = Build(context.Background(), Options{Project: repo, Config: &config.Config{}, Now: time.Now()})
	}
	b.StopTimer()
	if !strings.Contains(out, "Uncommitted changes against HEAD: 1 file changed") || !strings.Contains(out, "Top level (102 entries)") {
		b.Fatalf("briefing:\n%s", out)
	}
}

// Continuity names the subagents and what was left open in the last todo list.
func TestContinuityLeftOpen(t *testing.T) {
	hh, proj := t.TempDir(), t.TempDir()
	d := summary.Doc{Summary: transcript.Summary{Session: "s-prev", Project: proj, End: "2026-11-21T10:00:00Z", Tools: map[string]int{"Agent": 1},
		Subagents: []transcript.Subagent{{Type: "general-purpose", Description: "survey the tests", Result: "\nThree suites fail.\nDetails..."}},
		Open:      transcript.List{Items: []string{"fix the flaky test", "update the README"}, Total: 2}}}
	if err := summary.Open(hh, proj, 0).Save(d); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{}
	got := Build(context.Background(), Options{Project: proj, HarnessHome: hh, Session: "s-now", Source: "startup", ClaudeCode: true, Config: cfg})
	for _, want := range []string{"Subagents: general-purpose: survey the tests -> Three suites fail.\n", "Left open (the last todo list): fix the flaky test; update the README\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// A previous session whose transcript could not be read says so, not "no tool calls".
func TestContinuityUnreadable(t *testing.T) {
	hh, proj := t.TempDir(), t.TempDir()
	d := summary.Doc{Summary: transcript.Summary{Session: "s-prev", Project: proj, End: "2026-11-21T10:00:00Z",
		Unreadable: "transcript format not supported: /home/dev/.x/t.jsonl"}}
	if err := summary.Open(hh, proj, 0).Save(d); err != nil {
		t.Fatal(err)
	}
	got := Build(context.Background(), Options{Project: proj, HarnessHome: hh, Session: "s-now", Source: "startup", ClaudeCode: true, Config: &config.Config{}})
	if !strings.Contains(got, "Not summarised: transcript format not supported: /home/dev/.x/t.jsonl.\n") || strings.Contains(got, "Tool calls:") {
		t.Errorf("continuity:\n%s", got)
	}
}

// A previous session whose transcript grew after its summary was written (Qwen Code writes
// its chat behind its Stop hook) is brought up to date before it is shown; out of time, it is
// shown as it was and the debug writer says so.
func TestContinuityCatchesUp(t *testing.T) {
	full, err := os.ReadFile("../transcript/testdata/qwen/a02c5976-e498-43a4-8d11-f6876d7f08d6.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	hh, proj, dir := t.TempDir(), t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "chat.jsonl")
	lines := strings.SplitAfter(string(full), "\n")
	// Stop saw the session up to its fifth tool call's result.
	os.WriteFile(path, []byte(strings.Join(lines[:24], "")), 0o600)
	store := summary.Open(hh, proj, 0)
	stop := func() {
		sum, cp, err := transcript.Fold(path, store.Checkpoint("s-prev"), func() *transcript.State { return transcript.New("s-prev", proj, "/home/dev") })
		if err != nil {
			t.Fatal(err)
		}
		store.SaveCheckpoint("s-prev", cp)
		if err := store.Save(summary.Doc{Summary: sum, Transcript: path, TranscriptBytes: cp.Size}); err != nil {
			t.Fatal(err)
		}
	}
	stop()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(strings.Join(lines[24:], ""))
	f.Close()
	var debug strings.Builder
	o := Options{Project: proj, HarnessHome: hh, Home: "/home/dev", Session: "s-now", Source: "startup", ClaudeCode: true, Config: &config.Config{}, Debug: &debug}
	if got := Build(context.Background(), o); !strings.Contains(got, "Tool calls: Bash 4; Write 3\n") {
		t.Errorf("continuity, not caught up:\n%s\n%s", got, debug.String())
	}
	if d, ok := store.Load("s-prev"); !ok || d.ToolCalls != 7 {
		t.Errorf("the summary on disk has %d tool calls", d.ToolCalls)
	}

	// Out of time: thousands of lines more and a context already over.
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(bytes.Repeat(full, 50))
	f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	debug.Reset()
	if got := Build(ctx, o); !strings.Contains(got, "Tool calls: Bash 4; Write 3\n") {
		t.Errorf("continuity:\n%s", got)
	}
	if want := "LoadContext: continuity: the summary shown is behind its transcript: session s-prev: not brought up to date within the time budget"; !strings.Contains(debug.String(), want) {
		t.Errorf("debug:\n%s\nwant %q", debug.String(), want)
	}
}

// The work in progress names the files changed and untracked, capped, with a count of the
// rest: a count alone would send the model to git to learn which files they are.
func TestWorkInProgressNamesFiles(t *testing.T) {
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@x", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	for i := range 12 {
		os.WriteFile(filepath.Join(repo, fmt.Sprintf("f%02d.go", i)), []byte("package x\n"), 0o644)
	}
	git("add", ".")
	git("commit", "-q", "-m", "first")
	os.WriteFile(filepath.Join(repo, "f00.go"), []byte("package x\n// more\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "notes.md"), []byte("todo\n"), 0o644)
	out := Build(context.Background(), Options{Project: repo, Config: &config.Config{}, Now: time.Now()})
	for _, want := range []string{"- Uncommitted changes against HEAD: 1 file changed, 1 insertion(+): f00.go\n", "- Untracked files (1): notes.md\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	for i := 1; i < 12; i++ {
		os.WriteFile(filepath.Join(repo, fmt.Sprintf("f%02d.go", i)), []byte("package y\n"), 0o644)
	}
	out = Build(context.Background(), Options{Project: repo, Config: &config.Config{}, Now: time.Now()})
	if want := ": f00.go, f01.go, f02.go, f03.go, f04.go, f05.go, f06.go, f07.go, f08.go, f09.go and 2 more\n"; !strings.Contains(out, want) {
		t.Errorf("no %q in\n%s", want, out)
	}
}
