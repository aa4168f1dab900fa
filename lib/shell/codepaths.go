package shell

import (
	"cmp"
	"encoding/base64"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Expressions in interpreter code that stand for the home directory.
var homeExprs = []string{"os.path.expanduser(\"~\")", "os.path.expanduser('~')", "pathlib.Path.home()", "Path.home()",
	"require('os').homedir()", `require("os").homedir()`, "require(`os`).homedir()", "os.homedir()", "Dir.home", "ENV['HOME']", `ENV["HOME"]`,
	"ENV.fetch('HOME')", `ENV.fetch("HOME")`, "os.environ['HOME']", `os.environ["HOME"]`, "os.environ.get('HOME')", `os.environ.get("HOME")`,
	"os.getenv('HOME')", `os.getenv("HOME")`, "process.env.HOME", "process.env['HOME']", `process.env["HOME"]`, "$ENV{HOME}",
	"$ENV{'HOME'}", `$ENV{"HOME"}`, "getenv('HOME')", `getenv("HOME")`, "Deno.env.get('HOME')", `Deno.env.get("HOME")`,
	"Bun.env.HOME", "Sys.getenv('HOME')", `Sys.getenv("HOME")`, "path.expand('~')", `path.expand("~")`, "$env:HOME", "$env:USERPROFILE",
	"$_SERVER['HOME']", `$_SERVER["HOME"]`, `ENVIRON["HOME"]`, "homedir()", `os.Getenv("HOME")`, `os.UserHomeDir()`,
	`std::env::var("HOME").unwrap()`, `env::var("HOME").unwrap()`, `dirs::home_dir().unwrap()`, `System.getProperty("user.home")`,
	`System.getProperty('user.home')`, `System.getenv("HOME")`, `Sys.getenv("HOME")`, `homedir()`, `ENV["HOME"]`}

// Expressions that stand for the working directory.
var cwdExprs = []string{"process.cwd()", "os.getcwd()", "pathlib.Path.cwd()", "Path.cwd()", "Dir.pwd", "getcwd()", "Deno.cwd()", "getwd()"}

// pathValue evaluates the path expression at the start of s (a call's first argument): string
// literals, the home and working directory, the calls that expand ~ or join paths, and
// concatenation with + . .. or pathlib's /. It fails on anything it cannot know.
func pathValue(s, home, cwd string) (string, bool) {
	v, tail, ok := pathExpr(s, home, cwd, 0)
	if t := strings.TrimLeft(tail, " \t\n"); ok && t != "" && strings.IndexByte(",);]}", t[0]) < 0 {
		return "", false // more follows (Path.home().parent, x.with_suffix()): not what was read
	}
	return v, ok
}

func pathExpr(s, home, cwd string, depth int) (string, string, bool) {
	if depth > 4 {
		return "", s, false
	}
	var out string
	for n := 0; n < 8; n++ {
		v, rest, ok := pathTerm(s, home, cwd, depth)
		if !ok {
			return "", s, false
		}
		out += v
		rest = strings.TrimLeft(rest, " \t")
		for strings.HasPrefix(rest, ".joinpath(") { // pathlib: Path.home().joinpath('.ssh', 'id_rsa')
			inner := rest[len(".joinpath("):]
			for _, arg := range splitArgs(callArgs(inner)) {
				part, tail, ok := pathExpr(arg, home, cwd, depth+1)
				if !ok || strings.TrimSpace(tail) != "" {
					return "", s, false
				}
				out = strings.TrimSuffix(out, "/") + "/" + part
			}
			rest = strings.TrimLeft(inner[min(len(inner), len(callArgs(inner))+1):], " \t")
		}
		switch {
		case strings.HasPrefix(rest, ".."): // lua
			s = rest[2:]
		case strings.HasPrefix(rest, "+") && !strings.HasPrefix(rest, "+="):
			s = rest[1:]
		case strings.HasPrefix(rest, ". ") || strings.HasPrefix(rest, ".\"") || strings.HasPrefix(rest, ".'") || strings.HasPrefix(rest, ".$"): // php, perl
			s = rest[1:]
		case strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "//"): // pathlib
			s = rest[1:]
			out += "/"
		case startsTerm(rest): // awk's "rm -rf " ENVIRON["HOME"], python's 'a' 'b': side by side
			s = rest
		default:
			return out, rest, true
		}
		s = strings.TrimLeft(s, " \t")
	}
	return "", s, false
}

