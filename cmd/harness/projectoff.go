package main

import (
	"fmt"
	"io"
	"os"

	"github.com/hookkit/harness/lib/canary"
	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/settings"
)

// A project's own files can switch off the hooks a user installed, in some clients (their
// declarations' Files.Switches, each seen in the real client). doctor and status look in the
// folder they run in, and those above it short of the home, and then in the user's own
// settings, and say so.

// projectOff finds those settings for the clients ds, in the current folder.
func projectOff(ds []*dialect.Dialect) []settings.SwitchedOff {
	cwd, err := os.Getwd()
	if err != nil {
		return nil
	}
	home, _ := os.UserHomeDir()
	var out []settings.SwitchedOff
	for _, d := range ds {
		out = append(out, settings.ProjectSwitches(d, cwd, home)...)
	}
	return out
}

// handlerClients are the clients the handlers are installed for, each once, Claude Code's
// (a handler with no client) among them.
func handlerClients(hs []canary.Handler) []*dialect.Dialect {
	var out []*dialect.Dialect
	seen := map[*dialect.Dialect]bool{}
	for _, h := range hs {
		d := h.Client
		if d == nil {
			d = dialect.Default()
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// projectOffFindings are doctor's warnings about them.
func projectOffFindings(ds []*dialect.Dialect) []finding {
	var out []finding
	for _, s := range projectOff(ds) {
		check := "project"
		if s.Own {
			check = "settings"
		}
		out = append(out, finding{ID: fmt.Sprintf("%s:%s:%s:%s", check, s.Client.Client, s.File, s.Switch.Key), Check: check,
			Status: "warn", File: s.File, Message: s.Message()})
	}
	return out
}

// statusProjectOff prints status's lines about them, for the clients of the files installed.
func statusProjectOff(w io.Writer, homes []string) {
	var ds []*dialect.Dialect
	seen := map[*dialect.Dialect]bool{}
	for _, h := range homes {
		m, err := settings.LoadManifest(h)
		if err != nil {
			continue
		}
		for _, rec := range m.Files {
			d := dialect.Default()
			if rec.Client != "" {
				if d, err = dialect.Lookup(rec.Client); err != nil {
					continue
				}
			}
			if !seen[d] {
				seen[d] = true
				ds = append(ds, d)
			}
		}
	}
	for _, s := range projectOff(ds) {
		if s.Own {
			fmt.Fprintf(w, "switched off: %s\n", s.Message())
		} else {
			fmt.Fprintf(w, "project: %s\n", s.Message())
		}
	}
}
