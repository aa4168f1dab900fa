package danger

import (
	"fmt"
	"io"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Explain writes how a command was judged: its parse, the commands found in it (unwrapped,
// with directory and nesting), every finding, and the decision.
func Explain(w io.Writer, command string, in Input, v Verdict) {
	fmt.Fprintf(w, "command:  %s\n", command)
	if f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), ""); err == nil {
		var b strings.Builder
		syntax.NewPrinter(syntax.Indent(2)).Print(&b, f)
		fmt.Fprintf(w, "parsed:\n%s", indent(b.String(), "  "))
	} else {
		fmt.Fprintf(w, "parsed:   does not parse: %v\n", err)
	}
	fmt.Fprintf(w, "world:    cwd %s, home %s, project %s\n", in.World.Cwd, in.World.Home, in.World.Project)
	pol := in.Policy
	if pol == nil {
		pol = Defaults()
	}
	fmt.Fprintf(w, "policy:   embedded defaults")
	for _, s := range pol.Sources {
		fmt.Fprintf(w, " + %s", s)
	}
	fmt.Fprintln(w)
	if v.Analysis != nil {
		fmt.Fprintf(w, "commands: %d\n", len(v.Analysis.Cmds))
		for i, c := range v.Analysis.Cmds {
			fmt.Fprintf(w, "  %d. %s\n", i+1, display(c))
			var extra []string
			if c.Dir != in.World.Cwd {
				extra = append(extra, "in "+c.Dir)
			}
			if len(c.Runs) > 0 {
				var rs []string
				for _, r := range c.Runs {
					rs = append(rs, r.Name)
				}
				extra = append(extra, "runs the output of "+strings.Join(rs, ", "))
			}
			if c.Stdin != nil && c.Stdin.Known && strings.TrimSpace(c.Stdin.Text) != "" {
				extra = append(extra, fmt.Sprintf("stdin %q", clip(c.Stdin.Text, 60)))
			}
			for _, t := range c.Writes(in.World.Home) {
				extra = append(extra, "writes "+t.Path+" ("+t.How+")")
			}
			if c.Remote {
				extra = append(extra, "remote")
			}
			if len(extra) > 0 {
				fmt.Fprintf(w, "     %s\n", strings.Join(extra, "; "))
			}
		}
		for _, n := range v.Analysis.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	if len(v.Findings) == 0 {
		fmt.Fprintf(w, "findings: none\n")
	} else {
		fmt.Fprintf(w, "findings: %d\n", len(v.Findings))
	}
	for _, f := range v.Findings {
		on := ""
		if f.Cmd != nil {
			on = " on `" + display(f.Cmd) + "`"
		}
		fmt.Fprintf(w, "  %-5s %s (%s, blast radius %s)%s\n        %s\n", f.Action, f.Rule, f.Pack, f.Radius, on, f.Why)
		if f.Instead != "" {
			fmt.Fprintf(w, "        instead: %s\n", f.Instead)
		}
	}
	fmt.Fprintf(w, "decision: %s\n", v.Action)
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return pre + strings.Join(lines, "\n"+pre) + "\n"
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "..."
	}
	return s
}
