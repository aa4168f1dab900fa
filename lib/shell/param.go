// Parameter expansion: $name, ${name[i]}, ${!name} and the ${name:-x} family, with their patterns.

package shell

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arrayFields expands a word that is only "${name[@]}" (or ${name[*]}) of an array assigned in
// the command: one field per element.
func (a *analyzer) arrayFields(w *syntax.Word, st *state) ([]string, bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	part := w.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part = dq.Parts[0]
	}
	p, ok := part.(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Exp != nil || p.Length || p.Excl || p.Slice != nil || p.Repl != nil {
		return nil, false
	}
	if p.Index == nil && (p.Param.Value == "@" || p.Param.Value == "*") {
		// "$@" in a function called in the command: its arguments, one field each.
		if all, ok := st.vars["@[@]"]; ok {
			return strings.Split(all, arraySep), true
		}
		return nil, false
	}
	if p.Index == nil {
		return nil, false
	}
	all, ok := st.vars[p.Param.Value+"[@]"]
	if !ok {
		return nil, false
	}
	if idx, ok := p.Index.(*syntax.Word); ok && (idx.Lit() == "@" || idx.Lit() == "*") {
		if all == "" {
			return []string{}, true // an empty array: no word at all
		}
		return strings.Split(all, arraySep), true
	}
	return nil, false
}

// param expands $name, ${name} and the ${name:-default} family; anything fancier is unknown.
func (a *analyzer) param(p *syntax.ParamExp, st *state) string {
	if p.Param != nil && p.Index != nil && p.Exp == nil && !p.Excl && !p.Length && p.Slice == nil && p.Repl == nil {
		// ${name[N]} of an array assigned in the command.
		if all, ok := st.vars[p.Param.Value+"[@]"]; ok {
			if idx, ok := p.Index.(*syntax.Word); ok {
				elems := strings.Split(all, arraySep)
				if n, err := strconv.Atoi(idx.Lit()); err == nil && n >= 0 && n < len(elems) {
					return elems[n]
				}
			}
		}
	}
	if p.Param != nil && p.Index != nil && p.Exp == nil && !p.Excl && !p.Length && p.Slice == nil && p.Repl == nil {
		// ${name[key]} of an associative array assigned in the command.
		if idx, ok := p.Index.(*syntax.Word); ok {
			if v, ok := st.vars[p.Param.Value+"["+idx.Lit()+"]"]; ok {
				return v
			}
		}
	}
	if p.Param != nil && p.Excl && p.Names == 0 && p.Index == nil && !p.Length && p.Exp == nil && p.Slice == nil && p.Repl == nil {
		// ${!name}: the variable whose name name holds.
		if target, ok := a.lookup(p.Param.Value, st); ok && validName(target) {
			if v, ok := a.lookup(target, st); ok {
				return v
			}
			return a.unknown(target, st)
		}
	}
	if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Names != 0 {
		a.walkWords(p, st)
		return Dyn
	}
	val, ok := a.lookup(p.Param.Value, st)
	if p.Slice != nil && p.Repl == nil && p.Exp == nil && ok {
		// ${IFS:0:1}, ${v:2}: a known value sliced at literal offsets.
		if off, okOff := arithLit(p.Slice.Offset); okOff && off >= 0 && off <= len(val) {
			end := len(val)
			if p.Slice.Length != nil {
				n, okLen := arithLit(p.Slice.Length)
				if !okLen || n < 0 {
					return Dyn
				}
				end = min(len(val), off+n)
			}
			return val[off:end]
		}
	}
	if p.Repl != nil && p.Slice == nil && p.Exp == nil && ok {
		// ${f// /_}: a literal pattern replaced in a known value
		orig, with := a.literal(p.Repl.Orig, st), ""
		if p.Repl.With != nil {
			with = a.literal(p.Repl.With, st)
		}
		if orig != "" && !strings.ContainsAny(orig, "*?[#%") && !strings.Contains(orig+with, Dyn) {
			if p.Repl.All {
				return strings.ReplaceAll(val, orig, with)
			}
			return strings.Replace(val, orig, with, 1)
		}
	}
	if p.Slice != nil || p.Repl != nil {
		// ${TOKEN:0:60}, ${TOKEN//x/y}: part of the value, or the value changed, is still
		// whatever the variable holds; unknown, it keeps the variable's name.
		a.walkWords(p, st)
		if ok {
			return Dyn
		}
		return a.unknown(p.Param.Value, st)
	}
	if p.Exp == nil {
		if !ok {
			return a.unknown(p.Param.Value, st)
		}
		return val
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if !ok || (val == "" && (p.Exp.Op == syntax.DefaultUnsetOrNull || p.Exp.Op == syntax.AssignUnsetOrNull)) {
			return a.literal(p.Exp.Word, st)
		}
		return val
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		if !ok {
			v := a.unknown(p.Param.Value, st)
			if p.Exp.Op == syntax.ErrorUnsetOrNull && validName(p.Param.Value) && (v == Dyn || strings.HasPrefix(v, varMark)) {
				// ${d:?}: bash stops there when d is empty, so it is never "".
				v = guardMark + p.Param.Value + Dyn
			}
			return v
		}
		return val
	case syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.RemSmallPrefix, syntax.RemLargePrefix:
		// ${PWD%/*}, ${f##*/}: trim a pattern from a known value.
		if !ok {
			break
		}
		pat := a.literal(p.Exp.Word, st)
		if strings.Contains(pat, Dyn) || strings.ContainsAny(pat, "[") || strings.ContainsAny(val, "*?[") || len(val) > 4096 || len(pat) > 64 || strings.Count(pat, "*") > 2 {
			break // beyond what is worth matching here: unknown
		}
		return trimPattern(val, pat, p.Exp.Op)
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if ok && (val != "" || p.Exp.Op == syntax.AlternateUnset) {
			return a.literal(p.Exp.Word, st)
		}
		return ""
	case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		// ${x,,} ${x^^} ${x^} ${x,}: a known value re-cased (a pattern after the operator
		// limits which letters change: not followed)
		if !ok || p.Exp.Word != nil && p.Exp.Word.Lit() != "" {
			break
		}
		change := strings.ToLower
		if p.Exp.Op == syntax.UpperFirst || p.Exp.Op == syntax.UpperAll {
			change = strings.ToUpper
		}
		if p.Exp.Op == syntax.UpperAll || p.Exp.Op == syntax.LowerAll {
			return change(val)
		}
		if val == "" {
			return ""
		}
		return change(val[:1]) + val[1:]
	}
	a.walkWords(p, st)
	if !ok {
		return a.unknown(p.Param.Value, st) // ${TOKEN^^}, ${TOKEN%x}: still what it holds
	}
	return Dyn
}

