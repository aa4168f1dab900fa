package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/settings"
)

// The launch agent, byte for byte: the server's command line taking the socket by its key,
// the socket on the address's IP and port; XML's specials escaped in paths.
func TestAgentText(t *testing.T) {
	got := agentText("/Users/me/.claude/harness/bin/harness", "127.0.0.1:8765", "/Users/me/.config/harness/serve.secret", "/Users/me/R&D <x>/harness", "/etc/harness")
	want := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- Written by harness install in serve mode; harness uninstall removes it (docs/serve.md). -->
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>com.github.hookkit.harness-serve</string>
	<key>ProgramArguments</key>
	<array>
		<string>/Users/me/.claude/harness/bin/harness</string>
		<string>serve</string>
		<string>--launchd-socket</string>
		<string>Listeners</string>
		<string>--listen</string>
		<string>127.0.0.1:8765</string>
		<string>--secret-file</string>
		<string>/Users/me/.config/harness/serve.secret</string>
		<string>--home</string>
		<string>/Users/me/R&amp;D &lt;x&gt;/harness</string>
	</array>
	<key>ProcessType</key>
	<string>Interactive</string>
	<key>StandardErrorPath</key>
	<string>/Users/me/R&amp;D &lt;x&gt;/harness/serve.log</string>
	<key>Sockets</key>
	<dict>
		<key>Listeners</key>
		<dict>
			<key>SockNodeName</key>
			<string>127.0.0.1</string>
			<key>SockServiceName</key>
			<string>8765</string>
			<key>SockFamily</key>
			<string>IPv4</string>
			<key>SockType</key>
			<string>stream</string>
		</dict>
	</dict>
</dict>
</plist>
`
	if got != want {
		t.Errorf("agentText:\n%s\nwant\n%s", got, want)
	}
	v6 := agentText("/h/harness", "[::1]:9876", "/h/s", "/h/home", "/opt/sys")
	for _, s := range []string{"<string>::1</string>", "<string>9876</string>", "<string>IPv6</string>", "<string>[::1]:9876</string>",
		"<string>--system-dir</string>\n\t\t<string>/opt/sys</string>"} {
		if !strings.Contains(v6, s) {
			t.Errorf("IPv6 agent: no %q in\n%s", s, v6)
		}
	}
	// Read as Apple's property list format by a reader of its own (Python's plistlib), where
	// there is one: the structure launchd reads.
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	cmd := exec.Command(py, "-c", "import json, plistlib, sys; print(json.dumps(plistlib.loads(sys.stdin.buffer.read()), sort_keys=True))")
	cmd.Stdin = strings.NewReader(got)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("plistlib: %v\n%s", err, stderr.Bytes())
	}
	var p struct {
		Label             string
		ProgramArguments  []string
		ProcessType       string
		StandardErrorPath string
		Sockets           map[string]map[string]string
	}
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	if p.Label != launchdLabel || len(p.ProgramArguments) != 10 || p.ProgramArguments[9] != "/Users/me/R&D <x>/harness" ||
		p.ProcessType != "Interactive" || p.StandardErrorPath != "/Users/me/R&D <x>/harness/serve.log" ||
		p.Sockets[launchdSocket]["SockServiceName"] != "8765" || p.Sockets[launchdSocket]["SockNodeName"] != "127.0.0.1" || len(p.Sockets) != 1 {
		t.Errorf("as a property list: %s", out)
	}
}

// install --serve on macOS, run here with the launch agent as this system's service manager
// and a launchctl stand-in that keeps what is loaded: the agent written and loaded, loaded
// again only when it changed, status's hint, and uninstall unloading it before every file of
// serve mode goes and the settings come back byte for byte.
func TestServeInstallLaunchd(t *testing.T) {
	was := hostService
	hostService = launchAgent{}
	t.Cleanup(func() { hostService = was })
	root := t.TempDir()
	home := filepath.Join(root, "home")
	bin := filepath.Join(root, "bin")
	for _, d := range []string{filepath.Join(home, ".claude"), bin} {
		os.MkdirAll(d, 0o755)
	}
	for _, b := range []string{"harness", "SecurityValidator", "AuditLog", "SecretGuard"} {
		os.WriteFile(filepath.Join(bin, b), []byte("#!/bin/sh\n"), 0o755)
	}
	orig := []byte("{\n  \"model\": \"opus\"\n}\n")
	settingsFile := filepath.Join(home, ".claude", "settings.json")
	os.WriteFile(settingsFile, orig, 0o644)
	wiring := filepath.Join(root, "wiring.json")
	os.WriteFile(wiring, []byte(`{"hooks": {
 "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "SecurityValidator", "timeout": 5, "onFailure": "block"}]}],
 "SessionStart": [{"matcher": "*", "hooks": [{"type": "command", "command": "AuditLog", "timeout": 5}]}]}}`), 0o644)
	log := filepath.Join(root, "launchctl.log")
	loaded := filepath.Join(root, "loaded")
	nosession := filepath.Join(root, "nosession")
	launchctl := filepath.Join(root, "launchctl")
	os.WriteFile(launchctl, []byte(`#!/bin/sh
echo "$*" >> '`+log+`'
test -e '`+nosession+`' && { echo "Domain does not support specified action" >&2; exit 125; }
case $1 in
print) test -e '`+loaded+`' || { echo "Could not find service" >&2; exit 113; } ;;
bootstrap) test -e '`+loaded+`' && { echo "Bootstrap failed: 5: Input/output error" >&2; exit 5; }; touch '`+loaded+`' ;;
bootout) (sleep 0.3; rm '`+loaded+`') >/dev/null 2>&1 & ;;
esac
`), 0o755)
	t.Setenv("HOME", home)
	t.Setenv("HARNESS_HOME", filepath.Join(home, ".claude", "harness"))
	t.Setenv("HARNESS_CLAUDE", "/nonexistent/claude")
	t.Setenv("HARNESS_SYSTEM_DIR", filepath.Join(root, "system"))
	t.Setenv("HARNESS_LAUNCHCTL", launchctl)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	run := func(args ...string) (string, error) {
		a := app()
		var out bytes.Buffer
		a.Writer, a.ErrWriter = &out, &out
		a.ExitErrHandler = func(*cli.Context, error) {}
		err := a.Run(append([]string{"harness"}, args...))
		return out.String(), err
	}
	install := func(listen string) string {
		out, err := run("install", "--serve", "--defaults", wiring, "--bin", bin, "--form", "exec", "--listen", listen)
		if err != nil {
			t.Fatalf("install --serve: %v\n%s", err, out)
		}
		return out
	}
	logged := func() string { b, _ := os.ReadFile(log); os.Remove(log); return string(b) }
	plist := filepath.Join(home, "Library", "LaunchAgents", launchdLabel+".plist")
	secret := filepath.Join(home, ".config", "harness", "serve.secret")
	service := "gui/" + strconv.Itoa(os.Getuid()) + "/" + launchdLabel

	out := install(addr)
	if !strings.Contains(out, "  add     "+plist+"\n") || !strings.Contains(out, "launchd: "+launchdLabel+" loaded, its socket listening (launchctl print gui/$(id -u)/"+launchdLabel+")\n") {
		t.Errorf("install:\n%s", out)
	}
	if got, want := logged(), "print "+service+"\nenable "+service+"\nbootstrap gui/"+strconv.Itoa(os.Getuid())+" "+plist+"\n"; got != want {
		t.Errorf("launchctl was asked:\n%s\nwant\n%s", got, want)
	}
	b, _ := os.ReadFile(plist)
	if string(b) != agentText(filepath.Join(bin, "harness"), addr, secret, filepath.Join(home, ".claude", "harness"), filepath.Join(root, "system")) {
		t.Errorf("the agent:\n%s", b)
	}
	if s := serveOf(filepath.Join(home, ".claude", "harness")); s == nil || s.Service != "launchd" || s.Manager != "launchd" || len(s.Units) != 1 || s.Units[0] != plist {
		t.Errorf("recorded: %+v", s)
	}

	// The same again: loaded and unchanged, nothing is unloaded.
	if out := install(addr); !strings.Contains(out, "launchd: "+launchdLabel+" is loaded and holds the socket") {
		t.Errorf("install again:\n%s", out)
	}
	if got := logged(); got != "print "+service+"\n" {
		t.Errorf("install again asked launchctl:\n%s", got)
	}
	// Another address: the loaded agent is unloaded (its socket closed) and loaded anew.
	ln, _ = net.Listen("tcp", "127.0.0.1:0")
	addr2 := ln.Addr().String()
	ln.Close()
	if out := install(addr2); !strings.Contains(out, "  update  "+plist+"\n") {
		t.Errorf("install on %s:\n%s", addr2, out)
	}
	// bootout returns before the job has left: the bootstrap waits until print no longer finds it.
	if got, want := logged(), "^print "+regexp.QuoteMeta(service)+"\nbootout "+regexp.QuoteMeta(service)+"\n(print "+regexp.QuoteMeta(service)+"\n){2,}enable "+
		regexp.QuoteMeta(service)+"\nbootstrap gui/"+strconv.Itoa(os.Getuid())+" "+regexp.QuoteMeta(plist)+"\n$"; !regexp.MustCompile(want).MatchString(got) {
		t.Errorf("a changed agent: launchctl was asked:\n%s\nwant\n%s", got, want)
	}
	// The secret written anew (its file was removed): the loaded agent's server restarts.
	os.Remove(secret)
	if out := install(addr2); !strings.Contains(out, "launchd: "+launchdLabel+" restarted with the new secret\n") {
		t.Errorf("install with a new secret:\n%s", out)
	}
	if got := logged(); got != "print "+service+"\nkickstart -k "+service+"\n" {
		t.Errorf("a new secret: launchctl was asked:\n%s", got)
	}
	// An address macOS's loopback interface does not have is refused, writing nothing.
	if out, err := run("install", "--serve", "--defaults", wiring, "--bin", bin, "--form", "exec", "--listen", "127.0.0.2:8765"); err == nil ||
		!strings.Contains(err.Error(), "--listen 127.0.0.2:8765: on macOS the address is 127.0.0.1 or [::1] with a port: the loopback interface has no other") {
		t.Errorf("install on 127.0.0.2: %v\n%s", err, out)
	}

	// Nothing listens (the stand-in holds no socket): status says how to load it again.
	out, err = run("status")
	if hint := "load it again: launchctl bootstrap gui/$(id -u) " + settings.ShellQuote(plist) + " (a loaded one restarts with launchctl kickstart -k gui/$(id -u)/" + launchdLabel + ")"; err == nil ||
		!strings.Contains(out, "nothing listens on "+addr2+": the port is free, harness serve and its socket are down, and every guarded call is blocked; "+hint+"\n") {
		t.Errorf("status: %v\n%s", err, out)
	}

	// Uninstall: unloaded first, then the files; the settings byte for byte as they were.
	out, err = run("uninstall")
	if err != nil || !strings.Contains(out, "  stopped and unloaded "+launchdLabel+"\n") || !strings.Contains(out, "  remove  "+plist+"\n") {
		t.Errorf("uninstall: %v\n%s", err, out)
	}
	if got := logged(); got != "print "+service+"\nbootout "+service+"\n" {
		t.Errorf("uninstall asked launchctl:\n%s", got)
	}
	if b, _ := os.ReadFile(settingsFile); !bytes.Equal(b, orig) {
		t.Errorf("settings after uninstall:\n%s", b)
	}
	for _, gone := range []string{plist, filepath.Join(home, "Library"), secret} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is left: %v", gone, err)
		}
	}

	// No login session's domain (over SSH): said, and recorded as by hand.
	os.WriteFile(nosession, nil, 0o644)
	if out := install(addr); !strings.Contains(out, "launchd has no login session for this user here (launchctl print "+service+": Domain does not support specified action): "+
		"nothing listens yet, and every guarded call is blocked until something does.\n  load it from a login session with: launchctl bootstrap gui/$(id -u) "+settings.ShellQuote(plist)+"\n") {
		t.Errorf("install without a login session:\n%s", out)
	}
	if s := serveOf(filepath.Join(home, ".claude", "harness")); s == nil || s.Manager != "by hand" {
		t.Errorf("recorded without a login session: %+v", s)
	}
	if out, err := run("uninstall"); err != nil {
		t.Errorf("uninstall without a login session: %v\n%s", err, out)
	}
	os.Remove(nosession)
	logged()

	// No launchctl (not a Mac): the install is whole, and says how to load it.
	t.Setenv("HARNESS_LAUNCHCTL", filepath.Join(root, "nonexistent"))
	if out := install(addr); !strings.Contains(out, "launchctl is not here (not macOS, or not on PATH): nothing listens yet, and every guarded call is blocked until something does.\n"+
		"  load it on the Mac with: launchctl bootstrap gui/$(id -u) "+settings.ShellQuote(plist)+"\n") {
		t.Errorf("install without launchctl:\n%s", out)
	}
	if s := serveOf(filepath.Join(home, ".claude", "harness")); s == nil || s.Manager != "by hand" || !strings.HasPrefix(restartHint(s), "load it: launchctl bootstrap") {
		t.Errorf("recorded without launchctl: %+v", s)
	}
	if out, err := run("uninstall"); err != nil || strings.Contains(out, "unloaded") {
		t.Errorf("uninstall without launchctl: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(settingsFile); !bytes.Equal(b, orig) {
		t.Errorf("settings after the second uninstall:\n%s", b)
	}
}
