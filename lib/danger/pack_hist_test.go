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
