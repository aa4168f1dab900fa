// PowerShell values reduced to literal text: strings, their concatenation, known variables,
// and base64 decoded as .NET decodes it, within a fixed budget.

package shell

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"
)

// psReduceBudget bounds the work one reduction may do: past it a value is unknown.
const psReduceBudget = 64 << 10

// psReduce returns the text an expression evaluates to when it is made only of string
// literals ('...', "..." with known variables), known variables, + between them,
// parentheses, and [Text.Encoding]::X.GetString([Convert]::FromBase64String(...)); ok is
// false for anything else, which is known only when it runs.
func psReduce(expr string, vars map[string]string) (string, bool) {
	budget := psReduceBudget
	return psReduceN(strings.TrimSpace(expr), vars, &budget, 0)
}

func psReduceN(expr string, vars map[string]string, budget *int, depth int) (string, bool) {
	*budget -= len(expr) + 1
	if *budget < 0 || depth > 8 || expr == "" {
		return "", false
	}
	var out strings.Builder
	rest := expr
	for {
		rest = strings.TrimSpace(rest)
		term, after, ok := psTerm(rest)
		if !ok {
			return "", false
		}
		if op, args, isOp := psBinaryOp(strings.TrimSpace(after)); isOp && op == "-join" && out.Len() == 0 {
			return psFormatJoin(op, "", term, args, vars, budget, depth) // an array's values joined
		}
		v, ok := psTermValue(term, vars, budget, depth)
		if !ok {
			return "", false
		}
		out.WriteString(v)
		if out.Len() > psReduceBudget {
			return "", false
		}
		after = strings.TrimSpace(after)
		if after == "" {
			return out.String(), true
		}
		if op, args, ok := psBinaryOp(after); ok && out.Len() == len(v) {
			// 'FORMAT' -f a, b and LIST -join 'SEP', reduced when their operands are.
			return psFormatJoin(op, v, term, args, vars, budget, depth)
		}
		if after[0] != '+' {
			return "", false
		}
		rest = after[1:]
	}
}

// psBinaryOp reads a -f or -join operator and what follows it.
func psBinaryOp(s string) (op, args string, ok bool) {
	l := strings.ToLower(s)
	for _, o := range []string{"-f ", "-join "} {
		if strings.HasPrefix(l, o) {
			return o[:len(o)-1], strings.TrimSpace(s[len(o):]), true
		}
	}
	return "", "", false
}

// psFormatJoin reduces FORMAT -f ARGS ({0}, {1}, ... replaced by the values) and LIST -join
// SEP (LIST a variable holding an array, or a parenthesised list of values).
func psFormatJoin(op, left, leftTerm string, args string, vars map[string]string, budget *int, depth int) (string, bool) {
	var vals []string
	for _, a := range psSplitArgs(args) {
		v, ok := psReduceN(strings.TrimSpace(a), vars, budget, depth+1)
		if !ok {
			return "", false
		}
		vals = append(vals, v)
	}
	if op == "-f" {
		out := left
		for i, v := range vals {
			out = strings.ReplaceAll(out, "{"+strconv.Itoa(i)+"}", v)
		}
		return out, !strings.Contains(out, "{0}")
	}
	if len(vals) != 1 {
		return "", false
	}
	var items []string
	if list, ok := vars[psListKey+strings.ToLower(strings.TrimPrefix(leftTerm, "$"))]; ok && strings.HasPrefix(leftTerm, "$") {
		items = strings.Split(list, "\x00")
	} else if strings.HasPrefix(leftTerm, "(") {
		for _, e := range psSplitArgs(leftTerm[1 : len(leftTerm)-1]) {
			v, ok := psReduceN(strings.TrimSpace(e), vars, budget, depth+1)
			if !ok {
				return "", false
			}
			items = append(items, v)
		}
	} else {
		return "", false
	}
	return strings.Join(items, vals[0]), true
}

// psTerm splits the first term off an expression: a quoted string, a (group), a $variable
// or a [type]::call(...) up to its closing parenthesis.
func psTerm(s string) (term, rest string, ok bool) {
	if s == "" {
		return "", "", false
	}
	end := -1
	if len(s) > 2 && s[0] == '@' && (s[1] == '\'' || s[1] == '"') && psHereOpens(s[2:]) {
		end = psHereEnd(s, 0)
		return s[:end], s[end:], true
	}
	switch s[0] {
	case '\'':
		for i := 1; i < len(s); i++ {
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					i++
					continue
				}
				end = i + 1
				break
			}
		}
	case '"':
		for i := 1; i < len(s); i++ {
			if s[i] == '`' {
				i++
				continue
			}
			if s[i] == '"' {
				end = i + 1
				break
			}
		}
	case '$':
		i := 1
		for i < len(s) && (isWordByte(s[i]) || s[i] == ':') {
			i++
		}
		end = i
	case '(', '[':
		end = psClose(s)
		if s[0] == '[' && end > 0 {
			// [type]::Member(...)(...): to the end of the call.
			for end < len(s) && (isWordByte(s[end]) || s[end] == ':' || s[end] == '.') {
				end++
			}
			for end < len(s) && s[end] == '(' {
				e := psClose(s[end:])
				if e < 0 {
					return "", "", false
				}
				end += e
			}
		}
	}
	if end <= 0 {
		return "", "", false
	}
	return s[:end], s[end:], true
}

