package danger

import "testing"

// TestPackFork names the rule of the fork bombs pack each command must be decided by ("": allowed).
func TestPackFork(t *testing.T) {
	checkPack(t, []packCase{
		{":(){ :|:& };:", "fork.bomb"},
		{"a(){ b& b& }; b(){ a& a& }; a", "fork.bomb"},
		{"a(){ b|b& }; b(){ a; }; a", "fork.bomb"},
		{"x(){ y | z; }; y(){ x & }; z(){ cat; }; x", "fork.bomb"},
		{"build(){ test & lint & wait; }; test(){ go test ./...; }; lint(){ go vet ./...; }; build", ""},
		{"a(){ b& b& }; b(){ a& a& }", ""},
		{"log(){ echo \"$@\" | tee -a l; }; run(){ log start; \"$@\"; log end; }; run make", ""},
		{"perl -e 'while(1){fork}'", "fork.bomb"},
		{"perl -e 'for(;;){fork;}'", "fork.bomb"},
		{"perl -e 'while (1) { fork; }'", "fork.bomb"},
		{"perl -e 'my $pid = fork(); if ($pid == 0) { exec \"ls\" } waitpid($pid, 0)'", ""},
	})
}
