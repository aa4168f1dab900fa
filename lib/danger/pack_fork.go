package danger

import "fmt"

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
}
