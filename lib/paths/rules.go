package paths

import (
	"strings"

	"github.com/hookkit/harness/lib/verdict"
)

// Rule is one thing WriteProtector judges a path by, declared once here: its id (tier.name, or
// the tier alone), what it decides, and what to do instead (a verdict may give more specific
// advice; an empty one means the rule's own). The ids are the ones the guard's reasons and the
// audit records have always named: a renamed rule would change what the history means.
type Rule struct {
	ID      string
	Action  Action
	Instead string
}

// Tier is the tier a rule belongs to: its id's first part (credentials, read-only, ask, ...).
func (r *Rule) Tier() string { return tier(r.ID) }

func tier(id string) string {
	t, _, _ := strings.Cut(id, ".")
	return t
}

// The rules for writes, in the order Judge tries them.
var (
	policyDeny       = &Rule{ID: "policy.deny", Action: Deny, Instead: "write somewhere else"}
	credentials      = &Rule{ID: "credentials", Action: Deny, Instead: "ask the user to change credentials themselves"}
	credentialsKey   = &Rule{ID: "credentials.private-key", Action: Deny, Instead: "keep keys out of the repository: generate them at run time, or keep them in the user's ~/.ssh or a secret store"}
	askKeyFixture    = &Rule{ID: "ask.key-fixture", Action: Ask, Instead: "generate the test key when the tests run, or check with the user that a fixture key is meant to be committed"}
	roClaudeSettings = &Rule{ID: "read-only.claude-settings", Action: Deny, Instead: "ask the user to change their Claude Code settings"}
	roHarness        = &Rule{ID: "read-only.harness", Action: Deny, Instead: "use harness install / uninstall, or ask the user"}
	roSystem         = &Rule{ID: "read-only.system", Action: Deny, Instead: "write inside the project, or ask the user to change system files"}
	roGit            = &Rule{ID: "read-only.git", Action: Deny, Instead: "use git commands (git config, git update-ref, ...) instead"}
	policyReadOnly   = &Rule{ID: "policy.read-only", Action: Deny, Instead: "leave it as it is"}
	askRCFile        = &Rule{ID: "ask.rc-file", Action: Ask, Instead: "tell the user the line to add, or ask first"}
	outsideProject   = &Rule{ID: "outside-project", Action: Deny, Instead: "write inside the project or under /tmp, or add the directory to allow_dirs in the user policy"}
	askEnv           = &Rule{ID: "ask.env", Action: Ask, Instead: "write the variable names to .env.example and let the user fill in the values"}
	askProjectSet    = &Rule{ID: "ask.project-settings", Action: Ask, Instead: "check the change with the user"}
	askPlanted       = &Rule{ID: "ask.planted", Action: Ask, Instead: "show the user the change and let them make it, or ask first"}
	askCIWorkflow    = &Rule{ID: "ask.ci-workflow", Action: Ask, Instead: "check the change with the user"}
	// hooks-off is judged on what a file tool writes, not on the path alone (hooksoff.go).
	hooksOff = &Rule{ID: "hooks-off", Action: Deny, Instead: "ask the user to change hook settings themselves"}
	// policy.ask gives no advice: the policy that asks says nothing of why.
	policyAsk = &Rule{ID: "policy.ask", Action: Ask}
)

// The rules for reads, in the order JudgeRead tries them.
var (
	policyDenyRead  = &Rule{ID: "policy.deny-read", Action: Deny, Instead: "ask the user for what you need from it"}
	askKeyRead      = &Rule{ID: "ask.key-read", Action: Ask, Instead: "check with the user; a certificate can be inspected with openssl x509 -noout -subject -in it"}
	credentialsRead = &Rule{ID: "credentials.read", Action: Deny, Instead: "ask the user for what you need (a key's public half, a profile's name), or to run the step themselves"}
	askEnvRead      = &Rule{ID: "ask.env-read", Action: Ask, Instead: "read the variable names from .env.example, or ask the user for the value you need"}
	askReadTree     = &Rule{ID: "ask.read-tree", Action: Ask, Instead: "search the project or a narrower directory"}
)

// rules is every rule, writes then reads: the catalog lists them in this order.
var rules = [...]*Rule{
	policyDeny, askKeyFixture, credentials, credentialsKey, roClaudeSettings, roHarness, roSystem, roGit, policyReadOnly, askRCFile, outsideProject,
	askEnv, askProjectSet, askPlanted, askCIWorkflow, policyAsk, hooksOff,
	policyDenyRead, askKeyRead, credentialsRead, askEnvRead, askReadTree,
}

// Guard is the name of the hook that judges by these rules, as the catalog lists it.
const Guard = "WriteProtector"

// Rules lists every rule with its tier, for harness rules.
func Rules() []verdict.Entry {
	es := make([]verdict.Entry, len(rules))
	for i, r := range rules {
		es[i] = verdict.Entry{Guard: Guard, Pack: r.Tier(), ID: r.ID, Action: r.Action, Instead: r.Instead}
	}
	return es
}

// Tag names the rule of a deny or ask, for the answer to carry: its tier is the rule's.
func (v Verdict) Tag() verdict.Tag {
	if v.Rule == "" {
		return verdict.Tag{}
	}
	return verdict.Tag{Rule: v.Rule, Pack: tier(v.Rule)}
}

// with decides by a rule, with its own advice.
func (v Verdict) with(r *Rule, why string) Verdict {
	return v.advise(r, why, r.Instead)
}

// advise decides by a rule, with advice more specific than the rule's.
func (v Verdict) advise(r *Rule, why, instead string) Verdict {
	v.Action, v.Rule, v.Why, v.Instead = r.Action, r.ID, why, instead
	return v
}
