package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/builtin"
	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/launchd"
	"github.com/hookkit/harness/lib/server"
)

var serveCommand = &cli.Command{
	Name:  "serve",
	Usage: "answer Claude Code's HTTP hooks (POST /hook/<Name>) with the guards and AuditLog in one long-lived process",
	Description: "Listens on --listen (a loopback address with its port), or, under systemd socket activation, on the socket\n" +
		"systemd passes, or, with --launchd-socket (macOS), on the socket launchd holds for its job: then it binds nothing\n" +
		"itself. Its environment is cleared at start and no variable is read: the folders and the secret come from the\n" +
		"command line, each session's project root from its SessionStart registration (harness serve-register).",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "listen", Usage: "the loopback address to listen on, e.g. 127.0.0.1:8765 (under socket activation: the address the socket must have)"},
		&cli.StringFlag{Name: "launchd-socket", Usage: "macOS: the key of the launchd job's Sockets whose socket to answer on (launch_activate_socket); never binds a port itself"},
		&cli.StringFlag{Name: "secret-file", Usage: "the file holding the secret every request must carry (mode 0600)", Required: true},
		&cli.StringFlag{Name: "home", Usage: "the harness home (default: ~/.claude/harness of the account, from the password database)"},
		&cli.StringFlag{Name: "system-dir", Usage: "the administrator's scope (default: " + config.DefaultSystemDir() + ")"},
	},
	Action: func(c *cli.Context) error {
		// Socket activation's variables are the only ones read, before the environment goes.
		pid, fds := os.Getenv("LISTEN_PID"), os.Getenv("LISTEN_FDS")
		os.Clearenv()
		home, err := accountHarnessHome(c.String("home"))
		if err != nil {
			return cli.Exit("harness serve: "+err.Error(), exitUsage)
		}
		sys := c.String("system-dir")
		if sys == "" {
			sys = config.DefaultSystemDir()
		}
		if !filepath.IsAbs(sys) {
			return cli.Exit("harness serve: --system-dir must be an absolute path", exitUsage)
		}
		secret, err := readSecret(c.String("secret-file"))
		if err != nil {
			return cli.Exit("harness serve: "+err.Error(), exitUsage)
		}
		var l net.Listener
		if name := c.String("launchd-socket"); name != "" {
			l, err = launchdListener(c.String("listen"), name)
		} else {
			l, err = listener(c.String("listen"), pid, fds)
		}
		if err != nil {
			return cli.Exit("harness serve: "+err.Error(), 1)
		}
		addr := l.Addr().String()
		srv := &http.Server{
			Handler: server.Handler(server.Config{Home: home, SystemDir: sys, Secret: secret, Host: addr, Hooks: builtin.Hooks, Log: c.App.ErrWriter}),
			// A client that dawdles is cut off well inside Claude Code's timeout.
			ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute,
			MaxHeaderBytes: 64 << 10,
		}
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- srv.Serve(l) }()
		fmt.Fprintf(c.App.ErrWriter, "harness serve: listening on %s (harness home %s)\n", addr, home)
		select {
		case err := <-done:
			return cli.Exit("harness serve: "+err.Error(), 1)
		case <-stop:
		}
		// Calls under way finish and write their records before the process ends.
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			return cli.Exit("harness serve: stopping: "+err.Error(), 1)
		}
		return nil
	},
}

// listener is the socket systemd passed (LISTEN_PID and LISTEN_FDS name this process and one
// descriptor), else a new one bound on the loopback address given. Under socket activation
// the server binds nothing itself: the socket is the service manager's, so no other process
// can take the port while the server restarts.
func listener(listen, pid, fds string) (net.Listener, error) {
	if fds != "" {
		if pid != strconv.Itoa(os.Getpid()) {
			return nil, fmt.Errorf("LISTEN_FDS is set for process %q, not this one (%d): refusing to bind a port myself under socket activation", pid, os.Getpid())
		}
		if fds != "1" {
			return nil, fmt.Errorf("systemd passed %s sockets; the unit must pass exactly one", fds)
		}
		f := os.NewFile(3, "systemd socket")
		l, err := net.FileListener(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("the socket systemd passed: %w", err)
		}
		return passed(l, "systemd", listen)
	}
	if listen == "" {
		return nil, errors.New("--listen is required without socket activation (e.g. --listen 127.0.0.1:8765)")
	}
	if err := loopback(listen); err != nil {
		return nil, fmt.Errorf("--listen %s: %w", listen, err)
	}
	l, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("binding %s: %w", listen, err)
	}
	return l, nil
}

// launchdListener is the socket launchd holds for this job under name (launchd.plist's
// Sockets), checked as a socket systemd passes is: under launchd the server never binds a
// port itself, whatever the error.
func launchdListener(listen, name string) (net.Listener, error) {
	l, err := launchd.Listener(name)
	if err != nil {
		return nil, fmt.Errorf("--launchd-socket %s: %w; refusing to bind a port myself", name, err)
	}
	return passed(l, "launchd", listen)
}

