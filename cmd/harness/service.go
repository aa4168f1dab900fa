package main

import (
	"io"
	"runtime"
	"strings"

	"github.com/hookkit/harness/lib/settings"
)

// service is the service manager that holds serve mode's loopback socket and runs harness
// serve on it: while the server restarts no other process can take the port, and a connection
// to a stopped server starts it. systemd's user units on Linux, a launch agent on macOS.
type service interface {
	// Name is what the manifest records (settings.Serve.Service).
	Name() string
	// Address refuses a loopback address the manager cannot hold.
	Address(listen string) error
	// Files are the files that configure it, written whole and owned by the install.
	Files(userHome, harnessBin, listen, secretFile, home, system string) []settings.Whole
	// Start has the manager load the files and hold the socket, restarting a server whose
	// files changed (placed says which). It returns what to tell the user, and how the server
	// runs: the manager's name, or "by hand" when no manager answered.
	Start(placed []settings.Placed) (msg, manager string)
	// Stop stops and unloads the server and its socket, before uninstall removes the files.
	Stop(out io.Writer, s *settings.Serve)
	// Forget runs once the files are gone (systemd reloads its units).
	Forget()
	// Restart says how the user puts the server back.
	Restart(s *settings.Serve) string
}

// hostService is this system's service manager for serve mode (platformRefusal says where
// there is none).
var hostService = serviceFor(runtime.GOOS)

func serviceFor(goos string) service {
	if goos == "darwin" {
		return launchAgent{}
	}
	return systemdUser{}
}

// serviceOf is the service manager an install recorded (a record without one is systemd's,
// the first there was).
func serviceOf(s *settings.Serve) service {
	if s.Service == (launchAgent{}).Name() {
		return launchAgent{}
	}
	return systemdUser{}
}

// changed says whether the install wrote a new version of a file whose path ends so.
func changed(placed []settings.Placed, suffix string) bool {
	for _, p := range placed {
		if p.Kind == "update" && strings.HasSuffix(p.Path, suffix) {
			return true
		}
	}
	return false
}

// newSecret says whether the install wrote the secret: a server that runs reads it only at its
// start (a secret file removed since the last install is written anew, "add").
func newSecret(placed []settings.Placed) bool {
	for _, p := range placed {
		if (p.Kind == "update" || p.Kind == "add") && strings.HasSuffix(p.Path, "serve.secret") {
			return true
		}
	}
	return false
}
