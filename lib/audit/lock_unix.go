//go:build unix

package audit

import (
	"os"
	"syscall"
)

// lock takes an exclusive lock on f; closing f releases it.
func lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// openFile opens a file outside the runtime's poller: os.OpenFile tries to register every
// file with it (four system calls more per open, two opens per append), which a plain file never
// needs.
func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm))
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}
