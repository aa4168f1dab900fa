//go:build unix

package audit

import (
	"os"
	"syscall"
)

// lock takes an exclusive lock on f; closing f releases it.
func lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }
