package report

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/ship"
	"github.com/hookkit/harness/lib/verdict"
)

// Options say what a report covers and what it is told from outside the log.
type Options struct {
	// HarnessHome holds the logs ($HARNESS_HOME/projects/*/audit).
	HarnessHome string
	// Project narrows the report to one project folder (absolute); "" is every project.
	Project string
	// Client narrows it to one client's records (audit.Unknown: those that name none).
	Client string
	// Since and Until bound the records shown: Since <= time < Until. The chain is checked
	// whole whatever the range.
	Since, Until time.Time
	// IncludePrompts shows the (redacted) prompt summaries of each session; without it they
	// are left out.
	IncludePrompts bool
	// Catalog is every rule the guards know: the advice shown with each rule that fired.
	Catalog []verdict.Entry
	// Doctor are harness doctor's findings on hooks configured that never ran and sessions
	// that ran with no harness hook; NotChecked says why there are none, when they were not
	// looked for.
	Doctor     []Finding
	NotChecked string
	// Generated is the report's own time, and Version the harness's, shown in its footer.
	Generated time.Time
	Version   string
}

// Finding is one of harness doctor's rows.
type Finding struct {
	Check, Status, Message string
}

// The page's bounds: what it shows in full, and past which it summarises.
const (
	// SessionsShown are the newest sessions shown one by one; older ones are summed per day.
	SessionsShown = 300
	// CallsListed are the blocked or asked calls listed per session; the rest are counted.
	CallsListed = 10
	// PromptsListed are the prompts listed per session with IncludePrompts.
	PromptsListed = 5
	// RulesShown are the rules listed, most fired first.
	RulesShown = 25
)

// Counts are the tool calls of a client, a project, a session or the whole range, by what
// the guards made of them: a call is blocked when any guard denied it, asked when one asked
// and none denied, allowed otherwise.
type Counts struct {
	Calls   int `json:"calls"`
	Blocked int `json:"blocked"`
	Asked   int `json:"asked"`
	Allowed int `json:"allowed"`
}

func (c *Counts) add(o outcome) {
	c.Calls++
	switch o {
	case blocked:
		c.Blocked++
	case asked:
		c.Asked++
	default:
		c.Allowed++
	}
}

func (c *Counts) merge(o Counts) {
	c.Calls += o.Calls
	c.Blocked += o.Blocked
	c.Asked += o.Asked
	c.Allowed += o.Allowed
}

// Named are the counts of one client or project.
type Named struct {
	Name string
	Counts
}

// Call is a blocked or asked call, as a session lists it.
type Call struct {
	Time     time.Time
	Tool     string
	Decision string // deny, block or ask
	Rule     string
	// Text is the command or file (AuditLog's redacted summary), else the guard's reason.
	Text string
}

// Session is one session's record in the range.
type Session struct {
	ID, Project, Client string
	First, Last         time.Time
	Counts
	// Listed are its blocked and asked calls, oldest first, up to CallsListed; More counts
	// the rest.
	Listed []Call
	More   int
	// Prompts are its first prompts (redacted), with IncludePrompts only.
	Prompts []string
}

// Day sums the sessions of a day beyond the newest SessionsShown.
type Day struct {
	Day      string
	Sessions int
	Counts
}

// Rule is a rule that fired in the range.
type Rule struct {
	ID, Pack, Radius, Advice string
	Fired, Denied, Asked     int
	// Example is one call it fired on: its command or file as recorded (redacted), else the
	// guard's reason.
	Example string
}

// Chain is one project's chain as harness audit verify sees it.
type Chain struct {
	Project string
	Dir     string
	// Verdict is audit verify's line for the project ("ok ..." or "broken ...").
	Verdict   string
	Intact    bool
	Records   int
	Seq       int64
	Head      string
	Legacy    int
	Malformed int
	// Shipped compares the head with the last one harness audit ship delivered, "" when the
	// project was never shipped.
	Shipped string
}

// Bucket is one bar pair of the chart.
type Bucket struct {
	Start          time.Time
	Blocked, Asked int
}

// Data is everything the page shows.
type Data struct {
	Options
	Total     Counts
	Clients   []Named
	Projects  []Named
	Sessions  []Session
	Older     []Day
	OlderSum  Counts
	OlderN    int
	Rules     []Rule
	RulesMore int
	Chains    []Chain
	// Step is the chart's bucket (an hour or a day) and Buckets its bars, every one of the
	// range, oldest first.
	Step    time.Duration
	Buckets []Bucket
	// Problems are what is wrong with the log itself (a broken chain, malformed lines, a
	// file that could not be read): shown at the top of the page.
	Problems []string
	// Records counts the records in the range (after the project and client filters).
	Records int
}

// Step is the chart's bucket for a range: an hour up to a week, a day beyond.
func Step(since, until time.Time) time.Duration {
	if until.Sub(since) <= 7*24*time.Hour {
		return time.Hour
	}
	return 24 * time.Hour
}

// maxBuckets bounds the chart of a very long range: past it the range's start is moved up.
const maxBuckets = 5000

// Build reads the logs and checks their chains, one project per CPU at a time, in one pass
// over each log.
func Build(o Options) (*Data, error) {
	if !o.Since.Before(o.Until) {
		return nil, fmt.Errorf("the range is empty: --since %s is not before --until %s", o.Since.Format(time.RFC3339), o.Until.Format(time.RFC3339))
	}
	d := &Data{Options: o, Step: Step(o.Since, o.Until)}
	var dirs []string
	if o.Project != "" {
		dir := audit.Dir(o.HarnessHome, o.Project)
		if _, err := os.Stat(dir); err == nil {
			dirs = []string{dir}
		} else if !errors.Is(err, fs.ErrNotExist) {
			d.Problems = append(d.Problems, fmt.Sprintf("%s: %v", dir, err))
		}
	} else {
		var err error
		if dirs, err = filepath.Glob(filepath.Join(o.HarnessHome, "projects", "*", "audit")); err != nil {
			return nil, err
		}
	}
	start := o.Since.Truncate(d.Step)
	if n := int(o.Until.Sub(start)/d.Step) + 1; n > maxBuckets {
		start = o.Until.Add(-maxBuckets * d.Step).Truncate(d.Step)
	}
	aggs := make([]*agg, len(dirs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, dir := range dirs {
		a := newAgg(&d.Options, start, d.Step)
		aggs[i] = a
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			a.project(dir)
		}()
	}
	wg.Wait()
	d.merge(aggs, start)
	return d, nil
}

type outcome uint8

const (
	allowed outcome = iota
	asked
	blocked
)

// call is a tool call whose records are still coming: the records of one call (AuditLog's,
// each guard's) are written within moments of each other, so a call is counted once no record
// of it has come for a generation (callGeneration records).
type call struct {
	order    int   // its place in the log: calls are counted in the log's order
	at       int64 // unix seconds of its first record
	session  *session
	outcome  outcome
	decision string
	rule     string
	tool     string
	summary  []byte // AuditLog's raw summary
	reason   []byte // the deciding guard's raw reason
}

const callGeneration = 8192

type session struct {
	Session
	key    string // the id as the records write it
	counts Counts
	// last is the session's latest call, while lastOrder is its order: a call is reused once
	// counted, and then no longer matches.
	last      *call
	lastOrder int
}

type ruleAgg struct {
	Rule
	exampleAt int64
}

// agg gathers one project's records.
type agg struct {
	o          *Options
	since      int64
	until      int64
	start      time.Time
	step       time.Duration
	buckets    [][2]int
	seed       maphash.Seed
	cur, old   map[uint64]*call
	free       []*call
	batch      []*call
	calls      int
	tools      map[string]string
	n          int
	sessions   map[string]*session
	clients    map[string]*Counts
	rules      map[string]*ruleAgg
	total      Counts
	records    int
	chain      Chain
	problems   []string
	lastSess   *session
	shippedSeq int64
	shippedID  string
	shippedHit int // 1: the shipped record is in the chain with its id; -1: its seq holds another
}

func newAgg(o *Options, start time.Time, step time.Duration) *agg {
	n := int(o.Until.Sub(start)/step) + 1
	// Records are placed to the second: the range is widened to whole seconds, so a record of
	// the second the report starts in (Until is now by default) is in it.
	until := o.Until.Add(time.Second - 1).Truncate(time.Second)
	return &agg{o: o, since: o.Since.Truncate(time.Second).Unix(), until: until.Unix(), start: start, step: step, buckets: make([][2]int, n),
		seed: maphash.MakeSeed(), cur: map[uint64]*call{}, old: map[uint64]*call{},
		sessions: map[string]*session{}, clients: map[string]*Counts{}, rules: map[string]*ruleAgg{}}
}

// project walks one project's log: the chain and the records in the range.
func (a *agg) project(dir string) {
	a.chain.Dir = dir
	cp, shipped, err := ship.ReadCheckpoint(dir)
	if err != nil {
		a.problems = append(a.problems, fmt.Sprintf("the shipping checkpoint: %v", err))
	}
	if shipped && cp.ID != "" {
		a.shippedSeq, a.shippedID = cp.Seq, cp.ID
	}
	rep, err := audit.VerifyWith(dir, audit.VerifyOptions{Sum: sha256.Sum256, Each: a.line})
	a.flush(a.old)
	a.flush(a.cur)
	c := &a.chain
	c.Project = cmp.Or(rep.Project, dir)
	c.Records, c.Seq, c.Head, c.Legacy, c.Malformed = rep.Records, rep.Seq, rep.ID, rep.Legacy, rep.Malformed
	switch {
	case err != nil:
		c.Verdict = fmt.Sprintf("could not be read: %v", err)
		a.problems = append(a.problems, fmt.Sprintf("%s: the log could not be read whole: %v", c.Project, err))
	case rep.Break != nil:
		c.Verdict = fmt.Sprintf("broken %s: %s", c.Project, rep.Break)
		a.problems = append(a.problems, fmt.Sprintf("%s: the chain is broken at %s", c.Project, rep.Break))
	case rep.Records == 0:
		c.Intact = true
		c.Verdict = fmt.Sprintf("ok %s: no chained records", c.Project)
	default:
		c.Intact = true
		c.Verdict = fmt.Sprintf("ok %s: %d records, seq 1-%d, head %s", c.Project, rep.Records, rep.Seq, rep.ID)
	}
	if rep.Malformed > 0 {
		a.problems = append(a.problems, fmt.Sprintf("%s: %d malformed line(s) (not JSON records): they are left out of the counts", c.Project, rep.Malformed))
	}
	switch {
	case !shipped:
	case cp.ID == "":
		c.Shipped = "never shipped a record yet"
	case a.shippedHit < 0:
		c.Shipped = fmt.Sprintf("the last shipped record, seq %d (%s), is not in the log as it was shipped: the log was changed after it was shipped", cp.Seq, short(cp.ID))
	case cp.Seq == 0:
		c.Shipped = fmt.Sprintf("last shipped a line from before the chain (%s); %d chained record(s) since are not shipped yet", short(cp.ID), rep.Seq)
	case a.shippedHit == 0:
		c.Shipped = fmt.Sprintf("the last shipped record, seq %d (%s), is no longer in the log", cp.Seq, short(cp.ID))
	case cp.Seq == rep.Seq:
		c.Shipped = fmt.Sprintf("the head is the last shipped record (seq %d, %s): the collector holds everything", cp.Seq, short(cp.ID))
	default:
		c.Shipped = fmt.Sprintf("last shipped seq %d (%s); %d record(s) since are not shipped yet", cp.Seq, short(cp.ID), rep.Seq-cp.Seq)
	}
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12] + "…"
	}
	return id
}

