package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/secret"
)

// The same scripted session (tests/clients' hooks session) run in each client: one prompt;
// seven calls, of which a command a hook blocked, a command that failed, a file written and
// two writes stopped. Every reader must say so, in Claude Code's terms.
func TestClientTranscripts(t *testing.T) {
	for _, tc := range []struct {
		client string
		// stopped are the writes to ../outside.txt and .env: blocked by WriteProtector, or
		// refused by Gemini CLI itself before any hook ran (a failure, as in Claude Code).
		stopped string
		write   string // the write tool, in Claude Code's terms where it has one
	}{
		{Codex, "blocked", "apply_patch"},
		{Gemini, "failed", "Write"},
		{Qwen, "blocked", "Write"},
		{Copilot, "blocked", "Write"},
		{Droid, "blocked", "Write"},
		// ../outside.txt blocked by WriteProtector; .env refused by Kimi Code itself (a failure).
		{Kimi, "mixed", "Write"},
	} {
		t.Run(tc.client, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join("testdata", tc.client, "*.jsonl"))
			if len(files) != 1 {
				t.Fatalf("%d transcripts of %s", len(files), tc.client)
			}
			s, _ := fold(t, files[0], nil)
			check := func(what string, got, want any) {
				t.Helper()
				if g, w := string(js(t, got)), string(js(t, want)); g != w {
					t.Errorf("%s = %s, want %s", what, g, w)
				}
			}
			check("format", s.Format, tc.client)
			check("prompts", s.Prompts, List{Items: []string{"tidy up this project"}, Total: 1})
			check("tools", s.Tools, map[string]int{"Bash": 4, tc.write: 3})
			check("created", s.Created, List{Items: []string{"/home/dev/proj/inside.txt"}, Total: 1})
			// echo safe-ran > safe-ran.txt, through the shell analysis.
			check("edited", s.Edited, List{Items: []string{"/home/dev/proj/safe-ran.txt"}, Total: 1})
			check("last", s.LastMessage, "Done.")
			var failed, blocked []string
			for _, e := range s.Failures {
				failed = append(failed, e.Tool+" "+e.Input+": "+e.Reason)
			}
			for _, e := range s.Blocked {
				blocked = append(blocked, e.Tool+" "+e.Input+" by "+e.By+": "+strings.SplitN(e.Reason, ":", 2)[0])
			}
			if !slices.Contains(failed, "Bash cat no-such-file.txt: Exit code 1") {
				t.Errorf("failures %q", failed)
			}
			want := []string{"Bash find /home/dev -delete by hook: SecurityValidator", "Bash chmod -R 777 ./build; echo ask-ran > ask-ran.txt by hook: SecurityValidator"}
			if tc.stopped == "mixed" {
				want = []string{want[0], tc.write + " /home/dev/work/outside.txt by hook: WriteProtector", want[1]}
			}
			if tc.stopped == "blocked" {
				want = []string{want[0], tc.write + " /home/dev/work/outside.txt by hook: WriteProtector", tc.write + " /home/dev/proj/.env by hook: WriteProtector", want[1]}
				if tc.client == Codex {
					// ../outside.txt from the project: the fixture's paths were rewritten.
					want[1] = "apply_patch /home/dev/outside.txt by hook: WriteProtector"
				}
			}
			check("blocked", blocked, want)
			if n := len(s.Failures); tc.stopped == "failed" && n != 3 || tc.stopped == "blocked" && n != 1 || tc.stopped == "mixed" && n != 2 {
				t.Errorf("%d failures: %q", n, failed)
			}
			if s.Skipped != 0 || s.Start == "" || s.End < s.Start || s.Unreadable != "" {
				t.Errorf("skipped %d, span %s..%s, unreadable %q", s.Skipped, s.Start, s.End, s.Unreadable)
			}
		})
	}
}

