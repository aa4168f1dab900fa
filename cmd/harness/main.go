// Command harness is the project's CLI: it explains the hook protocol and the built hooks.
// run, test, new and doctor arrive with their issues.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/hook"
)

func main() {
	if err := app().Run(flagsFirst(os.Args)); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(1)
	}
}

// flagsFirst lets `harness run EVENT --tool Bash ...` be written as the issue and the README
// show it: urfave/cli stops reading flags at the first argument, so the event moves after them.
func flagsFirst(args []string) []string {
	if len(args) < 3 || args[1] != "run" {
		return args
	}
	valued := map[string]bool{"--settings": true, "--payload": true, "--tool": true, "--input": true, "--project": true}
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
			{
				Name:      "events",
				Usage:     "list the hook events of Claude Code 2.1.330, or show one in full",
				ArgsUsage: "[EVENT]",
				Action: func(c *cli.Context) error {
					if c.NArg() > 1 {
						return fmt.Errorf("events takes at most one event name")
					}
					return events(c.App.Writer, c.Args().First())
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

// harnessHome is $HARNESS_HOME, by default ~/.claude/harness.
func harnessHome() (string, error) {
	if h := os.Getenv("HARNESS_HOME"); h != "" {
		return h, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the home directory: %w", err)
	}
	return home + "/.claude/harness", nil
}