// startsTerm reports text that begins a string literal or names the home directory: a term
// written right after another is joined to it.
func startsTerm(s string) bool {
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		return true
	}
	for _, h := range homeExprs {
		if strings.HasPrefix(s, h) {
			return true
		}
	}
	return false
}

// decoders are calls that decode base64 text in code.
var decoders = []string{"base64.b64decode(", "base64.standard_b64decode(", "base64.urlsafe_b64decode(", "atob(", "Base64.decode64(",
	"Base64.strict_decode64(", "base64_decode(", "decode_base64(", "Buffer.from("}

// pathHead reads a path expression whose first term is known and whose rest is not
// (Path.home() / sys.argv[1], os.homedir() + name): a run-time name under that term.
func pathHead(s, home, cwd string) (string, bool) {
	v, rest, ok := pathTerm(s, home, cwd, 0)
	rest = strings.TrimLeft(rest, " \t")
	if !ok || v == "" || !(strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, "..") ||
		strings.HasPrefix(rest, ". ") || strings.HasPrefix(rest, ".joinpath(")) {
		return "", false
	}
	return strings.TrimSuffix(v, "/") + "/" + Dyn, true
}

// pathTerm reads one term of a path expression.
func pathTerm(s, home, cwd string, depth int) (string, string, bool) {
	s = strings.TrimLeft(s, " \t\n")
	for _, sep := range []string{"os.sep", "os.path.sep", "path.sep", "File::SEPARATOR", "DIRECTORY_SEPARATOR"} {
		if rest, ok := strings.CutPrefix(s, sep); ok && (rest == "" || !isIdent(rest[0])) {
			return "/", rest, true
		}
	}
	for _, f := range []string{"sprintf(", "format(", "String.format("} {
		if rest, ok := strings.CutPrefix(s, f); ok && depth < 4 {
			// sprintf("%c%c -rf %s", 114, 109, ENVIRON["HOME"]): the text it comes to
			v, ok := formatted(callArgs(rest), home, cwd, depth+1)
			if !ok {
				return "", s, false
			}
			return v, rest[min(len(rest), len(callArgs(rest))+1):], true
		}
	}
	for _, d := range decoders {
		if rest, ok := strings.CutPrefix(s, d); ok {
			// base64.b64decode('cm0gLXJmIH4=').decode(): the text it decodes to
			args := splitArgs(callArgs(rest))
			if len(args) == 0 || d == "Buffer.from(" && (len(args) < 2 || !strings.Contains(args[1], "base64")) {
				return "", s, false
			}
			lit, ok := stringLiteral(args[0])
			if !ok {
				return "", s, false
			}
			dec, err := base64.StdEncoding.DecodeString(lit)
			if err != nil {
				if dec, err = base64.URLEncoding.DecodeString(lit); err != nil {
					return "", s, false
				}
			}
			rest, _ = methods(rest[min(len(rest), len(callArgs(rest))+1):])
			return string(dec), rest, true
		}
	}
	for _, h := range homeExprs {
		if rest, ok := strings.CutPrefix(s, h); ok {
			v := home
			for {
				rest, _ = methods(rest)
				after, isParent := strings.CutPrefix(strings.TrimLeft(rest, " \t"), ".parent")
				if !isParent || after != "" && isIdent(after[0]) {
					break
				}
				v, rest = path.Dir(v), after // Path.home().parent
			}
			return v, rest, true
		}
	}
	for _, h := range cwdExprs {
		if rest, ok := strings.CutPrefix(s, h); ok {
			rest, _ = methods(rest)
			return cwd, rest, true
		}
	}
	if rest, ok := strings.CutPrefix(s, "glob "); ok && depth < 4 {
		return pathExpr(rest, home, cwd, depth+1) // perl: unlink glob "PATTERN"
	}
	for _, w := range []string{"os.path.expanduser(", "expanduser(", "File.expand_path(", "expand_path(", "path.expand(", "os.path.abspath(",
		"os.path.realpath(", "os.path.normpath(", "pathlib.Path(", "Path(", "Pathname.new(", "path.resolve(", "path.normalize(",
		"glob.glob(", "glob(", "Dir.glob(", "File.join(", "os.path.join(", "path.join(", "require('path').join(", `require("path").join(`,
		"require('path').resolve(", `require("path").resolve(`, "Join-Path ", "file.path("} {
		rest, ok := strings.CutPrefix(s, w)
		if !ok {
			continue
		}
		args := splitArgs(callArgs(rest))
		if w == "Join-Path " {
			args, rest = strings.Fields(rest), ""
		} else {
			rest = rest[min(len(rest), len(callArgs(rest))+1):]
		}
		if len(args) == 0 {
			return "", s, false
		}
		joined := ""
		for i, arg := range args {
			if i > 0 && !strings.Contains(w, "join") && !strings.Contains(w, "Join") && !strings.Contains(w, "resolve(") && w != "file.path(" {
				break // open(path, mode), glob(pattern, flags): the path is the first
			}
			if strings.Contains(arg, "=") && !strings.HasPrefix(strings.TrimSpace(arg), "'") && !strings.HasPrefix(strings.TrimSpace(arg), "\"") {
				continue // keyword arguments
			}
			v, tail, ok := pathExpr(arg, home, cwd, depth+1)
			if !ok || strings.TrimSpace(tail) != "" {
				return "", s, false
			}
			switch {
			case i == 0 || strings.HasPrefix(v, "/"):
				joined = v
			default:
				joined = strings.TrimSuffix(joined, "/") + "/" + v
			}
		}
		rest, expands := methods(rest)
		if expands || w == "os.path.expanduser(" || w == "expanduser(" || w == "File.expand_path(" || w == "expand_path(" || w == "path.expand(" {
			joined = tilde(joined, home)
		}
		return joined, rest, true
	}
	lit, ok := stringLiteral(s)
	if !ok {
		return "", s, false
	}
	rest, _ := methods(skipLiteral(strings.TrimLeft(s, " \t\n(")))
	return interpolateHome(lit, home, cwd), rest, true
}

