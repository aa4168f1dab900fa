package hook

import (
	"bytes"
	"fmt"
	"path/filepath"
	"time"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/dialect"
)

// Request is everything a hook process would have had for one call, given to a hook run
// in-process (Call) by a long-lived server.
type Request struct {
	// Payload is the hook input, as the process would read it on stdin.
	Payload []byte
	// Home and SystemDir are the harness home and the administrator's scope (--home,
	// --system-dir): the configuration scopes, with Project.
	Home, SystemDir string
	// Project is the session's project root as registered at its start; UserHome is the
	// user's home, where ~ and $HOME point in the commands judged.
	Project, UserHome string
	// Env is the environment the commands judged would see (nil: none at all).
	Env map[string]string
	// Timeout is the timeout the hook is installed with, in seconds (--timeout; 0: the spec's).
	Timeout int
	// Deadline, when set, ends the call earlier than the hook's own deadline would.
	Deadline time.Time
	// Client names the client (--client); "" detects it from the payload.
	Client string
}

// Response is what the hook process would have produced: its stdout, stderr and exit code.
type Response struct {
	Stdout, Stderr []byte
	Code           answer.Code
}

// Call runs a hook in-process on one request and returns the bytes and exit code its process
// would produce, after recording its verdict as the process does (Spec.Record). It reads no
// environment variable: the request says all.
func Call(spec Spec, run Func, req Request) Response {
	var stdout, stderr bytes.Buffer
	rec := &recording{start: time.Now()}
	args, err := req.args()
	if err != nil {
		fmt.Fprintf(&stderr, "%s: %v\n", spec.Name, err)
		code := runner{spec: spec}.policyCode()
		return Response{Stderr: stderr.Bytes(), Code: code}
	}
	env := req.Env
	rec.setup = &Setup{}
	code := run0(spec, run, args, bytes.NewReader(req.Payload), &stdout, &stderr, rec, func(s *Setup) {
		s.project, s.userHome, s.until = req.Project, req.UserHome, req.Deadline
		s.env = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	})
	if spec.Record != nil && rec.in.Event() != "" {
		spec.Record(Verdict{Hook: spec.Name, In: rec.in, Setup: *rec.setup, Reply: rec.reply, Code: rec.reply.Code, Took: time.Since(rec.start),
			Problems: rec.problems.all()})
	}
	return Response{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Code: code}
}

// args are the runtime flags a process would have been installed with.
func (req Request) args() ([]string, error) {
	if !filepath.IsAbs(req.Home) || !filepath.IsAbs(req.SystemDir) {
		return nil, fmt.Errorf("the harness home and system folder must be absolute paths (got %q, %q)", req.Home, req.SystemDir)
	}
	args := []string{"--home=" + req.Home, "--system-dir=" + req.SystemDir}
	if req.Timeout > 0 {
		args = append(args, fmt.Sprintf("--timeout=%d", req.Timeout))
	}
	if req.Client != "" {
		if _, err := dialect.Lookup(req.Client); err != nil {
			return nil, err
		}
		args = append(args, "--client="+req.Client)
	}
	return args, nil
}

// cap is the earlier of a deadline and the call's own end (Request.Deadline).
func (s Setup) cap(until time.Time) time.Time {
	if !s.until.IsZero() && s.until.Before(until) {
		return s.until
	}
	return until
}
