package hook

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/verdict"
)

// Policy is what a hook's failure means for the action it guards.
type Policy uint8

const (
	// Closed (guards): a crash, bad input, a failed dependency or the deadline blocks the action,
	// with a one-line reason for the model.
	Closed Policy = iota + 1
	// Open (context and record hooks): a failure exits 1 with a one-line reason on stderr and
	// never blocks.
	Open
)

func (p Policy) String() string {
	switch p {
	case Closed:
		return "closed"
	case Open:
		return "open"
	}
	return "unset"
}

// Binding is one settings.json entry the hook is installed with.
type Binding struct {
	Event event.Name
	// Matcher is compared against the event's match field ("" for events without one).
	Matcher string
	// Timeout is the entry's timeout in seconds, as written in settings.json.
	Timeout int
}

// Spec describes a hook: the installer reads it through --describe.
type Spec struct {
	Name        string
	Description string
	Events      []Binding
	Policy      Policy
	// MaxInput caps the payload size in bytes (default DefaultMaxInput).
	MaxInput int64
	// Flags are the hook's own command-line modes for people (e.g. --explain), besides
	// --describe, --version and --help.
	Flags []Flag
	// Record, when set, is handed the hook's verdict on each call once the answer is out
	// (guards pass audit.Verdict, so that harness audit why can show every verdict on a tool
	// call). A hook without it links none of the recording code.
	Record func(Verdict)
}

// Verdict is how a hook answered one call: Reply is its own answer, in Claude Code's terms,
// with what it decided and the rule behind it as typed fields (Decision, Reason, Tag).
type Verdict struct {
	Hook  string
	In    event.Input
	Setup Setup
	Reply answer.Reply
	Code  answer.Code
	// Took is the hook's own time, from its start to its answer.
	Took time.Duration
	// Problems are what the hook reported besides its answer (Problem).
	Problems []string
}

// Flag is a command-line mode of a hook: `<hook> [runtime flags] <Name> ARGS...` runs Run
// with the runtime's setup instead of reading a payload, and exits with its code.
type Flag struct {
	Name, Args, Usage string
	Run               func(s Setup, args []string, stdout, stderr io.Writer) answer.Code
}

// DefaultMaxInput is the payload cap: larger input is refused without being read in full.
const DefaultMaxInput = 64 << 20

// Func decides one hook call. ctx ends at the hook's own deadline; a Func that runs past it is
// abandoned and the failure policy answers instead.
type Func func(ctx context.Context, in event.Input) (answer.Answer, error)

// Version is the harness version, set at build time with -ldflags -X.
var Version = "devel"

// Main runs the hook as a process and exits with its code. File descriptor 1 is pointed at
// stderr for the hook's own code (a stray print, a logger made on os.Stdout, a raw write), and
// the answer goes to a private copy of the real stdout, so it stays the only thing there.
func Main(spec Spec, run Func) {
	stdout := privateStdout()
	rec := &recording{start: time.Now()}
	exit := func(code answer.Code) {
		if spec.Record != nil && rec.in.Event() != "" {
			// The hook's own answer, in Claude Code's terms, whatever the client's dialect made
			// of it (a Copilot block is exit 0).
			spec.Record(Verdict{Hook: spec.Name, In: rec.in, Setup: *rec.setup, Reply: rec.reply, Code: rec.reply.Code, Took: time.Since(rec.start),
				Problems: rec.problems.all()})
		}
		os.Exit(int(code))
	}
	rec.exit = exit
	exit(run0(spec, run, os.Args[1:], os.Stdin, stdout, os.Stderr, rec, nil))
}

// Run is Main with its streams passed in, so tests can call it directly. The hook reads no
// environment variable of its own: what it is told comes in args (Setup).
func Run(spec Spec, run Func, args []string, stdin io.Reader, stdout, stderr io.Writer) answer.Code {
	return run0(spec, run, args, stdin, stdout, stderr, &recording{}, nil)
}

// recording keeps what a call was and what it answered, for the audit log.
type recording struct {
	start time.Time
	in    event.Input
	setup *Setup
	reply answer.Reply
	// problems are those the hook reported during the call.
	problems problems
	// exit ends the process with a code (Main only). With it the hook runs on the main
	// goroutine and a watchdog answers at the deadline; without it (Run) the hook runs on a
	// goroutine of its own that is abandoned at the deadline.
	exit func(answer.Code)
}