// The format is the file's, whatever its path says; a file in no known format is a summary
// that says so, with the path, and not an empty one that looks real.
func TestFormatIsFound(t *testing.T) {
	for _, tc := range []struct{ name, lines, format string }{
		{"claude bookkeeping first", `{"type":"queue-operation","operation":"enqueue"}` + "\n" + `{"type":"user","message":{"role":"user","content":"hi"}}`, Claude},
		{"codex", `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"cwd":"/p"}}`, Codex},
		{"gemini header", `{"sessionId":"s","projectHash":"h","startTime":"2026-01-01T00:00:00Z","kind":"main"}`, Gemini},
		{"gemini message", `{"id":"m","timestamp":"2026-01-01T00:00:00Z","type":"user","content":[{"text":"hi"}]}`, Gemini},
		{"qwen", `{"uuid":"u","sessionId":"s","type":"user","provenance":"real_user","message":{"role":"user","parts":[{"text":"hi"}]}}`, Qwen},
		{"copilot", `{"type":"session.start","data":{"sessionId":"s"},"id":"i","timestamp":"2026-01-01T00:00:00Z"}`, Copilot},
		{"droid", `{"type":"session_start","id":"s","title":"hi","cwd":"/p"}`, Droid},
		{"kimi", `{"type":"metadata","protocol_version":"1.5","created_at":1795953382053}`, Kimi},
		{"kimi without its header", `{"type":"turn.prompt","agentId":"main","input":[{"type":"text","text":"hi"}],"origin":{"kind":"user"},"time":1795953382177}`, Kimi},
		{"not json, then droid", "garbage\n" + `{"type":"message","id":"m","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`, Droid},
		{"unknown", `{"event":"start","conversation":"c"}` + "\n" + `{"event":"prompt","text":"hi"}`, ""},
		{"not json at all", "hello\nworld", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Named as Claude Code names its transcripts: the path decides nothing.
			path := filepath.Join(t.TempDir(), "projects", "-home-dev-proj", "s1.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(tc.lines+"\n"), 0o600)
			s, _ := fold(t, path, nil)
			if s.Format != tc.format {
				t.Errorf("format %q, want %q", s.Format, tc.format)
			}
			if want := "transcript format not supported: " + path; tc.format == "" && s.Unreadable != want {
				t.Errorf("unreadable %q, want %q", s.Unreadable, want)
			} else if tc.format != "" && s.Unreadable != "" {
				t.Errorf("unreadable %q", s.Unreadable)
			}
		})
	}
	// An empty or missing file is not unreadable: the transcript may lag behind the hook.
	if s, _ := fold(t, filepath.Join(t.TempDir(), "none.jsonl"), nil); s.Unreadable != "" {
		t.Errorf("missing file: %q", s.Unreadable)
	}
}

// Gemini CLI writes a message again as its tool calls progress: each call counts once, and its
// outcome once it is final.
func TestGeminiRewrittenMessage(t *testing.T) {
	call := func(status, out string) string {
		return `{"id":"m1","timestamp":"2026-01-01T00:00:01Z","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"make"},"status":"` +
			status + `","result":[{"functionResponse":{"id":"c1","response":{"output":"` + out + `"}}}]}]}`
	}
	lines := []string{
		`{"sessionId":"s","projectHash":"h","startTime":"2026-01-01T00:00:00Z","kind":"main"}`,
		`{"id":"m1","timestamp":"2026-01-01T00:00:01Z","type":"gemini","content":""}`,
		call("executing", ""), call("success", `Output: boom\nExit Code: 2`), call("success", `Output: boom\nExit Code: 2`),
		`{"$set":{"lastUpdated":"2026-01-01T00:00:02Z"}}`,
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	s, _ := fold(t, path, nil)
	if s.ToolCalls != 1 || len(s.Failures) != 1 || s.Failures[0].Reason != "Exit code 2" {
		t.Errorf("calls %d, failures %+v", s.ToolCalls, s.Failures)
	}
}

// The clients' fixtures hold no secret: they are real sessions, kept in the repository. (Claude
// Code's own hold its system prompt, where the scanner sees a password assignment in prose.)
func TestFixturesHoldNoSecret(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.jsonl")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, m := range secret.Scan(string(b)) {
			t.Errorf("%s: %+v", f, m)
		}
	}
}

// Every format a client's declaration names is one this package reads, and every format it
// reads is some client's: the declarations (lib/dialect/client_*.go) point at their readers.
func TestDeclaredFormats(t *testing.T) {
	known := []string{Claude}
	for f := range readers {
		known = append(known, f)
	}
	declared := map[string]bool{}
	for _, d := range dialect.All() {
		f := d.Transcript.Format
		if f == "" {
			continue
		}
		declared[f] = true
		if !slices.Contains(known, f) {
			t.Errorf("%s declares the transcript format %q, which lib/transcript does not read", d.Client, f)
		}
		if d.Transcript.Glob == "" {
			t.Errorf("%s declares the transcript format %q but not where its transcripts are", d.Client, f)
		}
	}
	for _, f := range known {
		if !declared[f] {
			t.Errorf("lib/transcript reads %q, which no client's declaration names", f)
		}
	}
}
