//go:build unix

package hook

import (
	"os"
	"syscall"
)

// pollableStdin returns a pollable twin of a pipe, or nil for anything else (files never block).
func pollableStdin(f *os.File) *os.File {
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return nil
	}
	fd := int(f.Fd())
	if syscall.SetNonblock(fd, true) != nil {
		return nil
	}
	return os.NewFile(uintptr(fd), f.Name())
}
