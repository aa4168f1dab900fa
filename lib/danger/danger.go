package danger

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hookkit/harness/lib/shell"
	"github.com/hookkit/harness/lib/verdict"
)

// Action is a verdict, ordered by severity (lib/verdict's, which lib/paths judges paths with).
type Action = verdict.Action

const (
	Allow = verdict.Allow
	Ask   = verdict.Ask
	Deny  = verdict.Deny
)

// Radius is how much a rule's command can destroy.
type Radius = verdict.Radius

const (
	Low    = verdict.Low
	Medium = verdict.Medium
	High   = verdict.High
)

// Finding is one rule that matched one command.
type Finding struct {
	Rule   string // pack.name, e.g. "fs.rm-critical"
	Pack   string // the pack's category, e.g. "filesystem"
	Action Action
	Radius Radius
	// Why says what the command would do; Instead says what to do instead.
	Why, Instead string
	// Cmd is the command it matched (nil for findings about the whole command).
	Cmd *shell.Cmd
}

// Verdict is the decision on one command line.
type Verdict struct {
	Action   Action
	Findings []Finding // the most severe first
	Analysis *shell.Analysis
}

// Input is what a judgement needs besides the command.
type Input struct {
	World  shell.World
	Policy *Policy
	Limits shell.Limits
	// HarnessHome is the harness's own folder, whose files no command may change ("": the
	// default one under World.Home); SystemDir the administrator's scope the hook was told
	// (--system-dir), protected besides the compiled one.
	HarnessHome, SystemDir string
	// OwnerHome is the account's own home when it is not World.Home (a project's settings can
	// set HOME for the hooks and the commands alike): every rule that protects home protects it
	// too. ~ in a command stays World.Home, which is what the command sees.
	OwnerHome string
}

// Judge analyses a Bash command and decides. A command that cannot be analysed (unparseable,
// over a limit) is denied with the reason: what cannot be judged is never allowed.
func Judge(command string, in Input) Verdict {
	pol := in.Policy
	if pol == nil {
		pol = Defaults()
	}
	an, err := shell.Analyze(command, in.World, in.Limits)
	if err != nil {
		return Verdict{Action: Deny, Findings: []Finding{limitFinding(err)}}
	}
	j := &judge{world: in.World, owner: in.OwnerHome, pol: pol, packs: packs[:], an: an}
	j.harness, j.system = harnessHome(in), in.SystemDir
	j.run()
	v := Verdict{Findings: j.findings, Analysis: an}
	sort.SliceStable(v.Findings, func(a, b int) bool { return v.Findings[a].Action > v.Findings[b].Action })
	for _, f := range v.Findings {
		v.Action = max(v.Action, f.Action)
	}
	return v
}

func limitFinding(err error) Finding {
	r, why := limitRule(err)
	return Finding{Rule: r.ID, Pack: packLimits.title, Action: r.Action, Radius: r.Radius, Why: why, Instead: r.Instead}
}

// limitRule is the rule and the reason for a command that cannot be analysed.
func limitRule(err error) (*Rule, string) {
	var le *shell.LimitError
	if errors.As(err, &le) {
		return limitsAnalysis, "it cannot be analysed in full: " + le.Reason
	}
	return limitsParse, "it is not valid Bash (" + err.Error() + "), so what it would run cannot be checked"
}

type judge struct {
	world    shell.World
	owner    string            // the account's own home, when it is not world.Home
	branches map[string]string // dir -> branch a git checkout/switch earlier in the line moved to
	harness  string            // the harness's own directory
	system   string            // the administrator's scope the hooks were installed with
	tainted  []string          // files the line fills with secrets
	pol      *Policy
	packs    []*pack
	an       *shell.Analysis
	findings []Finding
	psEq     map[*shell.Cmd][]*shell.Cmd // the Bash commands PowerShell statements amount to
	nested   bool                        // judging an argument of an unknown program, once
}

func (j *judge) add(c *shell.Cmd, r *Rule, why, instead string) {
	if j.pol.disabled(r.ID) {
		return
	}
	p := j.packOf(r)
	if instead == "" {
		instead = r.Instead
	}
	if r.Action == Ask && p.production != nil && c != nil && !r.scoped {
		// A delete that asks in general is denied when it names a production target, or runs
		// on everything a listing printed.
		if w := prodArgs(c); w != "" {
			r, why = p.production, why+", and it names production ("+w+")"
		} else if massListing(c.ArgsFrom) && !previewStage(c.Args) {
			r, why = p.listed, why+", for everything a listing printed"
		}
		if j.pol.disabled(r.ID) {
			return
		}
	}
	why, instead = shell.Show(why), shell.Show(instead)
	j.findings = append(j.findings, Finding{Rule: r.ID, Pack: p.title, Action: r.Action, Radius: r.Radius, Why: why, Instead: instead, Cmd: c})
}

