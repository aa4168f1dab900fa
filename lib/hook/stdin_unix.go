//go:build unix

package hook

import (
	"os"
	"syscall"
)

// pollableStdin returns a pollable duplicate of a pipe, or nil for anything else (files never
// block). Closing the duplicate leaves f open.
func pollableStdin(f *os.File) *os.File {
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return nil
	}
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return nil
	}
	if syscall.SetNonblock(fd, true) != nil {
		syscall.Close(fd)
		return nil
	}
	return os.NewFile(uintptr(fd), f.Name())
}

// privateStdout moves the real stdout to a new descriptor and points descriptor 1 at stderr.
// If that fails the plain os.Stdout is used.
func privateStdout() *os.File {
	fd, err := syscall.Dup(1)
	if err != nil {
		return os.Stdout
	}
	syscall.CloseOnExec(fd)
	if dupOnto(2, 1) != nil {
		syscall.Close(fd)
		return os.Stdout
	}
	return os.NewFile(uintptr(fd), "/dev/stdout")
}