// line takes one line of the log, in chain order.
func (a *agg) line(line []byte, f *audit.Fields, ok bool) {
	if !ok {
		return
	}
	if a.shippedSeq > 0 && f.Seq == a.shippedSeq {
		if audit.LineHash(line) == a.shippedID {
			a.shippedHit = 1
		} else if a.shippedHit == 0 {
			a.shippedHit = -1
		}
	}
	at, ok := unixTime(f.Time)
	if !ok || at < a.since || at >= a.until {
		return
	}
	client := f.Client
	if len(client) == 0 {
		client = unknown
	}
	if a.o.Client != "" && string(client) != a.o.Client {
		return
	}
	a.records++
	if a.n++; a.n == callGeneration {
		a.n = 0
		a.flush(a.old)
		a.old, a.cur = a.cur, a.old
	}
	s := a.lastSess
	if s == nil || string(f.Session) != s.key {
		s = a.sessions[string(f.Session)]
		if s == nil {
			s = &session{Session: Session{ID: audit.Text(f.Session), Project: audit.Text(f.Project), Client: string(client), First: time.Unix(at, 0)},
				key: string(f.Session)}
			a.sessions[s.key] = s
		}
		a.lastSess = s
	}
	if t := time.Unix(at, 0); t.After(s.Last) {
		s.Last = t
	}
	event := string(f.Event)
	if a.o.IncludePrompts && event == "UserPromptSubmit" && string(f.Hook) == "AuditLog" && len(s.Prompts) < PromptsListed && len(f.Summary) > 0 {
		s.Prompts = append(s.Prompts, audit.Text(f.Summary))
	}
	if len(f.Rule) > 0 {
		a.fired(f, at)
	}
	if event != "PreToolUse" && event != "PermissionRequest" {
		return
	}
	var o outcome
	decision := ""
	switch string(f.Decision) {
	case "deny":
		o, decision = blocked, "deny"
	case "block":
		o, decision = blocked, "block"
	case "ask":
		o, decision = asked, "ask"
	}
	var c *call
	if event == "PermissionRequest" {
		// Its payload has no tool_use_id: it belongs to the session's last call, when that
		// call was of the same tool and is still open; it never starts a call of its own.
		if c = s.last; c == nil || c.order != s.lastOrder || c.session != s || c.tool != string(f.Tool) {
			return
		}
	} else {
		// The call's records share its tool_use_id; a client that sends none has its records
		// joined by session, tool and second.
		var key uint64
		if len(f.ToolUseID) > 0 {
			key = maphash.Bytes(a.seed, f.ToolUseID)
		} else {
			key = a.noID(f)
		}
		if c = a.cur[key]; c == nil {
			c = a.old[key]
		}
		if c == nil {
			c = a.newCall()
			a.calls++
			c.order, c.at, c.session, c.tool = a.calls, at, s, a.tool(f.Tool)
			a.cur[key] = c
		}
		s.last, s.lastOrder = c, c.order
	}
	if string(f.Hook) == "AuditLog" && len(f.Summary) > 0 && event == "PreToolUse" {
		c.summary = append(c.summary[:0], f.Summary...)
	}
	if o > c.outcome {
		c.outcome, c.decision, c.rule = o, decision, string(f.Rule)
		c.reason = append(c.reason[:0], f.Reason...)
	}
}

