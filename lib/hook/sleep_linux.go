package hook

import (
	"syscall"
	"time"
)

// sleep blocks the calling thread for d in nanosleep, resuming after signals (the runtime's
// preemption signals interrupt it).
func sleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var rem syscall.Timespec
		if syscall.Nanosleep(&ts, &rem) != syscall.EINTR {
			return
		}
		ts = rem
	}
}
