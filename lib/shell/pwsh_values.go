// The values a PowerShell script gives its variables, followed from statement to statement:
// literal text, hash tables and arrays for splatting, and the contents of a file read.

package shell

import (
	"path"
	"strings"
)

// psSeed sets the automatic and environment variables whose value the world tells: on
// Windows the system folders and the profile folders under home, and $PROFILE.
func (p *psAnalyzer) psSeed() {
	p.vars = map[string]string{}
	p.splats = map[string][]string{}
	home := p.world.Home
	if home == "" {
		return
	}
	p.vars["home"], p.vars["env:home"], p.vars["env:userprofile"] = home, home, home
	if len(home) > 2 && home[1] == ':' {
		p.vars["env:homedrive"], p.vars["env:homepath"] = home[:2], home[2:]
	}
	if p.world.OS != "windows" {
		p.vars["profile"] = home + "/.config/powershell/Microsoft.PowerShell_profile.ps1"
		return
	}
	for k, v := range map[string]string{
		"env:systemroot": `C:\Windows`, "env:windir": `C:\Windows`, "env:systemdrive": "C:", "env:programfiles": `C:\Program Files`,
		"env:programfiles(x86)": `C:\Program Files (x86)`, "env:programdata": `C:\ProgramData`, "env:allusersprofile": `C:\ProgramData`,
		"env:temp": home + `\AppData\Local\Temp`, "env:tmp": home + `\AppData\Local\Temp`, "env:appdata": home + `\AppData\Roaming`,
		"env:localappdata": home + `\AppData\Local`, "profile": home + `\Documents\PowerShell\Microsoft.PowerShell_profile.ps1`,
		"env:public": `C:\Users\Public`, "mydocuments": home + `\Documents`, "desktop": home + `\Desktop`,
		"startup": home + `\AppData\Roaming\Microsoft\Windows\Start Menu\Programs\Startup`,
	} {
		p.vars[k] = v
	}
}

