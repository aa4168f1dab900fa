package config

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxFile is the size past which a configuration or policy file is not read: 1 MiB, far more
// than any hand-written file needs.
const MaxFile = 1 << 20

// errNotRegular is ReadFile's error for a path that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// ReadFile reads a configuration or policy file: a regular file (or a symlink to one) of at
// most MaxFile bytes. Anything else is an error without a read: a FIFO, a device or a folder
// in its place is never opened for reading in a way that could block or have an effect (a FIFO
// is opened without blocking and refused), and a missing file is fs.ErrNotExist.
func ReadFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%s)", errNotRegular, kindOf(st.Mode()))
	}
	if st.Size() > MaxFile {
		return nil, fmt.Errorf("larger than %d bytes", MaxFile)
	}
	// Replaced between the Stat and the open: the open does not block, and the opened file is
	// checked again.
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFile {
		return nil, fmt.Errorf("larger than %d bytes", MaxFile)
	}
	return b, nil
}

// kindOf names a file's type for a message.
func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
