// What a command prints when its words alone tell: pwd, mktemp, echo, printf, awk, python.

package shell

import (
	"path"
	"strings"
)

// mktemp is the path mktemp prints, its random part left as the template's X's: in $TMPDIR
// (else /tmp) by default, with -t, -p DIR or --tmpdir[=DIR]; a template of its own is relative
// to the directory mktemp runs in.
func (a *analyzer) mktemp(c *Cmd) (string, bool) {
	p := Opts{Short: "p", Long: []string{"suffix"}}.Parse(c.Args)
	tmp := "/tmp"
	if a.world.Env != nil {
		if t, ok := a.world.Env("TMPDIR"); ok && path.IsAbs(t) {
			tmp = path.Clean(t)
		}
	}
	dir, inTmp := tmp, p.Has("t")
	if d, ok := p.Value("p", "tmpdir"); ok && d != "" {
		dir, inTmp = a.resolve(d, c.Dir), true
	} else if p.Has("tmpdir") {
		inTmp = true
	}
	if len(p.Operands) > 1 || len(p.Operands) == 1 && strings.Contains(p.Operands[0], Dyn) {
		return "", false
	}
	if len(p.Operands) == 0 {
		return dir + "/tmp.XXXXXXXXXX", true
	}
	if t := p.Operands[0]; inTmp && !strings.Contains(t, "/") {
		return dir + "/" + t, true
	}
	return a.resolve(p.Operands[0], c.Dir), true
}

// literalOutput is what a command prints when that is knowable from its words and directory.
func (a *analyzer) literalOutput(c *Cmd) (string, bool) {
	if c.Dynamic() || len(c.Redirs) > 0 {
		return "", false
	}
	switch c.Name {
	case "pwd":
		return c.Dir, !strings.Contains(c.Dir, Dyn)
	case "mktemp":
		return a.mktemp(c)
	case "git":
		if len(c.Args) == 2 && c.Args[0] == "rev-parse" && c.Args[1] == "--show-toplevel" && a.world.Project != "" &&
			(c.Dir == a.world.Project || strings.HasPrefix(c.Dir, a.world.Project+"/")) {
			return a.world.Project, true
		}
	case "dirname":
		if len(c.Args) == 1 && !strings.Contains(c.Args[0], Dyn) {
			return path.Dir(c.Args[0]), true
		}
	case "echo":
		args := c.Args
		for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-E") {
			args = args[1:]
		}
		return strings.Join(args, " "), true
	case "printf":
		if len(c.Args) > 0 && c.Args[0] != "-v" {
			return printf(c.Args[0], c.Args[1:])
		}
	case "awk", "gawk", "mawk", "nawk":
		p := Opts{Short: "Fvf", Long: []string{"field-separator", "assign", "file"}}.Parse(c.Args)
		if len(p.Operands) == 1 && !p.Has("f", "file") {
			return a.awkBeginOutput(p.Operands[0], c.Dir)
		}
	case "python", "python3":
		// python3 -c 'print("...")': the text it prints
		if c.Code != "" && c.Stdin == nil {
			return a.printedBy(c.Code, c.Dir, []string{"print("}, ")")
		}
	case "realpath", "grealpath", "readlink", "greadlink":
		// realpath X, readlink -f X: the absolute path, through the links the line made
		p := Opts{Long: []string{"relative-to", "relative-base"}}.Parse(c.Args)
		canon := p.Has("f", "e", "m", "canonicalize", "canonicalize-existing", "canonicalize-missing") || !strings.Contains(c.Name, "readlink")
		if canon && !p.Has("relative-to", "relative-base", "z", "zero") && len(p.Operands) == 1 && !strings.Contains(p.Operands[0], Dyn) {
			return a.resolve(p.Operands[0], c.Dir), true // already through the line's links (record)
		}
	case "node", "bun", "deno":
		// node -p 'require("os").homedir()': the value of the expression it prints
		if expr, ok := printFlag(c.Args); ok {
			return pathValue(expr, a.world.Home, c.Dir)
		}
		if c.Code != "" && c.Stdin == nil {
			return a.printedBy(c.Code, c.Dir, []string{"console.log("}, ")")
		}
	case "which", "type":
		if len(c.Args) == 1 {
			return "/usr/bin/" + c.Args[0], true
		}
	case "command":
		if len(c.Args) == 2 && (c.Args[0] == "-v" || c.Args[0] == "-V") {
			return "/usr/bin/" + c.Args[1], true
		}
	}
	return "", false
}

// printFlag is the expression of node -p EXPR (--print).
func printFlag(args []string) (string, bool) {
	for i, w := range args {
		if (w == "-p" || w == "--print") && i+1 < len(args) {
			return args[i+1], true
		}
		if v, ok := strings.CutPrefix(w, "--print="); ok {
			return v, true
		}
	}
	return "", false
}

// awkBeginOutput is what an awk program made only of BEGIN { print "..." } prints.
func (a *analyzer) awkBeginOutput(prog, dir string) (string, bool) {
	body, ok := strings.CutPrefix(strings.TrimSpace(prog), "BEGIN")
	body = strings.TrimSpace(body)
	if !ok || !strings.HasPrefix(body, "{") || !strings.HasSuffix(body, "}") {
		return "", false
	}
	return a.printedBy(body[1:len(body)-1], dir, []string{"printf ", "printf(", "print ", "print("}, "")
}

// printedBy is what a program made only of print statements prints: each statement's string
// expression (literals, juxtaposed or joined, and the home directory) evaluated; exit ends it.
func (a *analyzer) printedBy(code, dir string, prints []string, closing string) (string, bool) {
	var out []string
	start := 0
	var stmts []string
	outsideQuotes(code, func(i, depth int) bool {
		if depth == 0 && (code[i] == ';' || code[i] == '\n') {
			stmts = append(stmts, code[start:i])
			start = i + 1
		}
		return true
	})
	stmts = append(stmts, code[start:])
	for _, st := range stmts {
		st = strings.TrimSpace(st)
		if st == "" {
			continue
		}
		if st == "exit" || strings.HasPrefix(st, "exit ") || strings.HasPrefix(st, "import ") {
			continue
		}
		arg, ok := "", false
		for _, p := range prints {
			if arg, ok = strings.CutPrefix(st, p); ok {
				if strings.HasSuffix(p, "(") {
					arg = strings.TrimSuffix(strings.TrimSpace(arg), ")")
				}
				break
			}
		}
		if !ok {
			return "", false
		}
		v, known := "", false
		if strings.HasPrefix(st, "printf") {
			v, known = formatted(arg, a.world.Home, dir, 0) // printf "rm -rf %s\n", ENVIRON["HOME"]
			if !known && len(splitArgs(arg)) > 1 {
				return "", false // values it cannot put in: the format alone is not what it prints
			}
		}
		if !known {
			v, known = pathValue(arg+closing, a.world.Home, dir)
		}
		if !known {
			return "", false
		}
		out = append(out, strings.TrimSuffix(v, "\n"))
	}
	if len(out) == 0 {
		return "", false
	}
	return strings.Join(out, "\n"), true
}
