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

// Start loads the agent into the user's login session (launchctl bootstrap), after enabling
// it (a label disabled earlier would not load); an agent loaded already is unloaded first
// when its plist or the secret changed, so the next connection starts the new server. Without
// launchctl it says how, and fails nothing: the files are written and recorded.
func (launchAgent) Start(placed []settings.Placed) (string, string) {
	plist := ""
	for _, p := range placed {
		if strings.HasSuffix(p.Path, ".plist") {
			plist = p.Path
		}
	}
	service := guiDomain() + "/" + launchdLabel
	_, err := launchctl("print", service)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return "launchctl is not here (not macOS, or not on PATH): nothing listens yet, and every guarded call is blocked until something does.\n" +
			"  load it on the Mac with: " + bootstrapCommand(plist), "by hand"
	}
	loaded := err == nil
	if loaded && !changed(placed, ".plist") && !changed(placed, "serve.secret") {
		return "launchd: " + launchdLabel + " is loaded and holds the socket (launchctl print gui/$(id -u)/" + launchdLabel + ")", "launchd"
	}
	steps := [][]string{{"enable", service}, {"bootstrap", guiDomain(), plist}}
	if loaded {
		steps = append([][]string{{"bootout", service}}, steps...)
	}
	for _, s := range steps {
		if out, err := launchctl(s...); err != nil {
			return fmt.Sprintf("launchctl %s failed (%v): %s\n  the files are written; load it with: %s",
				strings.Join(s, " "), err, strings.TrimSpace(string(out)), bootstrapCommand(plist)), "launchd"
		}
	}
	return "launchd: " + launchdLabel + " loaded, its socket listening (launchctl print gui/$(id -u)/" + launchdLabel + ")", "launchd"
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
