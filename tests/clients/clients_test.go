// Package clients runs nine other agent clients (Codex CLI, GitHub Copilot CLI, Qwen Code,
// Kimi Code, Factory droid, Gemini CLI, OpenCode, Kilo Code CLI, pi), each pinned, headless and offline, against a scripted model
// server on 127.0.0.1, with harness's hooks installed in a throwaway home by the project's
// installer (harness install --client), and checks what ran and what the model was sent.
// The protocol notes they rely on are the per-client pages of the hook-protocol reference.
//
// The clients are looked for where install.sh (beside this file) puts them,
// ~/.cache/harness/<client>-<version>, or under $HARNESS_CLIENTS_DIR. Without a client its
// tests skip, saying how to install it; with HARNESS_E2E=1 (set by .ci/run) a missing client
// fails. The tests run in a network namespace that has only loopback: these clients phone
// home (Codex runs git ls-remote against github.com at start), so where no namespace can be
// made they skip (or fail, with HARNESS_E2E=1) rather than run with the network.
package clients

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/sandbox"
	"github.com/hookkit/harness/tests/internal/cacheinputs"
)

var (
	binDir string // the hooks and the harness CLI, built once
	netns  bool   // the tests run in a network namespace of their own
)

func TestMain(m *testing.M) {
	leave := sandbox.Enter() // every test in a throwaway home (lib/sandbox)
	code := run(m)
	leave()
	os.Exit(code)
}

func run(m *testing.M) int {
	if os.Getenv("HARNESS_CLIENTS_NETNS") == "1" {
		netns = true
		return setup(m)
	}
	if anyClient() && unshareWorks() {
		cmd := exec.Command("unshare", append([]string{"-n", "sh", "-c", `ip link set lo up && exec "$0" "$@"`, os.Args[0]}, os.Args[1:]...)...)
		cmd.Env = append(os.Environ(), "HARNESS_CLIENTS_NETNS=1")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return ee.ExitCode()
			}
			fmt.Fprintln(os.Stderr, "clients: running in a network namespace:", err)
			return 1
		}
		return 0
	}
	return setup(m)
}

func setup(m *testing.M) int {
	if !anyClient() || !netns {
		return m.Run() // every test skips with the reason, or fails under HARNESS_E2E=1
	}
	dir, err := os.MkdirTemp("", "harness-clients-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	cmd := exec.Command("go", "build", "-trimpath", "-o", dir+string(os.PathSeparator), "../../hooks/...", "../../cmd/...")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "clients: building the binaries:", err)
		return 1
	}
	return m.Run()
}

var unshareWorks = sync.OnceValue(func() bool {
	return exec.Command("unshare", "-n", "true").Run() == nil
})

// cacheDir is where install.sh puts the clients.
func cacheDir() string {
	if d := os.Getenv("HARNESS_CLIENTS_DIR"); d != "" {
		return d
	}
	return filepath.Join(sandbox.Cache(), "harness")
}

func anyClient() bool {
	for _, c := range all {
		if c.path() != "" {
			return true
		}
	}
	return false
}

// need skips (or, with HARNESS_E2E=1, fails) a test whose client is missing or cannot be
// run without the network.
func need(t *testing.T, c *client) {
	t.Helper()
	why := ""
	switch {
	case c.path() == "":
		why = fmt.Sprintf("%s %s is not installed in %s: run tests/clients/install.sh (npm install --ignore-scripts --prefix %s %s)",
			c.name, c.version, c.dir(), c.dir(), strings.Join(c.npm, " "))
	case !netns:
		why = "no network namespace can be made here (unshare -n failed), and the clients must not reach the network"
	default:
		return
	}
	if os.Getenv("HARNESS_E2E") == "1" {
		t.Fatal(why)
	}
	t.Skip(why + " (HARNESS_E2E=1 makes this a failure)")
}