// passed checks a socket a service manager passed: on a loopback address, and the --listen
// address when one is given.
func passed(l net.Listener, by, listen string) (net.Listener, error) {
	if err := loopback(l.Addr().String()); err != nil {
		l.Close()
		return nil, fmt.Errorf("the socket %s passed is on %s: %w", by, l.Addr(), err)
	}
	if listen != "" && listen != l.Addr().String() {
		l.Close()
		return nil, fmt.Errorf("the socket %s passed is on %s, not --listen %s", by, l.Addr(), listen)
	}
	return l, nil
}

// loopback checks an address is a loopback IP with a port of its own.
func loopback(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return errors.New("the server listens on a loopback IP address only (127.0.0.1 or ::1), never a name")
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return errors.New("the port must be a number from 1 to 65535")
	}
	return nil
}

// readSecret reads the installer's secret from a file only its owner may read.
func readSecret(name string) (string, error) {
	if !filepath.IsAbs(name) {
		return "", fmt.Errorf("--secret-file %q: the file must be an absolute path", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return "", fmt.Errorf("reading the secret: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("reading the secret: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s is readable by others (mode %o): chmod 600 it", name, st.Mode().Perm())
	}
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return "", fmt.Errorf("reading the secret: %w", err)
	}
	s := strings.TrimSpace(string(b))
	if len(s) < 16 {
		return "", fmt.Errorf("%s holds no secret of at least 16 characters", name)
	}
	return s, nil
}

// accountHarnessHome is --home, else the harness home under the account's home as the
// password database gives it: never a variable, which a project's settings could set.
func accountHarnessHome(flag string) (string, error) {
	if flag != "" {
		if !filepath.IsAbs(flag) {
			return "", errors.New("--home must be an absolute path")
		}
		return filepath.Clean(flag), nil
	}
	u, err := user.Current()
	if err != nil || u.HomeDir == "" || !filepath.IsAbs(u.HomeDir) {
		return "", fmt.Errorf("finding the account's home (pass --home): %v", err)
	}
	return config.DefaultHome(u.HomeDir), nil
}

var serveRegisterCommand = &cli.Command{
	Name:  "serve-register",
	Usage: "the SessionStart command hook of serve mode: registers the session's project root for harness serve",
	Description: "Reads the SessionStart payload on stdin and records, under the session id in the harness home, what a hook\n" +
		"process of the session would read from its environment (CLAUDE_PROJECT_DIR, HOME, TMPDIR,\n" +
		"CLAUDE_CONFIG_DIR). With --url it also checks the server answers and, if not, tells the user how to restart it.",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "home", Usage: "the harness home (default: ~/.claude/harness of the account, from the password database)"},
		&cli.StringFlag{Name: "url", Usage: "the server's base URL (http://127.0.0.1:PORT) to check"},
	},
	Action: func(c *cli.Context) error {
		home, err := accountHarnessHome(c.String("home"))
		if err != nil {
			return cli.Exit("harness serve-register: "+err.Error(), exitUsage)
		}
		data, err := io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
		if err != nil {
			return cli.Exit("harness serve-register: reading stdin: "+err.Error(), 1)
		}
		in, err := event.Parse(data)
		if err != nil {
			return cli.Exit("harness serve-register: "+err.Error(), 1)
		}
		if in.Event() != event.SessionStart {
			return cli.Exit(fmt.Sprintf("harness serve-register: runs on SessionStart, not %s", in.Event()), 1)
		}
		project := os.Getenv("CLAUDE_PROJECT_DIR")
		if project == "" {
			project = in.Cwd() // at a session's start the client's cwd is its project
		}
		userHome, _ := os.UserHomeDir()
		s := server.Session{Project: project, Home: userHome, TempDir: os.Getenv("TMPDIR"), ClaudeDir: os.Getenv("CLAUDE_CONFIG_DIR")}
		if err := server.Register(home, in.SessionID(), s); err != nil {
			return cli.Exit("harness serve-register: "+err.Error(), 1)
		}
		if u := c.String("url"); u != "" && !answering(u) {
			how := "harness doctor says why"
			if s := serveOf(home); s != nil {
				how = restartHint(s) + ". harness doctor says more"
			}
			r, err := answer.Render(answer.Message("harness serve is not answering at "+u+": every guarded tool call will be blocked until it does; "+how),
				event.SessionStart, "")
			if err == nil {
				c.App.Writer.Write(r.Stdout)
			}
		}
		return nil
	},
}

// answering reports whether something accepts connections at a base URL's address.
func answering(base string) bool {
	host := strings.TrimPrefix(strings.TrimPrefix(base, "http://"), "https://")
	host, _, _ = strings.Cut(host, "/")
	conn, err := net.DialTimeout("tcp", host, 500*time.Millisecond)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}