// methods skips calls that keep a path's meaning (.resolve(), .absolute(), .toString()) and
// reports whether one of them expands ~ (.expanduser()).
func methods(rest string) (string, bool) {
	tilde := false
	for {
		r := strings.TrimLeft(rest, " \t")
		found := false
		for _, m := range []string{".resolve()", ".absolute()", ".toString()", ".to_s", ".expanduser()", ".expand_path", ".href",
			".decode()", ".decode('utf-8')", `.decode("utf-8")`, ".toString('utf8')", `.toString("utf8")`, ".toString('utf-8')"} {
			if after, ok := strings.CutPrefix(r, m); ok {
				tilde = tilde || m == ".expanduser()" || m == ".expand_path"
				rest, found = after, true
			}
		}
		if !found {
			break
		}
	}
	return rest, tilde
}

func tilde(p, home string) string {
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return path.Join(home, rest)
	}
	return p
}

// interpolateHome replaces the home and working directory written inside a string
// ("$ENV{HOME}/.ssh", f"{Path.home()}/x", `${os.homedir()}/x`, "#{Dir.home}/x").
func interpolateHome(lit, home, cwd string) string {
	if !strings.ContainsAny(lit, "${") {
		return lit
	}
	if lower := strings.ToLower(lit); !strings.Contains(lower, "home") && !strings.Contains(lower, "userprofile") &&
		!strings.Contains(lower, "cwd") && !strings.Contains(lower, "pwd") && !strings.Contains(lower, "getwd") {
		return lit
	}
	for _, h := range homeExprs {
		for _, form := range []string{"#{" + h + "}", "${" + h + "}", "{" + h + "}", h} {
			if strings.HasPrefix(form, "$") || strings.HasPrefix(form, "{") || strings.HasPrefix(form, "#") {
				lit = strings.ReplaceAll(lit, form, home)
			}
		}
	}
	for _, h := range cwdExprs {
		for _, form := range []string{"#{" + h + "}", "${" + h + "}", "{" + h + "}"} {
			lit = strings.ReplaceAll(lit, form, cwd)
		}
	}
	return lit
}

