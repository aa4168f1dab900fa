package danger

import (
	"slices"
	"strconv"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	histClear       = &Rule{ID: "hist.clear", Action: Deny, Radius: Medium, Instead: "leave the history alone"}
	histDisable     = &Rule{ID: "hist.disable", Action: Deny, Radius: Medium, Instead: "leave history recording on"}
	histHistoryFile = &Rule{ID: "hist.history-file", Action: Deny, Radius: Medium, Instead: "leave the history file alone"}
	histLogs        = &Rule{ID: "hist.logs", Action: Deny, Radius: Medium, Instead: "leave the logs alone"}
)

var packHist = pack{name: "hist", title: "log and history wiping",
	rules: []*Rule{histClear, histDisable, histHistoryFile, histLogs},
	programs: []program{
		{[]string{"history"}, (*judge).history}, {[]string{"set"}, (*judge).setHist}, {[]string{"unset"}, (*judge).unsetHist},
		{[]string{"export"}, (*judge).exportHist}, {[]string{"journalctl"}, (*judge).journalctl}, {[]string{"ln"}, (*judge).ln},
		{[]string{"log"}, (*judge).macLog},
	},
}

// The option grammars of the programs this file judges: which options take a value.
var (
	lnOpts = shell.Opts{Short: "tS", Long: []string{"target-directory", "suffix"}}
)

func (j *judge) ln(c *shell.Cmd) {
	p := lnOpts.Parse(c.Args)
	if len(p.Operands) == 2 && p.Operands[0] == "/dev/null" && historyFile(j.res(c, p.Operands[1])) {
		j.add(c, histHistoryFile, "linking the shell history to /dev/null stops it being recorded", "")
	}
}

func (j *judge) history(c *shell.Cmd) {
	if (shell.Opts{}).Parse(c.Args).Has("c") {
		j.add(c, histClear, "history -c wipes the shell history", "")
	}
}

// setHist: set +o history stops the shell recording the commands after it.
func (j *judge) setHist(c *shell.Cmd) {
	for i, a := range c.Args {
		if a == "+o" && at(c.Args, i+1) == "history" {
			j.add(c, histDisable, "set +o history stops the shell recording history", "")
		}
	}
}

func (j *judge) unsetHist(c *shell.Cmd) {
	if slices.Contains(c.Args, "HISTFILE") {
		j.add(c, histDisable, "unsetting HISTFILE stops the shell recording history", "")
	}
}

func (j *judge) exportHist(c *shell.Cmd) {
	for _, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "HISTFILE="); ok && (v == "/dev/null" || v == "") {
			j.add(c, histDisable, "pointing HISTFILE at /dev/null stops the shell recording history", "")
		}
		if v, ok := strings.CutPrefix(a, "HISTSIZE="); ok && v == "0" {
			j.add(c, histDisable, "HISTSIZE=0 stops the shell recording history", "")
		}
	}
}

func (j *judge) journalctl(c *shell.Cmd) {
	for _, a := range c.Args {
		if _, v, _ := strings.Cut(a, "="); strings.HasPrefix(a, "--vacuum-size=") && sizeBytes(v) >= 64<<20 ||
			strings.HasPrefix(a, "--vacuum-files=") && v != "0" && v != "1" {
			continue // a cap that keeps a recent journal: routine housekeeping
		}
		if strings.HasPrefix(a, "--vacuum") {
			j.add(c, histLogs, "journalctl --vacuum-time deletes the system journal", "cap it with --vacuum-size, or leave the journal to its retention settings")
			return
		}
	}
}

// sizeBytes reads a journalctl size (500M, 1G, 1K); 0 when it is not one.
func sizeBytes(v string) int64 {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "K"):
		mult = 1 << 10
	case strings.HasSuffix(v, "M"):
		mult = 1 << 20
	case strings.HasSuffix(v, "G"):
		mult = 1 << 30
	case strings.HasSuffix(v, "T"):
		mult = 1 << 40
	}
	n, err := strconv.ParseInt(strings.TrimRight(v, "KMGTB"), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n * mult
}

// macLog: log erase deletes macOS's unified log (--all, or the ttl'd entries); log show,
// stream and collect only read it.
func (j *judge) macLog(c *shell.Cmd) {
	if at(c.Args, 0) == "erase" {
		j.add(c, histLogs, "log erase deletes the macOS system log, the record of what happened on this machine", "")
	}
}
