// npm, pnpm, yarn and bun scripts: set in the line, then run by name.

package shell

import "strings"

// npmScripts remembers scripts set in the line (npm pkg set scripts.x='...') and analyses one
// when it is run (npm run x, yarn x, pnpm run x, bun run x).
func (a *analyzer) npmScripts(c *Cmd, st *state) {
	args := c.Args
	if len(args) > 2 && args[0] == "pkg" && args[1] == "set" {
		for _, kv := range args[2:] {
			if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "scripts.") {
				if a.scripts == nil {
					a.scripts = map[string]string{}
				}
				a.scripts[strings.TrimPrefix(k, "scripts.")] = v
			}
		}
		return
	}
	if len(args) > 2 && args[0] == "set-script" {
		// npm set-script NAME TEXT (npm 7 and 8): the same as pkg set scripts.NAME=TEXT
		if a.scripts == nil {
			a.scripts = map[string]string{}
		}
		a.scripts[args[1]] = args[2]
		return
	}
	name := args[0]
	if (name == "run" || name == "run-script") && len(args) > 1 {
		name = args[1]
	}
	// npm runs preNAME and postNAME around NAME, and an install runs the install lifecycle.
	names := []string{"pre" + name, name, "post" + name}
	if name == "install" || name == "i" || name == "ci" || name == "add" {
		names = []string{"preinstall", "install", "postinstall", "prepare"}
	}
	for _, n := range names {
		if text, ok := a.scripts[n]; ok {
			a.nested(text, c.Name+" run "+n, st, nil, c)
		}
	}
}

// jqScripts records package scripts a jq filter sets (.scripts.NAME = "TEXT", also
// .scripts["NAME"]), for a package.json written back in the same line: npm and yarn then run
// TEXT by that name.
func (a *analyzer) jqScripts(c *Cmd) {
	for _, f := range c.Args {
		for _, part := range strings.Split(f, "|") {
			lhs, rhs, ok := strings.Cut(part, "=")
			if !ok || strings.HasPrefix(rhs, "=") {
				continue
			}
			lhs = strings.TrimSpace(lhs)
			name, isScript := strings.CutPrefix(lhs, ".scripts.")
			if !isScript {
				if n, ok := strings.CutPrefix(lhs, `.scripts["`); ok {
					name, isScript = strings.TrimSuffix(n, `"]`), true
				}
			}
			text, lit := stringLiteral(strings.TrimSpace(rhs))
			if !isScript || !lit || name == "" {
				continue
			}
			if a.scripts == nil {
				a.scripts = map[string]string{}
			}
			a.scripts[name] = text
		}
	}
}
