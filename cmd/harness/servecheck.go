package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hookkit/harness/lib/builtin"
	"github.com/hookkit/harness/lib/canary"
	"github.com/hookkit/harness/lib/dispatch"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/server"
	"github.com/hookkit/harness/lib/settings"
)

// serveHealth is what status and doctor find at serve mode's address.
type serveHealth struct {
	OK bool
	// Msg says what listens there, or what is wrong and how to put it right.
	Msg string
	// Secret is the secret read from its file, for the canaries ("" when unreadable).
	Secret string
}

// restartHint is how the user puts serve mode's server back.
func restartHint(s *settings.Serve) string { return serviceOf(s).Restart(s) }

// checkServe checks that what listens on serve mode's address is harness serve with this
// install's secret: it connects and asks for the proof of the secret (server.Proof), which
// only the server that holds the secret can give, and never sends the secret. It says when the
// port is free (the server and its socket are down), held by something else (with the process
// holding it, where /proc shows it), or answered by a server that does not prove the secret.
func checkServe(s *settings.Serve) serveHealth {
	secret, err := readSecret(s.Secret)
	if err != nil {
		return serveHealth{Msg: "the secret of serve mode cannot be read (" + err.Error() + "): run harness install --serve again"}
	}
	conn, err := net.DialTimeout("tcp", s.Listen, time.Second)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			return serveHealth{Secret: secret, Msg: fmt.Sprintf("nothing listens on %s: the port is free, harness serve and its socket are down, "+
				"and every guarded call is blocked; %s", s.Listen, restartHint(s))}
		}
		return serveHealth{Secret: secret, Msg: fmt.Sprintf("cannot connect to %s (%v): every guarded call is blocked; %s", s.Listen, err, restartHint(s))}
	}
	conn.Close()
	b := make([]byte, 16)
	rand.Read(b)
	nonce := hex.EncodeToString(b)
	req, _ := http.NewRequest("POST", "http://"+s.Listen+server.ProofPath, nil)
	req.Header.Set(server.NonceHeader, nonce)
	resp, err := (&http.Client{Timeout: 3 * time.Second}).Do(req)
	holder := holderOf(s.Listen)
	if err != nil {
		return serveHealth{Secret: secret, Msg: fmt.Sprintf("%s is held%s, but nothing there answers as harness serve (%v): every guarded call is blocked; "+
			"stop what holds it, then %s", s.Listen, holder, err, restartHint(s))}
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != server.Proof(secret, nonce) {
		return serveHealth{Secret: secret, Msg: fmt.Sprintf("%s is held%s, but what answers there is not harness serve with this install's secret "+
			"(it does not prove it holds the secret: HTTP %d): every guarded call is blocked; stop what holds it, then %s", s.Listen, holder, resp.StatusCode, restartHint(s))}
	}
	return serveHealth{OK: true, Secret: secret, Msg: fmt.Sprintf("harness serve answers on %s and proves it holds this install's secret%s", s.Listen, holderNote(holder))}
}

func holderNote(h string) string {
	if h == "" {
		return ""
	}
	return " (the socket is held" + h + ")"
}

// holderOf names the processes that hold a listening TCP socket on addr, as " by pid N
// (command)", from /proc on Linux, else from lsof (macOS); processes of other users are not
// shown: "" when unknown.
func holderOf(addr string) string {
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		return lsofHolders(addr)
	}
	inode := listenInode(addr)
	if inode == "" {
		return ""
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	seen := map[string]bool{}
	var who []string
	for _, fd := range procs {
		if l, err := os.Readlink(fd); err != nil || l != "socket:["+inode+"]" {
			continue
		}
		pid := strings.Split(fd, "/")[2]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline")
		args := strings.Split(strings.TrimRight(string(cmd), "\x00"), "\x00")
		if len(args) > 2 {
			args = args[:2]
		}
		who = append(who, "pid "+pid+" ("+strings.Join(args, " ")+")")
	}
	if len(who) == 0 {
		return ""
	}
	return " by " + strings.Join(who, ", ")
}

// lsofHolders is holderOf by lsof, where there is no /proc: under launchd the socket is held
// by launchd itself and by the server it started.
func lsofHolders(addr string) string {
	prog, err := exec.LookPath("lsof")
	if err != nil {
		prog = "/usr/sbin/lsof" // macOS's, off a short PATH
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, prog, "-nP", "-a", "-iTCP@"+addr, "-sTCP:LISTEN", "-Fpc").Output()
	return lsofWho(string(out))
}

// lsofWho reads lsof's -Fpc output (a line "pNNN" opens each process, "cNAME" names it) as
// holderOf's " by pid N (command), ...".
func lsofWho(out string) string {
	var who []string
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "p"):
			who = append(who, "pid "+line[1:])
		case strings.HasPrefix(line, "c") && len(who) > 0:
			who[len(who)-1] += " (" + line[1:] + ")"
		}
	}
	if len(who) == 0 {
		return ""
	}
	return " by " + strings.Join(who, ", ")
}

