// Backslash escapes: unquoted, in double quotes, in $'...', and numeric.

package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// unescapeBare removes the backslashes of an unquoted word: \x is x, \<newline> is nothing.
func unescapeBare(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that quote $ ` " \ and newline inside double quotes.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// decodeANSI decodes the body of $'...': \n \t \xHH \NNN \uHHHH \UHHHHHHHH \cX and friends.
func decodeANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U', '0', '1', '2', '3', '4', '5', '6', '7':
			v, isByte, end, ok := numEscape(s, i, false)
			switch {
			case !ok:
				b.WriteByte('\\')
				b.WriteByte(e)
			case isByte:
				b.WriteByte(byte(v))
			case utf8.ValidRune(v):
				b.WriteRune(v)
			}
			if ok {
				i = end
			}
		default: // \\ \' \" \? and unknown escapes
			if e != '\\' && e != '\'' && e != '"' && e != '?' {
				b.WriteByte('\\')
			}
			b.WriteByte(e)
		}
	}
	return b.String()
}

// numEscape reads the numeric escape whose letter or first digit is s[i], after the backslash:
// \xHH, \uHHHH, \u{H...}, \UHHHHHHHH, or \NNN in octal. It returns the value, whether that
// is a byte (\x and octal) rather than a character, and the index of the escape's last byte.
// bracedX reads Perl's \x{72} too ($'...' has no such form).
func numEscape(s string, i int, bracedX bool) (v rune, isByte bool, end int, ok bool) {
	e := s[i]
	if e >= '0' && e <= '7' {
		j := i
		for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
			v = v*8 + rune(s[j]-'0')
			j++
		}
		return v & 0xff, true, j - 1, true
	}
	digits := 2
	switch e {
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	}
	j := i + 1
	braced := (e != 'x' || bracedX) && j < len(s) && s[j] == '{'
	if braced {
		j, digits = j+1, 6
	}
	start := j
	for j < len(s) && j-start < digits && isHex(s[j]) {
		n, _ := strconv.ParseUint(s[j:j+1], 16, 8)
		v = v*16 + rune(n)
		j++
	}
	if j == start {
		return 0, false, i, false
	}
	if braced && j < len(s) && s[j] == '}' {
		j++
	}
	return v, e == 'x', j - 1, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
