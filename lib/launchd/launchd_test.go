package launchd

import (
	"errors"
	"runtime"
	"syscall"
	"testing"
)

// A process that is not a launchd job gets no socket and an error saying so: never a socket
// of its own.
func TestListenerOutsideLaunchd(t *testing.T) {
	l, err := Listener("Listeners")
	if l != nil {
		l.Close()
		t.Fatal("a listener outside launchd")
	}
	if runtime.GOOS != "darwin" {
		if !errors.Is(err, ErrNotDarwin) {
			t.Errorf("on %s: %v", runtime.GOOS, err)
		}
		return
	}
	// launchd answers ESRCH to a process it did not start (ENOENT when it did, without the socket).
	if !errors.Is(err, syscall.ESRCH) && !errors.Is(err, syscall.ENOENT) {
		t.Errorf("outside launchd: %v", err)
	}
}