// noID is the key of a call whose records carry no tool_use_id: its session, tool and second.
func (a *agg) noID(f *audit.Fields) uint64 {
	var h maphash.Hash
	h.SetSeed(a.seed)
	h.Write(f.Session)
	h.WriteByte(0)
	h.Write(f.Tool)
	h.WriteByte(0)
	h.Write(f.Time[:min(len(f.Time), 19)])
	return h.Sum64()
}

var unknown = []byte(audit.Unknown)

// tool is a tool's name, one string per name: there are few.
func (a *agg) tool(raw []byte) string {
	if t, ok := a.tools[string(raw)]; ok {
		return t
	}
	if a.tools == nil {
		a.tools = map[string]string{}
	}
	t := audit.Text(raw)
	a.tools[string(raw)] = t
	return t
}

func (a *agg) newCall() *call {
	if n := len(a.free); n > 0 {
		c := a.free[n-1]
		a.free = a.free[:n-1]
		summary, reason := c.summary[:0], c.reason[:0]
		*c = call{summary: summary, reason: reason}
		return c
	}
	return &call{}
}

// flush counts the calls of a generation, in the log's order, and frees them.
func (a *agg) flush(m map[uint64]*call) {
	a.batch = a.batch[:0]
	for k, c := range m {
		a.batch = append(a.batch, c)
		delete(m, k)
	}
	slices.SortFunc(a.batch, func(x, y *call) int { return x.order - y.order })
	for _, c := range a.batch {
		a.count(c)
		a.free = append(a.free, c)
	}
}

