package lint

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// command checks a command handler: exec form (args present) or shell form.
func (c *checker) command(ms []member, path string) {
	cmd, ok := get(ms, "command")
	if !ok || cmd.Type != gjson.String || cmd.Str == "" {
		return // reported as handler.missing-field
	}
	cpath := join(path, "command")
	shell, hasShell := get(ms, "shell")
	if args, ok := get(ms, "args"); ok {
		bad := !args.IsArray()
		for _, a := range args.Array() {
			bad = bad || a.Type != gjson.String
		}
		if bad {
			c.add(Error, "exec.args", join(path, "args"), "args must be an array of strings, one per argv entry")
		}
		if hasShell {
			c.add(Warning, "shell.ignored", join(path, "shell"), "shell is ignored in exec form (args is present): the command is spawned without a shell")
		}
		p, dynamic := c.expand(cmd.Str)
		if !dynamic {
			c.program(cmd.Str, p, cpath, Error, "exec.not-found", "the hook cannot start")
		}
		return
	}
	if hasShell {
		if shell.Str == "powershell" {
			return // another language: the checks below are for sh
		}
		if shell.Str != "bash" {
			c.add(Error, "shell.unknown", join(path, "shell"), "shell must be \"bash\" or \"powershell\", not %s", shell.Raw)
		}
	}
	c.shellForm(cmd.Str, cpath)
}

// expand substitutes ~, $HOME and ${CLAUDE_PROJECT_DIR} the way the hook's process would see
// them, approximately; dynamic is true when other variables or substitutions remain.
func (c *checker) expand(s string) (string, bool) {
	w := scanShellWord(s, c.home, c.project)
	return w.value, w.dynamic || w.value == ""
}

// program checks that the program a command starts exists and is executable.
func (c *checker) program(written, p, path string, sev Severity, rule, consequence string) {
	if !strings.Contains(p, "/") {
		if _, err := exec.LookPath(p); err != nil {
			c.add(sev, rule, path, "%s is not on PATH here (%s if Claude Code's PATH lacks it too)", p, consequence)
		}
		return
	}
	if !filepath.IsAbs(p) {
		c.add(Warning, "command.relative-path", path, "%s is relative to the session's working directory, which follows cd; start it with \"$CLAUDE_PROJECT_DIR\"/", written)
		return
	}
	fi, err := os.Stat(p)
	switch {
	case err != nil && os.IsNotExist(err):
		c.add(sev, rule, path, "%s does not exist (%s)", written, consequence)
	case err != nil:
		c.add(sev, rule, path, "%s cannot be checked: %v", written, err)
	case fi.IsDir():
		c.add(sev, rule, path, "%s is a directory (%s)", written, consequence)
	case fi.Mode()&0o111 == 0:
		c.add(sev, rule, path, "%s is not executable (%s); chmod +x it", written, consequence)
	}
}