// assign records what $name = rhs gives the variable; a value it cannot reduce forgets it.
func (p *psAnalyzer) assign(name, rhs, dir string) {
	name = strings.ToLower(strings.TrimPrefix(name, "$"))
	delete(p.vars, name)
	delete(p.vars, psListKey+name)
	delete(p.splats, name)
	rhs = strings.TrimSpace(rhs)
	switch {
	case strings.HasPrefix(rhs, "@{"):
		p.splats[name] = p.hashArgs(strings.TrimSuffix(rhs[2:], "}"))
		return
	case strings.HasPrefix(rhs, "@("):
		var args []string
		for _, e := range psSplitArgs(strings.TrimSuffix(rhs[2:], ")")) {
			args = append(args, p.value(e))
		}
		p.splats[name] = args
		p.vars[psListKey+name] = strings.Join(args, "\x00")
		return
	}
	if elems := psSplitArgs(rhs); len(elems) > 1 {
		// 'rm', '-r', 'obj': an array of values.
		var args []string
		for _, e := range elems {
			v, ok := psReduce(e, p.vars)
			if !ok {
				args = nil
				break
			}
			args = append(args, v)
		}
		if args != nil {
			p.splats[name] = args
			p.vars[psListKey+name] = strings.Join(args, "\x00")
			return
		}
	}
	if v, ok := psReduce(rhs, p.vars); ok {
		p.vars[name] = v
		return
	}
	// $x = Join-Path A B: the path it makes, as (Join-Path A B) would.
	if v, ok := p.reduceGroup(rhs); ok {
		p.vars[name] = v
		return
	}
	// $x = Get-Content PATH, [IO.File]::ReadAllText(PATH): the file's contents.
	words, _, _ := psWordsQ(rhs, p.world.Home)
	if len(words) > 1 && psCmdlet(words[0]) == "Get-Content" {
		if f := psArg(words[1:], 0, "path", "literalpath"); f != "" {
			p.vars[name] = psFileValue + Resolve(f, dir, p.world.Home)
		}
		return
	}
	l := strings.ToLower(rhs)
	for _, m := range []string{"file]::readalltext(", "file]::readallbytes(", "file]::readalllines("} {
		if i := strings.Index(l, m); i >= 0 {
			if e := psClose(rhs[i+len(m)-1:]); e > 0 {
				if f, ok := psReduce(rhs[i+len(m):i+len(m)-1+e-1], p.vars); ok {
					p.vars[name] = psFileValue + Resolve(strings.ReplaceAll(psHome(f, p.world.Home), `\`, "/"), dir, p.world.Home)
				}
			}
		}
	}
}

// hashArgs turns a hash table's body (Path='C:\x'; Recurse=$true) into the arguments
// splatting it passes: -Path C:/x -Recurse.
func (p *psAnalyzer) hashArgs(body string) []string {
	var args []string
	for _, entry := range psSplitEntries(body) {
		k, v, ok := strings.Cut(entry, "=")
		if !ok {
			continue
		}
		k = strings.Trim(strings.TrimSpace(k), `'"`)
		switch v = strings.TrimSpace(v); strings.ToLower(v) {
		case "$true":
			args = append(args, "-"+k)
		case "$false":
		default:
			args = append(args, "-"+k, p.value(v))
		}
	}
	return args
}

// psSplitEntries splits a hash table's body at its top-level ; and newlines.
func psSplitEntries(s string) []string {
	var out []string
	for _, part := range psSplitArgs(strings.NewReplacer(";", ",", "\n", ",").Replace(s)) {
		if part != "" {
			out = append(out, part)
		}
	}
	return out
}

// value reduces an expression to a word as psWordsQ writes it (home expanded, / between
// parts), or a run-time value.
func (p *psAnalyzer) value(e string) string {
	if v, ok := psReduce(e, p.vars); ok {
		return strings.ReplaceAll(psHome(v, p.world.Home), `\`, "/")
	}
	if words, _, _ := psWordsQ(e, p.world.Home); len(words) == 1 {
		return p.substitute(words, []bool{false}, "")[0]
	}
	return Dyn + "pwsh"
}

// substitute writes the known variables into a statement's words: $name and $name/rest
// take its value, @name splats a hash table or an array, $PWD is dir.
func (p *psAnalyzer) substitute(words []string, quoted []bool, dir string) []string {
	out := words[:0:0]
	for i, w := range words {
		if strings.HasPrefix(w, "@") && len(w) > 1 && !quoted[i] {
			if args, ok := p.splats[strings.ToLower(w[1:])]; ok {
				out = append(out, args...)
				continue
			}
		}
		if !strings.HasPrefix(w, "$") || len(w) < 2 {
			out = append(out, w)
			continue
		}
		j := 1
		for j < len(w) && (isWordByte(w[j]) || w[j] == ':' || w[j] == '(' && strings.HasPrefix(strings.ToLower(w[j:]), "(x86)")) {
			if w[j] == '(' {
				j += 4
			}
			j++
		}
		name, rest := strings.ToLower(w[1:j]), w[j:]
		if name == "pwd" && dir != "" {
			out = append(out, dir+strings.TrimPrefix(strings.TrimPrefix(rest, ".Path"), ".path"))
			continue
		}
		v, ok := p.vars[name]
		if !ok || strings.HasPrefix(v, psFileValue) {
			if ok && rest == "" {
				v = psFileValue + strings.TrimPrefix(v, psFileValue)
				out = append(out, v)
				continue
			}
			out = append(out, w)
			continue
		}
		if name == "profile" {
			// $PROFILE's properties name the other profile scripts, every one run at start.
			switch l := strings.ToLower(rest); {
			case strings.HasPrefix(l, ".currentuserallhosts"):
				v, rest = path.Dir(strings.ReplaceAll(v, `\`, "/"))+"/profile.ps1", rest[len(".currentuserallhosts"):]
			case strings.HasPrefix(l, ".allusersallhosts"):
				v, rest = `C:\Program Files\PowerShell\7\profile.ps1`, rest[len(".allusersallhosts"):]
			case strings.HasPrefix(l, ".alluserscurrenthost"):
				v, rest = `C:\Program Files\PowerShell\7\Microsoft.PowerShell_profile.ps1`, rest[len(".alluserscurrenthost"):]
			case strings.HasPrefix(l, ".currentusercurrenthost"):
				rest = rest[len(".currentusercurrenthost"):]
			}
		}
		if name == "_" || name == "psitem" {
			for _, prop := range []string{".fullname", ".pspath", ".path"} {
				if strings.HasPrefix(strings.ToLower(rest), prop) {
					rest = rest[len(prop):]
				}
			}
		}
		if strings.HasPrefix(rest, "$") { // $env:HOMEDRIVE$env:HOMEPATH
			rest = p.substitute([]string{rest}, []bool{false}, dir)[0]
		}
		out = append(out, strings.ReplaceAll(v, `\`, "/")+rest)
	}
	return out
}

// inline writes each ( ) group of a statement that reduces to literal text as that text,
// single-quoted: Remove-Item ([IO.Path]::Combine($HOME, '.ssh')) is Remove-Item 'C:\...\.ssh'.
func (p *psAnalyzer) inline(stmt string) string {
	if strings.IndexByte(stmt, '(') < 0 {
		return stmt
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(stmt); i++ {
		switch ch := stmt[i]; {
		case ch == '`':
			i++
		case ch == '\'' || ch == '"':
			for i++; i < len(stmt) && stmt[i] != ch; i++ {
				if ch == '"' && stmt[i] == '`' {
					i++
				}
			}
		case ch == '{':
			if end := psClose(stmt[i:]); end > 0 {
				i += end - 1
			}
		case ch == '(' && (i == 0 || stmt[i-1] != '$'):
			end := psClose(stmt[i:])
			if end < 0 {
				return stmt
			}
			// An argument in parentheses, not a method call's list: Create('...') stays.
			if v, ok := p.reduceGroup(stmt[i+1 : i+end-1]); ok && i > 0 && strings.IndexByte(" \t=,", stmt[i-1]) >= 0 {
				b.WriteString(stmt[last:i])
				b.WriteString("'" + strings.ReplaceAll(v, "'", "''") + "'")
				last = i + end
			}
			i += end - 1
		}
	}
	b.WriteString(stmt[last:])
	return b.String()
}

// reduceGroup reduces the inside of a ( ) group: an expression, or Join-Path of literals.
func (p *psAnalyzer) reduceGroup(g string) (string, bool) {
	if v, ok := psReduce(g, p.vars); ok {
		return v, true
	}
	words, quoted, _ := psWordsQ(g, p.world.Home)
	if len(words) < 3 || !strings.EqualFold(words[0], "Join-Path") {
		return "", false
	}
	words = p.substitute(words, quoted, "")
	var parts []string
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") {
			continue // -Path, -ChildPath
		}
		if strings.ContainsAny(w, "$()") {
			return "", false
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, "/"), len(parts) > 1
}
