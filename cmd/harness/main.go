package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/danger"
	"github.com/hookkit/harness/lib/hook"
	"github.com/hookkit/harness/lib/paths"
	"github.com/hookkit/harness/lib/verdict"
)

func main() {
	a := app()
	line, err := readLine(a, os.Args)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(exitUsage)
	}
	if err := a.Run(line); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(1)
	}
}

func app() *cli.App {
	a := &cli.App{
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
			serveCommand,
			serveRegisterCommand,
			{
				Name:      "events",
				Usage:     "list the hook events of Claude Code 2.1.332, or show one in full",
				ArgsUsage: "[EVENT]",
				Action: func(c *cli.Context) error {
					return events(c.App.Writer, c.Args().First())
				},
			},
			{
				Name:  "rules",
				Usage: "list every rule of SecurityValidator and WriteProtector: its guard, pack or tier, id, action, blast radius and advice",
				Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print a JSON array"}},
				Action: func(c *cli.Context) error {
					return verdict.WriteCatalog(c.App.Writer, append(danger.Rules(), paths.Rules()...), c.Bool("json"))
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
	usageExits(a.Name, a.Commands)
	return a
}
