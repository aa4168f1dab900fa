// Command startup times a hook binary against an empty Go program, each started a few hundred
// times in alternation with the same payload on stdin, and prints the ratio of their medians.
//
//	go run ./tests/startup [-n 300] [-max 1.3] [-hook ./hooks/NAME] [-payload FILE]
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

func main() {
	n := flag.Int("n", 300, "runs of each binary")
	maxRatio := flag.Float64("max", 0, "exit 1 when the ratio is above this (0: only report)")
	hookPkg := flag.String("hook", "./tests/hooks/TestGuard", "the hook's package")
	payload := flag.String("payload", "lib/event/testdata/captured/PreToolUse.json", "the payload fed on stdin")
	flag.Parse()
	if err := run(*n, *maxRatio, *hookPkg, *payload); err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}

func run(n int, maxRatio float64, hookPkg, payloadFile string) error {
	payload, err := os.ReadFile(payloadFile)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "startup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	empty := filepath.Join(dir, "empty")
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module empty\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	if err := build(src, ".", empty); err != nil {
		return err
	}
	hookBin := filepath.Join(dir, "hook")
	if err := build("", hookPkg, hookBin); err != nil {
		return err
	}

	var te, th []time.Duration
	for range n {
		d, err := timeRun(empty, payload)
		if err != nil {
			return err
		}
		te = append(te, d)
		if d, err = timeRun(hookBin, payload); err != nil {
			return err
		}
		th = append(th, d)
	}
	me, mh := median(te), median(th)
	ratio := float64(mh) / float64(me)
	fmt.Printf("empty Go binary: median %v over %d runs\n", me, n)
	fmt.Printf("%s: median %v over %d runs\n", hookPkg, mh, n)
	fmt.Printf("ratio: %.2f\n", ratio)
	if maxRatio > 0 && ratio > maxRatio {
		return fmt.Errorf("ratio %.2f is above %.2f", ratio, maxRatio)
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
func timeRun(bin string, payload []byte) (time.Duration, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	if _, err := w.Write(payload); err != nil { // payloads here fit the pipe buffer
		return 0, err
	}
	w.Close()
	cmd := exec.Command(bin)
	cmd.Stdin = r
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
