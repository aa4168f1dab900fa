// The stand-ins for values only known at run time (Dyn and its marks), and reading them.

package shell

import "strings"

// Dyn stands in an expanded word for a value only known when the command runs: an unknown
// variable, a command substitution's output, arithmetic. Rules treat it as "could be anything".
const Dyn = "\x00"

// Known reports whether s is known before the command runs: it holds no Dyn, so no
// substitution, unknown variable or other run-time part.
func Known(s string) bool { return !strings.Contains(s, Dyn) }

// Unknown reports whether s is one run-time value and nothing else: "$X", "$(cmd)".
func Unknown(s string) bool { return Plain(s) == Dyn }

// StartsUnknown reports whether s begins with a run-time value: "$DIR/x", "$(pwd)/build".
func StartsUnknown(s string) bool { return strings.HasPrefix(s, Dyn) }

// Guarded reports whether s begins with a variable under ${name:?}: unknown, but never empty
// (the command stops first), so "${DIR:?}/x" is never "/x".
func Guarded(s string) bool { return strings.HasPrefix(s, guardMark) }

// Match stands for the files a filtered find matches under a start path: some things inside it,
// never the start path itself.
const Match = Dyn + "M" + Dyn

// A substitution's stand-in is Dyn, 'S' (command) or 'P' (process), its index, Dyn: it stays
// unknown to rules but remembers the commands whose output it is.
const (
	substMark = Dyn + "S"
	procMark  = Dyn + "P"
)

// An unknown variable's stand-in is Dyn, 'V', its name, Dyn: unknown to rules like any other,
// but the name stays, so that $AWS_SECRET_ACCESS_KEY handed to curl can be told from $PORT.
const varMark = Dyn + "V"

// guardMark is a variable's stand-in under ${name:?}: unknown, but never empty.
const guardMark = Dyn + "G"

// Vars returns the names of the unknown variables whose values make up s.
func Vars(s string) []string {
	var out []string
	mapMarks(s, func(kind byte, body string) string {
		if kind == 'V' || kind == 'G' {
			out = append(out, body)
		}
		return ""
	})
	return out
}

// markAt reads the rest of a stand-in after its opening Dyn: 'S' or 'P' and an index, or 'V'
// and a variable name, then Dyn. Anything else (a bare Dyn followed by text that happens to
// start with V) is not a mark.
func markAt(s string) (kind byte, body, rest string, ok bool) {
	if len(s) < 2 || s[0] != 'S' && s[0] != 'P' && s[0] != 'V' && s[0] != 'G' {
		return 0, "", s, false
	}
	j := strings.Index(s, Dyn)
	if j < 2 {
		return 0, "", s, false
	}
	body = s[1:j]
	named := s[0] == 'V' || s[0] == 'G'
	if named && !validName(body) || !named && strings.Trim(body, "0123456789") != "" {
		return 0, "", s, false
	}
	return s[0], body, s[j+1:], true
}

// Plain folds every stand-in in s (substitution, process, variable) to a single Dyn, for rules
// that only care where a run-time value is.
func Plain(s string) string { return mapMarks(s, func(byte, string) string { return Dyn }) }

// Show renders s for people: a variable as $NAME, any other run-time value as "…".
func Show(s string) string {
	return mapMarks(s, func(kind byte, body string) string {
		if kind == 'V' || kind == 'G' {
			return "$" + body
		}
		return "…"
	})
}

// mapMarks replaces every stand-in in s with what f makes of its kind ('S', 'P', 'V', or 0 for
// a bare Dyn) and body (the index or name).
func mapMarks(s string, f func(kind byte, body string) string) string {
	if !strings.Contains(s, Dyn) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, Dyn)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i+1:]
		if kind, body, rest, ok := markAt(s); ok {
			b.WriteString(f(kind, body))
			s = rest
			continue
		}
		b.WriteString(f(0, ""))
	}
}

// dynWord stands for a run-time value in shell text that is parsed again.
const dynWord = "__dynamic__"

// stripMarks replaces run-time values in text about to be parsed as shell with a plain word.
// A variable goes back in as itself (${NAME}), so the nested analysis still knows its name.
func stripMarks(s string) string {
	return mapMarks(s, func(kind byte, body string) string {
		if kind == 'V' || kind == 'G' {
			return "${" + outerVar + body + "}"
		}
		return dynWord
	})
}

// outerVar prefixes a variable the outer shell expands, written back into text parsed again:
// the text's own assignments (D=/x; rm -rf $D) must not give it a value it never has.
const outerVar = "__outer_"