// client is what differs between the clients: where each lives, how it runs offline, the wire
// protocol of its model, its tool names and where its hooks are configured.
type client struct {
	name, version string
	npm           []string // the npm packages (install.sh installs the same)
	exe           string   // the executable, under the install directory
	files         []string // other files the client needs there
	proto         string
	// noPromptEvent says why the client cannot check a prompt headless, if it cannot.
	noPromptEvent string
	// noContext says why SessionStart's context cannot reach the client's model, if it
	// cannot; noSummary why SessionSummary is not wired for the client, if it is not.
	noContext, noSummary string
	// stopLast says why the client's last hook event in a headless run is Stop (no
	// SessionEnd), if it is: its session's summary is Stop's, and the next session's
	// LoadContext brings it up to date with what the client wrote to its transcript after.
	stopLast string
	// configure writes the offline model configuration into the session's home, before any
	// hook is installed, and returns how to run the client there.
	configure func(s *session, m *model) command
	shell     func(id, command string) call
	// write writes a file with the client's own write tool; path is relative to the project.
	write func(s *session, id, path, content string) call
	// hooks writes hook groups, {"<event>": [{"matcher", "hooks"}]}, into the client's hook
	// file, keeping what configure wrote there: how the runner test wires its probe hook.
	hooks func(s *session, events map[string]any)
	// preTool is the client's name for PreToolUse.
	preTool string
	// probeDenied is what the model gets for a call the probe hook denies with exit 2, when
	// not the hook's reason.
	probeDenied string
}

// all are the clients under test.
var all = []*client{codex, copilot, qwen, kimi, droid, gemini, opencode, kilo, pi}

func (c *client) dir() string { return filepath.Join(cacheDir(), c.name+"-"+c.version) }

// path is the client's executable, or "" when the client is not (completely) installed.
func (c *client) path() string {
	for _, f := range c.files {
		if _, err := os.Stat(filepath.Join(c.dir(), f)); err != nil {
			return ""
		}
	}
	p := filepath.Join(c.dir(), c.exe)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// command is the command line and environment of one headless run with prompt.
type command func(prompt string) (argv, env []string)

// timeout is a hook timeout of secs seconds in the client's unit (Gemini's is milliseconds).
func (c *client) timeout(secs int) int {
	if c == gemini {
		return secs * 1000
	}
	return secs
}

// session is one throwaway machine: a home, a project, the client's config in that home.
type session struct {
	t                   *testing.T
	c                   *client
	root, home, project string
	harnessHome         string
	command             command
}

// workDir holds the sessions, in the user's cache. Not under /tmp or $TMPDIR: WriteProtector
// lets anything be written in the temp directories, so a home or project there would make its
// checks pass for the wrong reason.
func workDir() (string, error) {
	d := filepath.Join(sandbox.Cache(), "harness", "clients-work")
	for _, tmp := range []string{"/tmp", "/var/tmp", os.Getenv("TMPDIR")} {
		if tmp != "" && (d == tmp || strings.HasPrefix(d, strings.TrimSuffix(tmp, "/")+"/")) {
			return "", fmt.Errorf("the work directory %s is in a temp directory (%s), where WriteProtector allows every write", d, tmp)
		}
	}
	return d, os.MkdirAll(d, 0o755)
}

// newSession makes the home and project of one run and configures the client for the model.
func newSession(t *testing.T, c *client, m *model) *session {
	t.Helper()
	work, err := workDir()
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.MkdirTemp(work, c.name+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	s := &session{t: t, c: c, root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "proj")}
	s.harnessHome = filepath.Join(s.home, ".claude", "harness")
	for _, d := range []string{s.home, s.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.command = c.configure(s, m)
	return s
}

// writeFile writes a file of the session, making its directory.
func (s *session) writeFile(path string, b []byte) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *session) writeJSON(path string, v any) {
	s.t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		s.t.Fatal(err)
	}
	s.writeFile(path, append(b, '\n'))
}

// mergeHooks sets "hooks" in a JSON settings file, keeping its other keys.
func (s *session) mergeHooks(path string, events map[string]any) {
	s.t.Helper()
	settings := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &settings); err != nil {
			s.t.Fatalf("%s: %v", path, err)
		}
	}
	settings["hooks"] = events
	s.writeJSON(path, settings)
}

// runTimeout bounds one run of a client; a scripted session takes well under it.
const runTimeout = 150 * time.Second

