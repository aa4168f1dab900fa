package tests

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/lint"
)

// harness validate judges a guard's timeout against the guard's own deadline, from the
// timeouts lib/lint knows the guards are built with: those are each binary's own, and every
// hook that fails closed is one of them.
func TestGuardTimeoutsAreTheBinaries(t *testing.T) {
	entries, err := os.ReadDir("../hooks")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		out, err := exec.Command(filepath.Join(binDir, e.Name()), "--describe").Output()
		if err != nil {
			t.Fatalf("%s --describe: %v", e.Name(), err)
		}
		var d struct {
			Policy string
			Events []struct {
				Event   event.Name
				Timeout int
			}
		}
		if err := json.Unmarshal(out, &d); err != nil {
			t.Fatalf("%s --describe: %v", e.Name(), err)
		}
		for _, b := range d.Events {
			want := 0
			if d.Policy == "closed" {
				want = b.Timeout
			}
			if got := lint.GuardTimeout(e.Name(), b.Event); got != want {
				t.Errorf("lint.GuardTimeout(%s, %s) = %d, want %d (its --describe, policy %s)", e.Name(), b.Event, got, want, d.Policy)
			}
		}
	}
}