// run0 runs one call; serve, when set, fills a server's setup (Call) after the flags are read.
func run0(spec Spec, run Func, args []string, stdin io.Reader, stdout, stderr io.Writer, rec *recording, serve func(*Setup)) answer.Code {
	r := runner{spec: spec, stdout: stdout, stderr: stderr, rec: rec, dia: dialect.Default()}
	if err := spec.Check(); err != nil {
		// A hook that cannot say what it is must not guess its policy: block and say why.
		fmt.Fprintf(stderr, "%s: this hook is built wrong and blocks everything: %s\n", cmp.Or(spec.Name, "hook"), err)
		return answer.Blocked
	}
	// The runtime's flags, as the installer writes them: --timeout=N (the timeout the hook is
	// installed with, so its own deadline stays below it even when settings.json sets a shorter
	// one), --client=X (the client that runs it: its payloads are translated into Claude Code's
	// and the answer rendered as it reads answers), --home and --system-dir (the harness's
	// folders); see Setup.
	setup, args, err := parseSetup(args)
	if setup.client != nil {
		r.dia = setup.client
	}
	if err != nil {
		return r.fail(eventHint(nil, spec), err)
	}
	setup.settle()
	if serve != nil {
		serve(&setup)
	}
	r.setup, rec.setup = &setup, &setup
	if len(args) > 0 {
		return r.flag(args)
	}
	if isTerminal(stdin) {
		fmt.Fprint(stderr, r.usage())
		return r.policyCode()
	}
	// Until the payload names its event, the shortest deadline of the hook's bindings holds.
	start := time.Now()
	until := setup.cap(start.Add(r.deadline("")))

	data, err := r.read(until, stdin)
	if err != nil {
		return r.fail(eventHint(data, spec), err)
	}
	if setup.client == nil {
		r.dia = dialect.Detect(data)
	}
	setup.called = r.dia.Client
	if data, err = r.dia.In(data); err != nil {
		return r.fail(eventHint(nil, spec), fmt.Errorf("%s payload not understood: %w", r.dia.Title, err))
	}
	in, err := event.Parse(data)
	if err != nil {
		return r.fail(eventHint(data, spec), err)
	}
	prompt := r.startsOnPrompt(in.Event())
	if prompt {
		first, err := firstPrompt(setup.Where(in), spec.Name, in.SessionID())
		if err != nil {
			return r.fail(in.Event(), err)
		}
		if !first {
			rec.in = in
			return r.write(in.Event(), answer.Reply{Code: answer.OK})
		}
		if in, err = asSessionStart(data); err != nil {
			return r.fail(event.UserPromptSubmit, err)
		}
	}
	rec.in = in
	if !r.handles(in.Event()) {
		return r.fail(in.Event(), fmt.Errorf("%s is not an event this hook handles (it handles %s)", in.Event(), r.events()))
	}
	until = setup.cap(start.Add(r.deadline(in.Event()))) // the deadline of the binding for this event (Stop's, not SessionEnd's)
	var ctx context.Context
	if rec.exit != nil {
		wr := r // taken before the watchdog exists: its answer needs no claim
		r.watch = startWatchdog(until, in.Event(), func(ev event.Name) {
			rec.exit(wr.fail(ev, errors.New("no decision before the hook's deadline")))
		})
		ctx = withSetup(r.watch, &setup)
	} else {
		c, cancel := context.WithDeadline(context.Background(), until)
		defer cancel()
		ctx = withSetup(c, &setup)
	}
	rec.problems.name, rec.problems.w = spec.Name, stderr
	ctx = withProblems(ctx, &rec.problems)
	a, err := r.call(ctx, run, in)
	if err != nil {
		return r.fail(in.Event(), err)
	}
	reply, err := answer.Render(noAsk(in, a), in.Event(), spec.Name)
	if err != nil {
		return r.fail(in.Event(), fmt.Errorf("the hook's answer is not valid: %w", err))
	}
	if prompt {
		return r.write(event.UserPromptSubmit, asPromptReply(reply))
	}
	return r.write(in.Event(), reply)
}

type runner struct {
	spec           Spec
	stdout, stderr io.Writer
	setup          *Setup
	rec            *recording
	watch          *watchdog // in a process (Main): the deadline, which answers for a late hook
	// dia is the client's dialect: Claude Code's until the command line or the payload names
	// another.
	dia *dialect.Dialect
}

