package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/settings"
)

// systemdUser is serve mode under the user's systemd: a socket unit that holds the port and
// a service unit that runs harness serve on the socket it passes (LISTEN_FDS).
type systemdUser struct{}

func (systemdUser) Name() string { return "systemd" }

func (systemdUser) Address(string) error { return nil }

// unitDir is the systemd user units' folder: $XDG_CONFIG_HOME/systemd/user, else ~/.config's.
func unitDir(userHome string) string {
	if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "systemd", "user")
	}
	return filepath.Join(userHome, ".config", "systemd", "user")
}

func (systemdUser) Files(userHome, harnessBin, listen, secretFile, home, system string) []settings.Whole {
	units := unitDir(userHome)
	return []settings.Whole{
		{Path: filepath.Join(units, serveUnitName+".socket"), Data: []byte(socketUnitText(listen)), Mode: 0o644},
		{Path: filepath.Join(units, serveUnitName+".service"), Data: []byte(serviceUnitText(harnessBin, listen, secretFile, home, system)), Mode: 0o644},
	}
}

// socketUnitText is the socket unit: systemd holds the loopback port, so no other process can
// take it while the server restarts.
func socketUnitText(listen string) string {
	return "# Written by harness install --serve; harness uninstall removes it (docs/serve.md).\n" +
		"[Unit]\nDescription=harness serve's socket: the loopback port of Claude Code's HTTP hooks\n\n" +
		"[Socket]\nListenStream=" + listen + "\nAccept=no\n\n" +
		"[Install]\nWantedBy=sockets.target\n"
}

// serviceUnitText is the service that runs harness serve on the socket systemd passes it.
func serviceUnitText(harnessBin, listen, secretFile, home, system string) string {
	args := serveArgs(harnessBin, listen, secretFile, home, system)
	for i, a := range args {
		args[i] = unitArg(a)
	}
	return "# Written by harness install --serve; harness uninstall removes it (docs/serve.md).\n" +
		"[Unit]\nDescription=harness serve: the guards and AuditLog for Claude Code's HTTP hooks\n" +
		"Requires=" + serveUnitName + ".socket\nAfter=" + serveUnitName + ".socket\n\n" +
		"[Service]\nExecStart=" + strings.Join(args, " ") + "\nRestart=always\n"
}

// serveArgs is the command line a service manager runs harness serve with.
func serveArgs(harnessBin, listen, secretFile, home, system string) []string {
	args := []string{harnessBin, "serve", "--listen", listen, "--secret-file", secretFile, "--home", home}
	if system != "" && system != config.DefaultSystemDir() {
		args = append(args, "--system-dir", system)
	}
	return args
}

// unitArg quotes one word of a unit's ExecStart: % is systemd's specifier, and a word with
// blanks or quotes goes in double quotes.
func unitArg(a string) string {
	a = strings.ReplaceAll(a, "%", "%%")
	if strings.ContainsAny(a, " \t\"'\\;$") {
		a = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", "$$").Replace(a) + `"`
	}
	return a
}

// systemctl runs systemctl --user (HARNESS_SYSTEMCTL names another binary).
func systemctl(args ...string) ([]byte, error) {
	return manage("HARNESS_SYSTEMCTL", "systemctl", append([]string{"--user"}, args...)...)
}

// manage runs a service manager's command (the variable names another binary, for tests and
// unusual systems) with a timeout, its output and errors together.
func manage(variable, prog string, args ...string) ([]byte, error) {
	if v := os.Getenv(variable); v != "" {
		prog = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, prog, args...).CombinedOutput()
}

// userManager says whether a systemd user manager answers for this user.
func userManager() bool {
	_, err := systemctl("show-environment")
	return err == nil
}

// enableCommand is what starts serve mode's socket by hand.
const enableCommand = "systemctl --user daemon-reload && systemctl --user enable --now " + serveUnitName + ".socket"

// Start has the user manager load the units and listen, restarting a server that runs an
// older unit; without a user manager (a container, a CI machine) it says how, and fails
// nothing: the files are written and recorded.
func (systemdUser) Start(placed []settings.Placed) (string, string) {
	if !userManager() {
		return "no systemd user manager is running here (as in a container or on a CI machine): nothing listens yet, and every guarded call is blocked until something does.\n" +
			"  start it where a user manager runs with: " + enableCommand + "\n" +
			"  (or run the service's ExecStart under any socket activator; docs/serve.md)", "by hand"
	}
	steps := [][]string{{"daemon-reload"}, {"enable", "--now", serveUnitName + ".socket"}}
	if changed(placed, ".socket") {
		// Another address: the socket listening on the old one is bound again.
		steps = append(steps, []string{"restart", serveUnitName + ".socket"})
	}
	if changed(placed, ".socket") || changed(placed, ".service") || newSecret(placed) {
		// A server running an older unit (or secret) starts again on the socket.
		steps = append(steps, []string{"try-restart", serveUnitName + ".service"})
	}
	for _, s := range steps {
		if out, err := systemctl(s...); err != nil {
			return fmt.Sprintf("systemctl --user %s failed (%v): %s\n  the files are written; start it with: %s",
				strings.Join(s, " "), err, strings.TrimSpace(string(out)), enableCommand), "systemd"
		}
	}
	return "systemd: " + serveUnitName + ".socket enabled and listening (systemctl --user status " + serveUnitName + ".socket)", "systemd"
}

// Stop stops and disables serve mode's units: through the user manager when one runs; else
// the link an enable made in sockets.target.wants, if it points at the harness's unit, goes
// (the unit it names is about to be removed).
func (systemdUser) Stop(out io.Writer, s *settings.Serve) {
	if userManager() {
		if b, err := systemctl("disable", "--now", serveUnitName+".socket", serveUnitName+".service"); err != nil {
			fmt.Fprintf(out, "  systemctl --user disable --now %s.socket %s.service failed (%v): %s\n", serveUnitName, serveUnitName, err, strings.TrimSpace(string(b)))
		} else {
			fmt.Fprintf(out, "  stopped and disabled %s.socket and %s.service\n", serveUnitName, serveUnitName)
		}
		return
	}
	for _, u := range s.Units {
		if !strings.HasSuffix(u, ".socket") {
			continue
		}
		link := filepath.Join(filepath.Dir(u), "sockets.target.wants", filepath.Base(u))
		if to, err := os.Readlink(link); err == nil && (to == u || filepath.Join(filepath.Dir(link), to) == u) {
			if os.Remove(link) == nil {
				fmt.Fprintf(out, "  remove  %s (the link systemctl enable made)\n", link)
			}
		}
	}
}

func (systemdUser) Forget() {
	if userManager() {
		systemctl("daemon-reload")
	}
}

func (systemdUser) Restart(s *settings.Serve) string {
	if s.Manager == "by hand" {
		return "start it: " + enableCommand + " (where a user manager runs), or run the ExecStart of " +
			serveUnitName + ".service under a socket activator (docs/serve.md)"
	}
	return "restart it: systemctl --user restart " + serveUnitName + ".socket " + serveUnitName + ".service"
}
