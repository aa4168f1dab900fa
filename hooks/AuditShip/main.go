// Hook: AuditShip
// Event: Stop, SessionEnd
// Matcher: * (SessionEnd)
// Failure policy: open
//
// Ships the project's audit records (lib/audit) to the organisation's OpenTelemetry endpoint
// once per turn and at the end of the session, as `harness audit ship --project` does
// (lib/ship): from the checkpoint, in batches, the checkpoint moving only past what the
// endpoint accepted. It stops a little before its deadline (2.4 s on Stop, 0.75 s on
// SessionEnd) and leaves the backlog for the next run. Without audit.ship.endpoint in the
// harness configuration it does nothing; a rejecting or unreachable endpoint is one line on
// stderr, and the records stay.
package main

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/ship"
)

var spec = hook.Spec{
	Name:        "AuditShip",
	Description: "ships the project's audit records to the configured OpenTelemetry endpoint (OTLP/HTTP), within its budget",
	Policy:      hook.Open,
	Events: []hook.Binding{
		{Event: event.Stop, Timeout: 3},
		{Event: event.SessionEnd, Matcher: "*", Timeout: 1},
	},
}

// margin is kept before the runtime's deadline: an export abandoned by the shipper leaves the
// checkpoint as it was, one cut short by the watchdog would say nothing.
const margin = 100 * time.Millisecond

func main() { hook.Main(spec, run) }

func run(ctx context.Context, in event.Input) (answer.Answer, error) {
	w := hook.Locate(ctx, in)
	cfg, _ := ship.Load(w.SystemDir, w.HarnessHome) // LoadContext reports the configuration's problems
	if cfg.Endpoint == "" {
		return nil, nil // shipping is not configured
	}
	dir := audit.Dir(w.HarnessHome, w.Project)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, nil // no records yet
	}
	s, err := ship.Open(cfg, os.LookupEnv, ship.Me(hook.Version))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if d, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-margin))
		defer cancel()
	}
	if _, err := s.Ship(ctx, dir); err != nil && !errors.Is(err, ship.ErrBusy) {
		return nil, err
	}
	return nil, nil
}