func (r runner) policyCode() answer.Code {
	if r.spec.Policy == Closed {
		return answer.Blocked
	}
	return answer.Failed
}

// deadline is the hook's own for an event ("" for the shortest of all): safely below the
// timeout it is installed with, so the hook answers before Claude Code kills it (a killed
// hook lets the call through). --deadline may shorten it, never lengthen it.
func (r runner) deadline(ev event.Name) time.Duration {
	d := Deadline(r.spec.On(ev))
	if r.setup.timeout > 0 {
		d = min(d, Deadline(Spec{Events: []Binding{{Timeout: r.setup.timeout}}}))
	}
	if r.setup.deadline > 0 {
		d = min(d, r.setup.deadline)
	}
	return d
}

// On returns the spec with only its bindings for ev; with none (or ev ""), the whole spec.
func (s Spec) On(ev event.Name) Spec {
	var on []Binding
	for _, b := range s.Events {
		if b.Event == ev {
			on = append(on, b)
		}
	}
	if len(on) > 0 {
		s.Events = on
	}
	return s
}

// Deadline returns the hook's own deadline: its smallest installed timeout less a fifth, and
// at least 250 ms less.
func Deadline(spec Spec) time.Duration {
	timeout := 0
	for _, b := range spec.Events {
		if b.Timeout > 0 && (timeout == 0 || b.Timeout < timeout) {
			timeout = b.Timeout
		}
	}
	t := time.Duration(timeout) * time.Second
	return max(t-max(t/5, 250*time.Millisecond), 50*time.Millisecond)
}

// Check reports what is wrong with a spec: a hook needs a name, a failure policy, known
// events each with a timeout, and a policy its events can honour.
func (s Spec) Check() error {
	switch {
	case s.Name == "":
		return errors.New("the spec has no name")
	case s.Policy != Closed && s.Policy != Open:
		return errors.New("the spec sets no failure policy (hook.Closed or hook.Open)")
	case len(s.Events) == 0:
		return errors.New("the spec binds no events")
	}
	for _, b := range s.Events {
		spec, ok := event.Lookup(b.Event)
		switch {
		case !ok:
			return fmt.Errorf("%q is not a hook event", b.Event)
		case b.Timeout <= 0:
			return fmt.Errorf("%s has no timeout (seconds)", b.Event)
		case b.Matcher != "" && spec.Matcher == "":
			return fmt.Errorf("%s takes no matcher", b.Event)
		case s.Policy == Open && b.Event == event.WorktreeCreate:
			return errors.New("WorktreeCreate fails on any non-zero exit, so a fail-open hook cannot run there")
		}
	}
	return nil
}

type readResult struct {
	data []byte
	err  error
}

// read takes the payload from stdin: at most the cap, before the deadline.
func (r runner) read(until time.Time, stdin io.Reader) ([]byte, error) {
	limit := r.spec.MaxInput
	if limit <= 0 {
		limit = DefaultMaxInput
	}
	if r.setup.maxInput > 0 {
		limit = r.setup.maxInput
	}
	// A pipe read without a goroutine: a non-blocking copy of stdin joins the poller and
	// honours a read deadline. This keeps a thread start off every hook's start-up path.
	if f, ok := stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			data, err := io.ReadAll(io.LimitReader(f, limit+1)) // a file is all there: no deadline to race
			return checkRead(data, err, limit)
		}
		pollable, head, done := pollableStdin(f, limit)
		if done || int64(len(head)) > limit {
			if pollable != nil {
				pollable.Close()
			}
			return checkRead(head, nil, limit)
		}
		if pollable != nil {
			defer pollable.Close()
			if pollable.SetReadDeadline(until) == nil {
				rest, err := io.ReadAll(io.LimitReader(pollable, limit+1-int64(len(head))))
				if errors.Is(err, os.ErrDeadlineExceeded) {
					return nil, errors.New("stdin was not closed before the deadline")
				}
				return checkRead(append(head, rest...), err, limit)
			}
			stdin = io.MultiReader(bytes.NewReader(head), pollable)
		}
	}
	// Only a payload that is not all there yet costs a timer.
	deadline := time.NewTimer(time.Until(until))
	defer deadline.Stop()
	done := make(chan readResult, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(stdin, limit+1))
		done <- readResult{data, err}
	}()
	select {
	case <-deadline.C:
		return nil, errors.New("stdin was not closed before the deadline")
	case res := <-done:
		return checkRead(res.data, res.err, limit)
	}
}

