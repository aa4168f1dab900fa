package launchd

import (
	"errors"
	"fmt"
	"net"
	"os"
)

// ErrNotDarwin is Listener's error on a system without launchd.
var ErrNotDarwin = errors.New("launchd's sockets are macOS's: this system has none")

// Listener is the one stream socket launchd holds for this job under name (a key of the
// job's Sockets dictionary). More than one descriptor (a name launchd resolved to several
// addresses), or none, is an error: the job must name exactly one loopback address.
func Listener(name string) (net.Listener, error) {
	fds, err := activate(name)
	if err != nil {
		return nil, err
	}
	if len(fds) != 1 {
		for _, fd := range fds {
			os.NewFile(uintptr(fd), name).Close()
		}
		return nil, fmt.Errorf("launchd passed %d sockets for %q; the job must pass exactly one (SockNodeName an IP address, SockFamily its family)", len(fds), name)
	}
	f := os.NewFile(uintptr(fds[0]), "launchd socket "+name)
	defer f.Close()
	l, err := net.FileListener(f)
	if err != nil {
		return nil, fmt.Errorf("the socket launchd passed for %q: %w", name, err)
	}
	return l, nil
}
