package dispatch

import (
	"bytes"
	"context"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkOverhead compares dispatching one trivial hook (matcher selection, run, read,
// aggregate) with starting the same process directly; the difference is the dispatcher's cost.
//
//	go test ./lib/dispatch -run '^$' -bench Overhead
func BenchmarkOverhead(b *testing.B) {
	bin, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true command")
	}
	payload := []byte(pre)
	b.Run("direct", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cmd := exec.Command(bin)
			cmd.Stdin = bytes.NewReader(payload)
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	s := &Settings{Events: map[string][]Group{"PreToolUse": {{Matcher: "Bash|Write", Hooks: []Handler{{Command: bin, Args: []string{}, Timeout: 10 * time.Second}}}}}}
	dir := b.TempDir()
	b.Run("dispatched", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			v := Run(context.Background(), "PreToolUse", payload, s.Select("PreToolUse", payload), Env{Project: dir})
			if len(v.Results) != 1 {
				b.Fatal("the hook did not run")
			}
		}
	})
}