// splitArgs splits a call's argument text at its top-level commas.
// formatted evaluates a printf-style argument list: a literal format and values for its %s, %d
// and %c (a character code or a string's first character), each a literal, a number or a
// path expression. Any other verb, or a value it cannot read, and it is not known.
func formatted(args, home, cwd string, depth int) (string, bool) {
	parts := splitArgs(args)
	if len(parts) == 0 {
		return "", false
	}
	f, ok := stringLiteral(parts[0])
	if !ok {
		return "", false
	}
	vals := parts[1:]
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		verb := f[i]
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		if len(vals) == 0 {
			return "", false
		}
		v := strings.TrimSpace(vals[0])
		vals = vals[1:]
		n, err := strconv.Atoi(v)
		switch {
		case verb == 'c' && err == nil:
			b.WriteRune(rune(n))
		case verb == 'd' && err == nil:
			b.WriteString(v)
		case verb == 's' || verb == 'c':
			text, rest, ok := pathExpr(v, home, cwd, depth)
			if !ok || strings.TrimSpace(rest) != "" || verb == 'c' && text == "" {
				return "", false
			}
			if verb == 'c' {
				text = text[:1]
			}
			b.WriteString(text)
		default:
			return "", false
		}
	}
	return b.String(), true
}

func splitArgs(s string) []string {
	var out []string
	start := 0
	outsideQuotes(s, func(i, depth int) bool {
		if s[i] == ',' && depth == 0 {
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
		return true
	})
	if last := strings.TrimSpace(s[start:]); last != "" {
		out = append(out, last)
	}
	return out
}

// outsideQuotes walks code outside its string literals, handing visit each byte's index and
// the depth of brackets it is in (a closing bracket already counted); visit stops the walk by
// returning false.
func outsideQuotes(s string, visit func(i, depth int) bool) {
	depth, quote := 0, byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"' || c == '`':
			quote = c
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		}
		if !visit(i, depth) {
			return
		}
	}
}

// Calls that write a file: the path is the first argument, the content the second.
var writeCalls = []string{"writeFileSync", "appendFileSync", "fs.writeFile", "fs.appendFile", "promises.writeFile",
	"promises.appendFile", "Deno.writeTextFile", "Deno.writeTextFileSync", "Deno.writeFile", "Bun.write", "file_put_contents",
	"File.write", "IO.write", "File.binwrite", "write_file", "writeLines"}

// Calls that copy or move a file: the source first, the destination second.
var copyCalls = []string{"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "copyFileSync", "fs.copyFile",
	"promises.copyFile", "cpSync", "fs.cp", "promises.cp", "Deno.copyFile", "Deno.copyFileSync", "FileUtils.cp", "FileUtils.cp_r",
	"FileUtils.copy", "FileUtils.copy_file", "File::Copy::copy", "Files.copy", "copy_file", "fs::copy"}
