package tests

import (
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// harness serve under systemd's socket activation (systemd-socket-activate passes the socket
// as systemd does, LISTEN_PID and LISTEN_FDS): it answers on the socket it was given, binds
// nothing itself, and refuses a --listen that is not the socket's address.
func TestServeSocketActivation(t *testing.T) {
	activate, err := exec.LookPath("systemd-socket-activate")
	if err != nil {
		t.Skip("systemd-socket-activate is not installed")
	}
	root := t.TempDir()
	home, proj := filepath.Join(root, "harness"), filepath.Join(root, "user", "proj")
	os.MkdirAll(proj, 0o755)
	secret := filepath.Join(root, "secret")
	os.WriteFile(secret, []byte("socket-activation-secret-0123\n"), 0o600)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	// The session registers as its SessionStart hook would.
	reg := exec.Command(filepath.Join(binDir, "harness"), "serve-register", "--home", home)
	reg.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+proj, "HOME="+filepath.Join(root, "user"))
	reg.Stdin = strings.NewReader(`{"session_id":"sa-1","hook_event_name":"SessionStart","source":"startup","cwd":"` + proj + `"}`)
	if out, err := reg.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("serve-register: %v\n%s", err, out)
	}

	// Its output goes to a file: read while it runs, with no copying goroutine to race.
	run := func(listen string) (*exec.Cmd, func() string) {
		args := []string{"-l", addr, filepath.Join(binDir, "harness"), "serve", "--secret-file", secret, "--home", home, "--system-dir", filepath.Join(root, "system")}
		if listen != "" {
			args = append(args, "--listen", listen)
		}
		cmd := exec.Command(activate, args...)
		f, err := os.CreateTemp(root, "serve-*.log")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout, cmd.Stderr = f, f
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd, func() string { b, _ := os.ReadFile(f.Name()); return string(b) }
	}
	post := func(cmd string) (int, string, error) {
		req, _ := http.NewRequest("POST", "http://"+addr+"/hook/SecurityValidator",
			strings.NewReader(`{"session_id":"sa-1","hook_event_name":"PreToolUse","cwd":"`+proj+`","tool_name":"Bash","tool_use_id":"t","tool_input":{"command":"`+cmd+`"}}`))
		req.Header.Set("X-Harness-Secret", "socket-activation-secret-0123")
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), nil
	}
	waitListen := func() {
		for i := 0; i < 100; i++ {
			if c, err := net.Dial("tcp", addr); err == nil {
				c.Close()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("systemd-socket-activate does not listen on %s", addr)
	}

	cmd, out := run(addr)
	waitListen()
	code, body, err := post("rm -rf /")
	if err != nil || code != 200 || !strings.Contains(body, `"permissionDecision":"deny","permissionDecisionReason":"SecurityValidator: blocked `+"`rm -rf /`") {
		t.Fatalf("a dangerous command: %d %q %v\n%s", code, body, err, out())
	}
	if code, body, err := post("ls"); err != nil || code != 200 || body != "" {
		t.Fatalf("a safe command: %d %q %v\n%s", code, body, err, out())
	}
	cmd.Process.Kill()
	cmd.Wait()

	// Given a socket on another address than --listen says, it refuses to start.
	_, out = run("127.0.0.1:1")
	waitListen()
	post("ls")
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(out(), "harness serve:") {
		time.Sleep(50 * time.Millisecond)
	}
	if want := "harness serve: the socket systemd passed is on " + addr + ", not --listen 127.0.0.1:1"; !strings.Contains(out(), want) {
		t.Errorf("a socket on another address: want %q in\n%s", want, out())
	}
}

// status and doctor after install --serve check who holds its port: the port free (the
// server and its socket down), held by harness serve under socket activation (it proves it
// holds the secret, and the guards' canaries go through it), held by something else.
func TestServeInstallListener(t *testing.T) {
	activate, err := exec.LookPath("systemd-socket-activate")
	if err != nil {
		t.Skip("systemd-socket-activate is not installed")
	}
	root := t.TempDir()
	home := filepath.Join(root, "home")
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "HARNESS_HOME="+filepath.Join(home, ".claude", "harness"),
		"HARNESS_SYSTEMCTL=/nonexistent/systemctl", "HARNESS_CLAUDE=/nonexistent/claude", "HARNESS_SYSTEM_DIR="+filepath.Join(root, "system"))
	harness := func(args ...string) (string, int) {
		cmd := exec.Command(filepath.Join(binDir, "harness"), args...)
		cmd.Env, cmd.Dir = env, root
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	if out, code := harness("install", "--serve", "--bin", binDir, "--listen", addr); code != 0 {
		t.Fatalf("install --serve: exit %d\n%s", code, out)
	}
	free := "harness serve on " + addr + " (serve mode of " + filepath.Join(home, ".claude", "settings.json") + ")\n" +
		"  problem: nothing listens on " + addr + ": the port is free, harness serve and its socket are down, and every guarded call is blocked; " +
		"start it: systemctl --user daemon-reload && systemctl --user enable --now harness-serve.socket (where a user manager runs), " +
		"or run the ExecStart of harness-serve.service under a socket activator (docs/serve.md)\n"
	if out, code := harness("status"); code != 1 || !strings.Contains(out, free) {
		t.Fatalf("status, the port free: exit %d\n%s\nwant\n%s", code, out, free)
	}

	// The socket held as the user manager would hold it, the unit's own ExecStart run on it.
	unit, err := os.ReadFile(filepath.Join(home, ".config", "systemd", "user", "harness-serve.service"))
	if err != nil {
		t.Fatal(err)
	}
	var execStart []string
	for _, l := range strings.Split(string(unit), "\n") {
		if v, ok := strings.CutPrefix(l, "ExecStart="); ok {
			execStart = strings.Fields(v)
		}
	}
	cmd := exec.Command(activate, append([]string{"-l", addr}, execStart...)...)
	log, _ := os.Create(filepath.Join(root, "serve.log"))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for i := 0; i < 100; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	held := "  ok: harness serve answers on " + addr + " and proves it holds this install's secret (the socket is held by pid " + strconv.Itoa(cmd.Process.Pid) + " (" + execStart[0] + " serve))\n"
	if out, code := harness("status"); code != 0 || !strings.Contains(out, held) {
		t.Fatalf("status, served: exit %d\n%s\nwant\n%s", code, out, held)
	}
	out, code := harness("doctor")
	for _, want := range []string{"serve      harness serve answers on " + addr + " and proves it holds this install's secret", "rm -rf ~: deny through harness serve in ", "ls -la: silent through harness serve in ",
		"prompt with a key: block through harness serve in ", "write ~/.ssh/id_rsa: deny through harness serve in "} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor, served: no %q in\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("doctor, served: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "harness", "serve", "sessions", "canary.json")); !os.IsNotExist(err) {
		t.Errorf("doctor left its canary session registered: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()

	// Something else on the port: status names it, doctor fails.
	other := &http.Server{Handler: http.NotFoundHandler()}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	go other.Serve(l)
	defer other.Close()
	elsewhere := "  problem: " + addr + " is held by pid " + strconv.Itoa(os.Getpid()) + " ("
	if out, code := harness("status"); code != 1 || !strings.Contains(out, elsewhere) ||
		!strings.Contains(out, "), but what answers there is not harness serve with this install's secret (it does not prove it holds the secret: HTTP 404): every guarded call is blocked; stop what holds it, then start it: ") {
		t.Fatalf("status, another listener: exit %d\n%s", code, out)
	}
	if out, code := harness("doctor"); code != 1 || !regexp.MustCompile(`(?m)^FAIL +- +- +serve +`+regexp.QuoteMeta(addr)+` is held by pid `).MatchString(out) ||
		!strings.Contains(out, "not sent, harness serve does not answer") {
		t.Errorf("doctor, another listener: exit %d\n%s", code, out)
	}
}
