// Command and process substitutions: the commands inside, and the stand-ins for their output.

package shell

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// cmdSubst analyses the substituted commands and returns their output when it is literal
// (echo, printf, which, command -v), so that $(echo r)m is still rm; else a stand-in.
func (a *analyzer) cmdSubst(cs *syntax.CmdSubst, st *state) string {
	before := len(a.cmds)
	a.stmts(cs.Stmts, st.child(), nil)
	made := a.cmds[before:len(a.cmds):len(a.cmds)]
	// $(cd ..; pwd): commands that print nothing (cd), then one whose output is known.
	silent := len(made) > 0
	for _, c := range made[:max(len(made)-1, 0)] {
		silent = silent && c.Name == "cd" && !slices.Contains(c.Args, "-") && len(c.Redirs) == 0
	}
	if silent {
		if out, ok := a.literalOutput(made[len(made)-1]); ok {
			return out
		}
	}
	// $(ls -A | grep -v .git): a listing of the current directory, as the glob it amounts to.
	if items := a.listing(made); len(items) == 1 && !slices.ContainsFunc(made, func(c *Cmd) bool { return c.Name == "cd" || c.Name == "pushd" }) {
		return items[0]
	}
	a.substs = append(a.substs, made)
	return substMark + strconv.Itoa(len(a.substs)-1) + Dyn
}

// procSubst analyses the substituted commands and returns a stand-in path that remembers them.
func (a *analyzer) procSubst(ps *syntax.ProcSubst, st *state) string {
	before := len(a.cmds)
	a.stmts(ps.Stmts, st.child(), nil)
	a.substs = append(a.substs, a.cmds[before:len(a.cmds):len(a.cmds)])
	mark := procMark + strconv.Itoa(len(a.substs)-1) + Dyn
	if made := a.cmds[before:]; len(made) == 1 && len(a.written) <= 16 {
		// just --justfile <(printf 'x:\n\trm -rf ~'): a file whose text the line gives
		if text, ok := printed(made[0]); ok {
			if a.written == nil {
				a.written = map[string]string{}
			}
			a.written[mark] = text
		}
	}
	return mark
}

// isProc reports an argument that is exactly a process substitution's stand-in path.
func isProc(arg string) bool {
	return strings.HasPrefix(arg, procMark) && strings.Count(arg, Dyn) == 2 && strings.HasSuffix(arg, Dyn)
}

// scriptLabel names a script file in Via: its path, or <(...) for a process substitution.
func scriptLabel(arg string) string {
	if isProc(arg) {
		return "<(...)"
	}
	return arg
}

// procCmds returns the commands behind an argument that is exactly a process substitution.
func (a *analyzer) procCmds(arg string) ([]*Cmd, bool) {
	if !isProc(arg) {
		return nil, false
	}
	return a.marked(arg), true
}

// marked returns the commands whose output the substitution stand-ins in s stand for.
func (a *analyzer) marked(s string) []*Cmd {
	var out []*Cmd
	for {
		i := strings.Index(s, Dyn)
		if i < 0 || i+1 >= len(s) {
			return out
		}
		s = s[i+1:]
		kind, body, rest, ok := markAt(s)
		if !ok {
			continue
		}
		s = rest
		if kind == 'V' || kind == 'G' {
			continue
		}
		if n, err := strconv.Atoi(body); err == nil && n >= 0 && n < len(a.substs) {
			out = append(out, a.substs[n]...)
		}
	}
}
