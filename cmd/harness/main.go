package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/danger"
	"github.com/hookkit/harness/lib/hook"
)

func main() {
	if err := app().Run(flagsFirst(os.Args)); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(1)
	}
}

// valuedFlags are, per command that takes flags after its argument, the flags with a value.
var valuedFlags = map[string]map[string]bool{
	"run": {"--settings": true, "--payload": true, "--tool": true, "--input": true, "--project": true},
	"new": {"--event": true, "--matcher": true, "--timeout": true, "--dir": true},
}

// flagsFirst lets `harness run EVENT --tool Bash ...` and `harness new NAME --event E` be written
// as the README shows them: urfave/cli stops reading flags at the first argument, so the
// arguments move after the flags.
func flagsFirst(args []string) []string {
	if len(args) > 2 && args[1] == "audit" {
		return auditProjectFirst(args)
	}
	if len(args) < 3 || valuedFlags[args[1]] == nil {
		return args
	}
	valued := valuedFlags[args[1]]
	var flags, rest []string
	for i := 2; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-"):
			flags = append(flags, a)
			if valued[a] && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			rest = append(rest, a)
		}
	}
	return append(append(append([]string{}, args[:2]...), flags...), rest...)
}

// auditProjectFirst moves audit's --project, wherever it is given, in front of the
// subcommand, where the parser reads it.
func auditProjectFirst(args []string) []string {
	var project, rest []string
	for i := 2; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			rest = append(rest, args[i:]...)
			i = len(args)
		case (a == "--project" || a == "-project") && i+1 < len(args):
			project = append(project, a, args[i+1])
			i++
		case strings.HasPrefix(a, "--project=") || strings.HasPrefix(a, "-project="):
			project = append(project, a)
		default:
			rest = append(rest, a)
		}
	}
	return append(append(append([]string{}, args[:2]...), project...), rest...)
}

func app() *cli.App {
	return &cli.App{
		Name:            "harness",
		Usage:           "Claude Code hooks in Go: install them, check them, inspect the protocol",
		Version:         hook.Version,
		HideHelpCommand: true,
		Commands: []*cli.Command{
			installCommand,
			uninstallCommand,
			statusCommand,
			validateCommand,
			auditCommand,
			pluginCommand,
			doctorCommand,
			runCommand,
			testCommand,
			newCommand,
			{
				Name:      "events",
				Usage:     "list the hook events of Claude Code 2.1.332, or show one in full",
				ArgsUsage: "[EVENT]",
				Action: func(c *cli.Context) error {
					if c.NArg() > 1 {
						return fmt.Errorf("events takes at most one event name")
					}
					return events(c.App.Writer, c.Args().First())
				},
			},
			{
				Name:  "rules",
				Usage: "list every rule of SecurityValidator: its pack, id, action, blast radius and advice",
				Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print a JSON array"}},
				Action: func(c *cli.Context) error {
					if c.NArg() > 0 {
						return fmt.Errorf("rules takes no arguments")
					}
					return danger.WriteCatalog(c.App.Writer, c.Bool("json"))
				},
			},
			{
				Name:      "describe",
				Usage:     "print the self-description of every hook binary in DIR (default: $HARNESS_HOME/bin)",
				ArgsUsage: "[DIR]",
				Action: func(c *cli.Context) error {
					dir := c.Args().First()
					if dir == "" {
						home, err := harnessHome()
						if err != nil {
							return err
						}
						dir = home + "/bin"
					}
					return describe(c.App.Writer, dir)
				},
			},
		},
	}
}
