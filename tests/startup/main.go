// Command startup times hook binaries against an empty Go program: every binary is started in
// turn, round after round, each with its payload waiting in a pipe on stdin, and the ratio of
// each hook's median to the empty program's is printed. Records the hooks write go to a
// throwaway harness home (--home).
//
//	go run ./tests/startup [-n 300] [-max 1.3] [-hook ./hooks/NAME] [-payload FILE]
//	go run ./tests/startup [-n 300] [-max 1.3] -all
//
// -all times every hook that runs per tool call or per prompt, with the payload it usually
// gets, in one run, so their ratios are comparable; three floors run with them: floor/read (a
// program that only reads stdin), floor/parse (one that also parses the command with
// mvdan.cc/sh/v3/syntax) and floor/record (one that appends a redacted audit line instead),
// the least any hook, any parsing guard and any record hook can cost.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"
)

const captured = "lib/event/testdata/captured/"

// perCall are the hooks Claude Code starts on every tool call or prompt, with their usual payload.
var perCall = []target{
	{"./tests/startup/floor/read", captured + "PreToolUse.json"},
	{"./tests/startup/floor/parse", captured + "PreToolUse.json"},
	{"./tests/startup/floor/record", captured + "PreToolUse.json"},
	{"./tests/hooks/TestGuard", captured + "PreToolUse.json"},
	{"./hooks/AuditLog", captured + "PreToolUse.json"},
	{"./hooks/PromptContext", captured + "UserPromptSubmit.json"},
	{"./hooks/SecretGuard", captured + "UserPromptSubmit.json"},
	{"./hooks/WriteProtector", captured + "PreToolUse.Write.json"},
	{"./hooks/SecurityValidator", captured + "PreToolUse.json"},
}

type target struct{ pkg, payload string }

func main() {
	n := flag.Int("n", 300, "runs of each binary")
	maxRatio := flag.Float64("max", 0, "exit 1 when a ratio is above this (0: only report)")
	hookPkg := flag.String("hook", "./tests/hooks/TestGuard", "the hook's package")
	payload := flag.String("payload", captured+"PreToolUse.json", "the payload fed on stdin")
	all := flag.Bool("all", false, "time every per-call hook with its usual payload")
	flag.Parse()
	targets := []target{{*hookPkg, *payload}}
	if *all {
		flag.Visit(func(f *flag.Flag) {
			if f.Name == "hook" || f.Name == "payload" {
				fmt.Fprintln(os.Stderr, "startup: -all times every per-call hook; it takes no -hook or -payload")
				os.Exit(2)
			}
		})
		targets = perCall
	}
	if err := run(*n, *maxRatio, targets); err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}

func run(n int, maxRatio float64, targets []target) error {
	dir, err := os.MkdirTemp("", "startup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	env := os.Environ()
	// Every process gets the flag the installer writes (the empty binary ignores it).
	home := "--home=" + filepath.Join(dir, "harness")

	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module empty\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	empty := filepath.Join(dir, "empty")
	if err := build(src, ".", empty); err != nil {
		return err
	}
	emptyPayload, err := os.ReadFile(targets[0].payload)
	if err != nil {
		return err
	}
	bins := make([]string, len(targets))
	payloads := make([][]byte, len(targets))
	for i, t := range targets {
		bins[i] = filepath.Join(dir, fmt.Sprintf("hook%d", i))
		if err := build("", t.pkg, bins[i]); err != nil {
			return err
		}
		if payloads[i], err = os.ReadFile(t.payload); err != nil {
			return err
		}
	}

	te := make([]time.Duration, 0, n)
	th := make([][]time.Duration, len(targets))
	for range n {
		d, err := timeRun(empty, emptyPayload, env, home)
		if err != nil {
			return err
		}
		te = append(te, d)
		for i, b := range bins {
			if d, err = timeRun(b, payloads[i], env, home); err != nil {
				return err
			}
			th[i] = append(th[i], d)
		}
	}
	me := median(te)
	fmt.Printf("empty Go binary: median %v over %d runs\n", me, n)
	var over []string
	for i, t := range targets {
		mh := median(th[i])
		ratio := float64(mh) / float64(me)
		if len(targets) == 1 {
			fmt.Printf("%s: median %v over %d runs\nratio: %.2f\n", t.pkg, mh, n, ratio)
		} else {
			fmt.Printf("%-28s %-32s median %-12v ratio %.2f\n", t.pkg, filepath.Base(t.payload), mh, ratio)
		}
		if maxRatio > 0 && ratio > maxRatio {
			over = append(over, fmt.Sprintf("%s %.2f", t.pkg, ratio))
		}
	}
	if len(over) > 0 {
		return fmt.Errorf("above %.2f: %v", maxRatio, over)
	}
	return nil
}

func build(dir, pkg, out string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

// timeRun starts bin with the payload waiting in a pipe on its stdin, as Claude Code gives it,
// and waits for it; a hook's exit code is its answer, so only a failure to start is an error.
func timeRun(bin string, payload []byte, env []string, args ...string) (time.Duration, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	if _, err := w.Write(payload); err != nil { // payloads here fit the pipe buffer
		return 0, err
	}
	w.Close()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = r
	cmd.Env = env
	start := time.Now()
	err = cmd.Run()
	d := time.Since(start)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		return 0, err
	}
	return d, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
