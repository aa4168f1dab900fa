package tests

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookkit/harness/lib/sandbox"
	"github.com/hookkit/harness/lib/settings"
	"github.com/hookkit/harness/tests/internal/cacheinputs"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/*.txtar")

// binDir holds every hook and command binary, built once for the whole run.
var binDir string

func TestMain(m *testing.M) {
	flag.Parse()
	leave := sandbox.Enter() // every test in a throwaway home (lib/sandbox)
	code := buildAndRun(m)
	leave()
	os.Exit(code)
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "harness-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	args := []string{"build", "-trimpath", "-o", dir + string(os.PathSeparator)}
	for _, p := range []string{"../hooks", "../cmd", "./hooks"} {
		if _, err := os.Stat(p); err == nil {
			args = append(args, p+"/...")
		}
	}
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the binaries:", err)
		return 1
	}
	return m.Run()
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Setenv("BIN", binDir)
			// The system scope is the script's own, empty unless a script writes it.
			env.Setenv("HARNESS_SYSTEM_DIR", filepath.Join(env.WorkDir, "system"))
			env.Setenv("HARNESS_PREFIX", filepath.Join(env.WorkDir, "opt", "harness"))
			if err := copyDir("../lib/transcript/testdata", filepath.Join(env.WorkDir, "transcripts")); err != nil {
				return err
			}
			return copyDir("../lib/event/testdata/captured", filepath.Join(env.WorkDir, "captured"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"hook":                    cmdHook,
			"harness-edit-timeout":    cmdEditTimeout,
			"harness-duplicate-group": cmdDuplicateGroup,
			"user-add-key":            cmdUserAddKey,
			"user-remove-group":       cmdUserRemoveGroup,
		},
	})
}

// cmdHook runs a binary like exec and checks its exact exit code:
//
//	hook CODE NAME [ARGS...]
func cmdHook(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: hook CODE NAME [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("hook: exit code %q is not a number", args[0])
	}
	// A hook with no --home takes the account's own home from the password database, which
	// the sandbox's HOME does not move: name the sandbox's harness home, as the installer does.
	rest := args[2:]
	if args[1] != "harness" && !slices.ContainsFunc(rest, func(a string) bool { return strings.HasPrefix(a, "--home=") }) {
		rest = append([]string{"--home=" + filepath.Join(ts.Getenv("HOME"), ".claude", "harness")}, rest...)
	}
	err = ts.Exec(args[1], rest...)
	got := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		got = exit.ExitCode()
	case err != nil:
		ts.Fatalf("hook: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// TestSourcesAreCacheInputs opens every source file the binaries are built from, so that a
// change to a hook is never answered with a cached pass (cacheinputs).
func TestSourcesAreCacheInputs(t *testing.T) {
	if err := cacheinputs.Read("../hooks", "../cmd", "../lib", "./hooks", "../go.mod", "../go.sum", "../settings.json", "../embed.go", "../LICENSE", "../install.sh"); err != nil {
		t.Fatalf("reading sources: %v", err)
	}
}

// cmdEditTimeout plays a user who edits the first hook timeout in a settings file:
//
//	harness-edit-timeout FILE
func cmdEditTimeout(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: harness-edit-timeout FILE")
	}
	p := ts.MkAbs(args[0])
	b, err := os.ReadFile(p)
	ts.Check(err)
	out := strings.Replace(string(b), `"timeout": 5`, `"timeout": 9`, 1)
	if out == string(b) {
		ts.Fatalf("no timeout to edit in %s", args[0])
	}
	ts.Check(os.WriteFile(p, []byte(out), 0o644))
}

// cmdDuplicateGroup copies the last PreToolUse group of a settings file, as a tool that
// rewrites settings might:
//
//	harness-duplicate-group FILE
func cmdDuplicateGroup(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: harness-duplicate-group FILE")
	}
	p := ts.MkAbs(args[0])
	b, err := os.ReadFile(p)
	ts.Check(err)
	groups := gjson.GetBytes(b, "hooks.PreToolUse").Array()
	if len(groups) == 0 {
		ts.Fatalf("no PreToolUse group in %s", args[0])
	}
	out, err := sjson.SetRawBytes(b, "hooks.PreToolUse.-1", []byte(groups[len(groups)-1].Raw))
	ts.Check(err)
	ts.Check(os.WriteFile(p, out, 0o644))
}

// cmdUserAddKey plays a user who adds a key of their own (a JSON value) on a line of its own
// at the top of a settings file, as in an editor:
//
//	user-add-key FILE KEY VALUE
func cmdUserAddKey(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: user-add-key FILE KEY VALUE")
	}
	p := ts.MkAbs(args[0])
	b, err := os.ReadFile(p)
	ts.Check(err)
	i := strings.IndexByte(string(b), '{')
	if i < 0 {
		ts.Fatalf("no object in %s", args[0])
	}
	out := string(b[:i+1]) + fmt.Sprintf("\n  %q: %s,", args[1], args[2]) + string(b[i+1:])
	ts.Check(os.WriteFile(p, []byte(out), 0o644))
}

// cmdUserRemoveGroup plays a user who deletes, in an editor, the matcher group of EVENT that
// runs HOOK, and nothing else:
//
//	user-remove-group FILE EVENT HOOK
func cmdUserRemoveGroup(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: user-remove-group FILE EVENT HOOK")
	}
	p := ts.MkAbs(args[0])
	b, err := os.ReadFile(p)
	ts.Check(err)
	at := -1
	for i, g := range gjson.GetBytes(b, "hooks."+args[1]).Array() {
		if strings.Contains(g.Get("hooks.0.command").Str, args[2]) {
			at = i
		}
	}
	if at < 0 {
		ts.Fatalf("no %s group running %s in %s", args[1], args[2], args[0])
	}
	out, err := settings.RemoveGroup(b, args[1], at, nil)
	ts.Check(err)
	ts.Check(os.WriteFile(p, out, 0o644))
}

func copyDir(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() { // lib/transcript/testdata/<client>/
			if err := copyDir(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
				return err
			}
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