// run runs the client headless in the project with prompt, and returns its output.
func (s *session) run(m *model, prompt string) string {
	s.t.Helper()
	args, env := s.command(prompt)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = s.project
	cmd.Env = append([]string{"HOME=" + s.home, "PATH=" + os.Getenv("PATH"), "TERM=dumb", "HARNESS_HOME=" + s.harnessHome, "NO_COLOR=1"}, env...)
	killGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	s.t.Logf("%s ran for %.1fs (%d model requests)", s.c.name, time.Since(start).Seconds(), m.requests())
	if ctx.Err() != nil {
		s.t.Fatalf("%s timed out after %v\n%s\n%s", s.c.name, runTimeout, tail(out.String()), m.dump())
	}
	if err != nil {
		s.t.Logf("%s exited: %v", s.c.name, err)
	}
	return out.String()
}

func tail(s string) string {
	if len(s) > 8000 {
		return "..." + s[len(s)-8000:]
	}
	return s
}

// exists reports whether a file of the session is there.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// auditRecords is every record of the audit log under the session's HARNESS_HOME (lib/audit:
// $HARNESS_HOME/projects/<project key>/audit/<day>.jsonl).
func (s *session) auditRecords() []map[string]any {
	logs, _ := filepath.Glob(filepath.Join(s.harnessHome, "projects", "*", "audit", "*.jsonl"))
	var recs []map[string]any
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		for _, line := range strings.Split(string(b), "\n") {
			var r map[string]any
			if json.Unmarshal([]byte(line), &r) == nil {
				recs = append(recs, r)
			}
		}
	}
	return recs
}

func (s *session) auditText() string {
	var b strings.Builder
	for _, r := range s.auditRecords() {
		j, _ := json.Marshal(r)
		b.Write(append(j, '\n'))
	}
	return b.String()
}

// TestSourcesAreCacheInputs opens every source file the binaries under test are built from, so
// that a change to a hook is never answered with a cached pass (cacheinputs). It runs in the
// process that runs the tests (inside the network namespace), whose opens go test records.
func TestSourcesAreCacheInputs(t *testing.T) {
	if err := cacheinputs.Read("../../hooks", "../../cmd", "../../lib", "../../go.mod", "../../go.sum", "../../settings.json", "../../embed.go"); err != nil {
		t.Fatalf("reading sources: %v", err)
	}
}

// transcript is the session's transcript as the client wrote it, "" when there is none.
func (s *session) transcript() string {
	glob := s.transcriptGlob()
	files, _ := filepath.Glob(filepath.Join(s.home, glob))
	if len(files) == 0 {
		return ""
	}
	return files[len(files)-1]
}

// keepTranscripts copies the session's transcript to $HARNESS_KEEP_TRANSCRIPTS/<client>/, with
// the session's home and project rewritten to /home/dev and /home/dev/proj: how the fixtures
// of lib/transcript/testdata were made.
func (s *session) keepTranscripts() {
	dir := os.Getenv("HARNESS_KEEP_TRANSCRIPTS")
	if dir == "" {
		return
	}
	src := s.transcript()
	if src == "" {
		s.t.Logf("no transcript of %s in %s", s.c.name, s.transcriptGlob())
		return
	}
	b, err := os.ReadFile(src)
	if err != nil {
		s.t.Fatal(err)
	}
	// The project first: it is not under the home here, but the fixture puts it there. Then
	// the same paths as the clients and harness name folders after them (/ and . as -).
	for _, r := range [][2]string{{s.project, "/home/dev/proj"}, {s.home, "/home/dev"}, {s.root, "/home/dev/work"}, {binDir, "/home/dev/bin"}} {
		for _, mangle := range []*strings.Replacer{strings.NewReplacer(), strings.NewReplacer("/", "-"), strings.NewReplacer("/", "-", ".", "-")} {
			b = bytes.ReplaceAll(b, []byte(mangle.Replace(r[0])), []byte(mangle.Replace(r[1])))
		}
	}
	dst := filepath.Join(dir, s.c.name, filepath.Base(src))
	s.writeFile(dst, b)
	s.t.Logf("kept %s as %s", src, dst)
}

// transcriptGlob is where the client writes its own session transcript, under the home, as its
// declaration says.
func (s *session) transcriptGlob() string {
	d, err := dialect.Lookup(s.c.name)
	if err != nil {
		s.t.Fatal(err)
	}
	return d.Transcript.Glob
}
