// PowerShell's tokenizer: a script split into statements and pipeline stages outside
// strings, comments and blocks; a statement split into unquoted words; script block bodies.

package shell

import "strings"

// psStatements splits a script into statements and pipeline stages, outside quotes; piped
// says which stages read the output of the one before. A backtick at the end of a line
// continues the statement on the next.
func psStatements(src string) (out []string, piped []bool) {
	var b strings.Builder
	var quote byte
	depth := 0
	pipe := false
	flush := func() {
		if s := strings.TrimSpace(b.String()); s != "" {
			out = append(out, s)
			piped = append(piped, pipe)
			pipe = false // a line break after a | goes on with the pipeline
		}
		b.Reset()
	}
	for i := 0; i < len(src); i++ {
		ch := src[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '@' && i+1 < len(src) && (src[i+1] == '\'' || src[i+1] == '"') && psHereOpens(src[i+2:]):
			stop := psHereEnd(src, i)
			b.WriteString(src[i:stop]) // a here-string: text to its closing line, quotes and all
			i = stop - 1
			continue
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '`' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			b.WriteByte(' ')
			i++
			if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			continue
		case ch == '`' && i+1 < len(src):
			b.WriteByte(ch)
			i++
			ch = src[i]
		case ch == '<' && i+1 < len(src) && src[i+1] == '#': // <# a block comment #>
			end := strings.Index(src[i+2:], "#>")
			if end < 0 {
				i = len(src)
			} else {
				i += 2 + end + 1
			}
			b.WriteByte(' ')
			continue
		case ch == '#' && (i == 0 || strings.IndexByte(" \t\r\n;|&({}", src[i-1]) >= 0): // a comment, to the end of the line
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
			continue
		case ch == '(' || ch == '{':
			depth++
		case ch == ')' || ch == '}':
			depth--
		case depth <= 0 && (ch == ';' || ch == '\n' || ch == '|'):
			flush()
			if ch == '|' && i+1 < len(src) && src[i+1] == '|' {
				i++
			} else if ch == '|' {
				pipe = true
			}
			continue
		case depth <= 0 && ch == '&' && i+1 < len(src) && src[i+1] == '&':
			flush()
			i++
			continue
		}
		b.WriteByte(ch)
	}
	flush()
	return out, piped
}

// psWordsQ splits a statement into words, unquoted, with home expanded and \ made /; the
// redirections (> >> 2> *>) are returned apart as operator and target.
// quoted says which words were quoted, in whole or in part.
func psWordsQ(stmt, home string) (words []string, quoted []bool, redirs [][2]string) {
	var cur strings.Builder
	in, q := false, false
	var quote byte
	expand := func(s string, literal bool) string {
		if literal {
			return s
		}
		return psHome(s, home)
	}
	flush := func() {
		if in {
			w := strings.ReplaceAll(cur.String(), `\`, "/")
			words = append(words, w)
			quoted = append(quoted, q)
		}
		cur.Reset()
		in, q = false, false
	}
	for i := 0; i < len(stmt); i++ {
		ch := stmt[i]
		switch {
		case quote == '"':
			// A double-quoted string ends at a " that no backtick escapes and that is not
			// doubled ("" is one quote); `" and `` are the characters themselves.
			var b strings.Builder
			k := i
			for ; k < len(stmt); k++ {
				if stmt[k] == '`' && k+1 < len(stmt) && (stmt[k+1] == '"' || stmt[k+1] == '`') {
					b.WriteByte(stmt[k+1])
					k++
					continue
				}
				if stmt[k] == '"' {
					if k+1 < len(stmt) && stmt[k+1] == '"' {
						b.WriteByte('"')
						k++
						continue
					}
					break
				}
				b.WriteByte(stmt[k])
			}
			cur.WriteString(expand(b.String(), false))
			i = k
			quote = 0
		case quote != 0:
			j := strings.IndexByte(stmt[i:], quote)
			if j < 0 {
				j = len(stmt) - i
			}
			cur.WriteString(expand(stmt[i:i+j], quote == '\''))
			i += j
			quote = 0
		case ch == '@' && i+1 < len(stmt) && (stmt[i+1] == '\'' || stmt[i+1] == '"') && psHereOpens(stmt[i+2:]):
			stop := psHereEnd(stmt, i)
			_, body, _ := strings.Cut(stmt[i:stop], "\n")
			body = strings.TrimSuffix(strings.TrimSuffix(body, "'@"), "\"@")
			cur.WriteString(expand(strings.TrimSuffix(body, "\n"), stmt[i+1] == '\''))
			in, q = true, true
			i = stop - 1
		case ch == '\'' || ch == '"':
			quote, in, q = ch, true, true
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == ',':
			flush()
		case ch == '(' || ch == ')':
			flush()
		case ch == '`' && i+1 < len(stmt): // an escaped character is itself
			i++
			cur.WriteByte(stmt[i])
			in = true
		default:
			j := i
			for j < len(stmt) && strings.IndexByte(" \t\r,'\"()`", stmt[j]) < 0 {
				j++
			}
			cur.WriteString(expand(stmt[i:j], false))
			in = true
			i = j - 1
		}
	}
	flush()
	// Redirections and the ~ of home.
	var keep []string
	var keepQ []bool
	for i := 0; i < len(words); i++ {
		w := words[i]
		op := strings.TrimLeft(w, "*0123456789")
		if quoted[i] {
			op = ""
		}
		if op == ">" || op == ">>" {
			if i+1 < len(words) {
				redirs = append(redirs, [2]string{op, words[i+1]})
				i++
			}
			continue
		}
		if strings.HasPrefix(op, ">") && len(op) > 1 && op != ">>" && !strings.HasPrefix(op, ">&") {
			redirs = append(redirs, [2]string{">", strings.TrimLeft(op, ">")})
			continue
		}
		keep, keepQ = append(keep, w), append(keepQ, quoted[i])
	}
	return keep, keepQ, redirs
}

// psOutside hands visit each index of s that is code: outside quoted strings and here-strings,
// and not a character a backtick escapes. visit stops the walk by returning false; psOutside
// reports whether s ends outside a string.
func psOutside(s string, visit func(i int) bool) bool {
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else if ch == '`' && quote == '"' {
				i++
			}
		case ch == '@' && i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '"') && psHereOpens(s[i+2:]):
			i = psHereEnd(s, i) - 1
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '`':
			i++
		default:
			if !visit(i) {
				return true
			}
		}
	}
	return quote == 0
}

// psBlocks returns the bodies of the script blocks a statement holds at its top level (not
// hash literals @{ }); ok is false when the braces do not balance.
func psBlocks(stmt string) (bodies []string, ok bool) {
	depth, start := 0, -1
	hash, balanced := false, true
	closed := psOutside(stmt, func(i int) bool {
		switch stmt[i] {
		case '{':
			if depth == 0 {
				start, hash = i+1, i > 0 && (stmt[i-1] == '@' || stmt[i-1] == '$')
			}
			depth++
		case '}':
			depth--
			if depth < 0 {
				balanced = false
				return false
			}
			if depth == 0 && !hash {
				bodies = append(bodies, stmt[start:i])
			}
		}
		return true
	})
	return bodies, balanced && closed && depth == 0
}

// psHereEnd returns the index after the here-string that opens at i (@' or @"): after its
// closing '@ or "@ at a line's start, or the end of src.
func psHereEnd(src string, i int) int {
	end := strings.Index(src[i+2:], "\n"+string(src[i+1])+"@")
	if end < 0 {
		return len(src)
	}
	return i + 2 + end + 3
}
