package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/audit"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/ship"
)

// The exit codes of harness audit ship (docs/cli.md).
const (
	shipFailed   = 1 // an endpoint did not accept a batch, or a log could not be read: records kept
	shipUsage    = 2 // the endpoint URL or a header's source is wrong
	shipNoTarget = 3 // no endpoint configured or given
	shipBusy     = 4 // another shipper holds a project's lock
)

var auditShipCommand = &cli.Command{
	Name:  "ship",
	Usage: "send the records not yet shipped to an OpenTelemetry endpoint as OTLP/HTTP log records",
	Flags: []cli.Flag{&cli.StringFlag{Name: "endpoint", Usage: "OTLP/HTTP base URL, e.g. http://127.0.0.1:4318 (overrides " + ship.KeyEndpoint + ")"}},
	Action: func(c *cli.Context) error {
		if c.NArg() > 0 {
			return cli.Exit("harness audit ship takes no arguments", shipUsage)
		}
		home, err := harnessHome()
		if err != nil {
			return err
		}
		cfg, problems := ship.Load(systemDir(c), home)
		for _, p := range problems {
			fmt.Fprintln(c.App.ErrWriter, "harness audit ship: "+p)
		}
		if e := c.String("endpoint"); e != "" {
			cfg.Endpoint = e
		}
		if cfg.Endpoint == "" {
			return cli.Exit("harness audit ship: "+ship.ErrNoEndpoint.Error(), shipNoTarget)
		}
		cfg.EnvProxy = true // the owner's own proxy variables
		s, err := ship.Open(cfg, os.LookupEnv, ship.Me(hook.Version))
		if err != nil {
			return cli.Exit("harness audit ship: "+err.Error(), shipUsage)
		}
		defer s.Close()
		dirs, err := ship.Folders(home)
		if err != nil {
			return err
		}
		if p := c.String("project"); p != "" {
			p, _ = filepath.Abs(p)
			dirs = nil
			if st, err := os.Stat(audit.Dir(home, p)); err == nil && st.IsDir() {
				dirs = []string{audit.Dir(home, p)}
			}
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return shipAll(ctx, s, dirs, c.App.Writer, c.App.ErrWriter)
	},
}

// shipAll ships each folder and says, one line each, what went out or why not.
func shipAll(ctx context.Context, s *ship.Shipper, dirs []string, stdout, stderr io.Writer) error {
	if len(dirs) == 0 {
		fmt.Fprintln(stdout, "no audit records to ship")
		return nil
	}
	code := 0
	for _, dir := range dirs {
		name := filepath.Base(filepath.Dir(dir))
		res, err := s.Ship(ctx, dir)
		if res.Note != "" {
			fmt.Fprintf(stderr, "harness audit ship: %s: %s\n", name, res.Note)
		}
		switch {
		case errors.Is(err, ship.ErrBusy):
			fmt.Fprintf(stderr, "harness audit ship: %s: %v\n", name, err)
			if code == 0 {
				code = shipBusy
			}
			continue
		case err != nil:
			fmt.Fprintf(stderr, "harness audit ship: %s: %v\n", name, err)
			code = shipFailed
		case !res.Done:
			fmt.Fprintf(stderr, "harness audit ship: %s: interrupted; the rest is sent by the next run\n", name)
			code = shipFailed
		}
		line := fmt.Sprintf("%s: %d records shipped in %d batches", name, res.Shipped, res.Batches)
		if res.Skipped > 0 {
			line += fmt.Sprintf(", %d malformed lines skipped (never shipped)", res.Skipped)
		}
		if res.Head != "" {
			line += ", chain head " + res.Head[:16]
			if res.HeadSeq > 0 {
				line += fmt.Sprintf(" (seq %d)", res.HeadSeq)
			}
		}
		fmt.Fprintln(stdout, line)
		if ctx.Err() != nil {
			break
		}
	}
	if code != 0 {
		return cli.Exit("", code)
	}
	return nil
}

var auditCollectorConfigCommand = &cli.Command{
	Name:  "collector-config",
	Usage: "print an OpenTelemetry Collector configuration that takes in the audit trail (OTLP receiver, filelog receiver)",
	Flags: []cli.Flag{&cli.StringFlag{Name: "receivers", Value: "otlp,filelog", Usage: "the ways in to print: otlp, filelog or both"}},
	Action: func(c *cli.Context) error {
		if c.NArg() > 0 {
			return fmt.Errorf("audit collector-config takes no arguments")
		}
		var otlp, filelog bool
		for _, r := range strings.Split(c.String("receivers"), ",") {
			switch strings.TrimSpace(r) {
			case "otlp":
				otlp = true
			case "filelog":
				filelog = true
			default:
				return cli.Exit(fmt.Sprintf("harness audit collector-config: unknown receiver %q (otlp, filelog)", r), 2)
			}
		}
		home, err := harnessHome()
		if err != nil {
			return err
		}
		_, err = fmt.Fprint(c.App.Writer, ship.CollectorConfig(home, otlp, filelog))
		return err
	},
}