// psClose returns the index after the bracket that closes the one s opens with, outside
// quotes; -1 when it does not close.
func psClose(s string) int {
	depth, end := 0, -1
	psOutside(s, func(i int) bool {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				end = i + 1
				return false
			}
		}
		return true
	})
	return end
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// psTermValue evaluates one term.
func psTermValue(t string, vars map[string]string, budget *int, depth int) (string, bool) {
	if t[0] == '@' { // a here-string: its lines between the opening and closing ones
		_, body, _ := strings.Cut(t, "\n")
		body = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(body, "'@"), "\"@"), "\n")
		if t[1] == '\'' {
			return body, true
		}
		return psExpand(strings.ReplaceAll(body, `"`, "`\""), vars)
	}
	switch t[0] {
	case '\'':
		return strings.ReplaceAll(t[1:len(t)-1], "''", "'"), true
	case '"':
		return psExpand(t[1:len(t)-1], vars)
	case '$':
		v, ok := vars[strings.ToLower(t[1:])]
		return v, ok && !strings.HasPrefix(v, psFileValue)
	case '(':
		return psReduceN(t[1:len(t)-1], vars, budget, depth+1)
	}
	// [System.Text.Encoding]::Unicode.GetString([System.Convert]::FromBase64String('...'))
	lt := strings.ToLower(t)
	// [IO.Path]::Combine(a, b, ...), [Environment]::GetFolderPath('UserProfile'),
	// [Environment]::GetEnvironmentVariable('X').
	for _, pre := range []string{"[io.path]::combine(", "[system.io.path]::combine(", "[environment]::getfolderpath(",
		"[system.environment]::getfolderpath(", "[environment]::getenvironmentvariable(", "[system.environment]::getenvironmentvariable("} {
		if !strings.HasPrefix(lt, pre) || !strings.HasSuffix(t, ")") {
			continue
		}
		var parts []string
		for _, a := range psSplitArgs(t[len(pre) : len(t)-1]) {
			v, ok := psReduceN(a, vars, budget, depth+1)
			if !ok {
				return "", false
			}
			parts = append(parts, v)
		}
		switch {
		case strings.Contains(pre, "combine"):
			return strings.Join(parts, `\`), len(parts) > 0
		case len(parts) != 1:
			return "", false
		case strings.Contains(pre, "getfolderpath"):
			v, ok := vars[map[string]string{"userprofile": "home", "mydocuments": "mydocuments", "personal": "mydocuments",
				"desktop": "desktop", "applicationdata": "env:appdata", "localapplicationdata": "env:localappdata",
				"windows": "env:systemroot", "programfiles": "env:programfiles", "startup": "startup"}[strings.ToLower(parts[0])]]
			return v, ok
		default:
			v, ok := vars["env:"+strings.ToLower(parts[0])]
			return v, ok
		}
	}
	for _, enc := range []string{"unicode", "utf8", "ascii", "default"} {
		for _, typ := range []string{"[text.encoding]::", "[system.text.encoding]::"} {
			pre := typ + enc + ".getstring("
			if !strings.HasPrefix(lt, pre) || !strings.HasSuffix(t, ")") {
				continue
			}
			inner := strings.TrimSpace(t[len(pre) : len(t)-1])
			li := strings.ToLower(inner)
			for _, conv := range []string{"[convert]::frombase64string(", "[system.convert]::frombase64string("} {
				if strings.HasPrefix(li, conv) && strings.HasSuffix(inner, ")") {
					b64, ok := psReduceN(inner[len(conv):len(inner)-1], vars, budget, depth+1)
					if !ok {
						return "", false
					}
					if enc == "unicode" {
						return psDecode(b64)
					}
					b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
					if err != nil || !utf8.Valid(b) {
						return "", false
					}
					return string(b), true
				}
			}
		}
	}
	return "", false
}

// psExpand expands the body of a double-quoted string: backtick escapes, and $name of a
// known variable; a subexpression or an unknown variable makes it unknown.
func psExpand(s string, vars map[string]string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '`' && i+1 < len(s):
			i++
			b.WriteString(map[byte]string{'n': "\n", 't': "\t", 'r': "\r", '0': "", 'a': "", 'b': "", 'f': "", 'v': ""}[s[i]])
			if !strings.ContainsRune("ntr0abfv", rune(s[i])) {
				b.WriteByte(s[i])
			}
		case ch == '"' && i+1 < len(s) && s[i+1] == '"':
			b.WriteByte('"')
			i++
		case ch == '$' && i+1 < len(s) && (isWordByte(s[i+1]) || s[i+1] == '{' || s[i+1] == '('):
			if s[i+1] == '(' || s[i+1] == '{' {
				return "", false
			}
			j := i + 1
			for j < len(s) && (isWordByte(s[j]) || s[j] == ':' && j+1 < len(s) && isWordByte(s[j+1])) {
				j++
			}
			v, ok := vars[strings.ToLower(s[i+1:j])]
			if !ok || strings.HasPrefix(v, psFileValue) {
				return "", false
			}
			b.WriteString(v)
			i = j - 1
		default:
			b.WriteByte(ch)
		}
	}
	return b.String(), true
}

// PSText marks a pipeline input (Cmd.PSIn) that is literal text: the lines after it.
const PSText = "text:"

// psReduceList reduces a value or a list of values ('a', 'b') to its lines of text.
func psReduceList(expr string, vars map[string]string) (string, bool) {
	var lines []string
	for _, e := range psSplitArgs(expr) {
		v, ok := psReduce(e, vars)
		if !ok {
			return "", false
		}
		lines = append(lines, v)
	}
	return strings.Join(lines, "\n"), len(lines) > 0
}

// psListKey prefixes the name under which an array variable's values are kept among the
// variables, joined by NUL, for LIST -join SEP.
const psListKey = "\x00list:"
