// Variables: lookup, valid names, name references, locals and positional parameters.

package shell

import (
	"strconv"
	"strings"
	"sync"
)

func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// saveLocal keeps the caller's value of a variable declared local in the function call being
// analysed, to give it back when the call returns.
func (a *analyzer) saveLocal(name string, st *state) {
	if len(a.locals) == 0 || !validName(name) {
		return
	}
	top := a.locals[len(a.locals)-1]
	if _, seen := top[name]; seen {
		return
	}
	if v, ok := st.vars[name]; ok {
		top[name] = &v
	} else {
		top[name] = nil
	}
}

// positional are the variables a function call sets (built when first needed, not at every
// hook start).
var positional = sync.OnceValue(func() []string {
	out := []string{"@", "*", "#", "@[@]"}
	for i := 1; i <= 99; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
})

// setPositional makes args the positional parameters: $1..$9, "$@" one field each.
func setPositional(st *state, args []string) {
	for _, k := range positional() {
		delete(st.vars, k)
	}
	for i, arg := range args[:min(len(args), 99)] {
		st.vars[strconv.Itoa(i+1)] = arg
	}
	args = args[:min(len(args), 99)]
	st.vars["@"] = strings.Join(args, " ")
	st.vars["*"] = st.vars["@"]
	st.vars["#"] = strconv.Itoa(len(args))
	joined := strings.Join(args, arraySep)
	if len(args) > 0 && strings.Count(joined, arraySep) == len(args)-1 {
		st.vars["@[@]"] = joined
	}
}

// envOf is a variable's value for a command: its own prefix assignment, else the line's.
func envOf(c *Cmd, st *state, name string) string {
	for _, e := range c.Env {
		if v, ok := strings.CutPrefix(e, name+"="); ok {
			return v
		}
	}
	if v, ok := st.vars[name]; ok && !strings.Contains(v, Dyn) {
		return v
	}
	return ""
}

// arraySep joins an array's elements in the variable that holds them.
const arraySep = "\x01"

func validName(name string) bool {
	if name == "" || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// lookup finds a variable: assigned earlier in the command, then the few the analysis models
// (HOME, PWD), then the outer environment.
func (a *analyzer) lookup(name string, st *state) (string, bool) {
	name = deref(name, st)
	if v, ok := st.vars[name]; ok {
		return v, !strings.Contains(v, Dyn)
	}
	switch name {
	case "IFS":
		return " \t\n", true
	case "HOME":
		return a.world.Home, a.world.Home != ""
	case "PWD":
		return st.cwd, true
	case "CLAUDE_PROJECT_DIR":
		if a.world.Project != "" {
			return a.world.Project, true
		}
	}
	// A credential's value is never taken from the hook's own environment: it would be judged
	// (and shown) as its value, not as the secret it is.
	if a.world.Env != nil && !SecretName(name) {
		return a.world.Env(name)
	}
	return "", false
}

// refMark prefixes the state entry that makes a variable a name reference (declare -n r=PWD).
const refMark = "\x00ref:"

// deref follows name references to the variable they stand for.
func deref(name string, st *state) string {
	for range 8 {
		target, ok := st.vars[refMark+name]
		if !ok || !validName(target) {
			break
		}
		name = target
	}
	return name
}
