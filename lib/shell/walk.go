package shell

import (
	"encoding/base64"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// stmts analyses a list run in order; in feeds the first statement only when it is a pipeline
// start (a here-document of an enclosing shell, say).
func (a *analyzer) stmts(list []*syntax.Stmt, st *state, in *Input) {
	for _, s := range list {
		a.stmt(s, st, in)
	}
}

func (a *analyzer) stmt(s *syntax.Stmt, st *state, in *Input) {
	if a.err != nil {
		return
	}
	if len(a.cmds) >= a.limits.MaxCmds {
		a.fail(&LimitError{"the command runs more simple commands than the analysis allows"})
		return
	}
	redirs, rin := a.redirects(s.Redirs, st)
	if rin != nil {
		in = rin
	}
	if s.Background {
		// A background statement does not change the shell's directory or variables.
		st = st.child()
	}
	a.command(s, s.Cmd, st, in, redirs)
}

func (a *analyzer) command(s *syntax.Stmt, c syntax.Command, st *state, in *Input, redirs []Redir) {
	switch c.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, nil:
	default:
		// A compound command's redirections (while ...; done < f, { ...; } > f, (...) < f)
		// open their files once for the whole body: a command of their own, so their reads
		// and writes count.
		if len(redirs) > 0 {
			a.cmds = append(a.cmds, &Cmd{Name: ":", Prog: ":", Dir: st.cwd, Stdin: in, Redirs: redirs, Text: a.text(s), Via: with(a.via), Remote: a.inRemote > 0})
		}
	}
	switch c := c.(type) {
	case *syntax.CallExpr:
		a.call(s, c, st, in, redirs)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			a.pipe(c, st, in)
		default: // && and ||: one after the other, sharing state
			a.stmt(c.X, st, in)
			a.stmt(c.Y, st, nil)
		}
	case *syntax.Subshell:
		a.stmts(c.Stmts, st.child(), in)
	case *syntax.Block:
		a.stmts(c.Stmts, st, in)
	case *syntax.IfClause:
		for cl := c; cl != nil; cl = cl.Else {
			a.stmts(cl.Cond, st, nil)
			a.stmts(cl.Then, st.child(), nil)
		}
	case *syntax.WhileClause:
		// cmd | while read x; do ...; done: the loop reads what is piped in; known lines
		// (printf 'a\n/etc\n' | while read d) are read one a turn.
		if lines := inputLines(in); len(lines) > 1 {
			for _, l := range lines {
				a.stmts(c.Cond, st, &Input{Text: l + "\n", Known: true, From: in.From})
				a.stmts(c.Do, st, in)
			}
			break
		}
		a.stmts(c.Cond, st, in)
		a.stmts(c.Do, st, in)
	case *syntax.ForClause:
		a.forClause(c, st)
	case *syntax.CaseClause:
		a.literal(c.Word, st)
		for _, item := range c.Items {
			a.stmts(item.Stmts, st.child(), nil)
		}
	case *syntax.FuncDecl:
		a.funcDecl(c, st)
	case *syntax.DeclClause:
		a.decl(s, c, st, in, redirs)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			a.stmt(c.Stmt, st, in)
		}
	case *syntax.CoprocClause:
		if c.Stmt != nil {
			a.stmt(c.Stmt, st.child(), in)
		}
	case *syntax.LetClause:
		for _, e := range c.Exprs {
			a.arithm(e, st)
		}
	case *syntax.ArithmCmd:
		a.arithm(c.X, st)
	case *syntax.TestClause:
		a.walkWords(c, st)
	case nil:
		// Redirections alone (> file) still open, truncate or create their targets.
		if len(redirs) > 0 {
			a.cmds = append(a.cmds, &Cmd{Name: ":", Prog: ":", Dir: st.cwd, Stdin: in, Redirs: redirs, Text: a.text(s), Via: with(a.via), Remote: a.inRemote > 0})
		}
	default:
		a.walkWords(c, st)
	}
}

// pipe analyses a pipeline: each side in its own subshell; the right side reads the left's output.
func (a *analyzer) pipe(c *syntax.BinaryCmd, st *state, in *Input) {
	before := len(a.cmds)
	a.stmt(c.X, st.child(), in)
	left := a.cmds[before:len(a.cmds):len(a.cmds)]
	pipeIn := &Input{From: left}
	if len(left) > 0 {
		pipeIn.Text, pipeIn.Known = a.output(left[len(left)-1])
	}
	a.stmt(c.Y, st.child(), pipeIn)
}

