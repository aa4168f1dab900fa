// Word expansion: a word to the fields the shell makes of it (tilde, quotes, braces, splitting).

package shell

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// fields expands a word as the shell would, to the fields it becomes: quotes removed, escapes
// decoded, known variables substituted, braces expanded. Substitutions inside run as commands
// and are analysed on the way. Unquoted expansions split; a glob stays a pattern, but for one
// right under the root or home, which also gives the folders it matches there (knownMatches).
func (a *analyzer) fields(w *syntax.Word, st *state) []string {
	fs := a.fieldsOf(w, st)
	split, glob := false, false
	lit := w != nil && len(w.Parts) > 0 // only an unquoted pattern is globbed: '/e*' is a name
	for i := 0; lit && i < len(w.Parts); i++ {
		_, lit = w.Parts[i].(*syntax.Lit)
	}
	for _, f := range fs {
		split = split || strings.Contains(f, splitMark)
		glob = glob || lit && strings.ContainsAny(f, "*?[")
	}
	if !split && !glob {
		return fs // the common case: nothing to split, nothing to copy
	}
	var res []string
	for _, f := range fs {
		for _, g := range splitFields(f) {
			if glob {
				res = append(res, a.knownMatches(g)...)
			} else {
				res = append(res, g)
			}
		}
	}
	return res
}

// rootDirs are the directories every system has at its root (Linux's and macOS's), homeDirs
// the credential and settings folders of a home. A pattern there (/e[t]c, /b*, ~/.ss?) is not
// a path of its own but the paths it matches; the analysis reads no disk, so these stand for
// what is really there.
var (
	rootDirs = []string{"bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "nix", "opt", "proc",
		"root", "run", "sbin", "snap", "srv", "sys", "tmp", "usr", "var", "Applications", "Library", "System", "Users", "Volumes", "private"}
	homeDirs = []string{".ssh", ".gnupg", ".aws", ".azure", ".config", ".kube", ".docker", ".claude", ".local", "Documents", "Desktop", "Library"}
)

// knownMatches expands a pattern in the component after the root or the home directory
// against rootDirs or homeDirs, as bash's globbing would. The pattern stays first: it may
// match more than the list holds (/b* and a /backup of this machine), and rules that read a
// pattern as a whole (/* is everything in /) still see it.
func (a *analyzer) knownMatches(f string) []string {
	base, names := "", rootDirs
	if h := a.world.Home; len(h) > 1 && strings.HasPrefix(f, h+"/") {
		base, names = h, homeDirs
	}
	if len(f) < len(base)+2 || f[len(base)] != '/' {
		return []string{f}
	}
	first, rest, slash := strings.Cut(f[len(base)+1:], "/")
	if !strings.ContainsAny(first, "*?[") || strings.Contains(first, Dyn) {
		return []string{f}
	}
	out := []string{f}
	for _, d := range names {
		if ok, _ := path.Match(first, d); ok {
			if slash {
				d += "/" + rest
			}
			out = append(out, base+"/"+d)
		}
	}
	return out
}

// fieldsOf is fields with the split marks left in.
func (a *analyzer) fieldsOf(w *syntax.Word, st *state) []string {
	if w == nil {
		return nil
	}
	if len(w.Parts) == 0 {
		return []string{""} // an empty brace element: {,x}
	}
	if elems, ok := a.arrayFields(w, st); ok {
		return elems
	}
	if hasBraces(w) {
		w = cloneWord(w)
		syntax.SplitBraces(w)
	}
	outs := fieldSet{new(strings.Builder)}
	parts := w.Parts
	// An unquoted ~ or ~/ at the start of a word is the home directory; ~user is that user's.
	home := a.world.Home
	if v, ok := st.vars["HOME"]; ok && strings.HasPrefix(v, "/") && !strings.Contains(v, Dyn) {
		home = v // HOME=/x; rm -rf ~: the tilde is the new HOME
	}
	if l, ok := parts[0].(*syntax.Lit); ok && home != "" && (l.Value == "~" || strings.HasPrefix(l.Value, "~/")) {
		outs[0].WriteString(home)
		parts = append([]syntax.WordPart{&syntax.Lit{Value: strings.TrimPrefix(l.Value, "~")}}, parts[1:]...)
	} else if ok && strings.HasPrefix(l.Value, "~") {
		user, rest, _ := strings.Cut(l.Value[1:], "/")
		if dir, isDir := a.tildeDir(user, st); isDir {
			// ~+ is $PWD, ~- is $OLDPWD, ~N, ~+N and ~-N the directory stack's entries
			outs[0].WriteString(dir)
			if strings.Contains(l.Value, "/") {
				rest = "/" + rest
			}
			parts = append([]syntax.WordPart{&syntax.Lit{Value: rest}}, parts[1:]...)
		} else if home := userHome(user); home != "" {
			outs[0].WriteString(home)
			if rest != "" || strings.Contains(l.Value, "/") {
				rest = "/" + rest
			}
			parts = append([]syntax.WordPart{&syntax.Lit{Value: rest}}, parts[1:]...)
		}
	}
	for _, part := range parts {
		outs = a.appendPart(outs, part, st, false)
	}
	res := make([]string, len(outs))
	for i, b := range outs {
		res[i] = b.String()
	}
	return res
}

