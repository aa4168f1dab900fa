package hook

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/dialect"
)

// Setup is what a hook's own command line says about its world, as the installer wrote it.
// None of it comes from the environment: a project's settings can set variables (their env
// reaches every hook process), and nothing a project can set may move a policy scope, redirect
// the records or change a limit.
type Setup struct {
	// Home is the harness home (--home=DIR): policies, records, the install record. Without the
	// flag it is the folder above the binary's bin when that folder holds a user install's
	// record (an entry an older installer wrote), else ~/.claude/harness.
	Home string
	// SystemDir is the administrator's scope (--system-dir=DIR), else config.DefaultSystemDir.
	SystemDir string
	// Now is a fixed clock (--now=RFC3339) for tests and previews; zero means the real time.
	Now time.Time

	timeout  int              // --timeout=SECONDS: the timeout the hook is installed with
	client   *dialect.Dialect // --client=NAME: the client that runs it
	deadline time.Duration    // --deadline=DURATION: shortens the hook's own deadline, never lengthens it
	maxInput int64            // --max-input=BYTES: the payload cap
	// called is the client the call came from: --client's, else the one the payload's shape
	// names (dialect.Detect); "" before the payload is read.
	called dialect.Client

	// Set only by Call (a hook run in-process by a server): the project root and the user's
	// home as the server knows them, the variables a command would see, and the end of the
	// call's time. A process reads the first three from its environment.
	project, userHome string
	env               func(string) (string, bool)
	until             time.Time
}

// setupFlags are the runtime's own flags, each --name=value, before any mode word.
const setupFlags = "--home=DIR, --system-dir=DIR, --timeout=SECONDS, --client=NAME, --deadline=DURATION, --max-input=BYTES, --now=RFC3339"

// parseSetup takes the runtime's flags from the front of args and returns the rest.
func parseSetup(args []string) (Setup, []string, error) {
	var s Setup
	for len(args) > 0 {
		name, v, ok := strings.Cut(args[0], "=")
		if !ok || !strings.HasPrefix(name, "--") {
			break
		}
		var err error
		switch name {
		case "--home", "--system-dir":
			if !filepath.IsAbs(v) {
				err = fmt.Errorf("%s: the folder must be an absolute path", args[0])
			} else if name == "--home" {
				s.Home = filepath.Clean(v)
			} else {
				s.SystemDir = filepath.Clean(v)
			}
		case "--timeout":
			if s.timeout, err = strconv.Atoi(v); err != nil || s.timeout <= 0 {
				err = fmt.Errorf("%s: the timeout must be a positive number of seconds", args[0])
			}
		case "--client":
			if s.client, err = dialect.Lookup(v); err != nil {
				err = fmt.Errorf("%s: %w", args[0], err)
			}
		case "--deadline":
			if s.deadline, err = time.ParseDuration(v); err != nil || s.deadline <= 0 {
				err = fmt.Errorf("%s is not a positive duration", args[0])
			}
		case "--max-input":
			if s.maxInput, err = strconv.ParseInt(v, 10, 64); err != nil || s.maxInput <= 0 {
				err = fmt.Errorf("%s is not a positive byte count", args[0])
			}
		case "--now":
			if s.Now, err = time.Parse(time.RFC3339, v); err != nil {
				err = fmt.Errorf("%s is not an RFC 3339 time", args[0])
			}
		default:
			return s, args, nil // a mode's own flag, or an unknown one: the caller says which
		}
		if err != nil {
			return s, args, err
		}
		args = args[1:]
	}
	return s, args, nil
}

// settle fills what the command line left out: the install the binary belongs to, and the
// compiled system scope.
func (s *Setup) settle() {
	if s.Home == "" {
		s.Home = installedHome()
	}
	if s.SystemDir == "" {
		s.SystemDir = config.DefaultSystemDir()
	}
}

// installedHome is the harness home of the user install this binary was copied into: the
// folder above its bin, when that folder holds the install record of a user install (a
// managed install's record lists the copies it placed; each user keeps a harness home of
// their own). "" when the binary is anywhere else.
func installedHome() string {
	exe, err := os.Executable()
	if err != nil || filepath.Base(filepath.Dir(exe)) != "bin" {
		return ""
	}
	home := filepath.Dir(filepath.Dir(exe))
	b, err := os.ReadFile(filepath.Join(home, "installed.json"))
	if err != nil || bytes.Contains(b, []byte(`"copies"`)) {
		return ""
	}
	return home
}

// Client is the client the call came from (--client, else the payload's shape); "" outside
// a call.
func (s Setup) Client() string { return string(s.called) }

// Clock is the hook's time: --now when given, else the real time.
func (s Setup) Clock() time.Time {
	if !s.Now.IsZero() {
		return s.Now
	}
	return time.Now()
}

type setupKey struct{}

// SetupOf is the setup of the hook call ctx belongs to; outside a call, what a command line
// without runtime flags gives.
func SetupOf(ctx context.Context) Setup {
	if s, ok := ctx.Value(setupKey{}).(*Setup); ok {
		return *s
	}
	var s Setup
	s.settle()
	return s
}

// Env looks up a variable as the command the call judges would see it: the process's own
// environment, or in a server the variables the server was given for the call (Call).
func Env(ctx context.Context) func(string) (string, bool) {
	if s, ok := ctx.Value(setupKey{}).(*Setup); ok && s.env != nil {
		return s.env
	}
	return os.LookupEnv
}

func withSetup(ctx context.Context, s *Setup) context.Context {
	return context.WithValue(ctx, setupKey{}, s)
}