// output is what the last command of a pipeline writes, when that is known: literal text,
// text passed through cat or tee, or base64 decoded.
func (a *analyzer) output(c *Cmd) (string, bool) {
	if out, ok := a.literalOutput(c); ok {
		return out + "\n", true
	}
	if c.Stdin == nil || !c.Stdin.Known {
		return "", false
	}
	switch {
	case passesThrough(c):
		return c.Stdin.Text, true
	case c.Name == "base64" && (Opts{}).Parse(c.Args).Has("d", "decode", "D"):
		if dec, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(c.Stdin.Text), "")); err == nil {
			return string(dec), true
		}
	}
	return "", false
}

// passesThrough reports whether a command copies its stdin to stdout unchanged (cat, tee).
func passesThrough(c *Cmd) bool {
	return (c.Name == "cat" || c.Name == "tee") && len(c.Args) == 0 || c.Name == "cat" && len(c.Args) == 1 && c.Args[0] == "-"
}

func (a *analyzer) forClause(c *syntax.ForClause, st *state) {
	wi, ok := c.Loop.(*syntax.WordIter)
	if !ok {
		a.walkWords(c.Loop, st)
		a.stmts(c.Do, st, nil)
		return
	}
	var items []string
	for _, w := range wi.Items {
		items = append(items, a.fields(w, st)...)
	}
	if all, known := st.vars["@[@]"]; !wi.InPos.IsValid() && known {
		items = strings.Split(all, arraySep) // for x; do: the positional parameters
	}
	if len(items) == 0 || len(items) > 16 {
		items = []string{Dyn}
	}
	// The body runs once per item; analyse it once per item (bounded) with the variable set.
	for _, it := range items {
		body := st.child()
		body.vars[wi.Name.Value] = it
		a.stmts(c.Do, body, nil)
	}
}

func (a *analyzer) funcDecl(f *syntax.FuncDecl, st *state) {
	name := ""
	switch {
	case f.Name != nil:
		name = f.Name.Value
	case len(f.Names) > 0:
		name = f.Names[0].Value
	}
	if f.Body == nil {
		return
	}
	a.funcs[name] = f.Body
	if selfSpawning(f.Body, name) {
		a.res.ForkBombs = append(a.res.ForkBombs, name)
	}
	// The body runs whenever the function is called: analyse it as if it runs.
	a.via = append(a.via, "function "+name)
	a.defining++ // calls inside run when it is called, and are followed there
	a.stmt(f.Body, st.child(), nil)
	a.defining--
	a.via = a.via[:len(a.via)-1]
}

// selfSpawning finds a call of the function to itself in a pipeline or in the background.
func selfSpawning(body *syntax.Stmt, name string) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && calls(n, name) {
				found = true
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && (calls(n.X, name) || calls(n.Y, name)) {
				found = true
			}
		}
		return !found
	})
	return found
}

func calls(s *syntax.Stmt, name string) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && c.Args[0].Lit() == name {
			found = true
		}
		return !found
	})
	return found
}

