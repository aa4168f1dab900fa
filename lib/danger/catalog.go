package danger

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hookkit/harness/lib/shell"
	"github.com/hookkit/harness/lib/spell"
	"github.com/hookkit/harness/lib/verdict"
)

// Rule is one thing the guard judges, declared once at the top of its pack's file: its id
// (pack.name), what it decides, how much its command can destroy, and what to do instead (a
// finding may give more specific advice; an empty one means the rule's own).
type Rule struct {
	ID      string
	Action  Action
	Radius  Radius
	Instead string
	// scoped marks an asking rule that already weighs where its command is aimed: naming
	// production does not turn it into its pack's deny for production deletes.
	scoped bool
}

// pack is a set of rules about one kind of damage, and the programs whose commands it judges.
type pack struct {
	name, title string
	rules       []*Rule
	programs    []program
	// line checks the whole command line once; each checks every command, even one whose
	// program is known only when it runs; known checks every command whose program is known,
	// after that program's own check.
	line  func(*judge)
	each  []func(*judge, *shell.Cmd)
	known func(*judge, *shell.Cmd)
	// production and listed, when set, replace an asking rule of the pack when its command
	// names a production target, or runs on everything a listing printed.
	production, listed *Rule
}

// program is a check and the program names it judges ("mkfs.*": every name with that prefix).
type program struct {
	names []string
	check func(*judge, *shell.Cmd)
}

// packs is every rule pack, in the order they judge a command (the order of findings of one
// severity) and the catalog lists them.
var packs = [...]*pack{
	&packPolicy, &packFS, &packDisk, &packGit, &packPerm, &packNet, &packRev, &packFork, &packPower, &packKill,
	&packDB, &packCloud, &packStore, &packHosted, &packContainer, &packHist, &packPersist, &packTamper, &packClobber, &packExfil,
	&packRelease, &packNetcfg, &packProtect, &packOtherOS, &packLimits,
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

// Entry is one rule of the catalog with the pack it belongs to.
type Entry struct {
	Pack  string `json:"pack"`
	Title string `json:"title"`
	*Rule
}

// Catalog lists every rule, pack by pack, in the order the packs are declared.
func Catalog() []Entry {
	var es []Entry
	for _, p := range packs {
		for _, r := range p.rules {
			es = append(es, Entry{Pack: p.name, Title: p.title, Rule: r})
		}
	}
	return es
}

// Guard is the hook that judges by these packs, as the rule listing names it.
const Guard = "SecurityValidator"

// Rules lists every rule with the pack it belongs to, for the rule listing.
func Rules() []verdict.Entry {
	var es []verdict.Entry
	for _, e := range Catalog() {
		es = append(es, verdict.Entry{Guard: Guard, Pack: e.Pack, ID: e.ID, Action: e.Action, Radius: e.Radius, Instead: e.Instead})
	}
	return es
}

// WriteCatalog prints every rule (guard, pack, id, action, radius, advice) as aligned text, or
// as a JSON array.
func WriteCatalog(w io.Writer, asJSON bool) error {
	return verdict.WriteCatalog(w, Rules(), asJSON)
}

// checkDisable reports a disable entry that names no rule and no pack ("git.*"), with the
// nearest name.
func checkDisable(d string) error {
	best, dist := "", len(d)/2+1
	try := func(name string) bool {
		if name == d {
			return true
		}
		if n := spell.Distance(d, name); n < dist {
			best, dist = name, n
		}
		return false
	}
	for _, p := range packs {
		if try(p.name + ".*") {
			return nil
		}
		for _, r := range p.rules {
			if try(r.ID) {
				return nil
			}
		}
	}
	msg := fmt.Sprintf("disable: %q names no rule and no pack (a rule id such as git.reset-hard, or a pack such as git.*; SecurityValidator --rules lists them)", d)
	if best != "" {
		msg += "; did you mean " + best + "?"
	}
	return errors.New(msg)
}