// listenInode is the inode of the listening socket on addr in /proc/net/tcp or tcp6.
func listenInode(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	ip := net.ParseIP(host)
	p, perr := strconv.Atoi(port)
	if err != nil || ip == nil || perr != nil {
		return ""
	}
	// The kernel prints the address as the words it holds, each in the machine's byte order.
	word := func(b []byte) string {
		return fmt.Sprintf("%02X%02X%02X%02X", b[3], b[2], b[1], b[0])
	}
	file, local := "/proc/net/tcp6", ""
	if v4 := ip.To4(); v4 != nil {
		file, local = "/proc/net/tcp", word(v4)
	} else {
		for i := 0; i < 16; i += 4 {
			local += word(ip[i : i+4])
		}
	}
	local += fmt.Sprintf(":%04X", p)
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) > 9 && f[1] == local && f[3] == "0A" { // 0A: LISTEN
			return f[9]
		}
	}
	return ""
}

// serveOf is install --serve's record in the harness home (nil when serve mode is not installed).
func serveOf(home string) *settings.Serve {
	m, err := settings.LoadManifest(home)
	if err != nil {
		return nil
	}
	return m.Serve
}

// canarySession is the session id doctor registers for its canaries through harness serve:
// the guards record no verdict of a session named so (lib/audit), and doctor forgets it after.
const canarySession = "canary"

// serveCanary runs one canary through harness serve as Claude Code sends an HTTP hook: the
// payload POSTed with the secret, the 2xx body read as a command's stdout, anything else a
// failure that onFailure "block" turns into a block.
func serveCanary(url, secret, project string, timeout time.Duration, c canary.Case) canary.Result {
	r := canary.Result{Case: c}
	payload := canary.Fill(c.Payload, project)
	req, _ := http.NewRequest("POST", url, strings.NewReader(payload))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(server.SecretHeader, secret)
	start := time.Now()
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	r.Took = time.Since(start)
	if err != nil {
		r.Got, r.How = "block", "onFailure: block"
		if c.Want == "silent" {
			r.Problem = "no answer (" + err.Error() + "): every such call is blocked"
		}
		return r
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		r.Got, r.How = "block", fmt.Sprintf("HTTP %d, onFailure: block", resp.StatusCode)
		if c.Want == "silent" {
			r.Problem = fmt.Sprintf("did not stay silent on a safe call: HTTP %d %.200s", resp.StatusCode, strings.TrimSpace(string(body)))
		}
		return r
	}
	out := dispatch.Read(c.Event, dispatch.Result{Stdout: string(body)})
	r.Got = out.Decision
	if r.Got == "" {
		r.Got = "silent"
	}
	switch {
	case c.Want == "stop" && (r.Got == "silent" || r.Got == "allow"):
		r.Problem = "let a dangerous call through (" + r.Got + ")"
	case c.Want == "silent" && r.Got != "silent":
		r.Problem = fmt.Sprintf("did not stay silent on a safe call: %s %.200s", r.Got, strings.TrimSpace(string(body)))
	}
	return r
}

// doctorHTTP is doctor's row for an HTTP hook of serve mode, and, for a guard whose server
// answers, its canaries sent through the server.
func doctorHTTP(h canary.Handler, served serveHealth, project string, add func(status string, h canary.Handler, check, detail, id string)) {
	b, known := builtin.Hooks[h.Hook]
	switch {
	case !known:
		add("fail", h, "http", h.URL+": harness serve runs no hook "+h.Hook, "")
		return
	case !served.OK:
		add("skip", h, "canary", h.URL+": not sent, harness serve does not answer (see the serve check)", "")
		return
	}
	add("ok", h, "http", h.URL+" (harness serve, fails "+map[bool]string{true: "closed", false: "open"}[b.Spec.Policy == hook.Closed]+")", "")
	if b.Spec.Policy != hook.Closed {
		return
	}
	for _, cs := range canary.Cases[h.Hook] {
		if cs.Event != h.Event {
			continue
		}
		r := serveCanary(h.URL, served.Secret, project, h.Timeout, cs)
		if r.OK() {
			add("ok", h, "canary", fmt.Sprintf("%s: %s through harness serve in %v", cs.Name, r.Got, r.Took.Round(time.Millisecond)), cs.Name)
		} else {
			add("fail", h, "canary", fmt.Sprintf("%s: %s", cs.Name, r.Problem), cs.Name)
		}
	}
}

// hideServeSecret replaces serve mode's secret in b (a settings file a dry run shows) with
// where it is kept: a diff never shows it.
func hideServeSecret(home string, b []byte) []byte {
	s := serveOf(home)
	if s == nil {
		return b
	}
	secret, err := readSecret(s.Secret)
	if err != nil {
		return b
	}
	return []byte(strings.ReplaceAll(string(b), secret, "<the secret in "+s.Secret+">"))
}