// shellForm checks a command run by sh -c: quoting hazards, then the program it starts.
func (c *checker) shellForm(cmd, path string) {
	sc := scanShell(cmd, c.home, c.project)
	if sc.open != 0 {
		open := map[byte]string{'{': "${", '(': "$("}[sc.open]
		if open == "" {
			open = "the " + string(sc.open) + " quote"
		}
		c.add(Warning, "shell.unbalanced-quotes", path, "%s is never closed: sh cannot parse this command and the hook never runs", open)
		return
	}
	if sc.backslash {
		c.add(Warning, "shell.backslash-path", path, "backslashes in a Windows path are shell escapes (Git Bash turns C:\\Users\\x into C:Usersx); use forward slashes or exec form")
	}
	for _, v := range sc.unquoted {
		c.add(Warning, "shell.unquoted-var", path, "$%s is unquoted: a path with a space splits the command; write \"$%s\"/...", v, v)
	}
	if len(sc.words) == 0 || sc.backslash {
		return
	}
	w := sc.words[0]
	if w.dynamic || builtin(w.value) {
		return
	}
	if w.quotedTilde {
		c.add(Warning, "shell.quoted-tilde", path, "~ is not expanded inside quotes, so the program is looked up in a directory called ~; write \"$HOME\"/...")
		return
	}
	if filepath.IsAbs(w.value) && len(sc.words) > 1 && !exists(w.value) {
		next := sc.words[1]
		cont := strings.Contains(next.value, "/") && strings.IndexByte("-/$~.", next.value[0]) < 0
		if cont || exists(w.value+" "+next.value) {
			c.add(Warning, "shell.unquoted-space", path, "%s %s looks like one path with a space in it; quote it, or sh runs %s", w.raw, next.raw, w.raw)
			return
		}
	}
	c.program(w.raw, w.value, path, Warning, "shell.not-found", "sh exits 127 and the hook does nothing")
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// builtins are the shell words that are not programs on disk. A string, not a map: the
// package builds nothing at start-up.
const builtins = `. : [ [[ { ! alias bg break builtin case cd command continue declare echo eval exec
	exit export false fc fg for function getopts hash if jobs kill let local printf pwd read readonly
	return select set shift source test time trap true type typeset ulimit umask unalias unset until
	wait while`

func builtin(w string) bool { return slices.Contains(strings.Fields(builtins), w) }

// word is one word of a shell command, as far as the checks need it.
type word struct {
	raw         string // as written
	value       string // quotes removed; ~, $HOME and $CLAUDE_PROJECT_DIR expanded
	dynamic     bool   // holds something not resolved here: another variable, a substitution, a glob
	quotedTilde bool   // starts with a quoted ~, which sh does not expand
	assign      bool   // a VAR=value prefix
}

// shellScan is what a light reading of a shell command finds. It is no parser: it follows
// quotes, escapes and expansions well enough to find the program and the common hazards.
type shellScan struct {
	words     []word   // the words of the first simple command, without VAR=value prefixes
	open      byte     // the quote left open at the end, 0 when balanced
	backslash bool     // a Windows path such as C:\x outside single quotes
	unquoted  []string // path variables expanded outside quotes
}

func scanShellWord(s, home, project string) word {
	// Exec form has no shell: only the whole string is the program, quotes and all.
	var w word
	var b strings.Builder
	sc := &shellScan{}
	for i := 0; i < len(s); i++ {
		switch {
		case i == 0 && s[0] == '~':
			// ~ and ~/x are the home directory; ~user is not resolved here.
			w.dynamic = home == "" || len(s) > 1 && s[1] != '/'
			b.WriteString(home)
		case s[i] == '$':
			i = sc.dollar(s, i, &b, &w, true, home, project)
		default:
			b.WriteByte(s[i])
		}
	}
	w.value = b.String()
	return w
}

func scanShell(s, home, project string) shellScan {
	var sc shellScan
	var b strings.Builder
	var w word
	inWord, first, quoted := false, true, false
	start := 0
	var state byte // 0, '\'' or '"'
	end := func(i int) {
		if inWord && first {
			w.raw, w.value = s[start:i], b.String()
			if !w.assign {
				sc.words = append(sc.words, w)
			}
		}
		b.Reset()
		w, inWord, quoted = word{}, false, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !inWord && state == 0 {
			start = i
		}
		switch state {
		case '\'':
			if c == '\'' {
				state = 0
			} else {
				b.WriteByte(c)
			}
			continue
		case '"':
			switch c {
			case '"':
				state = 0
			case '\\':
				if i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
					if s[i] != '\n' {
						b.WriteByte(s[i])
					}
					continue
				}
				sc.backslash = sc.backslash || winPath(s, i)
				b.WriteByte(c)
			case '$':
				i = sc.dollar(s, i, &b, &w, true, home, project)
			case '`':
				w.dynamic = true
				i = skipTo(s, i, '`', &sc)
			default:
				b.WriteByte(c)
			}
			continue
		}
		switch c {
		case ' ', '\t':
			end(i)
		case '\n', ';', '&', '|', '(', ')', '<', '>':
			end(i)
			// The first command ends at the first operator after one of its words.
			first = first && len(sc.words) == 0
		case '\'', '"':
			if !inWord && i+1 < len(s) && s[i+1] == '~' {
				w.quotedTilde = true
			}
			inWord, quoted, state = true, true, c
		case '\\':
			inWord, quoted = true, true
			sc.backslash = sc.backslash || winPath(s, i)
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.WriteByte(s[i])
				}
			}
		case '$':
			inWord, quoted = true, true
			i = sc.dollar(s, i, &b, &w, false, home, project)
		case '`':
			inWord, w.dynamic = true, true
			i = skipTo(s, i, '`', &sc)
		case '~':
			if !inWord && (i+1 == len(s) || strings.IndexByte("/ \t\n;&|", s[i+1]) >= 0) {
				w.dynamic = w.dynamic || home == ""
				b.WriteString(home)
			} else {
				w.dynamic = w.dynamic || !inWord // ~user
				b.WriteByte(c)
			}
			inWord = true
		case '*', '?', '[':
			inWord, w.dynamic = true, true
			b.WriteByte(c)
		case '#':
			if inWord {
				b.WriteByte(c)
				continue
			}
			end(i)
			first = first && len(sc.words) == 0
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(s)
			}
		case '=':
			if !quoted && !w.assign && isName(b.String()) && len(sc.words) == 0 {
				w.assign = true
			}
			inWord = true
			b.WriteByte(c)
		default:
			inWord = true
			b.WriteByte(c)
		}
	}
	if state != 0 {
		sc.open = state
	}
	end(len(s))
	return sc
}