var moveCalls = []string{"shutil.move", "os.rename", "os.replace", "os.renames", "renameSync", "fs.rename", "promises.rename",
	"Deno.rename", "Deno.renameSync", "FileUtils.mv", "FileUtils.move", "File.rename", "File::Copy::move", "Files.move", "fs::rename"}

// Calls that open a file in a mode: python, ruby, lua, php and perl's open.
var openCalls = []string{"open", "io.open", "File.open", "fopen", "codecs.open", "sysopen"}

// codeWrites finds the files interpreter code writes, each with what it writes when that is
// literal, as the tee (-a) it amounts to.
func (a *analyzer) codeWrites(c *Cmd, code string, st *state, sub func() *Cmd) {
	home := a.world.Home
	emit := func(target string, appendTo bool, content string) {
		words := []string{"tee"}
		if appendTo {
			words = append(words, "-a")
		}
		sc := sub()
		sc.Stdin = &Input{Text: content, Known: content != ""}
		a.record(sc, append(words, target))
	}
	// pathOf evaluates a path argument, or the path expression last assigned to the variable
	// it names (p = os.path.expanduser('~/.bashrc'); open(p, 'a')).
	pathOf := func(arg string) (string, bool) {
		if v, ok := pathValue(arg, home, st.cwd); ok {
			return v, true
		}
		if name := strings.TrimSpace(arg); validName(name) {
			if rhs, ok := assignedExpr(code, name); ok {
				return pathValue(rhs, home, st.cwd)
			}
		}
		return "", false
	}
	for _, m := range findCalls(code, writeCalls) {
		call, rest := m[0], m[1]
		args := splitArgs(callArgs(rest))
		if len(args) == 0 {
			continue
		}
		target, ok := pathOf(args[0])
		if !ok {
			continue
		}
		content := ""
		if len(args) > 1 {
			content, _ = stringLiteral(args[1])
			if call == "writeLines" { // R: writeLines(text, path)
				target, ok = pathValue(args[1], home, st.cwd)
				if !ok {
					continue
				}
				content, _ = stringLiteral(args[0])
			}
		}
		if content == "" {
			content = literalsAfter(rest)
		}
		opts := strings.Join(args[min(2, len(args)):], ",")
		appendTo := strings.Contains(call, "append") || strings.Contains(opts, "FILE_APPEND") || strings.Contains(opts, "append") ||
			strings.Contains(opts, "'a'") || strings.Contains(opts, `"a"`)
		emit(target, appendTo, content)
	}
	for _, m := range findCalls(code, openCalls) {
		args := splitArgs(callArgs(m[1]))
		if len(args) < 2 {
			continue
		}
		var target, mode string
		var ok bool
		if m0, isLit := stringLiteral(args[1]); isLit && strings.HasPrefix(m0, ">") || strings.HasPrefix(m0, "+") {
			// perl: open(FH, ">>", PATH) or open(FH, ">>PATH")
			mode = m0[:len(m0)-len(strings.TrimLeft(m0, "+<>"))]
			if rest := strings.TrimSpace(strings.TrimLeft(m0, "+<> ")); rest != "" && !strings.HasPrefix(rest, ":") {
				target, ok = interpolateHome(rest, home, st.cwd), true
				if !strings.HasPrefix(target, "/") {
					target = path.Join(st.cwd, target)
				}
			} else if len(args) > 2 {
				target, ok = pathValue(args[2], home, st.cwd)
			}
			if mode == "+<" {
				mode = ">>" // read-write in place: a change, not a truncation
			}
		} else if isLit && len(m0) <= 4 && strings.Trim(m0, "rwabxtU+") == "" {
			mode = m0
			target, ok = pathOf(args[0])
		} else if k, v, isKw := strings.Cut(args[1], "="); isKw && strings.TrimSpace(k) == "mode" {
			mode, _ = stringLiteral(v) // open(p, mode="a")
			target, ok = pathOf(args[0])
		}
		if !ok || !strings.ContainsAny(mode, "wax+>") || strings.ContainsAny(mode, "r") && !strings.Contains(mode, "+") {
			continue
		}
		emit(target, strings.Contains(mode, "a") || strings.HasPrefix(mode, ">>"), literalsAfter(m[1]))
	}
	// Copies and moves: the source first, the destination second, recorded as the cp or mv
	// they amount to (shutil.copy(a, b), os.rename(a, b), fs.copyFileSync(a, b), File::Copy's
	// copy and move, perl's and php's rename).
	moves := moveCalls
	if c.Name == "perl" || c.Name == "php" {
		moves = append(moves[:len(moves):len(moves)], "rename", "move")
	}
	for k, calls := range [2][]string{copyCalls, moves} {
		for _, m := range findCalls(code, calls) {
			args := splitArgs(callArgs(m[1]))
			if len(args) < 2 {
				continue
			}
			from, ok1 := pathOf(args[0])
			to, ok2 := pathOf(args[1])
			if !ok1 && !ok2 {
				continue
			}
			if !ok1 {
				from = Dyn
			}
			if !ok2 {
				continue // where it lands is not known
			}
			sc := sub()
			a.record(sc, []string{[2]string{"cp", "mv"}[k], from, to})
		}
	}
	// pathlib: (Path.home() / '.ssh' / 'authorized_keys').write_text(...), p.open('a')
	for _, h := range []string{"Path.home()", "pathlib.Path.home()", "Path(", "pathlib.Path(", "Path.cwd()"} {
		eachIndex(code, h, func(i int) bool {
			if i > 0 && (isIdent(code[i-1]) || code[i-1] == '.') {
				return true
			}
			v, tail, ok := pathExpr(code[i:], home, st.cwd, 0)
			if !ok {
				return true
			}
			tail = strings.TrimLeft(strings.TrimLeft(tail, " \t)"), " \t")
			switch {
			case strings.HasPrefix(tail, ".write_text(") || strings.HasPrefix(tail, ".write_bytes("):
				emit(v, false, literalsAfter(tail))
			case strings.HasPrefix(tail, ".open("):
				if mode, _ := stringLiteral(strings.TrimPrefix(tail, ".open(")); strings.ContainsAny(mode, "wax+") {
					emit(v, strings.Contains(mode, "a"), literalsAfter(tail))
				}
			}
			return true
		})
	}
}

