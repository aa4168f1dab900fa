package secret

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A credential disguised so that the rules miss it as written: zero-width characters or
// look-alike letters from other scripts inside it, wrapped over lines, split across shell
// variables and put together again, or encoded in base64. Each is undone in a copy of the text
// that remembers where each of its bytes came from; the copy is scanned with the rules that
// name a format (never the keyword rules, which would read too much into a rewritten text), and
// what is found there is reported where it stands in the text.

// hidden lists the kinds a disguised text is searched for: formats specific enough that
// finding one in a rewritten text is no accident.
func hidden(k Kind) bool {
	switch k {
	case PasswordAssignment, CommandPassword, BearerToken, DockerAuth:
		return false
	}
	return true
}

// undisguise adds to out the credentials that only show once text is normalised.
func undisguise(text string, out []Match) []Match {
	out = encoded(text, out, nil)
	if s, at, ok := normalise(text); ok {
		// place maps a span of the copy back to the text.
		place := func(start, end int) (int, int) {
			if end < len(at) {
				return at[start], at[end]
			}
			return at[start], len(text)
		}
		out = addHidden(out, scan(s, false), func(m Match) (int, int) { return place(m.Start, m.End) })
		out = encoded(s, out, place) // base64 wrapped over lines, as base64 writes it
	}
	if s, at, ok := joinLiterals(text); ok {
		out = addHidden(out, scan(s, false), func(m Match) (int, int) { return at[m.Start], at[m.End-1] + 1 })
	}
	if s, at, ok := unicodeEscaped(text); ok {
		out = addHidden(out, scan(s, false), func(m Match) (int, int) { return at[m.Start], at[m.End-1] + 1 })
	}
	if s, at, ok := percentDecoded(text); ok {
		out = addHidden(out, scan(s, false), func(m Match) (int, int) { return at[m.Start], at[m.End-1] + 1 })
	}
	return splitVariables(text, out)
}

// joinLiterals joins the string literals that code puts together into one: "a" + "b", "a" "b"
// (adjacent, as Python and C join them, over lines too), 'a' . 'b', ['a', 'b'].join(”) and
// ”.join(['a', 'b']). A token split into pieces shows whole in the copy; at[i] is where its
// byte i stands in text.
func joinLiterals(text string) (string, []int, bool) {
	if strings.Count(text, "'")+strings.Count(text, `"`) < 4 {
		return "", nil, false
	}
	var b strings.Builder
	var at []int
	joined := false
	for i := 0; i < len(text); {
		q := text[i]
		if q != '"' && q != '\'' {
			i++
			continue
		}
		// a run of literals with only joining text between them
		pieces := 0
		start := b.Len()
		j := i
		for j < len(text) && (text[j] == '"' || text[j] == '\'') {
			q := text[j]
			end := strings.IndexByte(text[j+1:], q)
			if end < 0 || strings.IndexByte(text[j+1:j+1+end], '\n') >= 0 {
				break
			}
			if !formatOnly(text[j+1 : j+1+end]) { // printf '%s%s' 'a' 'b': the pieces, not the format
				for k := j + 1; k < j+1+end; k++ {
					b.WriteByte(text[k])
					at = append(at, k)
				}
			}
			pieces++
			j += end + 2
			k := j
			for k < len(text) && strings.IndexByte(" \t\r\n+.,\\", text[k]) >= 0 {
				k++
			}
			if k == j && pieces > 0 {
				break
			}
			j = k
		}
		if pieces >= 2 {
			joined = true
			b.WriteByte('\n')
			at = append(at, j-1)
		} else {
			// one literal alone: nothing joined; drop what was copied
			s := b.String()[:start]
			b.Reset()
			b.WriteString(s)
			at = at[:start]
		}
		if j <= i {
			j = i + 1
		}
		i = j
	}
	return b.String(), at, joined
}

// formatOnly reports a printf format that only puts its arguments together ("%s%s").
func formatOnly(s string) bool {
	return s != "" && strings.Trim(strings.ReplaceAll(strings.ReplaceAll(s, "%s", ""), "%b", ""), "") == ""
}