// decl records export, declare, local, readonly and typeset as commands, so rules see them,
// and applies their assignments.
func (a *analyzer) decl(s *syntax.Stmt, d *syntax.DeclClause, st *state, in *Input, redirs []Redir) {
	words := []string{d.Variant.Value}
	if v := d.Variant.Value; v == "local" || v == "declare" || v == "typeset" {
		// Inside a function call: the caller's value comes back when it returns.
		for _, as := range d.Args {
			if as.Name != nil {
				a.saveLocal(as.Name.Value, st)
			}
		}
	}
	nameref, assoc := false, false
	for _, as := range d.Args {
		switch {
		case as.Name == nil && as.Value != nil:
			flags := a.fields(as.Value, st)
			for _, f := range flags {
				if strings.HasPrefix(f, "-") {
					nameref = nameref || strings.Contains(f, "n")
					assoc = assoc || strings.Contains(f, "A")
				}
			}
			words = append(words, flags...)
		case as.Name == nil:
		case as.Naked:
			words = append(words, as.Name.Value)
		default:
			v := ""
			if as.Value != nil {
				v = a.literal(as.Value, st)
			}
			words = append(words, as.Name.Value+"="+v)
			switch {
			case nameref && as.Index == nil && as.Array == nil:
				st.vars[refMark+as.Name.Value] = v // declare -n r=PWD: r is PWD
			case as.Index == nil && as.Array == nil:
				st.vars[as.Name.Value] = v
			}
		}
		if as.Array != nil {
			if !assoc && as.Name != nil {
				a.arrayAssign(as, st) // declare -a a=(...), local -a a=(...): an indexed array
				continue
			}
			a.walkWords(as.Array, st)
			if assoc && as.Name != nil {
				// declare -A m=([k]=v ...): each element by its key
				for _, e := range as.Array.Elems {
					if k, ok := e.Index.(*syntax.Word); ok && e.Value != nil {
						st.vars[as.Name.Value+"["+k.Lit()+"]"] = a.literal(e.Value, st)
					}
				}
			}
		}
	}
	a.cmds = append(a.cmds, &Cmd{Name: d.Variant.Value, Prog: d.Variant.Value, Args: words[1:], Dir: st.cwd, Stdin: in, Redirs: redirs,
		Text: a.text(s), Via: with(a.via), Remote: a.inRemote > 0})
}

func (a *analyzer) assign(as *syntax.Assign, st *state) {
	if as.Array != nil {
		a.arrayAssign(as, st)
		return
	}
	if as.Name != nil {
		elems, ok := st.vars[as.Name.Value+"[@]"]
		if _, scalar := st.vars[as.Name.Value]; !ok && !scalar && as.Index != nil {
			ok = true // a[0]=git on a name the line has not used: a new array
		}
		if ok {
			// a[N]=x, or a=x (element 0), changes a known array; anything else forgets it.
			list := strings.Split(elems, arraySep)
			if elems == "" {
				list = nil
			}
			n := 0
			if as.Index != nil {
				w, isWord := as.Index.(*syntax.Word)
				if i, err := strconv.Atoi(a.literal(w, st)); isWord && err == nil && i >= 0 && i < len(list)+1 {
					n = i
				} else {
					n = -1
				}
			}
			if n >= 0 && !as.Append && as.Value != nil {
				if n == len(list) {
					list = append(list, "")
				}
				list[n] = a.literal(as.Value, st)
				a.setArray(st, as.Name.Value, list, true)
			} else {
				delete(st.vars, as.Name.Value+"[@]")
			}
		}
	}
	if as.Name == nil {
		if as.Value != nil {
			a.literal(as.Value, st)
		}
		return
	}
	if as.Naked || as.Index != nil {
		return
	}
	v := ""
	if as.Value != nil {
		v = a.literal(as.Value, st)
	}
	if as.Append {
		v = st.vars[as.Name.Value] + v
	}
	if len(v) > 64<<10 {
		v = Dyn // x="$x$x" doubling: past this it is not followed
	}
	st.vars[as.Name.Value] = v
}

// arrayAssign records name=(...) and name+=(...): an indexed array's elements, for
// "${name[@]}" and ${name[N]}.
func (a *analyzer) arrayAssign(as *syntax.Assign, st *state) {
	a.walkWords(as.Array, st)
	var elems []string
	if old, ok := st.vars[as.Name.Value+"[@]"]; ok && as.Append && old != "" {
		elems = strings.Split(old, arraySep)
	}
	_, had := st.vars[as.Name.Value+"[@]"]
	known := !as.Append || had
	for _, e := range as.Array.Elems {
		if e.Index != nil || e.Value == nil {
			known = false
			break
		}
		elems = append(elems, a.fields(e.Value, st)...)
	}
	a.setArray(st, as.Name.Value, elems, known)
}

// setArray records an array's elements, or forgets it when they are not all known (or one
// holds the separator).
func (a *analyzer) setArray(st *state, name string, elems []string, known bool) {
	size := 0
	for _, e := range elems {
		known = known && !strings.Contains(e, arraySep)
		size += len(e)
	}
	if len(elems) > 256 || size > 64<<10 {
		known = false // a+=("${a[@]}") doubling: past this it is not followed
	}
	if known {
		st.vars[name+"[@]"] = strings.Join(elems, arraySep)
	} else {
		delete(st.vars, name+"[@]")
	}
}