func (a *agg) count(c *call) {
	s := c.session
	a.total.add(c.outcome)
	s.counts.add(c.outcome)
	cc := a.clients[s.Client]
	if cc == nil {
		cc = &Counts{}
		a.clients[s.Client] = cc
	}
	cc.add(c.outcome)
	if c.outcome == allowed {
		return
	}
	a.bucket(c)
	a.list(c)
}

func (a *agg) bucket(c *call) {
	if i := int(time.Unix(c.at, 0).Sub(a.start) / a.step); i >= 0 && i < len(a.buckets) {
		a.buckets[i][c.outcome-asked]++
	}
}

// list adds a blocked or asked call to its session's list, and to its rule's example.
func (a *agg) list(c *call) {
	s := c.session
	text := c.summary
	if len(text) == 0 {
		text = c.reason
	}
	if r := a.rules[c.rule]; r != nil && c.at >= r.exampleAt && len(text) > 0 {
		r.Example, r.exampleAt = audit.Text(text), c.at
	}
	if len(s.Listed) >= CallsListed {
		s.More++
		return
	}
	s.Listed = append(s.Listed, Call{Time: time.Unix(c.at, 0), Tool: c.tool, Decision: c.decision, Rule: c.rule, Text: audit.Text(text)})
}

// fired counts a record that names a rule.
func (a *agg) fired(f *audit.Fields, at int64) {
	r := a.rules[string(f.Rule)]
	if r == nil {
		r = &ruleAgg{Rule: Rule{ID: audit.Text(f.Rule), Pack: audit.Text(f.Category), Radius: audit.Text(f.Radius)}}
		a.rules[r.ID] = r
	}
	r.Fired++
	switch string(f.Decision) {
	case "deny", "block":
		r.Denied++
	case "ask":
		r.Asked++
	}
	if r.Example == "" && len(f.Reason) > 0 {
		// The guard's reason until a call gives its command.
		r.Example = audit.Text(f.Reason)
	}
}

// unixTime reads a record's time (RFC 3339 in UTC, as Append writes it) to the second.
func unixTime(b []byte) (int64, bool) {
	// 2006-01-02T15:04:05[.fraction]Z
	if len(b) >= 20 && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' && b[16] == ':' && b[len(b)-1] == 'Z' &&
		(len(b) == 20 || b[19] == '.') {
		num := func(s []byte) (int, bool) {
			n := 0
			for _, c := range s {
				if c < '0' || c > '9' {
					return 0, false
				}
				n = n*10 + int(c-'0')
			}
			return n, true
		}
		y, ok1 := num(b[0:4])
		mo, ok2 := num(b[5:7])
		d, ok3 := num(b[8:10])
		h, ok4 := num(b[11:13])
		mi, ok5 := num(b[14:16])
		s, ok6 := num(b[17:19])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h < 24 && mi < 60 && s < 61 {
			return time.Date(y, time.Month(mo), d, h, mi, s, 0, time.UTC).Unix(), true
		}
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return 0, false
	}
	return t.Unix(), true
}

