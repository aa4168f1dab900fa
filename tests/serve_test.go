package tests

import (
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
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
