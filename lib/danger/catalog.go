package danger

import (
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// Rule is one thing the guard judges, declared once at the top of its pack's file: its id
// (pack.name), what it decides, how much its command can destroy, and what to do instead (a
// finding may give more specific advice; an empty one means the rule's own).
type Rule struct {
	ID      string
	Action  Action
	Radius  Radius
	Instead string
}

// pack is a set of rules about one kind of damage, and the programs whose commands it judges.
type pack struct {
	name, title string
	rules       []*Rule
	programs    []program
	// production and listed, when set, replace an asking rule of the pack when its command
	// names a production target, or runs on everything a listing printed.
	production, listed *Rule
}

// program is a check and the program names it judges ("mkfs.*": every name with that prefix).
type program struct {
	names []string
	check func(*judge, *shell.Cmd)
}

// packs is every rule pack, in the order the catalog lists them.
var packs = [...]*pack{
	&packFS, &packDisk, &packGit, &packPerm, &packNet, &packRev, &packFork, &packPower, &packKill, &packDB,
	&packCloud, &packContainer, &packExfil, &packHist, &packPersist, &packTamper, &packClobber, &packOtherOS,
	&packPolicy, &packLimits,
}

// program returns the check that judges a program, or nil.
func (j *judge) program(name string) func(*judge, *shell.Cmd) {
	for _, p := range j.packs {
		for _, pr := range p.programs {
			for _, n := range pr.names {
				if n == name || strings.HasSuffix(n, "*") && strings.HasPrefix(name, n[:len(n)-1]) {
					return pr.check
				}
			}
		}
	}
	return nil
}

// packOf returns the pack a rule belongs to, named by its id's prefix.
func (j *judge) packOf(r *Rule) *pack {
	name, _, _ := strings.Cut(r.ID, ".")
	for _, p := range j.packs {
		if p.name == name {
			return p
		}
	}
	return &packLimits
}

// The rules of the analysis itself: what cannot be read is not let through.
var (
	limitsAnalysis = &Rule{ID: "limits.analysis", Action: Deny, Radius: Medium, Instead: "split it into smaller commands"}
	limitsParse    = &Rule{ID: "limits.parse", Action: Deny, Radius: Medium, Instead: "fix the syntax and run it again"}
	limitsUnread   = &Rule{ID: "limits.unread", Action: Ask, Radius: Medium, Instead: "run the commands themselves, written out"}
)

var packLimits = pack{name: "limits", title: "limits", rules: []*Rule{limitsAnalysis, limitsParse, limitsUnread}}
