package gitstate

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/state"
)

// State is a HEAD: the branch checked out ("" when detached) and the commit it points at
// ("" before the first commit).
type State struct {
	Branch, Head string
}

// Read finds the repository holding dir (walking up to a .git folder, or a .git file that
// points at a linked worktree's folder) and reads its HEAD; ok is false outside a repository.
func Read(dir string) (State, bool) {
	gitDir, ok := find(dir)
	if !ok {
		return State{}, false
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return State{}, false
	}
	h := strings.TrimSpace(string(head))
	ref, isRef := strings.CutPrefix(h, "ref: ")
	if !isRef {
		return State{Head: h}, true
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = filepath.Join(gitDir, strings.TrimSpace(string(b)))
		if filepath.IsAbs(strings.TrimSpace(string(b))) {
			common = strings.TrimSpace(string(b))
		}
	}
	s := State{Branch: strings.TrimPrefix(ref, "refs/heads/")}
	for _, d := range []string{gitDir, common} {
		if b, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(ref))); err == nil {
			s.Head = strings.TrimSpace(string(b))
			return s, true
		}
	}
	s.Head = packed(filepath.Join(common, "packed-refs"), ref)
	return s, true
}

func find(dir string) (string, bool) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p, true
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return "", false
			}
			g, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
			if !ok {
				return "", false
			}
			if !filepath.IsAbs(g) {
				g = filepath.Join(d, g)
			}
			return g, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// packed looks a ref up in packed-refs.
func packed(path, ref string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sha, name, ok := strings.Cut(sc.Text(), " "); ok && name == ref {
			return sha
		}
	}
	return ""
}

// SnapshotPath is where a session's starting state is kept, next to its summary.
func SnapshotPath(harnessHome, project, session string) string {
	return filepath.Join(state.ProjectDir(harnessHome, project), "sessions", state.SafeName(session)+".git-start")
}

// Load reads a saved state; ok is false when there is none.
func Load(path string) (State, bool) {
	b, err := os.ReadFile(path)
	if err != nil || !gjson.ValidBytes(b) {
		return State{}, false
	}
	r := gjson.ParseBytes(b)
	return State{Branch: r.Get("branch").Str, Head: r.Get("head").Str}, true
}

// Save writes a state atomically.
func Save(path string, s State) error {
	return state.Write(path, []byte(`{"branch":`+strconv.Quote(s.Branch)+`,"head":`+strconv.Quote(s.Head)+"}\n"), 0o600)
}

// Snapshot saves the state of the repository at dir as the session's start, unless one is
// saved already (a resumed session keeps its first start).
func Snapshot(harnessHome, project, session string) {
	path := SnapshotPath(harnessHome, project, session)
	if _, err := os.Stat(path); err == nil {
		return
	}
	if s, ok := Read(project); ok {
		Save(path, s)
	}
}

// Run runs a read-only command (git, a toolchain's --version) in dir within timeout and
// returns its output without the trailing newline. Git takes no optional locks, so a context
// hook never contends with the user's own git commands, and prints plain, quoted paths. The
// error names the command and carries the first line of its stderr, or says it timed out.
func Run(ctx context.Context, dir string, timeout time.Duration, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0",
		"GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_0=core.quotepath", "GIT_CONFIG_VALUE_0=true",
		"GIT_CONFIG_KEY_1=color.ui", "GIT_CONFIG_VALUE_1=never")
	cmd.WaitDelay = 100 * time.Millisecond
	out, err := cmd.Output()
	line := strings.TrimSpace(name + " " + strings.Join(args, " "))
	if ctx.Err() == context.DeadlineExceeded {
		return "", fmt.Errorf("%s: no answer within %v", line, timeout)
	}
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			msg, _, _ = strings.Cut(strings.TrimSpace(string(ee.Stderr)), "\n")
		}
		return "", fmt.Errorf("%s: %s", line, msg)
	}
	return strings.TrimRight(string(out), "\n"), nil
}