// unicodeEscaped decodes JSON's and JavaScript's \u00XX escapes of ASCII characters
// ("\u0073\u006b-proj-..."): a token's prefix written so to pass a scanner.
func unicodeEscaped(text string) (string, []int, bool) {
	if !strings.Contains(text, `\u00`) {
		return "", nil, false
	}
	var b strings.Builder
	at := make([]int, 0, len(text))
	found := false
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' && i+5 < len(text) && text[i+1] == 'u' && text[i+2] == '0' && text[i+3] == '0' {
			if v, err := strconv.ParseUint(text[i+4:i+6], 16, 8); err == nil && v >= 0x20 && v < 0x7f {
				b.WriteByte(byte(v))
				at = append(at, i)
				i += 5
				found = true
				continue
			}
		}
		b.WriteByte(text[i])
		at = append(at, i)
	}
	return b.String(), at, found
}

// percentDecoded decodes the URL-encoded words that hold at least three escapes
// (%67%68%70%5F..., https%3A%2F%2Fhooks.slack.com%2F...): a token or a URL encoded to pass a
// scanner. at[i] is where the copy's byte i was.
func percentDecoded(text string) (string, []int, bool) {
	if strings.Count(text, "%") < 3 {
		return "", nil, false
	}
	hex := func(c byte) (byte, bool) {
		switch {
		case c >= '0' && c <= '9':
			return c - '0', true
		case c >= 'a' && c <= 'f':
			return c - 'a' + 10, true
		case c >= 'A' && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	urlChar := func(c byte) bool { return tokenChar(c) || c == '%' || c == '.' || c == '~' }
	var b strings.Builder
	var at []int
	found := false
	for i := 0; i < len(text); {
		if !urlChar(text[i]) {
			i++
			continue
		}
		j := i
		escapes := 0
		for j < len(text) && urlChar(text[j]) {
			if text[j] == '%' && j+2 < len(text) {
				if _, ok := hex(text[j+1]); ok {
					if _, ok := hex(text[j+2]); ok {
						escapes++
					}
				}
			}
			j++
		}
		if escapes >= 3 {
			found = true
			for k := i; k < j; k++ {
				if text[k] == '%' && k+2 < j {
					h, ok1 := hex(text[k+1])
					l, ok2 := hex(text[k+2])
					if ok1 && ok2 {
						b.WriteByte(h<<4 | l)
						at = append(at, k)
						k += 2
						continue
					}
				}
				b.WriteByte(text[k])
				at = append(at, k)
			}
			b.WriteByte('\n')
			at = append(at, j-1)
		}
		i = j
	}
	return b.String(), at, found
}

// addHidden adds the matches found in a rewritten text, placed by where, that the text as
// written did not show. A format found there wins over a generic rule's match in the same
// place (an assigned value that is a GitHub token with a zero-width space in it), as it would
// in the text as written.
func addHidden(out, found []Match, where func(Match) (int, int)) []Match {
	for _, m := range found {
		if !hidden(m.Kind) {
			continue
		}
		start, end := where(m)
		if start >= end {
			continue
		}
		kept := out[:0:0]
		for _, o := range out {
			if start < o.End && o.Start < end && generic(o.Kind) && m.Kind != URLPassword {
				continue
			}
			kept = append(kept, o)
		}
		if !overlaps(kept, start, end) {
			out = append(kept, Match{Kind: m.Kind, Start: start, End: end})
		}
	}
	return out
}

// generic reports the kinds found by what surrounds a value rather than by its format.
func generic(k Kind) bool {
	switch k {
	case PasswordAssignment, URLPassword, BearerToken, CommandPassword, DockerAuth:
		return true
	}
	return false
}

// lookalike maps a letter of another script that looks like an ASCII one (Cyrillic, Greek)
// or a full-width form to that ASCII character. A switch, not a map: nothing is built at start.
func lookalike(r rune) (byte, bool) {
	if r >= '！' && r <= '～' {
		return byte(r - '！' + '!'), true
	}
	switch r {
	case 'а', 'α':
		return 'a', true
	case 'е':
		return 'e', true
	case 'о', 'ο':
		return 'o', true
	case 'р', 'ρ':
		return 'p', true
	case 'с':
		return 'c', true
	case 'у':
		return 'y', true
	case 'х':
		return 'x', true
	case 'і', 'ι':
		return 'i', true
	case 'ј':
		return 'j', true
	case 'ѕ':
		return 's', true
	case 'ԁ':
		return 'd', true
	case 'һ':
		return 'h', true
	case 'ԛ':
		return 'q', true
	case 'ԝ':
		return 'w', true
	case 'А', 'Α':
		return 'A', true
	case 'В', 'Β':
		return 'B', true
	case 'Е', 'Ε':
		return 'E', true
	case 'К', 'Κ':
		return 'K', true
	case 'М', 'Μ':
		return 'M', true
	case 'Н', 'Η':
		return 'H', true
	case 'О', 'Ο':
		return 'O', true
	case 'Р', 'Ρ':
		return 'P', true
	case 'С':
		return 'C', true
	case 'Т', 'Τ':
		return 'T', true
	case 'Х', 'Χ':
		return 'X', true
	case 'У', 'Υ':
		return 'Y', true
	case 'І', 'Ι':
		return 'I', true
	case 'Ј':
		return 'J', true
	case 'Ѕ':
		return 'S', true
	case 'ν':
		return 'v', true
	case 'κ':
		return 'k', true
	case 'τ':
		return 't', true
	case 'υ':
		return 'u', true
	case 'Ζ':
		return 'Z', true
	case 'Ν':
		return 'N', true
	}
	return 0, false
}

// invisible reports the characters that show as nothing: zero-width space, non-joiner, joiner,
// word joiner, byte order mark, soft hyphen.
func invisible(r rune) bool {
	switch r {
	case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad':
		return true
	}
	return false
}

// wrapFrom is how long a run of token characters must be before a line break for the break to
// be read as a long token wrapped.
const wrapFrom = 20

// normalise drops invisible characters, maps look-alike letters and full-width forms to ASCII and joins a token
// wrapped over lines (a break, with a shell's backslash or indentation, between two runs of
// token characters, the first of them long). at[i] is the offset in text of the copy's byte i.
// ok is false when there was nothing to undo.
func normalise(text string) (string, []int, bool) {
	if !maybeDisguised(text) {
		return "", nil, false
	}
	var b strings.Builder
	at := make([]int, 0, len(text))
	run, changed := 0, false
	for i := 0; i < len(text); {
		c := text[i]
		if c >= utf8.RuneSelf {
			r, w := utf8.DecodeRuneInString(text[i:])
			if invisible(r) {
				i += w
				changed = true
				continue
			}
			if a, ok := lookalike(r); ok {
				b.WriteByte(a)
				at = append(at, i)
				i += w
				run++
				changed = true
				continue
			}
			b.WriteString(text[i : i+w])
			for range w {
				at = append(at, i)
			}
			i += w
			run = 0
			continue
		}
		if (c == '\n' || c == '\r' || c == '\\') && (run >= wrapFrom || c == '\\' && run >= 4) {
			j := i
			if text[j] == '\\' {
				j++
			}
			if j < len(text) && text[j] == '\r' {
				j++
			}
			if j < len(text) && text[j] == '\n' {
				j++
				for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
					j++
				}
				if tail(text[j:]) {
					i = j
					changed = true
					continue
				}
			}
		}
		if wrapChar(c) {
			run++
		} else {
			run = 0
		}
		b.WriteByte(c)
		at = append(at, i)
		i++
	}
	return b.String(), at, changed
}

// maybeDisguised is the cheap test before normalise: a byte outside ASCII, or a line that
// ends in a long run of token characters with a token's tail on the next.
func maybeDisguised(text string) bool {
	var or byte
	for i := 0; i < len(text); i++ {
		or |= text[i]
	}
	if or >= utf8.RuneSelf {
		return true
	}
	for i := strings.IndexByte(text, '\n'); i >= 0; {
		e := i
		for e > 0 && (text[e-1] == '\r' || text[e-1] == '\\') {
			e--
		}
		b := e
		for b > 0 && e-b < wrapFrom && wrapChar(text[b-1]) {
			b--
		}
		if (e-b >= wrapFrom || e < i && text[e] == '\\' && e-b >= 4) && tail(strings.TrimLeft(text[i+1:min(len(text), i+256)], " \t")) {
			return true
		}
		next := strings.IndexByte(text[i+1:], '\n')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// tail reports whether s, the line after a break, goes on with a token's rest: a run of token
// characters at least 8 long, or one that ends the line or a quoted string (prose after a
// hash at a line's end, "The build ...", is no tail).
func tail(s string) bool {
	n := 0
	for n < len(s) && wrapChar(s[n]) {
		n++
	}
	return n >= 8 || n > 0 && (n == len(s) || strings.IndexByte("\r\n\"'`", s[n]) >= 0)
}

// wrapChar: a character of a token for wrapping, a JWT's dots included (one wrapped at a dot).
func wrapChar(c byte) bool { return tokenChar(c) || c == '.' }

func tokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+' || c == '/' || c == '='
}

// encoded finds credentials encoded in base64 (a Kubernetes secret's data, a token passed
// through base64 to dodge a scanner): each run of base64 long enough to hold a token is
// decoded, and scanned when what it decodes to is printable text. place, when text is a
// normalised copy, maps a run back to where it stands in the text scanned.
func encoded(text string, out []Match, place func(start, end int) (int, int)) []Match {
	for i := 0; i < len(text); {
		if !base64Chars[text[i]] {
			i++
			continue
		}
		j := i
		for j < len(text) && base64Chars[text[j]] {
			if text[j] == '=' && j+1 < len(text) && text[j+1] != '=' && base64Chars[text[j+1]] {
				break // NAME=dGhl...: an assignment, not padding; the value starts after it
			}
			j++
		}
		if j < len(text) && text[j] == '=' && j == i {
			i++
			continue
		}
		if j-i >= 28 && j-i <= 4<<10 && (i == 0 || !wordByte(text[i-1])) {
			if dec, ok := decodeText(text[i:j]); ok {
				start, end := i, j
				if place != nil {
					start, end = place(i, j)
				}
				out = addHidden(out, scan(dec, false), func(Match) (int, int) { return start, end })
			}
		}
		i = j
	}
	return out
}

// base64Chars marks the characters of standard and URL-safe base64, padding included.
var base64Chars = [256]bool{
	'A': true, 'B': true, 'C': true, 'D': true, 'E': true, 'F': true, 'G': true, 'H': true, 'I': true, 'J': true, 'K': true, 'L': true, 'M': true,
	'N': true, 'O': true, 'P': true, 'Q': true, 'R': true, 'S': true, 'T': true, 'U': true, 'V': true, 'W': true, 'X': true, 'Y': true, 'Z': true,
	'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true, 'g': true, 'h': true, 'i': true, 'j': true, 'k': true, 'l': true, 'm': true,
	'n': true, 'o': true, 'p': true, 'q': true, 'r': true, 's': true, 't': true, 'u': true, 'v': true, 'w': true, 'x': true, 'y': true, 'z': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'+': true, '/': true, '-': true, '_': true, '=': true,
}

// decodeText decodes s as standard or URL-safe base64, padded or not, and reports whether
// the result is printable ASCII text.
func decodeText(s string) (string, bool) {
	body := strings.TrimRight(s, "=")
	if len(body) < 27 {
		return "", false // a rule of = signs, or too short to hold a token
	}
	enc := base64.RawStdEncoding
	if strings.ContainsAny(body, "-_") {
		enc = base64.RawURLEncoding
	}
	if head, err := enc.DecodeString(body[:8]); err != nil || !printable(head) {
		return "", false // most base64 is binary, told from its first bytes
	}
	dec, err := enc.DecodeString(body)
	if err != nil || len(dec) < 20 || !printable(dec) {
		return "", false
	}
	return string(dec), true
}

func printable(b []byte) bool {
	for _, c := range b {
		if (c < ' ' || c > '~') && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}

// splitVariables finds a token split across shell variables and put together again where it
// is used ($A$B, ${H}.${P}.${S}): the pieces' literal values, joined, are scanned, and a
// credential found there is reported from the first piece's value to the last's.
func splitVariables(text string, out []Match) []Match {
	if !strings.Contains(text, "$") || !strings.Contains(text, "=") {
		return out
	}
	var vals map[string][2]int // a variable's literal value: where it stands; read at the first reference
	for i := 0; i < len(text); i++ {
		if text[i] != '$' {
			continue
		}
		var parts []string
		var spans [][2]int
		j := i
		for {
			name, k := varRef(text, j)
			if name == "" {
				break
			}
			if vals == nil {
				vals = map[string][2]int{}
				shellAssignments(text, vals)
			}
			v, ok := vals[name]
			if !ok {
				parts = nil
				break
			}
			parts = append(parts, text[v[0]:v[1]])
			spans = append(spans, v)
			j = k
			if j+1 < len(text) && (text[j] == '.' || text[j] == '-' || text[j] == '_') && text[j+1] == '$' {
				parts = append(parts, text[j:j+1])
				j++
				continue
			}
			if j >= len(text) || text[j] != '$' {
				break
			}
		}
		if len(spans) >= 2 {
			first, last := spans[0], spans[len(spans)-1]
			// The line up to the reference goes before the pieces: the name they are assigned
			// to (AWS_SECRET_ACCESS_KEY="$A$B") is what tells some formats.
			ctx := text[strings.LastIndexByte(text[:i], '\n')+1 : i]
			if len(ctx) > 64 {
				ctx = ctx[len(ctx)-64:]
			}
			var found []Match
			for _, m := range scan(ctx+strings.Join(parts, ""), false) {
				if m.End > len(ctx) {
					found = append(found, m)
				}
			}
			out = addHidden(out, found, func(Match) (int, int) {
				return min(first[0], last[0]), max(first[1], last[1])
			})
		}
		i = max(i, j-1)
	}
	return out
}

// varRef reads $NAME or ${NAME} at i; k is where the reference ends.
func varRef(text string, i int) (name string, k int) {
	if i >= len(text) || text[i] != '$' {
		return "", i
	}
	j := i + 1
	brace := j < len(text) && text[j] == '{'
	if brace {
		j++
	}
	s := j
	for j < len(text) && (isWordByte(text[j])) {
		j++
	}
	if j == s || text[s] >= '0' && text[s] <= '9' {
		return "", i
	}
	name = text[s:j]
	if brace {
		if j >= len(text) || text[j] != '}' {
			return "", i
		}
		j++
	}
	return name, j
}

// shellAssignments collects the shell assignments NAME=value with a literal value (quoted or not)
// into vals.
func shellAssignments(text string, vals map[string][2]int) {
	for i := strings.IndexByte(text, '='); i > 0; {
		n := i
		for n > 0 && isWordByte(text[n-1]) {
			n--
		}
		if n < i && (n == 0 || !isWordByte(text[n-1]) && text[n-1] != '$' && text[n-1] != '-') {
			s := i + 1
			q := byte(0)
			if s < len(text) && (text[s] == '"' || text[s] == '\'') {
				q = text[s]
				s++
			}
			e := s
			for e < len(text) && tokenChar(text[e]) || e < len(text) && text[e] == '.' {
				e++
			}
			if e > s && (q == 0 || e < len(text) && text[e] == q) {
				vals[text[n:i]] = [2]int{s, e}
			}
		}
		next := strings.IndexByte(text[i+1:], '=')
		if next < 0 {
			break
		}
		i += 1 + next
	}
}
