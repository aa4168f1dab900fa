package hook

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hookkit/harness/lib/event"
)

// watchdog is the context a hook process decides under. It ends at the hook's deadline and
// then answers, by the failure policy, for a hook that is still deciding. It waits on a
// goroutine of its own in a plain sleep rather than on a runtime timer: Go's first timer
// starts the network poller (an epoll instance and an eventfd), and on the machines measured
// that costs each hook start several times what this goroutine does (README, "Start-up").
type watchdog struct {
	deadline time.Time
	event    event.Name
	done     chan struct{}
	// state: 0 undecided, 1 the hook's answer goes out, 2 the watchdog's does.
	state  atomic.Int32
	expire func(event.Name)
}

// startWatchdog watches a hook deciding ev until the deadline; expire writes the failure
// answer and exits the process.
func startWatchdog(until time.Time, ev event.Name, expire func(event.Name)) *watchdog {
	w := &watchdog{deadline: until, event: ev, done: make(chan struct{}), expire: expire}
	go func() {
		sleep(time.Until(until))
		// Claim before closing Done: a hook woken by Done must find the answer taken, or it
		// could slip in a late answer of its own.
		claimed := w.state.CompareAndSwap(0, 2)
		close(w.done)
		if claimed {
			w.expire(w.event)
		}
	}()
	return w
}

// claim reports whether the hook's own answer may be written: false once the watchdog has
// taken over.
func (w *watchdog) claim() bool {
	return w.state.CompareAndSwap(0, 1) || w.state.Load() == 1
}

func (w *watchdog) Deadline() (time.Time, bool) { return w.deadline, true }
func (w *watchdog) Done() <-chan struct{}       { return w.done }
func (w *watchdog) Value(any) any               { return nil }

func (w *watchdog) Err() error {
	select {
	case <-w.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}