// assignedExpr is the expression last assigned to name in code (name = EXPR), up to the end
// of its statement.
func assignedExpr(code, name string) (string, bool) {
	found, ok := "", false
	eachIndex(code, name, func(i int) bool {
		end := i + len(name)
		if i > 0 && isIdent(code[i-1]) || end < len(code) && isIdent(code[end]) {
			return true
		}
		rhs := strings.TrimLeft(code[end:], " \t")
		if !strings.HasPrefix(rhs, "=") || strings.HasPrefix(rhs, "==") {
			return true
		}
		rhs = rhs[1:]
		stop := len(rhs)
		outsideQuotes(rhs, func(k, depth int) bool {
			if depth <= 0 && (rhs[k] == ';' || rhs[k] == '\n') || depth < 0 {
				stop = k
				return false
			}
			return true
		})
		found, ok = rhs[:stop], true
		return true
	})
	return found, ok
}

// literalsAfter is the string literals in the code after a call, joined: what it goes on to
// write, as far as the code shows it.
func literalsAfter(s string) string {
	var b strings.Builder
	for i, n := 0, 0; i < len(s) && n < 16; i++ {
		if s[i] != '\'' && s[i] != '"' {
			continue
		}
		lit, ok := stringLiteral(s[i:])
		if !ok {
			break
		}
		b.WriteString(lit + "\n")
		n++
		i += len(s[i:]) - len(skipLiteral(s[i:])) - 1
	}
	return b.String()
}

