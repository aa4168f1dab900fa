package danger

import (
	"encoding/hex"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The same call has many spellings in interpreter code: a module imported under another name
// (import subprocess as sp; sp.run), a function imported on its own (from os import system as s),
// __import__("os"), Node's node: module ids, a literal hex-decoded at run time. lib/shell reads the
// canonical spelling; codeCanon rewrites code into it, and the rewritten code is judged again.

// starImports are the calls `from MODULE import *` brings in that run or delete. Functions,
// not maps: nothing is built when a hook starts.
func starImports(mod string) []string {
	switch mod {
	case "subprocess":
		return []string{"run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"}
	case "os":
		return []string{"system", "popen", "remove", "unlink", "rmdir", "removedirs", "kill", "killpg", "execv", "execvp", "execl", "execlp"}
	case "shutil":
		return []string{"rmtree", "move"}
	case "pty":
		return []string{"spawn"}
	}
	return nil
}

// aliasable are the modules whose aliases are spelled out: those whose calls run, delete, write,
// connect or decode. Any other alias (import numpy as np) changes nothing a rule reads, and
// judging the code twice for it would only cost time.
func aliasable(mod string) bool {
	switch mod {
	case "subprocess", "os", "os.path", "shutil", "pty", "posix", "commands", "socket", "urllib", "urllib.request", "requests",
		"http.client", "base64", "pathlib", "sqlite3", "psycopg2", "pymysql", "redis", "pymongo", "boto3", "sys":
		return true
	}
	return false
}

// fromImportable are the modules whose functions imported on their own (from M import f) are
// spelled out: those whose calls run or delete.
func fromImportable(mod string) bool {
	switch mod {
	case "subprocess", "os", "shutil", "pty", "posix", "commands":
		return true
	}
	return false
}

// codeCanon is code with its aliases spelled out, "" when there are none.
func codeCanon(name, code string) string {
	out := code
	switch {
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		out = pyCanon(out)
		if strings.Contains(out, "hex") {
			out = hexCalls(out, "bytes.fromhex(", "binascii.unhexlify(", "codecs.decode(")
		}
	case (name == "node" || name == "nodejs" || name == "bun" || name == "deno") && strings.Contains(code, "node:"):
		for _, q := range []string{`"`, `'`, "`"} {
			out = strings.ReplaceAll(out, q+"node:", q)
		}
	case name == "perl":
		if strings.Contains(out, "H*") {
			out = hexCalls(out, `pack("H*",`, `pack('H*',`, `pack "H*",`, `pack 'H*',`)
		}
		if strings.Contains(out, "|") && strings.Contains(out, "print") {
			out = perlPipeOpen(out)
		}
	case name == "php" && strings.Contains(code, "hex2bin("):
		out = hexCalls(out, "hex2bin(")
	}
	if out == code {
		return ""
	}
	return out
}

// pyCanon spells out Python's import aliases: import M as A (A.f -> M.f), from M import f as g
// (g( -> M.f(), from M import * for the modules whose calls lib/shell reads, __import__("M").
func pyCanon(code string) string {
	for _, q := range []string{`"`, `'`} {
		for {
			i := strings.Index(code, "__import__("+q)
			if i < 0 {
				break
			}
			rest := code[i+len("__import__("+q):]
			j := strings.Index(rest, q+")")
			if j <= 0 || strings.ContainsAny(rest[:j], " \n(") {
				break
			}
			code = code[:i] + rest[:j] + rest[j+2:]
		}
	}
	if !strings.Contains(code, "import") {
		return code
	}
	mods := map[string]string{}  // alias -> module
	funcs := map[string]string{} // local name -> module.function
	for _, stmt := range strings.FieldsFunc(code, func(r rune) bool { return r == '\n' || r == ';' }) {
		stmt = strings.TrimSpace(stmt)
		if rest, ok := strings.CutPrefix(stmt, "import "); ok {
			for _, part := range strings.Split(rest, ",") {
				if mod, alias, ok := strings.Cut(strings.TrimSpace(part), " as "); ok && aliasable(strings.TrimSpace(mod)) {
					mods[strings.TrimSpace(alias)] = strings.TrimSpace(mod)
				}
			}
			continue
		}
		rest, ok := strings.CutPrefix(stmt, "from ")
		if !ok {
			continue
		}
		mod, names, ok := strings.Cut(rest, " import ")
		if !ok {
			continue
		}
		mod = strings.TrimSpace(mod)
		if !fromImportable(mod) {
			continue
		}
		names = strings.Trim(strings.TrimSpace(names), "()")
		if strings.TrimSpace(names) == "*" {
			for _, f := range starImports(mod) {
				funcs[f] = mod + "." + f
			}
			continue
		}
		for _, part := range strings.Split(names, ",") {
			f, local, ok := strings.Cut(strings.TrimSpace(part), " as ")
			f = strings.TrimSpace(f)
			if !ok {
				local = f
			}
			if local = strings.TrimSpace(local); isIdentWord(local) && isIdentWord(f) {
				funcs[local] = mod + "." + f
			}
		}
	}
	for alias, mod := range mods {
		if alias != mod && isIdentWord(alias) {
			code = replaceIdent(code, alias, mod, ".")
		}
	}
	for local, full := range funcs {
		code = replaceIdent(code, local, full, "(")
	}
	return code
}

// replaceIdent replaces the identifier name, where it stands alone and is followed (after blanks)
// by next, with to.
func replaceIdent(code, name, to, next string) string {
	var b strings.Builder
	last := 0
	for from := 0; ; {
		i := strings.Index(code[from:], name)
		if i < 0 {
			break
		}
		i += from
		end := i + len(name)
		from = end
		if i > 0 && (identByte(code[i-1]) || code[i-1] == '.') {
			continue
		}
		after := strings.TrimLeft(code[end:], " \t")
		if !strings.HasPrefix(after, next) || next != "(" && len(after) > 1 && !identByte(after[1]) {
			continue
		}
		b.WriteString(code[last:i])
		b.WriteString(to)
		last = end
	}
	if last == 0 {
		return code
	}
	b.WriteString(code[last:])
	return b.String()
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isIdentWord(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !identByte(s[i]) {
			return false
		}
	}
	return true
}

// hexCalls replaces a call that decodes a hex literal (bytes.fromhex('726d'), pack("H*","726d"))
// with the literal it decodes to, with the methods chained on it (.decode()).
func hexCalls(code string, calls ...string) string {
	for _, call := range calls {
		for from := 0; from < len(code); {
			i := strings.Index(code[from:], call)
			if i < 0 {
				break
			}
			i += from
			from = i + len(call)
			rest := strings.TrimLeft(code[from:], " ")
			if rest == "" || rest[0] != '"' && rest[0] != '\'' {
				continue
			}
			q := rest[0]
			j := strings.IndexByte(rest[1:], q)
			if j < 0 {
				continue
			}
			dec, err := hex.DecodeString(rest[1 : 1+j])
			if err != nil || len(dec) == 0 || !printable(dec) {
				continue
			}
			tail := strings.TrimLeft(rest[j+2:], " ")
			if call == "codecs.decode(" {
				// codecs.decode('..', 'hex'): only the hex codec is this decoding
				k := strings.IndexByte(tail, ')')
				if !strings.HasPrefix(tail, ",") || k < 0 || !strings.Contains(tail[:k], "hex") {
					continue
				}
				tail = tail[k:]
			}
			if !strings.HasPrefix(tail, ")") {
				continue
			}
			tail = tail[1:]
			for _, m := range []string{".decode()", `.decode("utf-8")`, ".decode('utf-8')"} {
				tail = strings.TrimPrefix(tail, m)
			}
			lit := quoteLit(string(dec), strings.HasPrefix(call, "pack"))
			code = code[:i] + lit + tail
			from = i + len(lit)
		}
	}
	return code
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < ' ' && c != '\n' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// quoteLit is s as a double-quoted literal; sigils escaped for Perl, which interpolates.
func quoteLit(s string, perl bool) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	if perl {
		r = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "$", `\$`, "@", `\@`)
	}
	return `"` + r.Replace(s) + `"`
}

