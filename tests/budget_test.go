package tests

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/hook"
)

// heavy are the packages that cost milliseconds at every process start (with what they
// contain); heavyExact those that cost tenths of one: net alone took SecurityValidator from
// 1.64 to 2.4 times an empty binary's start (tests/startup). OpenTelemetry (lib/ship's SDK,
// exporter, protobuf and their init) belongs in the CLI and AuditShip only.
var (
	heavy      = []string{"github.com/bitfield/script", "github.com/urfave/cli/v2", "net/http", "go.opentelemetry.io", "google.golang.org/protobuf"}
	heavyExact = []string{"net", "os/user"}
)

// rare are the events that fire at most once per session or turn, where a heavier hook is fine.
var rare = map[event.Name]bool{
	event.SessionStart: true, event.SessionEnd: true, event.Setup: true, event.Stop: true,
	event.SubagentStop: true, event.PreCompact: true, event.PostCompact: true, event.StopFailure: true,
}

// deps lists each main package's import path with its dependencies.
func deps(t *testing.T, patterns ...string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-e", "-f", "{{if eq .Name \"main\"}}{{.ImportPath}} {{join .Deps \" \"}}{{end}}"}, patterns...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			m[f[0]] = f[1:]
		}
	}
	return m
}

func heavyDeps(ds []string) []string {
	var found []string
	for _, d := range ds {
		for _, h := range heavy {
			if d == h || strings.HasPrefix(d, h+"/") {
				found = append(found, d)
			}
		}
		for _, h := range heavyExact {
			if d == h {
				found = append(found, d)
			}
		}
	}
	return found
}

// A hook on any event that fires per tool call or per prompt must not pull in script, cli or
// the network stack.
func TestPerCallHooksStayLean(t *testing.T) {
	checked := 0
	for pkg, ds := range deps(t, "../hooks/...", "./hooks/...") {
		name := filepath.Base(pkg)
		d := describe(t, name)
		perCall := false
		for _, b := range d.Events {
			perCall = perCall || !rare[b.Event]
		}
		if h := heavyDeps(ds); perCall && len(h) > 0 {
			t.Errorf("%s runs on every call but depends on %v", name, h)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no hook packages found")
	}
}

// The check above can see a heavy dependency: the CLI has urfave/cli, and the CLI and
// AuditShip link OpenTelemetry.
func TestHeavyDependencyIsVisible(t *testing.T) {
	for pkg, ds := range deps(t, "../cmd/harness", "../hooks/AuditShip") {
		if len(heavyDeps(ds)) == 0 {
			t.Errorf("%s: expected heavy dependencies", pkg)
		}
		if !slices.ContainsFunc(heavyDeps(ds), func(d string) bool { return strings.HasPrefix(d, "go.opentelemetry.io/otel/sdk/log") }) {
			t.Errorf("%s: expected the OpenTelemetry log SDK among its dependencies", pkg)
		}
	}
}

// describe runs a built hook's --describe.
func describe(t *testing.T, name string) hook.Description {
	t.Helper()
	out, err := exec.Command(filepath.Join(binDir, name), "--describe").Output()
	if err != nil {
		t.Fatalf("%s --describe: %v", name, err)
	}
	var d hook.Description
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatalf("%s --describe: %v", name, err)
	}
	return d
}

// The rule packs depend on no hook runtime: lib/danger judges commands from what it is given
// (danger.Input), so the CLI, the linter and a server can use it without lib/hook.
func TestDangerDoesNotImportTheRuntime(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../lib/danger").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if slices.Contains(strings.Fields(string(out)), "github.com/hookkit/harness/lib/hook") {
		t.Error("lib/danger imports lib/hook")
	}
}
