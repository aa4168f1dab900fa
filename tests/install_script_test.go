package tests

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/dialect"
)

// installEnv is the environment of a new user: a throwaway home, the Go caches where they
// are, no claude, and ~/.local/bin on PATH when onPath.
func installEnv(t *testing.T, home string, onPath bool) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "HARNESS_HOME", "CLAUDE_CONFIG_DIR", "PATH", "SHELL":
			continue
		}
		env = append(env, kv)
	}
	for _, k := range []string{"GOMODCACHE", "GOCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, k+"="+strings.TrimSpace(string(out)))
	}
	path := os.Getenv("PATH")
	if onPath {
		path = filepath.Join(home, ".local", "bin") + string(os.PathListSeparator) + path
	}
	return append(env, "HOME="+home, "HARNESS_CLAUDE=/nonexistent/claude", "PATH="+path, "SHELL=/bin/bash", "GOTELEMETRY=off")
}

func runIn(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = ".."
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// snapshot lists every file under dir with its size and modification time, except Go's own
// telemetry counters, which the go command keeps in the home it runs in.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p == filepath.Join(dir, ".config", "go") {
			return filepath.SkipDir
		}
		if info, err := d.Info(); err == nil {
			files[p] = fmt.Sprint(info.Mode(), info.ModTime(), info.Size())
		}
		return nil
	})
	return files
}

func sameSnapshot(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, v := range after {
		if before[p] != v {
			t.Errorf("%s changed %s", what, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s removed %s", what, p)
		}
	}
}

// TestInstallScript runs ./install.sh as a new user on a fresh machine would, in a throwaway
// home: a dry run changes no file, the install puts harness on PATH (a link in ~/.local/bin,
// which is on PATH) so that `harness status` works in a new shell, a second run changes
// nothing, uninstall says what it did and what it kept, and --purge removes the rest.
func TestInstallScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every binary; skipped with -short")
	}
	home := t.TempDir()
	env := installEnv(t, home, true)
	os.MkdirAll(filepath.Join(home, ".config", "go"), 0o755) // the go command's own telemetry
	settings := filepath.Join(home, ".claude", "settings.json")
	bin := filepath.Join(home, ".claude", "harness", "bin")

	// A dry run on a fresh machine writes nothing anywhere, and shows the diff it would make.
	before := snapshot(t, home)
	out := runIn(t, env, "./install.sh", "--dry-run")
	sameSnapshot(t, "a dry run on a fresh machine", before, snapshot(t, home))
	for _, want := range []string{"+++ " + settings + " (after)", `+   "hooks": {`, "would link " + filepath.Join(home, ".local/bin/harness"), "dry run: nothing was written"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run: no %q in\n%s", want, out)
		}
	}

	out = runIn(t, env, "./install.sh")
	for _, want := range []string{"hooks and the harness CLI into " + bin + " ... ok",
		"add     PreToolUse[", "] -> SecurityValidator",
		"linked " + filepath.Join(home, ".local/bin/harness") + " -> " + filepath.Join(bin, "harness") + ": harness is on PATH",
		"undo with: harness uninstall"} {
		if !strings.Contains(out, want) {
			t.Errorf("first run: no %q in\n%s", want, out)
		}
	}
	b, err := os.ReadFile(settings)
	if err != nil || !strings.Contains(string(b), `"command": "`+filepath.Join(bin, "SecurityValidator")+`"`) {
		t.Fatalf("settings after install: %v\n%s", err, b)
	}
	// A new shell finds harness.
	if out := runIn(t, env, "sh", "-c", "harness status"); !strings.Contains(out, "ok: every entry in place") {
		t.Errorf("harness status in a new shell:\n%s", out)
	}

	// A dry run over an install replaces no binary and causes no drift.
	before = snapshot(t, home)
	runIn(t, env, "./install.sh", "--dry-run")
	sameSnapshot(t, "a dry run over an install", before, snapshot(t, home))

	if out := runIn(t, env, "./install.sh"); !strings.Contains(out, "already up to date: nothing changed") || !strings.Contains(out, "harness is on PATH: ") {
		t.Errorf("second run:\n%s", out)
	}
	if after, _ := os.ReadFile(settings); string(after) != string(b) {
		t.Error("the second run changed the settings file")
	}

	out = runIn(t, env, "./install.sh", "--uninstall")
	for _, want := range []string{"deleted the file: the install had created it", "kept in " + filepath.Join(home, ".claude/harness") + ": the binaries",
		"the harness link in ~/.local/bin (harness uninstall --purge removes them)"} {
		if !strings.Contains(out, want) {
			t.Errorf("uninstall: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "restored") {
		t.Errorf("uninstall says restored for a file it deleted:\n%s", out)
	}
	if _, err := os.Stat(settings); !os.IsNotExist(err) {
		t.Errorf("the settings file the install created is still there: %v", err)
	}
	out = runIn(t, env, "./install.sh", "--uninstall", "--purge")
	if !strings.Contains(out, "removed "+bin) || !strings.Contains(out, "removed "+filepath.Join(home, ".local/bin/harness")) {
		t.Errorf("purge:\n%s", out)
	}
	for _, p := range []string{filepath.Join(home, ".claude", "harness"), filepath.Join(home, ".local", "bin", "harness")} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there after --purge: %v", p, err)
		}
	}
}

