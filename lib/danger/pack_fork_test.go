package danger

import "testing"

// TestPackFork names the rule of the fork bombs pack each command must be decided by ("": allowed).
func TestPackFork(t *testing.T) {
	checkPack(t, []packCase{
		{":(){ :|:& };:", "fork.bomb"},
	})
}