// perlPipeOpen turns what Perl prints into a pipe opened to a shell (open(P, "|sh"); print P
// "...") into the system() call it amounts to.
func perlPipeOpen(code string) string {
	for _, sh := range []string{"sh", "bash", "/bin/sh", "/bin/bash", "zsh", "dash"} {
		for _, q := range []string{`"`, `'`} {
			for _, pipe := range []string{"|" + sh, "| " + sh, "|-" + sh} {
				i := strings.Index(code, q+pipe+q)
				if i < 0 {
					continue
				}
				open := strings.LastIndex(code[:i], "open")
				if open < 0 {
					continue
				}
				fh := strings.Trim(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(strings.TrimLeft(code[open+4:i], " (")), ",")), "$")
				fh = strings.TrimPrefix(strings.TrimPrefix(fh, "my "), "$")
				if !isIdentWord(fh) {
					continue
				}
				for _, p := range []string{"print " + fh + " ", "print $" + fh + " ", "printf " + fh + " ", "print {" + fh + "} ", "print {$" + fh + "} "} {
					code = strings.ReplaceAll(code, p, "system ")
				}
			}
		}
	}
	return code
}

// judgeCanon judges interpreter code again in its canonical spelling (codeCanon): what the
// rewritten code is stopped for, the command is.
func (j *judge) judgeCanon(c *shell.Cmd) {
	if j.nested || c.Code == "" {
		return
	}
	canon := codeCanon(c.Name, c.Code)
	if canon == "" {
		return
	}
	flag := " -e "
	if strings.HasPrefix(c.Name, "python") || strings.HasPrefix(c.Name, "pypy") {
		flag = " -c "
	} else if c.Name == "php" {
		flag = " -r "
	}
	name := c.Name
	if name == "deno" || name == "bun" || name == "nodejs" {
		name = "node"
	}
	w := j.world
	if c.Dir != "" {
		w.Cwd = c.Dir
	}
	an, err := shell.Analyze(name+flag+"'"+strings.ReplaceAll(canon, "'", `'\''`)+"'", w, shell.Limits{})
	if err != nil {
		return
	}
	sub := &judge{world: w, owner: j.owner, pol: j.pol, packs: j.packs, harness: j.harness, system: j.system, nested: true, an: an}
	sub.run()
	for _, f := range sub.findings {
		if f.Action == Allow || strings.HasPrefix(f.Rule, "limits.") || slices.ContainsFunc(j.findings, func(g Finding) bool { return g.Rule == f.Rule && g.Cmd == c }) {
			continue
		}
		f.Cmd = c
		j.findings = append(j.findings, f)
	}
}