func (j *judge) run() {
	j.taint()
	for _, p := range j.packs {
		if p.line != nil {
			p.line(j)
		}
	}
	for _, c := range j.an.Cmds {
		j.cmd(c)
	}
}

// cmd runs every rule that applies to one command.
func (j *judge) cmd(c *shell.Cmd) {
	if c.Unparsed && c.Name != "fish" && c.Name != "zsh" && c.Name != "csh" && c.Name != "tcsh" && c.Name != "nu" && c.Name != "pwsh" {
		// Bash runs the text it is handed line by line, up to the error: the lines before it
		// would run, and what they do cannot be checked.
		j.add(c, limitsParse, "the code it hands to a shell ("+c.Name+") is not valid Bash; bash would still run the lines before the error, so what it runs cannot be checked",
			"")
	}
	for _, p := range j.packs {
		for _, each := range p.each {
			each(j, c)
		}
	}
	if c.Dynamic() || inertRun(c) {
		return
	}
	if check := j.program(c.Name); check != nil {
		check(j, c)
	} else {
		j.wrapped(c)
	}
	for _, p := range j.packs {
		if p.known != nil {
			p.known(j, c)
		}
	}
	if c.Code != "" {
		j.code(c)
	}
}

// inertRun reports a command told only to show what it would do, or its help: --dry-run,
// --dryrun, --help (a server-side dry run too: nothing is deleted). The last --dry-run decides,
// as flag parsers read it, and every spelling of false is no dry run (--dry-run=0, =f, =FALSE,
// =none, =no, =off).
func inertRun(c *shell.Cmd) bool {
	dry := false
	for _, a := range c.Args {
		switch v, set := strings.CutPrefix(a, "--dry-run="); {
		case a == "--help" || a == "--what-if" || a == "-WhatIf":
			return true
		case a == "--dryrun" || a == "--dry-run":
			dry = true
		case set:
			switch strings.ToLower(v) {
			case "false", "0", "f", "none", "no", "off":
				dry = false
			default:
				dry = true // kubectl's client and server, true
			}
		}
	}
	return dry || len(c.Args) > 0 && c.Args[len(c.Args)-1] == "-h" && c.Name != "rm" && c.Name != "du" && c.Name != "df" && c.Name != "ls" && c.Name != "sort"
}

// Reason renders a verdict's main finding for the model: what was blocked, the rule, why, and
// what to do instead, in one or two lines.
func (v Verdict) Reason() string {
	if len(v.Findings) == 0 {
		return ""
	}
	f := v.Findings[0]
	what := "this command"
	if f.Cmd != nil {
		what = "`" + display(f.Cmd) + "`"
	}
	verb := "blocked"
	if f.Action == Ask {
		verb = "needs your approval:"
	}
	s := fmt.Sprintf("%s %s: %s [rule %s, %s, blast radius %s].", verb, what, f.Why, f.Rule, f.Pack, f.Radius)
	if f.Instead != "" {
		s += "\nInstead: " + f.Instead + "."
	}
	if n := len(v.Findings) - 1; n > 0 && f.Action == Deny {
		s = strings.Replace(s, "].", fmt.Sprintf("; %d more finding(s)].", n), 1)
	}
	return s
}

// Tag names the rule of a verdict's main finding, for the answer to carry (none when nothing
// matched).
func (v Verdict) Tag() verdict.Tag {
	if len(v.Findings) == 0 {
		return verdict.Tag{}
	}
	f := v.Findings[0]
	return verdict.Tag{Rule: f.Rule, Pack: f.Pack, Radius: f.Radius}
}

// display shows a command as the analysis understood it, shortened.
func display(c *shell.Cmd) string {
	parts := append([]string{c.Name}, c.Args...)
	s := strings.ReplaceAll(strings.Join(parts, " "), shell.Match, "<match>")
	s = shell.Show(s)
	if len(c.Via) > 0 {
		s += " (via " + strings.Join(c.Via, ", ") + ")"
	}
	if r := []rune(s); len(r) > 120 {
		s = string(r[:117]) + "..."
	}
	return s
}