// dollar reads the expansion at s[i] ('$') into b and returns the index of its last byte.
func (sc *shellScan) dollar(s string, i int, b *strings.Builder, w *word, quoted bool, home, project string) int {
	if i+1 >= len(s) {
		b.WriteByte('$')
		return i
	}
	name, last := "", i
	switch n := s[i+1]; {
	case n == '{':
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			sc.open = '{'
			w.dynamic = true
			return len(s) - 1
		}
		name, last = s[i+2:i+2+j], i+2+j
	case n == '(':
		w.dynamic = true
		depth := 0
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					return j
				}
			}
		}
		sc.open = '('
		return len(s) - 1
	case n == '_' || isLetter(n):
		j := i + 1
		for j < len(s) && (s[j] == '_' || isLetter(s[j]) || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		name, last = s[i+1:j], j-1
	case strings.IndexByte("0123456789@*#?-$!", n) >= 0:
		w.dynamic = true
		return i + 1
	default:
		b.WriteByte('$')
		return i
	}
	switch name {
	case "HOME":
		w.dynamic = w.dynamic || home == ""
		b.WriteString(home)
	case "CLAUDE_PROJECT_DIR":
		b.WriteString(project)
	default:
		w.dynamic = true
	}
	if !quoted && (name == "CLAUDE_PROJECT_DIR" || name == "CLAUDE_PLUGIN_ROOT" || name == "CLAUDE_PLUGIN_DATA") {
		for _, u := range sc.unquoted {
			if u == name {
				return last
			}
		}
		sc.unquoted = append(sc.unquoted, name)
	}
	return last
}

// skipTo returns the index of the next q after s[i], noting an unclosed one.
func skipTo(s string, i int, q byte, sc *shellScan) int {
	if j := strings.IndexByte(s[i+1:], q); j >= 0 {
		return i + 1 + j
	}
	sc.open = q
	return len(s) - 1
}

// winPath reports whether the backslash at s[i] follows a drive (C:\) or starts .\ or ..\ .
func winPath(s string, i int) bool {
	if i >= 2 && s[i-1] == ':' && isLetter(s[i-2]) && (i == 2 || strings.IndexByte(" \t\"'=", s[i-3]) >= 0) {
		return true
	}
	j := i
	for j > 0 && s[j-1] == '.' && i-j < 2 {
		j--
	}
	return j < i && (j == 0 || strings.IndexByte(" \t\"'", s[j-1]) >= 0)
}

func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] == '_' || isLetter(s[i]) || s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return true
}
