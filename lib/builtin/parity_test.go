package builtin_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hookkit/harness/lib/builtin"
	"github.com/hookkit/harness/lib/hook"
)

// TestParity is the promise that a hook run in-process (hook.Call, as harness serve runs it)
// is never weaker than its binary: every case of lib/danger's corpus (in the project and from
// a cwd outside it), lib/paths' corpus cases that need no files, and every captured payload go
// through both, and the answers must match byte for byte (stdout, stderr, exit code).
func TestParity(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hooks and runs thousands of processes")
	}
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	bin, home, tmp := filepath.Join(root, "bin"), filepath.Join(root, "home"), filepath.Join(root, "tmp")
	proj, harnessHome, system := filepath.Join(home, "proj"), filepath.Join(home, ".claude", "harness"), filepath.Join(root, "system")
	for _, d := range []string{bin, proj, tmp, harnessHome, system} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for name := range builtin.Hooks {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out, err := exec.Command("go", "build", "-o", filepath.Join(bin, name), "../../hooks/"+name).CombinedOutput()
		if err != nil {
			t.Fatalf("building %s: %v\n%s", name, err, out)
		}
	}
	env := map[string]string{"HOME": home, "CLAUDE_PROJECT_DIR": proj, "TMPDIR": tmp}

	type call struct {
		hook, what string
		payload    []byte
	}
	var calls []call
	bash := func(cmd, cwd string) []byte {
		b, _ := json.Marshal(map[string]any{"session_id": "parity", "hook_event_name": "PreToolUse", "cwd": cwd,
			"tool_name": "Bash", "tool_use_id": "toolu_parity", "tool_input": map[string]string{"command": cmd}})
		return b
	}
	for i, line := range lines(t, "../danger/testdata/corpus.jsonl") {
		var c struct{ Cmd string }
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatalf("danger corpus line %d: %v", i+1, err)
		}
		for _, h := range []string{"SecurityValidator", "WriteProtector", "SecretGuard"} {
			calls = append(calls, call{h, "danger: " + c.Cmd, bash(c.Cmd, proj)})
		}
		if i%8 == 0 {
			calls = append(calls, call{"SecurityValidator", "danger, cwd outside: " + c.Cmd, bash(c.Cmd, "/")},
				call{"WriteProtector", "danger, cwd outside: " + c.Cmd, bash(c.Cmd, tmp)})
		}
	}
	sub := strings.NewReplacer("{home}", home, "{proj}", proj, "{tmp}", tmp)
	for i, line := range lines(t, "../paths/testdata/corpus.jsonl") {
		var c struct {
			Tool  string
			Input json.RawMessage
			Cwd   string
			Setup []any
		}
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatalf("paths corpus line %d: %v", i+1, err)
		}
		if len(c.Setup) > 0 {
			continue // needs a tree of its own
		}
		cwd := proj
		if c.Cwd != "" {
			cwd = sub.Replace(c.Cwd)
		}
		p := fmt.Sprintf(`{"session_id":"parity","hook_event_name":"PreToolUse","cwd":%q,"tool_name":%q,"tool_use_id":"toolu_parity","tool_input":%s}`,
			cwd, c.Tool, sub.Replace(string(c.Input)))
		calls = append(calls, call{"WriteProtector", "paths: " + string(line), []byte(p)})
	}
	captured, _ := filepath.Glob("../event/testdata/captured/*.json")
	for _, f := range captured {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range names {
			calls = append(calls, call{h, "captured " + filepath.Base(f), b})
		}
	}
	calls = append(calls, call{"SecurityValidator", "not JSON", []byte("{")}, call{"AuditLog", "not JSON", []byte("{")})

	var mu sync.Mutex
	mismatches := 0
	work := make(chan call)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				h := builtin.Hooks[c.hook]
				args := []string{"--home=" + harnessHome, "--system-dir=" + system}
				cmd := exec.Command(filepath.Join(bin, c.hook), args...)
				cmd.Dir = proj
				cmd.Env = []string{"HOME=" + home, "CLAUDE_PROJECT_DIR=" + proj, "TMPDIR=" + tmp}
				cmd.Stdin = bytes.NewReader(c.payload)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				code := 0
				if err := cmd.Run(); err != nil {
					ee, ok := err.(*exec.ExitError)
					if !ok {
						t.Errorf("%s: %v", c.hook, err)
						continue
					}
					code = ee.ExitCode()
				}
				got := hook.Call(h.Spec, h.Run, hook.Request{Payload: c.payload, Home: harnessHome, SystemDir: system,
					Project: proj, UserHome: home, Env: env})
				if int(got.Code) != code || !bytes.Equal(got.Stdout, stdout.Bytes()) || !bytes.Equal(got.Stderr, stderr.Bytes()) {
					mu.Lock()
					if mismatches++; mismatches <= 10 {
						t.Errorf("%s, %s:\nbinary:   exit %d stdout %q stderr %q\nfunction: exit %d stdout %q stderr %q",
							c.hook, c.what, code, stdout.Bytes(), stderr.Bytes(), got.Code, got.Stdout, got.Stderr)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, c := range calls {
		work <- c
	}
	close(work)
	wg.Wait()
	if mismatches > 0 {
		t.Fatalf("%d of %d calls answered differently", mismatches, len(calls))
	}
	t.Logf("%d calls answered alike", len(calls))
}

func lines(t *testing.T, file string) [][]byte {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		if l := bytes.TrimSpace(s.Bytes()); len(l) > 0 {
			out = append(out, append([]byte(nil), l...))
		}
	}
	if err := s.Err(); err != nil || len(out) == 0 {
		t.Fatalf("reading %s: %v (%d lines)", file, err, len(out))
	}
	return out
}