// unknown is the stand-in for a variable without a literal value: what was assigned to it in
// the command when that holds substitutions (so X=$(cat key); curl -d "$X" still sends what
// cat printed), else a stand-in that keeps its name.
func (a *analyzer) unknown(name string, st *state) string {
	name = deref(name, st)
	if outer, ok := strings.CutPrefix(name, outerVar); ok && validName(outer) {
		return varMark + outer + Dyn
	}
	if v, ok := st.vars[name]; ok {
		return v
	}
	if !validName(name) {
		return Dyn
	}
	return varMark + name + Dyn
}

// trimPattern removes the shortest or longest prefix or suffix of v matching a shell pattern
// made of literals, * and ?.
func trimPattern(v, pat string, op syntax.ParExpOperator) string {
	switch op {
	case syntax.RemSmallSuffix:
		for i := len(v); i >= 0; i-- {
			if globMatch(pat, v[i:]) {
				return v[:i]
			}
		}
	case syntax.RemLargeSuffix:
		for i := 0; i <= len(v); i++ {
			if globMatch(pat, v[i:]) {
				return v[:i]
			}
		}
	case syntax.RemSmallPrefix:
		for i := 0; i <= len(v); i++ {
			if globMatch(pat, v[:i]) {
				return v[i:]
			}
		}
	case syntax.RemLargePrefix:
		for i := len(v); i >= 0; i-- {
			if globMatch(pat, v[:i]) {
				return v[i:]
			}
		}
	}
	return v
}

// globMatch matches s against a pattern of literals, * (any run, / included) and ?.
func globMatch(pat, s string) bool {
	if pat == "" {
		return s == ""
	}
	switch pat[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if globMatch(pat[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && globMatch(pat[1:], s[1:])
	}
	return s != "" && s[0] == pat[0] && globMatch(pat[1:], s[1:])
}

// arithLit reads an arithmetic expression that is a literal number.
func arithLit(e syntax.ArithmExpr) (int, bool) {
	w, ok := e.(*syntax.Word)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(w.Lit())
	return n, err == nil
}
