// The Unicode dashes and quotes PowerShell reads as ASCII ones.

package shell

import "strings"

// PowerShell's tokenizer reads the Unicode dashes (en dash, em dash, horizontal bar) as -
// and the typographic quotes as ' and ": Remove-Item –Recurse is Remove-Item -Recurse, and
// ‘C:\Windows’ is a quoted path. A script pasted from a document keeps them.

// psDash reports a character PowerShell reads as a dash.
func psDash(r rune) bool { return r == '-' || r == '\u2013' || r == '\u2014' || r == '\u2015' }

// psQuoteKind returns ' or " for a character PowerShell reads as that quote, 0 for others.
func psQuoteKind(r rune) byte {
	switch r {
	case '\'', '\u2018', '\u2019', '\u201A', '\u201B':
		return '\''
	case '"', '\u201C', '\u201D', '\u201E':
		return '"'
	}
	return 0
}

// PSNormalize rewrites the Unicode dashes and quotes of a PowerShell script as the ASCII ones
// where PowerShell reads them so: a dash that starts a word (a parameter, an operator, a
// negative number) and a quote that opens or closes a string. Inside a string or a comment
// they stay as written: Write-Output '–Recurse' prints an en dash.
func PSNormalize(src string) string {
	if strings.IndexByte(src, 0xE2) < 0 { // every one of them is U+20xx, encoded E2 80 xx
		return src
	}
	var b strings.Builder
	b.Grow(len(src))
	var quote byte // the string we are in: ' or ", 0 outside
	start := true  // at the start of a word
	comment := false
	escape := false // after a backtick
	for _, r := range src {
		out := r
		switch {
		case escape:
			escape = false
			start = false
		case comment:
			if r == '\n' {
				comment, start = false, true
			}
		case quote != 0:
			switch {
			case quote == '"' && r == '`':
				escape = true
			case psQuoteKind(r) == quote:
				out, quote, start = rune(quote), 0, false // closes (a doubled quote reopens)
			}
		case psQuoteKind(r) != 0:
			quote = psQuoteKind(r)
			out = rune(quote)
		case r == '`':
			escape = true
		case r == '#' && start:
			comment = true
		case psDash(r):
			if start {
				out = '-'
			}
			start = false
		default:
			start = strings.ContainsRune(" \t\r\n;|&(){}[],=!+*/%<>", r)
		}
		b.WriteRune(out)
	}
	return b.String()
}