// CodePaths evaluates the path expressions in interpreter code that start from the home or
// working directory or go through a call that builds paths (os.path.join(Path.home(), ".aws"),
// getenv("HOME")."/.ssh/id_rsa"): the files the code names beyond its plain string literals.
func CodePaths(code, home, cwd string) []string {
	var out []string
	starts := append(append(append([]string(nil), homeExprs...), cwdExprs...), "os.path.expanduser(", "File.expand_path(",
		"os.path.join(", "path.join(", "File.join(", "path.resolve(", "pathlib.Path(", "Path(")
	tries := 0
	for _, h := range starts {
		eachIndex(code, h, func(i int) bool {
			if i > 0 && (isIdent(code[i-1]) || code[i-1] == '.') {
				return true
			}
			if tries++; tries > 256 {
				return false // each evaluation reads a bounded stretch; so many are no script to review
			}
			if v, _, ok := pathExpr(code[i:], home, cwd, 0); ok && strings.Contains(v, "/") {
				out = append(out, v)
			}
			return len(out) < 64
		})
	}
	return out
}

var (
	sqlHost = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bhost\s*[=:]>?\s*['"]?([A-Za-z0-9_.\-]+)|(?:postgres(?:ql)?|mysql|mariadb)(?:\+\w+)?://[^@/'"\s]*@([A-Za-z0-9_.\-]+)`)
	})
	sqlDB = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:dbname|database|db)\s*[=:]>?\s*['"]?([A-Za-z0-9_.\-]+)|(?:postgres(?:ql)?|mysql|mariadb)(?:\+\w+)?://[^/'"\s]*/([A-Za-z0-9_.\-]+)`)
	})
)

// codeSQL finds SQL that interpreter code sends through a database driver (psycopg, mysql,
// sqlite3, DBI, PDO, ...) and records it as the command-line client call it amounts to, so
// that the database rules judge it with the host and database the code connects to.
func (a *analyzer) codeSQL(code string, st *state, sub func() *Cmd) {
	lower := strings.ToLower(code)
	client := ""
	switch {
	case strings.Contains(lower, "sqlite3"):
		client = "sqlite3"
	case strings.Contains(lower, "mysql") || strings.Contains(lower, "mariadb"):
		client = "mysql"
	case strings.Contains(lower, "psycopg") || strings.Contains(lower, "asyncpg") || strings.Contains(lower, "postgres") ||
		strings.Contains(lower, "sqlalchemy") || strings.Contains(lower, "dbi:pg") || strings.Contains(lower, "pgsql") || strings.Contains(lower, "require('pg')") || strings.Contains(lower, `require("pg")`):
		client = "psql"
	default:
		return
	}
	host, db := "localhost", ""
	if m := sqlHost().FindStringSubmatch(code); m != nil {
		host = m[1] + m[2]
	}
	if m := sqlDB().FindStringSubmatch(code); m != nil {
		db = m[1] + m[2]
	}
	for _, m := range findCalls(code, []string{"execute", "executescript", "exec_driver_sql", "query", "do", "exec", "run"}) {
		rest := strings.TrimLeft(m[1], " \t(")
		rest = strings.TrimPrefix(rest, "text(") // SQLAlchemy's text("...")
		sql, ok := stringLiteral(rest)
		if !ok || strings.TrimSpace(sql) == "" {
			continue
		}
		var words []string
		switch client {
		case "sqlite3":
			file := ""
			if i := strings.Index(code, "connect("); i >= 0 {
				file, _ = stringLiteral(code[i+len("connect("):])
			}
			words = []string{"sqlite3", cmp.Or(file, "app.db"), sql}
		case "mysql":
			words = []string{"mysql", "-h", host}
			if db != "" {
				words = append(words, "-D", db)
			}
			words = append(words, "-e", sql)
		default:
			words = []string{"psql", "-h", host}
			if db != "" {
				words = append(words, "-d", db)
			}
			words = append(words, "-c", sql)
		}
		a.record(sub(), words)
	}
}
