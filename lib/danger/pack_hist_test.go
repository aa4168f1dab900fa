package danger

import "testing"

// TestPackHist names the rule of the log and history wiping pack each command must be decided by ("": allowed).
func TestPackHist(t *testing.T) {
	checkPack(t, []packCase{
		{"history -c", "hist.clear"},
		{"unset HISTFILE", "hist.disable"},
		{"> ~/.bash_history", "hist.history-file"},
		{"sudo rm -rf /var/log", "hist.logs"},
	})
}

// TestPackHistMacOS: macOS's unified log erased, or its store deleted.
func TestPackHistMacOS(t *testing.T) {
	checkPackIn(t, macWorld(), []packCase{
		{"sudo log erase --all", "hist.logs"},
		{"log erase --ttl", "hist.logs"},
		{"sudo rm -rf /private/var/db/diagnostics", "hist.logs"},
		{"sudo rm -rf /private/var/log/system.log", "hist.logs"},
		{"log show --last 1h --predicate 'process == \"x\"'", ""},
		{"log stream --level debug", ""},
	})
}
