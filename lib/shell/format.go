// printf's formatting of a format and its arguments, as far as it is known.

package shell

import "strings"

// printf formats the way printf(1) does for %s, %b, %% and backslash escapes; other
// directives make the output unknown.
func printf(format string, args []string) (string, bool) {
	var b strings.Builder
	for round := 0; round < 64; round++ {
		used := false
		for i := 0; i < len(format); i++ {
			ch := format[i]
			switch {
			case ch == '\\' && i+1 < len(format):
				i++
				switch format[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case '\\':
					b.WriteByte('\\')
				case 'x', '0', '1', '2', '3', '4', '5', '6', '7':
					// \0 (NUL, what xargs -0 splits on), \162, \x72
					if v, isByte, end, ok := numEscape(format, i, false); ok && isByte {
						b.WriteByte(byte(v))
						i = end
						break
					}
					b.WriteByte('\\')
					b.WriteByte(format[i])
				default:
					b.WriteByte('\\')
					b.WriteByte(format[i])
				}
			case ch == '%' && i+1 < len(format):
				i++
				switch format[i] {
				case '%':
					b.WriteByte('%')
				case 's', 'b':
					if len(args) > 0 {
						b.WriteString(args[0])
						args = args[1:]
					}
					used = true
				default:
					return "", false
				}
			default:
				b.WriteByte(ch)
			}
		}
		if !used || len(args) == 0 {
			return b.String(), true
		}
	}
	return "", false
}
