package lint

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// Kind is how Claude Code reads a matcher (REFERENCE.md §2.5).
type Kind uint8

const (
	// All: "*", "" or no matcher, or any matcher on an event that takes none: every group runs.
	All Kind = iota
	// Exact: only the event's exact-name characters: a list of names split on | (and , on Wide events).
	Exact
	// Regexp: anything else, a JavaScript regular expression tested unanchored.
	Regexp
)

func (k Kind) String() string {
	return [...]string{"all", "exact list", "regular expression"}[k]
}

// Classify says how Claude Code reads matcher on event ev. The error is set for an unknown
// event and for a regular expression JavaScript would reject (Claude Code logs it and the
// group never matches). JavaScript-only constructs such as lookahead and backreferences are
// accepted.
func Classify(ev event.Name, matcher string) (Kind, error) {
	spec, ok := event.Lookup(ev)
	if !ok {
		return All, fmt.Errorf("unknown event %q", ev)
	}
	if spec.Syntax == event.NoMatcher || matcher == "" || matcher == "*" {
		return All, nil
	}
	if exactChars(matcher, spec.Syntax) {
		return Exact, nil
	}
	if _, _, err := translate(matcher); err != nil {
		return Regexp, err
	}
	return Regexp, nil
}

// Names splits an exact-list matcher into its names: on | and , with spaces trimmed.
func Names(matcher string) []string {
	var names []string
	for _, n := range strings.FieldsFunc(matcher, func(r rune) bool { return r == '|' || r == ',' }) {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}

func exactChars(m string, s event.Syntax) bool {
	for i := 0; i < len(m); i++ {
		b := m[i]
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9', b == '_', b == '|':
		case s == event.Wide && (b == '-' || b == ',' || b == ' '):
		default:
			return false
		}
	}
	return true
}

// translate rewrites a JavaScript pattern (no flags, as Claude Code builds it) into Go syntax so
// regexp/syntax can check it. exact is false when JavaScript-only constructs (lookaround,
// backreferences) were replaced by empty groups: the result then parses like the original but
// does not match like it.
func translate(p string) (goPattern string, exact bool, err error) {
	var b strings.Builder
	exact = true
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '\\':
			n, adv, js, err := escape(p, i, false)
			if err != nil {
				return "", false, err
			}
			b.WriteString(n)
			i += adv
			exact = exact && !js
		case '(':
			if !strings.HasPrefix(p[i:], "(?") {
				b.WriteByte('(')
				continue
			}
			rest := p[i+2:]
			switch {
			case strings.HasPrefix(rest, ":"):
				b.WriteString("(?:")
				i += 2
			case strings.HasPrefix(rest, "="), strings.HasPrefix(rest, "!"):
				b.WriteString("(?:")
				i += 2
				exact = false
			case strings.HasPrefix(rest, "<="), strings.HasPrefix(rest, "<!"):
				b.WriteString("(?:")
				i += 3
				exact = false
			case strings.HasPrefix(rest, "<"):
				b.WriteString("(?<") // named group: Go reads (?<name> too
				i += 2
			default:
				// ES2025 modifiers (?i:...) are left to Go, which reads them alike; JavaScript
				// has no bare (?i) and no other (? group.
				j := 0
				for j < len(rest) && strings.IndexByte("imsx-", rest[j]) >= 0 {
					j++
				}
				if j == 0 || j == len(rest) || rest[j] != ':' {
					return "", false, fmt.Errorf("invalid group %q (JavaScript has no inline flags)", "(?"+rest[:min(j+1, len(rest))])
				}
				b.WriteString("(?" + rest[:j+1])
				i += 2 + j
			}
		case '[':
			class, adv, err := charClass(p, i)
			if err != nil {
				return "", false, err
			}
			b.WriteString(class)
			i += adv
		default:
			b.WriteByte(c)
		}
	}
	if _, err := syntax.Parse(b.String(), syntax.Perl); err != nil {
		if se, ok := err.(*syntax.Error); ok {
			return "", false, errors.New(string(se.Code)) // the pattern is in the message already
		}
		return "", false, err
	}
	return b.String(), exact, nil
}