// walkWords analyses every substitution inside a node that is otherwise not a command
// (arithmetic, [[ tests ]], array literals): their commands run.
func (a *analyzer) walkWords(n syntax.Node, st *state) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			a.cmdSubst(n, st)
			return false
		case *syntax.ProcSubst:
			a.procSubst(n, st)
			return false
		}
		return true
	})
}

func (a *analyzer) arithm(e syntax.ArithmExpr, st *state) {
	if e != nil {
		a.walkWords(e, st)
	}
}

// redirects expands a statement's redirections; an input redirection becomes its stdin.
func (a *analyzer) redirects(rs []*syntax.Redirect, st *state) ([]Redir, *Input) {
	var out []Redir
	var in *Input
	for _, r := range rs {
		red := Redir{Op: r.Op.String()}
		if r.N != nil {
			red.Fd = r.N.Value
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			body := ""
			if r.Hdoc != nil {
				body = a.literal(r.Hdoc, st) // an unquoted body's substitutions run here
			}
			in = &Input{Text: body, Known: !strings.Contains(body, Dyn) || quotedHdoc(r)}
			if quotedHdoc(r) && r.Hdoc != nil {
				in.Text = hdocText(r.Hdoc)
			}
		case syntax.WordHdoc:
			text := a.literal(r.Word, st)
			in = &Input{Text: text + "\n", Known: !strings.Contains(text, Dyn)}
		default:
			target := a.literal(r.Word, st)
			if procs, ok := a.procCmds(target); ok {
				if r.Op == syntax.RdrIn {
					in = &Input{From: procs} // sh < <(printf ...): what it prints, when known
					if len(procs) > 0 {
						in.Text, in.Known = a.output(procs[len(procs)-1])
					}
				}
				red.Target = target
			} else if r.Op == syntax.DplIn || r.Op == syntax.DplOut {
				red.Target = target
				if !isFd(target) {
					red.Target = a.resolve(target, st.cwd)
				}
			} else {
				red.Target = a.resolve(target, st.cwd)
				if t, ok := a.linkPath(target, st.cwd, true); ok {
					red.Target = t // echo x >> rc after ln -s ~/.bashrc rc: the file it points at
				}
				if r.Op == syntax.RdrIn {
					in = &Input{File: red.Target}
					if text, ok := a.written[red.Target]; ok {
						in.Text, in.Known = text, true // a file the line wrote: its text is the input
					}
				}
			}
		}
		out = append(out, red)
	}
	return out, in
}

// inputLines are the lines of a known input, when there are few enough to follow one by one.
func inputLines(in *Input) []string {
	if in == nil || !in.Known || strings.Count(in.Text, "\n") > 32 {
		return nil
	}
	return strings.Split(strings.TrimRight(in.Text, "\n"), "\n")
}

func quotedHdoc(r *syntax.Redirect) bool {
	if r.Word == nil {
		return false
	}
	for _, p := range r.Word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		}
	}
	return false
}

func hdocText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
	}
	return b.String()
}

// call handles a simple command: assignments, then the command with its wrappers unwrapped.
func (a *analyzer) call(s *syntax.Stmt, c *syntax.CallExpr, st *state, in *Input, redirs []Redir) {
	var env []string
	if len(c.Args) == 0 {
		for _, as := range c.Assigns {
			a.assign(as, st)
		}
		return
	}
	for _, as := range c.Assigns {
		v := ""
		if as.Value != nil {
			v = a.literal(as.Value, st)
		}
		if as.Name != nil {
			env = append(env, as.Name.Value+"="+v)
		}
	}
	var words []string
	for _, w := range c.Args {
		words = append(words, a.fields(w, st)...)
	}
	if len(words) == 0 {
		return
	}
	cmd := &Cmd{Dir: st.cwd, Env: env, Stdin: in, Redirs: redirs, Text: a.text(s)}
	a.simple(cmd, words, st)
}

// text returns the source of a statement in the script being analysed.
func (a *analyzer) text(s *syntax.Stmt) string {
	if len(a.src) == 0 || s == nil {
		return ""
	}
	src := a.src[len(a.src)-1]
	from, to := int(s.Pos().Offset()), int(s.End().Offset())
	if from < 0 || to > len(src) || from > to {
		return ""
	}
	return src[from:to]
}
