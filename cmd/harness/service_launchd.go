package main

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookkit/harness/lib/settings"
)

// launchAgent is serve mode under launchd (macOS): one launch agent whose Sockets entry has
// launchd hold the loopback port, and which runs harness serve on demand, on the first
// connection after it loads or after the server ended; the server takes the socket with
// launch_activate_socket (harness serve --launchd-socket) and never binds one itself.
type launchAgent struct{}

const (
	// launchdLabel is the agent's label, its plist's name in ~/Library/LaunchAgents.
	launchdLabel = "com.github.hookkit.harness-serve"
	// launchdSocket is the key of the agent's Sockets entry, which the server asks launchd for.
	launchdSocket = "Listeners"
)

func (launchAgent) Name() string { return "launchd" }

// Address takes 127.0.0.1 and ::1 only: macOS's loopback interface has no other address.
func (launchAgent) Address(listen string) error {
	if host, _, _ := net.SplitHostPort(listen); host != "127.0.0.1" && host != "::1" {
		return errors.New("on macOS the address is 127.0.0.1 or [::1] with a port: the loopback interface has no other")
	}
	return nil
}

// agentPath is where the launch agent goes: the user's own agents, which launchd loads at login.
func agentPath(userHome string) string {
	return filepath.Join(userHome, "Library", "LaunchAgents", launchdLabel+".plist")
}

func (launchAgent) Files(userHome, harnessBin, listen, secretFile, home, system string) []settings.Whole {
	return []settings.Whole{{Path: agentPath(userHome), Data: []byte(agentText(harnessBin, listen, secretFile, home, system)), Mode: 0o644}}
}

// agentText is the launch agent: the command line of harness serve, taking the socket by its
// key, and the socket launchd holds: the address's IP as SockNodeName (so launchd resolves it
// to exactly one socket) with its family, the port as SockServiceName. No RunAtLoad and no
// KeepAlive: launchd starts the server when a connection arrives, and again after it ends.
// ProcessType Interactive: Claude Code waits for every answer, so the server runs without the
// CPU and I/O limits launchd puts on a background job. Its stderr (one line per refused
// request, never a payload) goes to serve.log in the harness home: launchd would drop it.
func agentText(harnessBin, listen, secretFile, home, system string) string {
	host, port, _ := net.SplitHostPort(listen)
	family := "IPv4"
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		family = "IPv6"
	}
	args := serveArgs(harnessBin, listen, secretFile, home, system)
	args = append(args[:2], append([]string{"--launchd-socket", launchdSocket}, args[2:]...)...)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- Written by harness install in serve mode; harness uninstall removes it (docs/serve.md). -->
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + launchdLabel + `</string>
	<key>ProgramArguments</key>
	<array>
`)
	for _, a := range args {
		b.WriteString("\t\t<string>" + plistEscape(a) + "</string>\n")
	}
	b.WriteString(`	</array>
	<key>ProcessType</key>
	<string>Interactive</string>
	<key>StandardErrorPath</key>
	<string>` + plistEscape(filepath.Join(home, "serve.log")) + `</string>
	<key>Sockets</key>
	<dict>
		<key>` + launchdSocket + `</key>
		<dict>
			<key>SockNodeName</key>
			<string>` + plistEscape(host) + `</string>
			<key>SockServiceName</key>
			<string>` + plistEscape(port) + `</string>
			<key>SockFamily</key>
			<string>` + family + `</string>
			<key>SockType</key>
			<string>stream</string>
		</dict>
	</dict>
</dict>
</plist>
`)
	return b.String()
}

func plistEscape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// launchctl runs launchctl (HARNESS_LAUNCHCTL names another binary).
func launchctl(args ...string) ([]byte, error) {
	return manage("HARNESS_LAUNCHCTL", "launchctl", args...)
}

// guiDomain is the user's login session's launchd domain, where their launch agents run.
func guiDomain() string { return "gui/" + strconv.Itoa(os.Getuid()) }

// bootstrapCommand is what loads the agent by hand.
func bootstrapCommand(plist string) string {
	return "launchctl bootstrap gui/$(id -u) " + settings.ShellQuote(plist)
}

// notFound is launchctl print's exit code for a service that is not loaded.
const notFound = 113

