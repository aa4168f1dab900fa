//go:build unix

package hook

import (
	"os"
	"syscall"
)

// pollableStdin returns a non-blocking duplicate of a pipe, with what could be read from it
// without waiting, or nil for anything else (files never block). done is set when the writer
// had already closed the pipe: Claude Code writes the payload and closes stdin at once, so
// the usual hook reads its whole input here and never starts the poller. Otherwise the
// duplicate is handed to the poller for the rest. Closing it leaves f open.
func pollableStdin(f *os.File, limit int64) (dup *os.File, head []byte, done bool) {
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return nil, nil, false
	}
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return nil, nil, false
	}
	if syscall.SetNonblock(fd, true) != nil {
		syscall.Close(fd)
		return nil, nil, false
	}
	buf := make([]byte, 0, 8<<10) // most payloads are a few KB; larger ones grow it
	for int64(len(buf)) <= limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if n > 0 {
			buf = buf[:len(buf)+n]
			continue
		}
		if err == syscall.EINTR {
			continue
		}
		if err == nil && n == 0 {
			syscall.Close(fd)
			return nil, buf, true // EOF
		}
		break // EAGAIN: the writer has not finished; wait in the poller
	}
	return os.NewFile(uintptr(fd), f.Name()), buf, false
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
