// What is data in a PowerShell script: strings, here-strings, comments and what output
// cmdlets print, told apart from the code in subexpressions.

package shell

import "strings"

// PSJoin stands for the spaces and separators inside a PowerShell string in the text
// PSCodeText returns, so that a string is one word there: a path with a space in it stays
// one path, and a sentence that names a cmdlet is not that cmdlet.
const PSJoin = "\uE000"

// PSCodeText returns a PowerShell script (ASCII quotes, as PSNormalize leaves it) with what is
// only data taken out of the code, for the rules that read a script's words: comments and
// here-strings go, each quoted string becomes a single word (its spaces and separators
// joined by PSJoin), and the $( ) subexpressions of a double-quoted string stay code. A
// string that is run (Invoke-Expression, a script block made from it, -EncodedCommand) is
// read as code by AnalyzePowerShell, statement by statement.
func PSCodeText(src string) string {
	var b strings.Builder
	psCode(&b, src, 0, false)
	return b.String()
}

// psCode writes the code of src from i on, up to the ) that closes a subexpression when
// sub is set, and returns where it stopped (after that parenthesis).
func psCode(b *strings.Builder, src string, i int, sub bool) int {
	depth := 0
	for i < len(src) {
		ch := src[i]
		switch {
		case ch == '`' && i+1 < len(src):
			b.WriteString(src[i : i+2])
			i += 2
			continue
		case ch == '<' && strings.HasPrefix(src[i:], "<#"):
			end := strings.Index(src[i+2:], "#>")
			if end < 0 {
				return len(src)
			}
			b.WriteByte(' ')
			i += 2 + end + 2
			continue
		case ch == '#' && (i == 0 || strings.IndexByte(" \t\r\n;|&({}", src[i-1]) >= 0):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				return len(src)
			}
			i += end
			continue
		case ch == '@' && i+1 < len(src) && (src[i+1] == '\'' || src[i+1] == '"') && psHereOpens(src[i+2:]):
			q := src[i+1]
			end := strings.Index(src[i+2:], "\n"+string(q)+"@")
			stop := len(src)
			if end >= 0 {
				stop = i + 2 + end + 3
			}
			body := src[i+2 : min(stop, len(src))]
			if q == '\'' {
				b.WriteString("''")
			} else {
				psDoubleBody(b, strings.TrimSuffix(body, "\n\"@"))
			}
			i = stop
			continue
		case ch == '\'':
			j := i + 1
			for j < len(src) {
				if src[j] == '\'' {
					if j+1 < len(src) && src[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			b.WriteByte('\'')
			b.WriteString(psJoined(src[i+1 : min(j, len(src))]))
			b.WriteByte('\'')
			i = j + 1
			continue
		case ch == '"':
			i = psDouble(b, src, i+1)
			continue
		case ch == '(':
			depth++
		case ch == ')':
			if sub && depth == 0 {
				return i + 1
			}
			depth--
		}
		b.WriteByte(ch)
		i++
	}
	return i
}

// psHereOpens says whether what follows @' or @" opens a here-string: only spaces up to the
// end of the line.
func psHereOpens(rest string) bool {
	line, _, ok := strings.Cut(rest, "\n")
	return ok && strings.TrimSpace(line) == ""
}

// psDouble writes the double-quoted string that starts at i (after its quote) as one word,
// its subexpressions as code, and returns the index after its closing quote.
func psDouble(b *strings.Builder, src string, i int) int {
	var lit strings.Builder
	flush := func() {
		b.WriteByte('"')
		b.WriteString(psJoined(lit.String()))
		b.WriteByte('"')
		lit.Reset()
	}
	for i < len(src) {
		ch := src[i]
		switch {
		case ch == '`' && i+1 < len(src):
			lit.WriteString(src[i : i+2])
			i += 2
			continue
		case ch == '"' && i+1 < len(src) && src[i+1] == '"':
			lit.WriteString(`""`)
			i += 2
			continue
		case ch == '"':
			flush()
			return i + 1
		case ch == '$' && i+1 < len(src) && src[i+1] == '(':
			flush()
			b.WriteString(" (")
			i = psCode(b, src, i+2, true)
			b.WriteString(") ")
			continue
		}
		lit.WriteByte(ch)
		i++
	}
	flush()
	return i
}

// psDoubleBody writes the body of a double-quoted here-string: its subexpressions as code,
// its text as one word.
func psDoubleBody(b *strings.Builder, body string) {
	// A here-string's body ends at its closing line, not at a quote: quotes inside are text.
	psDouble(b, strings.ReplaceAll(body, `"`, "`\""), 0)
}

// psJoined joins the words of a string's text with PSJoin.
func psJoined(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '"', '\'', ',', '{', '}':
			return '\uE000'
		}
		return r
	}, s)
}

// psSubexprs returns the code of a statement's subexpressions, which run where they are:
// $( ) inside a double-quoted string or outside strings, and ( ) groups outside strings.
// Single-quoted strings, here-strings and comments are text; script blocks are read apart.
func psSubexprs(stmt string) []string {
	var out []string
	for i := 0; i < len(stmt) && len(out) < 64; i++ {
		switch ch := stmt[i]; {
		case ch == '`':
			i++
		case ch == '@' && i+1 < len(stmt) && stmt[i+1] == '\'' && psHereOpens(stmt[i+2:]):
			i = psHereEnd(stmt, i) - 1
		case ch == '\'':
			for i++; i < len(stmt) && stmt[i] != '\''; i++ {
			}
		case ch == '"':
			for i++; i < len(stmt) && stmt[i] != '"'; i++ {
				if stmt[i] == '`' {
					i++
				} else if stmt[i] == '$' && i+1 < len(stmt) && stmt[i+1] == '(' {
					if end := psClose(stmt[i+1:]); end > 0 {
						out = append(out, stmt[i+2:i+end])
						i += end
					}
				}
			}
		case ch == '{':
			if end := psClose(stmt[i:]); end > 0 {
				i += end - 1
			}
		case ch == '(':
			if end := psClose(stmt[i:]); end > 0 {
				out = append(out, stmt[i+1:i+end-1])
				i += end - 1
			}
		}
	}
	return out
}

// PSCommandText returns a script with the arguments of its output cmdlets (Write-Output,
// Write-Host, echo, ...) taken out, in script blocks too: their bare words are strings to
// print, not commands. Their subexpressions stay, as code. Statements are joined by
// newlines; pipes and ; become line ends.
func PSCommandText(src string) string {
	return psCommandText(src, 0)
}

func psCommandText(src string, depth int) string {
	stmts, _ := psStatements(src)
	for i, stmt := range stmts {
		words, _, _ := psWordsQ(stmt, "")
		if len(words) > 0 && psOutput(words[0]) {
			out := words[0]
			for _, sub := range psSubexprs(stmt) {
				out += " (" + sub + ")"
			}
			stmts[i] = out
			continue
		}
		if depth < 8 {
			bodies, _ := psBlocks(stmt)
			for _, b := range bodies {
				stmt = strings.Replace(stmt, b, psCommandText(b, depth+1), 1)
			}
			stmts[i] = stmt
		}
	}
	return strings.Join(stmts, "\n")
}

// psOutput reports a cmdlet whose arguments are only printed.
func psOutput(w string) bool {
	switch strings.ToLower(w) {
	case "write-output", "write-host", "echo", "write", "write-verbose", "write-warning", "write-debug", "write-information",
		"write-error", "write-progress", "out-host", "out-default":
		return true
	}
	return false
}
