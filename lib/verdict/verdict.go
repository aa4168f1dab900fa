package verdict

// Action is what a rule decides, ordered by severity: a command's and a path's verdicts
// compare and print alike.
type Action uint8

const (
	Allow Action = iota
	Ask
	Deny
)

func (a Action) String() string {
	switch a {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "unknown"
}

// Radius is how much what a rule stops could destroy ("" where a guard does not weigh it).
type Radius string

const (
	Low    Radius = "low"
	Medium Radius = "medium"
	High   Radius = "high"
)

// Tag names the rule behind an answer: its id, the pack (or tier) it belongs to, and its
// radius. It travels with the answer as data, so the recorder and the dialects read fields,
// never the reason's prose.
type Tag struct {
	Rule, Pack string
	Radius     Radius
}

// Decision is what one hook call decided, in the audit record's words.
type Decision string

const (
	// Silent: no decision (no output, or context alone).
	Silent   Decision = "silent"
	Allowed  Decision = "allow"
	Asked    Decision = "ask"
	Deferred Decision = "defer"
	Denied   Decision = "deny"
	// Blocked is a decision:block (a reason fed back after the call ran, a prompt stopped).
	Blocked Decision = "block"
	// Failed: the hook failed open.
	Failed Decision = "failed"
)