// escape translates the escape at p[i] ('\\'): the Go text, how many bytes after i it used,
// and whether it is a JavaScript-only construct.
func escape(p string, i int, inClass bool) (string, int, bool, error) {
	if i+1 >= len(p) {
		return "", 0, false, fmt.Errorf("\\ at end of pattern")
	}
	c := p[i+1]
	switch {
	case c >= '1' && c <= '9':
		j := i + 1
		for j < len(p) && p[j] >= '0' && p[j] <= '9' {
			j++
		}
		if inClass {
			return `\x01`, j - i - 1, false, nil // an octal escape there, not a backreference
		}
		return "(?:)", j - i - 1, true, nil
	case c == '0':
		return `\x00`, 1, false, nil
	case c == 'k' && i+2 < len(p) && p[i+2] == '<':
		if j := strings.IndexByte(p[i:], '>'); j > 0 {
			return "(?:)", j, true, nil
		}
		return "k", 1, false, nil
	case c == 'b' && inClass:
		return `\x08`, 1, false, nil
	case strings.IndexByte("dDwWsSbBtnrfv", c) >= 0:
		return `\` + string(c), 1, false, nil
	case c == 'c' && i+2 < len(p) && isLetter(p[i+2]):
		return fmt.Sprintf(`\x%02x`, p[i+2]%32), 2, false, nil
	case c == 'x' && i+3 < len(p) && isHex(p[i+2:i+4]):
		return `\x` + p[i+2:i+4], 3, false, nil
	case c == 'u' && i+5 < len(p) && isHex(p[i+2:i+6]):
		return `\x{` + p[i+2:i+6] + `}`, 5, false, nil
	case c >= 0x80:
		return "", 0, false, nil // the multi-byte rune follows as is
	case isLetter(c) || c >= '0' && c <= '9':
		// Without the u flag JavaScript reads an unknown escape as the letter itself.
		return string(c), 1, false, nil
	}
	return `\` + string(c), 1, false, nil
}

// charClass translates the class starting at p[i] ('['). JavaScript ends a class at the first
// unescaped ], reads [] as "nothing" and [^] as "anything", and has no POSIX [:classes:].
func charClass(p string, i int) (string, int, error) {
	var b strings.Builder
	j := i + 1
	neg := j < len(p) && p[j] == '^'
	if neg {
		j++
	}
	if j < len(p) && p[j] == ']' {
		if neg {
			return `[\x00-\x{10FFFF}]`, j - i, nil
		}
		return `[^\x00-\x{10FFFF}]`, j - i, nil
	}
	b.WriteByte('[')
	if neg {
		b.WriteByte('^')
	}
	for ; j < len(p); j++ {
		switch c := p[j]; c {
		case ']':
			b.WriteByte(']')
			return b.String(), j - i, nil
		case '\\':
			n, adv, _, err := escape(p, j, true)
			if err != nil {
				return "", 0, err
			}
			b.WriteString(n)
			j += adv
		case '[':
			b.WriteString(`\[`)
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("missing closing ]")
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f' || s[i] >= 'A' && s[i] <= 'F') {
			return false
		}
	}
	return true
}

// tools are the tool names a tool event's matcher meets: the tools Claude Code 2.1.330 offered
// in the captured sessions and those REFERENCE.md names, older built-ins that configurations
// still mention, and the legacy names it maps to renamed tools (§2.5).
var tools = []string{
	"Agent", "AskUserQuestion", "Bash", "BashOutput", "CronCreate", "CronDelete", "CronList", "Edit",
	"EnterPlanMode", "EnterWorktree", "ExitPlanMode", "ExitWorktree", "Glob", "Grep", "ListAgents",
	"ListMcpResourcesTool", "Monitor", "MultiEdit", "NotebookEdit", "PowerShell", "Read",
	"ReadMcpResourceDirTool", "ReadMcpResourceTool", "ReportFindings", "ScheduleWakeup", "SendMessage",
	"SendUserMessage", "SetGoal", "Skill", "TaskCreate", "TaskStop", "TodoWrite", "ToolSearch",
	"WebFetch", "WebSearch", "Workflow", "Write",
	// legacy names
	"Brief", "KillBash", "KillShell", "ListMcpResources", "ListPeers", "ProposeGoal", "ReadMcpResource",
	"ReadMcpResourceDir", "Task",
}

// selection is what one group's matcher selects, for the duplicate check.
type selection struct {
	kind  Kind
	raw   string
	names []string       // Exact
	re    *regexp.Regexp // Regexp that Go can run with JavaScript's meaning; nil otherwise
	none  bool           // an invalid regexp: matches nothing
}

func (c *checker) matcher(spec event.Spec, ms []member, path string) selection {
	v, ok := get(ms, "matcher")
	if !ok || v.Type == gjson.Null {
		return selection{kind: All}
	}
	if v.Type != gjson.String {
		c.add(Error, "matcher.not-string", path, "matcher must be a string, not %s", kindOf(v))
		return selection{kind: All}
	}
	m := v.Str
	if spec.Syntax == event.NoMatcher {
		if m != "" && m != "*" {
			c.add(Warning, "matcher.ignored", path, "%s takes no matcher: %q is ignored and the group runs on every %s", spec.Name, m, spec.Name)
		}
		return selection{kind: All}
	}
	kind, err := Classify(spec.Name, m)
	sel := selection{kind: kind, raw: m}
	switch kind {
	case All:
		if spec.Name == event.FileChanged && m == "*" {
			c.add(Warning, "matcher.star-file", path, "on FileChanged \"*\" also watches a file literally named *; omit the matcher to match every watched file")
		}
	case Exact:
		sel.names = Names(m)
		c.exactNames(spec, sel.names, path)
	case Regexp:
		if err != nil {
			c.add(Error, "matcher.regex-invalid", path, "%q is not a valid regular expression (%v): Claude Code logs it and the group never matches", m, err)
			sel.none = true
			break
		}
		if spec.Syntax == event.Narrow && strings.Contains(m, ",") {
			c.add(Warning, "matcher.separator", path, "on %s only | separates names, so %q is read as one regular expression; write %s", spec.Name, m, strings.Join(Names(m), "|"))
			break
		}
		sel.re = c.toolRegexp(spec, m, path)
	}
	return sel
}

func (c *checker) exactNames(spec event.Spec, names []string, path string) {
	if !toolEvent(spec.Name) {
		return
	}
	for _, n := range names {
		if rest, ok := strings.CutPrefix(n, "mcp__"); ok && !strings.Contains(rest, "__") {
			c.add(Error, "matcher.mcp-server", path, "%q names an MCP server, not a tool, and matches nothing; use %s__.* for its tools", n, n)
			continue
		}
		if slices.Contains(tools, n) {
			continue
		}
		for _, t := range tools {
			if strings.EqualFold(n, t) {
				c.add(Error, "matcher.case", path, "%q matches no tool (matchers are case-sensitive): did you mean %s?", n, t)
				break
			}
		}
	}
}

// toolRegexp checks a valid regular expression on a tool event against the known tool names
// and returns it compiled, or nil when Go cannot run it with JavaScript's meaning.
func (c *checker) toolRegexp(spec event.Spec, m, path string) *regexp.Regexp {
	g, exact, _ := translate(m)
	if !exact {
		return nil
	}
	re, err := regexp.Compile(g)
	if err != nil {
		return nil
	}
	if !toolEvent(spec.Name) {
		return re
	}
	// What a regexp "means" is taken to be what it matches from the start of the name: the
	// surprise is a match in the middle (Edit.* in NotebookEdit), not a prefix the author wrote.
	start, err := regexp.Compile(`^(?:` + g + `)`)
	if err != nil {
		return re
	}
	var extra, meant []string
	for _, t := range tools {
		switch {
		case start.MatchString(t):
			meant = append(meant, t)
		case re.MatchString(t):
			extra = append(extra, t)
		}
	}
	if len(extra) > 0 {
		msg := fmt.Sprintf("%q is a regular expression, tested unanchored, and also matches %s; anchor it (%s)", m, and(extra), anchor(m))
		if len(meant) > 0 {
			msg += " or list names (" + strings.Join(meant, "|") + ")"
		}
		c.add(Warning, "matcher.unanchored", path, "%s", msg)
	}
	if len(extra)+len(meant) == 0 && !strings.HasPrefix(m, "mcp__") {
		ci, err := regexp.Compile(`(?i)` + g)
		if err != nil {
			return re
		}
		for _, t := range tools {
			if ci.MatchString(t) {
				c.add(Error, "matcher.case", path, "%q matches no tool (matchers are case-sensitive): did you mean %s?", m, t)
				break
			}
		}
	}
	return re
}

// anchor wraps a pattern in ^ and $, grouping it when it has a top-level alternation.
func anchor(m string) string {
	m = strings.TrimSuffix(strings.TrimPrefix(m, "^"), "$")
	depth, class := 0, false
	for i := 0; i < len(m); i++ {
		switch m[i] {
		case '\\':
			i++
		case '[':
			class = true
		case ']':
			class = false
		case '(':
			if !class {
				depth++
			}
		case ')':
			if !class {
				depth--
			}
		case '|':
			if !class && depth == 0 {
				return "^(" + m + ")$"
			}
		}
	}
	return "^" + m + "$"
}

func and(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// overlap reports whether some value could match both selections.
func overlap(spec event.Spec, a, b selection) bool {
	if a.none || b.none {
		return false
	}
	if a.kind == All || b.kind == All {
		return true
	}
	if a.kind == Exact && b.kind == Exact {
		for _, n := range a.names {
			if slices.Contains(b.names, n) {
				return true
			}
		}
		return false
	}
	if a.kind == Exact {
		a, b = b, a
	}
	if b.kind == Exact {
		if a.re == nil {
			return false
		}
		for _, n := range b.names {
			if a.re.MatchString(n) {
				return true
			}
		}
		return false
	}
	if a.raw == b.raw {
		return true
	}
	if a.re == nil || b.re == nil || !toolEvent(spec.Name) {
		return false
	}
	for _, t := range tools {
		if a.re.MatchString(t) && b.re.MatchString(t) {
			return true
		}
	}
	return false
}
