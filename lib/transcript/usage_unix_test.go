//go:build unix

package transcript

import (
	"os"
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// maxRSS is a finished process's peak resident set, as getrusage reports it (KiB on Linux).
func maxRSS(p *os.ProcessState) int64 {
	if u, ok := p.SysUsage().(*syscall.Rusage); ok {
		return int64(u.Maxrss)
	}
	return 0
}