// Without ~/.local/bin on PATH, the install says the exact line to add, and its hints name
// the CLI by its full path.
func TestInstallScriptPathLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every binary; skipped with -short")
	}
	home := t.TempDir()
	env := installEnv(t, home, false)
	out := runIn(t, env, "./install.sh", "--only", "SecurityValidator")
	bin := filepath.Join(home, ".claude", "harness", "bin")
	for _, want := range []string{`harness is not on PATH: add this line to ~/.bashrc, then open a new shell: export PATH="$HOME/.claude/harness/bin:$PATH"`,
		"undo with: " + filepath.Join(bin, "harness") + " uninstall"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if _, err := os.Lstat(filepath.Join(home, ".local", "bin", "harness")); !os.IsNotExist(err) {
		t.Errorf("linked into a directory that is not on PATH: %v", err)
	}
}

// TestInstallScriptFlags: ./install.sh reads every flag before it builds anything. --help
// prints its usage and a wrong flag or a word exits 64 with the reason, and neither runs go
// (a go on PATH that would leave a mark is never called) nor writes anything in the home.
func TestInstallScriptFlags(t *testing.T) {
	home := t.TempDir()
	fake := t.TempDir()
	mark := filepath.Join(fake, "go-ran")
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte("#!/bin/sh\ntouch "+mark+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := installEnv(t, home, false)
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + fake + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--help"}, 0, "./install.sh --dry-run"},
		{[]string{"--scope", "project", "-h"}, 0, "./install.sh --uninstall [--purge]"},
		{[]string{"--dry-rn"}, 64, `install.sh: unknown flag "--dry-rn"; did you mean "--dry-run"? (./install.sh --help)`},
		{[]string{"--onyl=SecurityValidator"}, 64, `unknown flag "--onyl"; did you mean "--only"?`},
		{[]string{"--no-such-flag"}, 64, `install.sh: unknown flag "--no-such-flag" (./install.sh --help)`},
		{[]string{"--scope", "project", "now"}, 64, `install.sh: unexpected argument "now": it takes only flags`},
		{[]string{"--only"}, 64, `install.sh: flag "--only" needs a value`},
		{[]string{"--scope", "--dry-run"}, 64, `install.sh: flag "--scope" needs a value`},
		{[]string{"--uninstall", "--purg"}, 64, `unknown flag "--purg"; did you mean "--purge"?`},
		{[]string{"--uninstall", "--only", "SecurityValidator"}, 64, `"--only" does not go with --uninstall`},
		{[]string{"--uninstall", "x", "--help"}, 0, "./install.sh --uninstall [--purge]"},
		// A value outside a flag's closed set, in either spelling, builds nothing either.
		{[]string{"--client", "codx"}, 64, `install.sh: --client "codx" is not one of: claude codex copilot qwen kimi qoder droid gemini docker-agent vtcode opencode kilo pi grok antigravity; did you mean "codex"?`},
		{[]string{"--client=gemni", "--scope", "project"}, 64, `did you mean "gemini"?`},
		{[]string{"--scope=projet"}, 64, `--scope "projet" is not one of: user project local; did you mean "project"?`},
		{[]string{"--form", "exe"}, 64, `did you mean "exec"?`},
		{[]string{"--only", "SecurityValidator,AuditLg"}, 64, `--only: no hook "AuditLg"; did you mean "AuditLog"?`},
		{[]string{"--uninstall", "--client", "qwn"}, 64, `did you mean "qwen"?`},
	} {
		cmd := exec.Command("./install.sh", tt.args...)
		cmd.Dir = ".."
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tt.code || !strings.Contains(string(out), tt.want) {
			t.Errorf("./install.sh %v: exit %d, want %d with %q:\n%s", tt.args, code, tt.code, tt.want, out)
		}
	}
	if _, err := os.Stat(mark); err == nil {
		t.Error("install.sh ran go")
	}
	if entries, _ := os.ReadDir(home); len(entries) > 0 {
		t.Errorf("install.sh wrote into the home: %v", entries)
	}
}

// TestInstallScriptKnowsTheClients: the clients install.sh takes for --client are harness's.
func TestInstallScriptKnowsTheClients(t *testing.T) {
	script, err := os.ReadFile("../install.sh")
	if err != nil {
		t.Fatal(err)
	}
	list := regexp.MustCompile(`(?m)^clients="([^"]*)"`).FindSubmatch(script)
	if list == nil {
		t.Fatal("install.sh has no clients list")
	}
	got, want := strings.Fields(string(list[1])), dialect.Names()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("install.sh's clients are %v; harness knows %v", got, want)
	}
}

// TestInstallScriptKnowsTheFlags: the flags install.sh accepts are exactly those harness
// install and harness uninstall show in their help, each taking a value or not as there.
func TestInstallScriptKnowsTheFlags(t *testing.T) {
	script, err := os.ReadFile("../install.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"install", "uninstall"} {
		out, err := exec.Command(filepath.Join(binDir, "harness"), cmd, "--help").Output()
		if err != nil {
			t.Fatal(err)
		}
		var valued, bools []string
		for _, m := range regexp.MustCompile(`(?m)^\s+--([a-z][a-z-]*)( value)?\s`).FindAllStringSubmatch(string(out), -1) {
			switch {
			case m[1] == "help":
			case m[2] != "":
				valued = append(valued, m[1])
			default:
				bools = append(bools, m[1])
			}
		}
		for kind, names := range map[string][]string{"valued": valued, "bool": bools} {
			list := regexp.MustCompile(`(?m)^` + cmd + `_` + kind + `="([^"]*)"`).FindSubmatch(script)
			if list == nil {
				t.Fatalf("install.sh has no %s_%s", cmd, kind)
			}
			got, want := strings.Fields(string(list[1])), slices.Clone(names)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("install.sh's %s_%s is %v; harness %s --help has %v", cmd, kind, got, cmd, want)
			}
		}
	}
}
