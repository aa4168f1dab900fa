package danger

import "testing"

// TestPackFork names the rule of the fork bombs pack each command must be decided by ("": allowed).
func TestPackFork(t *testing.T) {
	checkPack(t, []packCase{
		{":(){ :|:& };:", "fork.bomb"},
		{"perl -e 'while(1){fork}'", "fork.bomb"},
		{"perl -e 'for(;;){fork;}'", "fork.bomb"},
		{"perl -e 'while (1) { fork; }'", "fork.bomb"},
		{"perl -e 'my $pid = fork(); if ($pid == 0) { exec \"ls\" } waitpid($pid, 0)'", ""},
	})
}