func checkRead(data []byte, err error, limit int64) ([]byte, error) {
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading stdin: %w", err)
	case int64(len(data)) > limit:
		return data[:min(len(data), 4096)], fmt.Errorf("input is larger than %d bytes", limit)
	}
	return data, nil
}

func (r runner) handles(n event.Name) bool {
	for _, b := range r.spec.Events {
		if b.Event == n {
			return true
		}
	}
	return false
}

func (r runner) events() string {
	var names []string
	for _, b := range r.spec.Events {
		names = append(names, string(b.Event))
	}
	return strings.Join(names, ", ")
}

// call runs the hook, turning a panic into an error and the deadline into a failure.
func (r runner) call(ctx context.Context, run Func, in event.Input) (answer.Answer, error) {
	type result struct {
		a   answer.Answer
		err error
	}
	call := func() (res result) {
		defer func() {
			if p := recover(); p != nil {
				res = result{err: fmt.Errorf("internal error: %v", p)}
			}
		}()
		a, err := run(ctx, in)
		return result{a, err}
	}
	if r.watch != nil {
		// In a process the hook runs right here: no second goroutine stack to grow on every
		// start. At the deadline the watchdog answers by the policy and exits; a hook that
		// returns after that finds its answer refused (write), so only one is written.
		res := call()
		return res.a, res.err
	}
	done := make(chan result, 1)
	go func() { done <- call() }()
	select {
	case res := <-done:
		return res.a, res.err
	case <-ctx.Done():
		return nil, errors.New("no decision before the hook's deadline")
	}
}

// fail answers by the failure policy. ev is the payload's event when known.
func (r runner) fail(ev event.Name, cause error) answer.Code {
	reason := oneLine(cause.Error())
	if r.spec.Policy != Closed {
		msg := r.spec.Name + ": skipped: " + reason
		return r.write(ev, answer.Reply{Stderr: msg + "\n", Code: answer.Failed, Decision: verdict.Failed, Reason: msg})
	}
	msg := "blocked because the hook could not check this call: " + reason
	if ev != "" {
		if reply, err := answer.Render(answer.Block(msg), ev, r.spec.Name); err == nil {
			return r.write(ev, reply)
		}
	}
	// Unknown or unblockable event: exit 2 is the block every blockable event honours. A hook
	// also bound to PermissionRequest, which ignores exit 2, prints that event's deny as well;
	// on the other events JSON naming another event does not undo exit 2.
	reply := answer.Reply{Stderr: r.spec.Name + ": " + msg + "\n", Code: answer.Blocked, Decision: verdict.Denied, Reason: r.spec.Name + ": " + msg}
	if ev == "" && r.handles(event.PermissionRequest) {
		if pr, err := answer.Render(answer.Block(msg), event.PermissionRequest, r.spec.Name); err == nil {
			reply.Stdout = pr.Stdout
		}
	}
	return r.write(ev, reply)
}

// write prints the one reply to event ev, rendered in the client's dialect, in single writes:
// never a partial or second document. The record keeps the hook's own answer.
func (r runner) write(ev event.Name, reply answer.Reply) answer.Code {
	if r.watch != nil && !r.watch.claim() {
		select {} // the watchdog is answering and exits the process
	}
	r.rec.reply = reply
	if r.dia != nil {
		reply = r.dia.Out(ev, reply)
	}
	if len(reply.Stdout) > 0 {
		r.stdout.Write(reply.Stdout)
	}
	if reply.Stderr != "" {
		io.WriteString(r.stderr, reply.Stderr)
	}
	return reply.Code
}

// eventHint names the event a failure answers: the payload's hook_event_name if it can be read,
// else the hook's only event, else nothing.
func eventHint(data []byte, spec Spec) event.Name {
	if v := gjson.GetBytes(data, "hook_event_name"); v.Type == gjson.String && event.Name(v.Str).Known() {
		return event.Name(v.Str)
	}
	var only event.Name
	for _, b := range spec.Events {
		if only != "" && only != b.Event {
			return ""
		}
		only = b.Event
	}
	return only
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:297]) + "..."
	}
	return s
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTTY(f.Fd())
}
