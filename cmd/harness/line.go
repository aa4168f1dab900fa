package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/spell"
)

// A command line is read against the app's command tree before anything runs. A command that
// does not exist, a flag its command does not have, or a word it does not take is a usage
// error (exit 64) and nothing happens: `harness uninstall x --help` uninstalls nothing.
// Flags may come anywhere on the line (urfave/cli stops reading them at the first word), so
// the line goes to the parser rebuilt: each command's flags right after its name, then the
// words. A --help anywhere on a line that is otherwise right only shows help.

// level is one command of a line, with the flags given to it.
type level struct {
	cmd   *cli.Command
	flags []string
}

// readLine checks args (os.Args) against the commands of a and returns the line to run.
func readLine(a *cli.App, args []string) ([]string, error) {
	if len(args) == 0 {
		return args, nil
	}
	root := &cli.Command{Name: a.Name, Subcommands: a.Commands, Flags: append(slices.Clone(a.Flags), cli.VersionFlag)}
	levels := []*level{{cmd: root}}
	var words []string
	help, dashes := false, false
	for i := 1; i < len(args); i++ {
		arg := args[i]
		cur := levels[len(levels)-1]
		switch {
		case dashes || arg == "-" || !strings.HasPrefix(arg, "-"):
			if len(cur.cmd.Subcommands) > 0 && len(words) == 0 {
				if arg == "help" && !help && cur.cmd.Action == nil {
					help = true // harness help install, harness audit help ship
					continue
				}
				sub := cur.cmd.Command(arg)
				if sub == nil {
					return nil, unknownCommand(levels, arg)
				}
				levels = append(levels, &level{cmd: sub})
				continue
			}
			words = append(words, arg)
		case arg == "--":
			dashes = true
		default:
			name, _, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-"), "=")
			if isHelp(name) {
				help = true
				continue
			}
			// A flag of the command or of a command above it (audit's --project after
			// the subcommand) goes where that command reads it.
			var owner *level
			var f cli.Flag
			for j := len(levels) - 1; j >= 0 && f == nil; j-- {
				if f = flagNamed(levels[j].cmd, name); f != nil {
					owner = levels[j]
				}
			}
			if f == nil {
				return nil, unknownFlag(levels, arg, name)
			}
			owner.flags = append(owner.flags, arg)
			if v, ok := f.(interface{ TakesValue() bool }); ok && v.TakesValue() && !hasValue {
				// A flag where its value should be (--settings --help) is a slip, not a
				// value: one that starts with a dash is written --settings=-odd.
				if i+1 == len(args) || len(args[i+1]) > 1 && strings.HasPrefix(args[i+1], "-") {
					return nil, fmt.Errorf("%s: flag %q needs a value", commandName(levels), arg)
				}
				i++
				owner.flags = append(owner.flags, args[i])
			}
		}
	}
	leaf := levels[len(levels)-1].cmd
	if max := arity(leaf.ArgsUsage); max >= 0 && len(words) > max {
		takes := "none"
		if max > 0 {
			takes = leaf.ArgsUsage
		}
		return nil, fmt.Errorf("%s: unexpected argument %q: it takes %s (%s --help)", commandName(levels), words[max], takes, commandName(levels))
	}
	line := []string{args[0]}
	for i, l := range levels {
		if i > 0 {
			line = append(line, l.cmd.Name)
		}
		if !help {
			line = append(line, l.flags...)
		}
	}
	if help {
		return append(line, "--help"), nil
	}
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			line = append(line, "--")
			break
		}
	}
	return append(line, words...), nil
}

// arity is how many words a command takes, read from the ArgsUsage its help shows: none for
// "", one for "EVENT" or "[DIR]", any number (-1) for "FILE...".
func arity(usage string) int {
	n := 0
	for _, w := range strings.Fields(usage) {
		if strings.HasSuffix(strings.TrimRight(w, "]"), "...") {
			return -1
		}
		n++
	}
	return n
}

func isHelp(name string) bool {
	return slices.Contains(cli.HelpFlag.Names(), name)
}

func flagNamed(c *cli.Command, name string) cli.Flag {
	for _, f := range c.Flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// commandName is "harness audit ship" for the commands named so far.
func commandName(levels []*level) string {
	names := []string{"harness"}
	for _, l := range levels[1:] {
		names = append(names, l.cmd.Name)
	}
	return strings.Join(names, " ")
}

// unknownCommand refuses a word where a command's name goes, with the nearest name.
func unknownCommand(levels []*level, arg string) error {
	parent := levels[len(levels)-1].cmd
	var names []string
	for _, c := range parent.Subcommands {
		if !c.Hidden && c.Name != "help" {
			names = append(names, c.Name)
		}
	}
	prefix := strings.TrimPrefix(commandName(levels)+" ", "harness ")
	msg := fmt.Sprintf("harness: unknown command %q", prefix+arg)
	if near := spell.Nearest(arg, names); near != "" {
		return fmt.Errorf("%s; did you mean %q?", msg, prefix+near)
	}
	return fmt.Errorf("%s (%s --help lists them)", msg, commandName(levels))
}

// unknownFlag refuses a flag that neither the command nor one above it has, with the nearest
// name.
func unknownFlag(levels []*level, arg, name string) error {
	var names []string
	for _, l := range levels {
		for _, f := range l.cmd.Flags {
			if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
				continue
			}
			names = append(names, f.Names()...)
		}
	}
	arg, _, _ = strings.Cut(arg, "=")
	msg := fmt.Sprintf("%s: unknown flag %q", commandName(levels), arg)
	if near := spell.Nearest(name, names); near != "" {
		return fmt.Errorf("%s; did you mean %q?", msg, "--"+near)
	}
	return fmt.Errorf("%s (%s --help lists its flags)", msg, commandName(levels))
}

// usageExits makes a flag's bad value (-n x) exit 64 with the reason, as a wrong word does,
// in every command that does not say otherwise.
func usageExits(name string, cmds []*cli.Command) {
	for _, c := range cmds {
		name := name + " " + c.Name
		if c.OnUsageError == nil {
			c.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
				return cli.Exit(name+": "+err.Error(), exitUsage)
			}
		}
		usageExits(name, c.Subcommands)
	}
}

// didYouMean is `; did you mean "X"?` for the known name that name most likely misspells,
// or "".
func didYouMean(name string, known []string) string {
	if near := spell.Nearest(name, known); near != "" {
		return fmt.Sprintf("; did you mean %q?", near)
	}
	return ""
}

// eventNames are the names of Claude Code's hook events, for a did-you-mean.
func eventNames() []string {
	var names []string
	for _, s := range event.All() {
		names = append(names, string(s.Name))
	}
	return names
}
