package danger

import "testing"

// TestPackLimits names the rule of the limits pack each command must be decided by ("": allowed).
func TestPackLimits(t *testing.T) {
	checkPack(t, []packCase{
		{"rm -rf \"build", "limits.parse"},
		{"pwsh -enc zzz", "limits.unread"},
		{"fish -c 'for f in *.txt; echo $f; end'", ""},
	})
}