// merge joins the projects' gatherings into the page's data.
func (d *Data) merge(aggs []*agg, start time.Time) {
	clients := map[string]*Counts{}
	rules := map[string]*ruleAgg{}
	buckets := make([][2]int, int(d.Until.Sub(start)/d.Step)+1)
	var sessions []*session
	for _, a := range aggs {
		d.Total.merge(a.total)
		d.Records += a.records
		d.Problems = append(d.Problems, a.problems...)
		d.Chains = append(d.Chains, a.chain)
		if a.records > 0 {
			d.Projects = append(d.Projects, Named{Name: a.chain.Project, Counts: a.total})
		}
		for name, c := range a.clients {
			if clients[name] == nil {
				clients[name] = &Counts{}
			}
			clients[name].merge(*c)
		}
		for id, r := range a.rules {
			m := rules[id]
			if m == nil {
				rules[id] = r
				continue
			}
			m.Fired, m.Denied, m.Asked = m.Fired+r.Fired, m.Denied+r.Denied, m.Asked+r.Asked
			if r.exampleAt > m.exampleAt || m.Example == "" {
				m.Example, m.exampleAt = r.Example, r.exampleAt
			}
		}
		for i, b := range a.buckets {
			buckets[i][0] += b[0]
			buckets[i][1] += b[1]
		}
		for _, s := range a.sessions {
			s.Counts = s.counts
			sessions = append(sessions, s)
		}
	}
	for name, c := range clients {
		d.Clients = append(d.Clients, Named{Name: name, Counts: *c})
	}
	byCalls := func(x, y Named) int { return cmp.Or(y.Calls-x.Calls, cmp.Compare(x.Name, y.Name)) }
	slices.SortFunc(d.Clients, byCalls)
	slices.SortFunc(d.Projects, byCalls)
	slices.SortFunc(d.Chains, func(x, y Chain) int { return cmp.Compare(x.Project, y.Project) })
	advice := map[string]verdict.Entry{}
	for _, e := range d.Catalog {
		advice[e.ID] = e
	}
	var rs []Rule
	for _, r := range rules {
		rule := r.Rule
		if e, ok := advice[rule.ID]; ok {
			rule.Advice = e.Instead
			rule.Pack = cmp.Or(rule.Pack, e.Pack)
			rule.Radius = cmp.Or(rule.Radius, string(e.Radius))
		}
		rs = append(rs, rule)
	}
	slices.SortFunc(rs, func(x, y Rule) int { return cmp.Or(y.Fired-x.Fired, cmp.Compare(x.ID, y.ID)) })
	if len(rs) > RulesShown {
		d.RulesMore = len(rs) - RulesShown
		rs = rs[:RulesShown]
	}
	d.Rules = rs
	for i, b := range buckets {
		d.Buckets = append(d.Buckets, Bucket{Start: start.Add(time.Duration(i) * d.Step), Blocked: b[1], Asked: b[0]})
	}
	slices.SortFunc(sessions, func(x, y *session) int {
		return cmp.Or(y.Last.Compare(x.Last), cmp.Compare(x.ID, y.ID))
	})
	for _, s := range sessions {
		d.Sessions = append(d.Sessions, s.Session)
	}
	d.fold(SessionsShown)
}

// fold keeps the newest shown sessions and sums the rest into Older, per day of their last
// record, newest day first.
func (d *Data) fold(keep int) {
	if len(d.Sessions) <= keep {
		return
	}
	folded := d.Sessions[keep:]
	d.Sessions = d.Sessions[:keep:keep]
	days := map[string]int{}
	for i, o := range d.Older {
		days[o.Day] = i
	}
	var fresh []Day // days newer than any already summed: folded sessions are newer
	for _, s := range folded {
		day := s.Last.UTC().Format(time.DateOnly)
		i, ok := days[day]
		if !ok {
			i = len(d.Older) + len(fresh)
			days[day] = i
			fresh = append(fresh, Day{Day: day})
		}
		var o *Day
		if i < len(d.Older) {
			o = &d.Older[i]
		} else {
			o = &fresh[i-len(d.Older)]
		}
		o.Sessions++
		o.Counts.merge(s.Counts)
		d.OlderN++
		d.OlderSum.merge(s.Counts)
	}
	d.Older = append(fresh, d.Older...)
}

// Empty says whether the range holds no record.
func (d *Data) Empty() bool { return d.Records == 0 }
