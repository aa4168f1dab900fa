package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/lint"
	"github.com/hookkit/harness/lib/settings"
)

// dockerAgentInstall prints the hooks block of a docker-agent agent file: docker-agent keeps
// hooks per agent in the YAML that defines the agent, which the user owns and may lay out in any
// way, so the block is printed to paste under the agent rather than written into the file.
func dockerAgentInstall(c *cli.Context, d *dialect.Dialect, home, bin string) error {
	entries, skipped, err := clientEntries(c, d, home, bin)
	if err != nil {
		return err
	}
	var block strings.Builder
	if err := writeAgentHooks(&block, entries, c.Bool("on-error")); err != nil {
		return err
	}
	file := c.String("settings")
	if file == "" {
		if c.Bool("dry-run") {
			return errors.New("--client docker-agent without --settings prints the block and writes nothing: --dry-run does not apply")
		}
		fmt.Fprintf(c.App.ErrWriter, "paste this under your agent in the agent file (agents: <name>:), at the agent's indentation,\n"+
			"or let harness put it there: harness install --client docker-agent --settings AGENT.yaml [--agent NAME].\n"+
			"Written for docker-agent %s (its captured payloads: it is not installable here).\n", d.Tested)
		for _, s := range skipped {
			fmt.Fprintf(c.App.ErrWriter, "  not wired: %s\n", s)
		}
		_, err := io.WriteString(c.App.Writer, block.String())
		return err
	}
	file, err = filepath.Abs(file)
	if err != nil {
		return err
	}
	agent := c.String("agent")
	if agent == "" {
		agent = "root"
	}
	res, err := settings.InstallAgentYAML(settings.Plan{File: file, Home: home, Groups: entries, DryRun: c.Bool("dry-run"), Client: string(d.Client)}, agent, block.String())
	if err != nil {
		return err
	}
	out := c.App.Writer
	fmt.Fprintf(out, "%s (docker-agent, agent %s), shell form:\n", file, agent)
	printResult(out, res)
	for _, s := range skipped {
		fmt.Fprintf(out, "  not wired: %s\n", s)
	}
	switch {
	case c.Bool("dry-run"):
		writeDiff(out, file, res.Before, res.After)
		fmt.Fprintln(out, "dry run: nothing was written")
	case !res.Wrote:
		fmt.Fprintln(out, "already up to date: nothing changed")
	default:
		fmt.Fprintln(out, "undo with: harness uninstall --client docker-agent")
	}
	return nil
}

// writeAgentHooks renders the entries as docker-agent's hooks block: tool events as matcher
// groups, the others as plain lists of handlers. Strings are JSON-quoted, which YAML reads as
// double-quoted scalars. With onError each hook says what its failure does, where the event
// lets it: a guard blocks (pre_tool_use does anyway), the others warn.
func writeAgentHooks(w io.Writer, entries []settings.Entry, onError bool) error {
	events := lint.DockerAgentEvents()
	var order []string
	byEvent := map[string][]settings.Entry{}
	for _, e := range entries {
		if _, ok := byEvent[e.Event]; !ok {
			order = append(order, e.Event)
		}
		byEvent[e.Event] = append(byEvent[e.Event], e)
	}
	q := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	var b strings.Builder
	b.WriteString("hooks:\n")
	for _, ev := range order {
		fmt.Fprintf(&b, "  %s:\n", ev)
		tool := ev == "pre_tool_use" || ev == "post_tool_use"
		for _, e := range byEvent[ev] {
			indent := "    "
			if tool {
				m := e.Matcher
				if m == "" {
					m = "*"
				}
				fmt.Fprintf(&b, "    - matcher: %s\n      hooks:\n", q(m))
				indent = "        "
			}
			for _, h := range gjson.GetBytes(e.Group, "hooks").Array() {
				fmt.Fprintf(&b, "%s- type: command\n%s  command: %s\n%s  timeout: %d\n",
					indent, indent, q(h.Get("command").Str), indent, h.Get("timeout").Int())
				if onError {
					policy := "warn"
					if slices.Contains(lint.HarnessGuards, e.Hook) && events[ev].CanBlock {
						policy = "block"
					}
					fmt.Fprintf(&b, "%s  on_error: %s\n", indent, policy)
				}
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