// splitMark goes before each IFS character of an unquoted expansion's value: the word splits
// there (rm -rf ~ held in $cmd is three words), while a word read as one string (an
// assignment's value) drops only the marks.
const splitMark = "\x02"

// splitFields splits a field at its split marks, dropping the IFS character after each and
// the empty fields whitespace leaves.
func splitFields(f string) []string {
	if !strings.Contains(f, splitMark) {
		return []string{f}
	}
	var out []string
	for {
		i := strings.Index(f, splitMark)
		if i < 0 || i+1 >= len(f) {
			break
		}
		sep := f[i+1]
		if head := strings.ReplaceAll(f[:i], splitMark, ""); head != "" || !isSpace(sep) {
			out = append(out, head)
		}
		f = f[i+2:]
	}
	if f = strings.ReplaceAll(f, splitMark, ""); f != "" {
		out = append(out, f)
	}
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// markSplits puts a split mark before each IFS character of an unquoted expansion's value.
func (a *analyzer) markSplits(v string, st *state) string {
	ifs := " \t\n"
	if x, ok := st.vars["IFS"]; ok && !strings.Contains(x, Dyn) {
		ifs = x
	}
	if ifs == "" || !strings.ContainsAny(v, ifs) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if strings.IndexByte(ifs, v[i]) >= 0 {
			b.WriteString(splitMark)
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// tildeDir is the directory a tilde prefix other than a user name stands for: ~+ the current
// directory, ~- the previous one, ~N (~+N) the Nth entry of the directory stack as dirs shows
// it and ~-N the Nth from its end. An entry the stack does not hold is no directory (bash
// leaves the word as it is).
func (a *analyzer) tildeDir(prefix string, st *state) (string, bool) {
	switch prefix {
	case "+":
		return st.cwd, true
	case "-":
		if v, ok := a.lookup("OLDPWD", st); ok && strings.HasPrefix(v, "/") {
			return v, true
		}
		return a.unknown("OLDPWD", st), true
	case "":
		return "", false
	}
	sign, digits := byte('+'), prefix
	if prefix[0] == '+' || prefix[0] == '-' {
		sign, digits = prefix[0], prefix[1:]
	}
	n, err := strconv.Atoi(digits)
	if err != nil || digits == "" || digits[0] < '0' || digits[0] > '9' || n > 64 {
		return "", false
	}
	// dirs: the current directory, then the pushed ones, most recent first
	stack := []string{st.cwd}
	if s := st.vars[dirStack]; s != "" {
		pushed := strings.Split(strings.TrimPrefix(s, arraySep), arraySep)
		for i := len(pushed) - 1; i >= 0; i-- {
			stack = append(stack, pushed[i])
		}
	}
	if sign == '-' {
		n = len(stack) - 1 - n
	}
	if n < 0 || n >= len(stack) {
		return "", false
	}
	return stack[n], true
}

// userHome is where ~user points: /root for root, else /home/user (the usual layout; the
// password database is not read, so the analysis stays the same on every machine). Anything
// that is not a plain user name stays unexpanded, as in bash.
func userHome(user string) string {
	if user == "" || user[0] >= '0' && user[0] <= '9' || user[0] == '-' || user[0] == '.' ||
		strings.Trim(user, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != "" {
		return ""
	}
	if user == "root" {
		return "/root"
	}
	return "/home/" + user
}

// fieldSet holds the fields a word is expanding to; builders keep long words linear.
type fieldSet []*strings.Builder

func (f fieldSet) add(s string) fieldSet {
	for _, b := range f {
		b.WriteString(s)
	}
	return f
}

// literal expands a word to one string (brace expansions joined by spaces), without field
// splitting, as an assignment's value is.
func (a *analyzer) literal(w *syntax.Word, st *state) string {
	fs := a.fieldsOf(w, st)
	if len(fs) == 1 && !strings.Contains(fs[0], splitMark) {
		return fs[0]
	}
	return strings.ReplaceAll(strings.Join(fs, " "), splitMark, "")
}

const maxBraceFields = 64

// hasBraces reports a word worth brace-expanding: one with a few braces. A word with more
// than maxBraces is no path or name anyone types, and stays literal.
func hasBraces(w *syntax.Word) bool {
	n := 0
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			n += strings.Count(l.Value, "{")
		}
	}
	return n > 0 && n <= maxBraces
}

const maxBraces = 16

// cloneWord copies a word's part list, so that SplitBraces does not change the parsed tree.
func cloneWord(w *syntax.Word) *syntax.Word {
	return &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
}

// appendPart appends the expansion of one part to every field so far.
func (a *analyzer) appendPart(outs fieldSet, part syntax.WordPart, st *state, quoted bool) fieldSet {
	add := outs.add
	switch p := part.(type) {
	case *syntax.Lit:
		if quoted {
			return add(unescapeDouble(p.Value))
		}
		return add(unescapeBare(p.Value))
	case *syntax.SglQuoted:
		if p.Dollar {
			return add(decodeANSI(p.Value))
		}
		return add(p.Value)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			outs = a.appendPart(outs, q, st, true)
		}
		return outs
	case *syntax.ParamExp:
		if v := a.param(p, st); !quoted {
			return add(a.markSplits(v, st))
		} else {
			return add(v)
		}
	case *syntax.CmdSubst:
		if v := a.cmdSubst(p, st); !quoted {
			return add(a.markSplits(v, st))
		} else {
			return add(v)
		}
	case *syntax.ArithmExp:
		a.arithm(p.X, st)
		return add(Dyn)
	case *syntax.ProcSubst:
		return add(a.procSubst(p, st))
	case *syntax.ExtGlob:
		return add(p.Op.String() + p.Pattern.Value + ")")
	case *syntax.BraceExp:
		return a.braces(outs, p, st)
	}
	return add(Dyn)
}

func (a *analyzer) braces(outs fieldSet, b *syntax.BraceExp, st *state) fieldSet {
	var alts []string
	if b.Sequence && len(b.Elems) >= 2 {
		from, to := a.literal(b.Elems[0], st), a.literal(b.Elems[1], st)
		alts = sequence(from, to)
	} else {
		for _, e := range b.Elems {
			alts = append(alts, a.fields(e, st)...)
		}
	}
	if len(alts) == 0 {
		return outs
	}
	if len(outs)*len(alts) > maxBraceFields {
		// Past the cap a word stops multiplying: later braces take their first alternative.
		return outs.add(alts[0])
	}
	var next fieldSet
	for _, o := range outs {
		for _, alt := range alts {
			nb := new(strings.Builder)
			nb.WriteString(o.String())
			nb.WriteString(alt)
			next = append(next, nb)
		}
	}
	return next
}

// sequence expands {1..3} and {a..c}; anything else stays unknown.
func sequence(from, to string) []string {
	if f, err1 := strconv.Atoi(from); err1 == nil {
		if t, err2 := strconv.Atoi(to); err2 == nil {
			var out []string
			step := 1
			if t < f {
				step = -1
			}
			for i := f; len(out) < maxBraceFields; i += step {
				out = append(out, strconv.Itoa(i))
				if i == t {
					break
				}
			}
			return out
		}
	}
	if len(from) == 1 && len(to) == 1 {
		var out []string
		for c := from[0]; ; c++ {
			out = append(out, string(c))
			if c == to[0] || c == 255 {
				break
			}
		}
		return out
	}
	return []string{Dyn}
}
