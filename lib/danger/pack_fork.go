package danger

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	forkBomb = &Rule{ID: "fork.bomb", Action: Deny, Radius: High, Instead: "write a bounded loop instead"}
)

var packFork = pack{name: "fork", title: "fork bombs",
	rules: []*Rule{forkBomb},
	line:  (*judge).forkBombs,
}

// forkBombs: functions that call themselves in a pipeline or the background.
func (j *judge) forkBombs() {
	for _, name := range j.an.ForkBombs {
		j.add(nil, forkBomb, fmt.Sprintf("function %s calls itself in a pipeline or the background: a fork bomb that freezes the machine", name), "")
	}
	if len(j.an.ForkBombs) == 0 {
		if cycle := j.mutualForkBomb(); cycle != "" {
			j.add(nil, forkBomb, "functions "+cycle+" call each other in pipelines or the background, without end: a fork bomb that freezes the machine", "")
		}
	}
}

// mutualForkBomb finds functions that call each other in a cycle in which at least one call
// runs in the background or a pipeline, a process of its own (a(){ b& b& }; b(){ a& a& }; a),
// as lib/shell finds the function that spawns itself; the cycle, "" for none.
func (j *judge) mutualForkBomb() string {
	if !slices.ContainsFunc(j.an.Cmds, func(c *shell.Cmd) bool { return len(c.Via) > 0 && strings.HasPrefix(c.Via[0], "function ") }) {
		return "" // no function in the line
	}
	piped := map[*shell.Cmd]bool{} // stages of a pipeline: each a process of its own
	for _, c := range j.an.Cmds {
		if c.Stdin != nil && len(c.Stdin.From) > 0 {
			piped[c] = true
			for _, f := range c.Stdin.From {
				piped[f] = true
			}
		}
	}
	calls := map[string]map[string]bool{} // caller -> callee -> the call spawns a process
	called := map[string]bool{}           // functions the line itself calls
	for _, c := range j.an.Cmds {
		if len(c.Via) == 0 {
			called[c.Name] = true
			continue
		}
		caller, ok := strings.CutPrefix(c.Via[0], "function ")
		if !ok || len(c.Via) != 1 {
			continue
		}
		t := strings.TrimRight(c.Text, "; \n\t")
		if calls[caller] == nil {
			calls[caller] = map[string]bool{}
		}
		calls[caller][c.Name] = calls[caller][c.Name] || piped[c] || strings.HasSuffix(t, "&") && !strings.HasSuffix(t, "&&")
	}
	// a cycle of two or three functions, one call of it spawning
	for _, a := range slices.Sorted(maps.Keys(calls)) { // the same answer every time
		if !called[a] {
			continue
		}
		outs := calls[a]
		for _, b := range slices.Sorted(maps.Keys(outs)) {
			ab := outs[b]
			if b == a {
				continue
			}
			if ba, ok := calls[b][a]; ok && (ab || ba) {
				return a + " and " + b
			}
			for _, c := range slices.Sorted(maps.Keys(calls[b])) {
				bc := calls[b][c]
				if ca, ok := calls[c][a]; ok && c != a && c != b && (ab || bc || ca) {
					return a + ", " + b + " and " + c
				}
			}
		}
	}
	return ""
}
