//go:build !linux

package hook

import "time"

// sleep elsewhere uses the runtime's timer.
func sleep(d time.Duration) { time.Sleep(d) }
