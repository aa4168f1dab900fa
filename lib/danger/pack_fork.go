package danger

var packFork = pack{name: "fork", title: "fork bombs",
	rules: []*Rule{},
}

var (
	forkBomb = &Rule{ID: "fork.bomb", Action: Deny, Radius: High, Instead: "write a bounded loop instead"}
)
