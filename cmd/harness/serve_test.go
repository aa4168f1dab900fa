package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestServeListener(t *testing.T) {
	tests := []struct{ listen, pid, fds, want string }{
		{listen: "0.0.0.0:8765", want: "--listen 0.0.0.0:8765: the server listens on a loopback IP address only (127.0.0.1 or ::1), never a name"},
		{listen: "localhost:8765", want: "--listen localhost:8765: the server listens on a loopback IP address only (127.0.0.1 or ::1), never a name"},
		{listen: "127.0.0.1:0", want: "--listen 127.0.0.1:0: the port must be a number from 1 to 65535"},
		{listen: "", want: "--listen is required without socket activation (e.g. --listen 127.0.0.1:8765)"},
		// Socket activation meant for another process: never fall back on binding the port.
		{listen: "127.0.0.1:8765", pid: "1", fds: "1", want: `LISTEN_FDS is set for process "1", not this one (` + strconv.Itoa(os.Getpid()) + `): refusing to bind a port myself under socket activation`},
		{listen: "127.0.0.1:8765", pid: strconv.Itoa(os.Getpid()), fds: "2", want: "systemd passed 2 sockets; the unit must pass exactly one"},
	}
	for _, tt := range tests {
		l, err := listener(tt.listen, tt.pid, tt.fds)
		if l != nil {
			l.Close()
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("listener(%q, %q, %q) = %v\nwant %s", tt.listen, tt.pid, tt.fds, err, tt.want)
		}
	}
	// Told to take launchd's socket where there is no launchd: refused, never a port of its own.
	if runtime.GOOS != "darwin" {
		if l, err := launchdListener("127.0.0.1:8765", "Listeners"); l != nil || err == nil ||
			err.Error() != "--launchd-socket Listeners: launchd's sockets are macOS's: this system has none; refusing to bind a port myself" {
			t.Errorf("launchdListener: %v", err)
		}
	}
	l, err := listener("127.0.0.1:0", "", "")
	if err == nil {
		l.Close()
	}
	// A port another process holds is refused, not shared.
	held, err := listener("127.0.0.1:18766", "", "")
	if err != nil {
		t.Skipf("port 18766 is taken: %v", err)
	}
	defer held.Close()
	if _, err := listener("127.0.0.1:18766", "", ""); err == nil || !strings.HasPrefix(err.Error(), "binding 127.0.0.1:18766: ") {
		t.Errorf("a taken port: %v", err)
	}
}

func TestServeSecret(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "secret")
	os.WriteFile(f, []byte("0123456789abcdef0123\n"), 0o644)
	if _, err := readSecret(f); err == nil || err.Error() != f+" is readable by others (mode 644): chmod 600 it" {
		t.Errorf("mode 644: %v", err)
	}
	os.Chmod(f, 0o600)
	if s, err := readSecret(f); err != nil || s != "0123456789abcdef0123" {
		t.Errorf("mode 600: %q, %v", s, err)
	}
	os.WriteFile(f, []byte("short"), 0o600)
	if _, err := readSecret(f); err == nil || err.Error() != f+" holds no secret of at least 16 characters" {
		t.Errorf("short: %v", err)
	}
	if _, err := readSecret("secret"); err == nil {
		t.Error("a relative secret file was read")
	}
}

// Serve mode is refused where no service manager holds its socket for it, with the reason.
func TestServePlatforms(t *testing.T) {
	for goos, want := range map[string]string{
		"linux":   "",
		"freebsd": "",
		"darwin":  "",
		"windows": "serve mode is not set up on Windows: no service manager holds a loopback socket for a user's service there",
	} {
		if got := platformRefusal(goos); !strings.HasPrefix(got, want) || (want == "") != (got == "") {
			t.Errorf("%s: %q, want %q...", goos, got, want)
		}
	}
}

// A unit's ExecStart words: systemd's specifier % doubled, a word with blanks or quotes quoted.
func TestUnitArg(t *testing.T) {
	for in, want := range map[string]string{
		"/home/me/.claude/harness/bin/harness": "/home/me/.claude/harness/bin/harness",
		"/home/me/100%/x":                      "/home/me/100%%/x",
		"/home/me/My Files/harness":            `"/home/me/My Files/harness"`,
		`/home/me/a"b`:                         `"/home/me/a\"b"`,
		"/home/me/$x":                          `"/home/me/$$x"`,
	} {
		if got := unitArg(in); got != want {
			t.Errorf("unitArg(%q) = %q, want %q", in, got, want)
		}
	}
}

// Where there is no /proc (macOS), lsof names the processes that hold serve mode's port: here
// the test's own listener, found by the lsof this machine has.
func TestLsofHolders(t *testing.T) {
	if got := lsofWho("p1\nclaunchd\np4242\ncharness\n"); got != " by pid 1 (launchd), pid 4242 (harness)" {
		t.Errorf("lsofWho: %q", got)
	}
	if got := lsofWho(""); got != "" {
		t.Errorf("lsofWho of nothing: %q", got)
	}
	if _, err := exec.LookPath("lsof"); err != nil {
		t.Skip("lsof is not installed")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if got, want := lsofHolders(l.Addr().String()), " by pid "+strconv.Itoa(os.Getpid())+" ("; !strings.HasPrefix(got, want) {
		t.Errorf("lsofHolders(%s) = %q, want %q...", l.Addr(), got, want)
	}
}