// Start loads the agent into the user's login session (launchctl bootstrap), after enabling
// it (a label disabled earlier would not load). An agent loaded already is left as it is when
// nothing changed, restarted (kickstart -k) when only the secret did, and unloaded and loaded
// again when its plist did: bootout returns before the job has left the domain, so the
// bootstrap waits until print no longer finds it. Without launchctl, or without a login
// session's domain (over SSH), it says how, and fails nothing: the files are written and
// recorded.
func (launchAgent) Start(placed []settings.Placed) (string, string) {
	plist := ""
	for _, p := range placed {
		if strings.HasSuffix(p.Path, ".plist") {
			plist = p.Path
		}
	}
	service := guiDomain() + "/" + launchdLabel
	out, err := launchctl("print", service)
	var exit *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &exit):
		return "launchctl is not here (not macOS, or not on PATH): nothing listens yet, and every guarded call is blocked until something does.\n" +
			"  load it on the Mac with: " + bootstrapCommand(plist), "by hand"
	case err != nil && exit.ExitCode() != notFound:
		return fmt.Sprintf("launchd has no login session for this user here (launchctl print %s: %s): nothing listens yet, and every guarded call is blocked until something does.\n"+
			"  load it from a login session with: %s", service, strings.TrimSpace(string(out)), bootstrapCommand(plist)), "by hand"
	}
	loaded := err == nil
	switch {
	case loaded && !changed(placed, ".plist") && !newSecret(placed):
		return "launchd: " + launchdLabel + " is loaded and holds the socket (launchctl print gui/$(id -u)/" + launchdLabel + ")", "launchd"
	case loaded && !changed(placed, ".plist"):
		// The same agent: the server starts again and reads the new secret.
		if out, err := launchctl("kickstart", "-k", service); err != nil {
			return fmt.Sprintf("launchctl kickstart -k %s failed (%v): %s\n  restart it with: launchctl kickstart -k gui/$(id -u)/%s",
				service, err, strings.TrimSpace(string(out)), launchdLabel), "launchd"
		}
		return "launchd: " + launchdLabel + " restarted with the new secret", "launchd"
	}
	if loaded {
		if out, err := launchctl("bootout", service); err != nil {
			return fmt.Sprintf("launchctl bootout %s failed (%v): %s\n  the files are written; load the new agent with: launchctl bootout gui/$(id -u)/%s && %s",
				service, err, strings.TrimSpace(string(out)), launchdLabel, bootstrapCommand(plist)), "launchd"
		}
		if !gone(service, 20*time.Second) {
			return fmt.Sprintf("launchd still holds %s 20 s after launchctl bootout\n  the files are written; load the new agent with: %s", service, bootstrapCommand(plist)), "launchd"
		}
	}
	for _, s := range [][]string{{"enable", service}, {"bootstrap", guiDomain(), plist}} {
		if out, err := launchctl(s...); err != nil {
			return fmt.Sprintf("launchctl %s failed (%v): %s\n  the files are written; load it with: %s",
				strings.Join(s, " "), err, strings.TrimSpace(string(out)), bootstrapCommand(plist)), "launchd"
		}
	}
	return "launchd: " + launchdLabel + " loaded, its socket listening (launchctl print gui/$(id -u)/" + launchdLabel + ")", "launchd"
}

// gone waits until launchctl print no longer finds a service (bootout has finished), up to a
// limit: a server under way lets its calls finish first.
func gone(service string, limit time.Duration) bool {
	for start := time.Now(); time.Since(start) < limit; time.Sleep(100 * time.Millisecond) {
		_, err := launchctl("print", service)
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == notFound {
			return true
		}
	}
	return false
}

// Stop unloads the agent (launchctl bootout), which ends the server and closes the socket;
// an agent that is not loaded, or no launchctl, leaves nothing to do.
func (launchAgent) Stop(out io.Writer, s *settings.Serve) {
	service := guiDomain() + "/" + launchdLabel
	if _, err := launchctl("print", service); err != nil {
		return
	}
	if b, err := launchctl("bootout", service); err != nil {
		fmt.Fprintf(out, "  launchctl bootout %s failed (%v): %s\n", service, err, strings.TrimSpace(string(b)))
	} else {
		fmt.Fprintf(out, "  stopped and unloaded %s\n", launchdLabel)
	}
}

func (launchAgent) Forget() {}

func (launchAgent) Restart(s *settings.Serve) string {
	plist := ""
	for _, u := range s.Units {
		if strings.HasSuffix(u, ".plist") {
			plist = u
		}
	}
	if s.Manager == "by hand" {
		return "load it: " + bootstrapCommand(plist) + " (docs/serve.md)"
	}
	return "load it again: " + bootstrapCommand(plist) + " (a loaded one restarts with launchctl kickstart -k gui/$(id -u)/" + launchdLabel + ")"
}
