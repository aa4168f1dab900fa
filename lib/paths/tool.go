package paths

import (
	"fmt"
	"path"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/shell"
)

// Access is one path a tool call writes or reads, as the call names it, and how.
type Access struct {
	Path, How string
	// Read is set for a read; Tree and Loads are shell.Source's (the whole tree under the path
	// is read; the content is used, not shown).
	Read, Tree, Loads bool
	// Key is set for a write whose content is a private key (PrivateKey).
	Key bool
	// Names is the name pattern of a search for files by name under Path (find -name, fd,
	// Glob): names are not content, but a hunt for credentials' names is asked about.
	Names string
}

// Write is an Access that writes (the name the write tools have always used).
type Write = Access

// Writes lists the paths a tool call writes: file_path of Write, Edit and MultiEdit,
// notebook_path of NotebookEdit, every file of an apply_patch (added, updated, deleted, moved
// from and to), and for Bash every redirection and file-writing command the
// shell analysis finds, inside wrappers and nested shells too. Targets only known at run time
// ($VAR, $(...)) are left out: they cannot be judged before they exist.
func (e Env) Writes(tool string, in event.ToolInput, env func(string) (string, bool)) ([]Write, error) {
	switch event.CanonicalTool(tool) {
	case "Write":
		w, err := in.Write()
		return []Write{{Path: w.FilePath, How: "Write", Key: PrivateKey(w.Content)}}, err
	case "Edit":
		w, err := in.Edit()
		return []Write{{Path: w.FilePath, How: "Edit", Key: PrivateKey(w.NewString)}}, err
	case "MultiEdit":
		w, err := in.MultiEdit()
		out := []Write{{Path: w.FilePath, How: "MultiEdit"}}
		for _, ed := range w.Edits {
			if ed.FilePath != w.FilePath {
				out = append(out, Write{Path: ed.FilePath, How: "MultiEdit"})
			}
			if PrivateKey(ed.NewString) {
				out[0].Key = true
			}
		}
		return out, err
	case "NotebookEdit":
		w, err := in.NotebookEdit()
		return []Write{{Path: w.NotebookPath, How: "NotebookEdit"}}, err
	case "apply_patch":
		// Codex's patch tool (droid's ApplyPatch): the files are in the patch text.
		ops, err := dialect.ParsePatch(patchText(in))
		if err != nil {
			return nil, fmt.Errorf("apply_patch: %w", err)
		}
		var out []Write
		for _, op := range ops {
			out = append(out, Write{Path: op.Path, How: "apply_patch " + op.Kind})
			if op.MoveTo != "" {
				out = append(out, Write{Path: op.MoveTo, How: "apply_patch move"})
			}
		}
		return out, nil
	case "Bash", "PowerShell":
		ws, _, err := e.shellAccess(tool, in, env)
		return ws, err
	}
	return nil, nil
}

// Judged is a read or write with its verdict.
type Judged struct {
	Access
	Verdict
}

// Reason renders a deny or ask for the model: what was blocked or needs approval, why, the
// rule, and what to do instead, in one or two lines ("" for an allow).
func (j Judged) Reason() string {
	if j.Action == Allow {
		return ""
	}
	verb := map[Action]string{Deny: "blocked writing", Ask: "asks before writing"}[j.Action]
	if j.Read {
		verb = map[Action]string{Deny: "blocked reading", Ask: "asks before reading"}[j.Action]
	}
	s := fmt.Sprintf("%s `%s` (%s): %s [rule %s].", verb, j.Access.Path, j.How, j.Why, j.Rule)
	if j.Instead != "" {
		s += "\nInstead: " + j.Instead + "."
	}
	return shell.Show(s) // a value known only at run time reads as $NAME or …, never as its marker bytes
}

// JudgeCall judges every path a tool call writes or reads; the first of the most severe
// verdicts leads.
func (e Env) JudgeCall(tool string, in event.ToolInput, pol *Policy, env func(string) (string, bool)) ([]Judged, error) {
	if pol == nil {
		pol = &Policy{}
	}
	var ws, rs []Access
	var err error
	if _, _, ok := event.MCPTool(tool); ok {
		ws, rs, err = e.mcpAccess(tool, in, pol)
	} else if t := event.CanonicalTool(tool); t == "Bash" || t == "PowerShell" {
		ws, rs, err = e.shellAccess(tool, in, env) // one analysis for both
	} else if ws, err = e.Writes(tool, in, env); err == nil {
		rs, err = e.Reads(tool, in, env)
	}
	if err != nil {
		return nil, err
	}
	var out []Judged
	for _, w := range ws {
		v := e.Judge(w.Path, pol)
		if w.Key && v.Action != Deny {
			v = e.keyWrite(v)
		}
		out = append(out, Judged{w, v})
	}
	for _, r := range rs {
		out = append(out, Judged{r, e.JudgeRead(r, pol)})
	}
	for i := 1; i < len(out); i++ {
		if out[i].Action > out[0].Action {
			out[0], out[i] = out[i], out[0]
		}
	}
	return out, nil
}

// Reads lists the paths a tool call reads: file_path of Read, notebook_path of NotebookRead,
// the directory (and glob) Grep searches and Glob lists, and for Bash and PowerShell every file
// the shell analysis finds a command printing, copying, archiving or searching.
func (e Env) Reads(tool string, in event.ToolInput, env func(string) (string, bool)) ([]Access, error) {
	switch event.CanonicalTool(tool) {
	case "Read":
		r, err := in.Read()
		return []Access{{Path: r.FilePath, How: "Read", Read: true}}, err
	case "NotebookRead":
		if err := needString(in, "notebook_path"); err != nil {
			return nil, err
		}
		return []Access{{Path: in.Get("notebook_path").String(), How: "NotebookRead", Read: true}}, nil
	case "Grep":
		g, err := in.Grep()
		if err == nil {
			err = optionalString(in, "path", "glob")
		}
		dir := g.Path
		if dir == "" {
			dir = e.Cwd
		}
		out := []Access{{Path: dir, How: "Grep", Read: true, Tree: true}}
		if g.Glob != "" {
			// rg --glob matches names at any depth unless it holds a slash
			pat := strings.TrimSuffix(dir, "/") + "/**/" + g.Glob
			if strings.Contains(g.Glob, "/") {
				pat = strings.TrimSuffix(dir, "/") + "/" + strings.TrimPrefix(g.Glob, "/")
			}
			out = []Access{{Path: pat, How: "Grep", Read: true}}
		}
		return out, err
	case "Glob":
		g, err := in.Glob()
		if err == nil {
			err = optionalString(in, "path")
		}
		// Glob lists names, not content: only a listing inside a no-access directory counts.
		dir := g.Pattern
		if !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "~") {
			base := g.Path
			if base == "" {
				base = e.Cwd
			}
			dir = strings.TrimSuffix(base, "/") + "/" + dir
		}
		if i := strings.IndexAny(dir, "*?[{"); i >= 0 {
			dir = dir[:i]
		}
		dir = strings.TrimSuffix(dir, "/")
		if r := e.Resolve(dir); !e.inSecretDir(r) && !e.NoAccessRead(r) {
			if name := path.Base(g.Pattern); strings.ContainsAny(name, "*?[") || strings.Contains(g.Pattern, "**") {
				return []Access{{Path: dir, How: "Glob", Read: true, Names: name}}, err
			}
			return nil, err
		}
		return []Access{{Path: dir, How: "Glob", Read: true}}, err
	case "Bash", "PowerShell":
		_, rs, err := e.shellAccess(tool, in, env)
		return rs, err
	}
	return nil, nil
}

// shellAccess analyses a Bash or PowerShell command once and returns the paths it writes and
// reads. Targets only known at run time ($VAR, $(...)) are left out of the writes: they cannot
// be judged before they exist; JudgeRead decides the reads that hold them.
func (e Env) shellAccess(tool string, in event.ToolInput, env func(string) (string, bool)) (ws, rs []Access, err error) {
	b, err := in.Bash()
	if err != nil {
		return nil, nil, err
	}
	w := shell.World{Cwd: e.Cwd, Home: e.Home, Project: e.Project, Env: env}
	var an *shell.Analysis
	if event.CanonicalTool(tool) == "PowerShell" {
		an, err = shell.AnalyzePowerShell(b.Command, w, shell.Limits{})
	} else {
		an, err = shell.Analyze(b.Command, w, shell.Limits{})
	}
	if err != nil {
		return nil, nil, fmt.Errorf("the command cannot be analysed: %w", err)
	}
	mounted := map[string]bool{}
	var sourced []string // .env files loaded into the shell: printing a variable after shows their values
	for _, c := range an.Cmds {
		if (c.Name == "source" || c.Name == ".") && len(c.Args) > 0 {
			if p := shell.Resolve(c.Args[0], c.Dir, e.Home); EnvFile(p) || envrc(p) {
				sourced = append(sourced, p)
			}
		}
		if len(sourced) > 0 && printsVars(c) {
			for _, p := range sourced {
				rs = append(rs, Access{Path: p, How: c.Name + " after source", Read: true})
			}
			sourced = nil
		}
		if c.Remote && len(c.Mounts) == 0 {
			continue // another machine's files
		}
		for _, m := range c.Mounts {
			// A folder bound into a container is handed whole to the image's code.
			if !mounted[m.Host] && shell.Known(m.Host) {
				mounted[m.Host] = true
				rs = append(rs, Access{Path: m.Host, How: "a container mount", Read: true, Tree: true})
			}
		}
		for _, t := range c.Writes(e.Home) {
			if c.Remote {
				break // a container's writes are SecurityValidator's (mounts) business, as before
			}
			if !shell.Known(t.Path) {
				continue
			}
			ws = append(ws, Access{Path: t.Path, How: t.How})
		}
		if start, names := nameSearch(c); names != "" {
			rs = append(rs, Access{Path: start, How: c.Name, Read: true, Names: names})
		} else if start, names := shell.PSNameSearch(c); names != "" {
			start = strings.NewReplacer("$HOME", e.Home, "$env:USERPROFILE", e.Home, "$env:HOME", e.Home).Replace(start)
			rs = append(rs, Access{Path: shell.Resolve(start, c.Dir, e.Home), How: c.Name, Read: true, Names: names})
		}
		for _, s := range c.Reads(e.Home) {
			p := s.Path
			if host, mounted := c.ReadPath(p); mounted {
				p = host // a file in a container that is a host file bound into it
			} else if c.Fresh {
				continue // the new container's own file
			}
			rs = append(rs, Access{Path: p, How: s.How, Read: true, Tree: s.Tree, Loads: s.Loads})
		}
	}
	return ws, rs, nil
}

// needString checks that a tool input field is a string: a guard must not read a missing or
// mistyped path as "" and let the call through.
func needString(in event.ToolInput, k string) error {
	if v := in.Get(k); v.Type != gjson.String {
		return fmt.Errorf("tool_input.%s is %s, not a string", k, kind(v))
	}
	return nil
}

// optionalString checks that fields that may be missing are strings when present.
func optionalString(in event.ToolInput, ks ...string) error {
	for _, k := range ks {
		if v := in.Get(k); v.Exists() && v.Type != gjson.Null && v.Type != gjson.String {
			return fmt.Errorf("tool_input.%s is %s, not a string", k, kind(v))
		}
	}
	return nil
}

func kind(v gjson.Result) string {
	switch {
	case !v.Exists() || v.Type == gjson.Null:
		return "missing"
	case v.IsArray():
		return "an array"
	case v.IsObject():
		return "an object"
	case v.Type == gjson.Number:
		return "a number"
	case v.Type == gjson.True || v.Type == gjson.False:
		return "a boolean"
	}
	return "a string"
}

// nameSearch is the start folder and the name pattern (a glob) of a find -name/-iname or an fd
// search, "" when c is neither.
func nameSearch(c *shell.Cmd) (start, names string) {
	switch c.Name {
	case "find":
		starts := shell.FindStarts(c.Args)
		for i, a := range c.Args {
			if (a == "-name" || a == "-iname") && i+1 < len(c.Args) {
				return shell.Resolve(starts[0], c.Dir, ""), strings.ToLower(c.Args[i+1])
			}
		}
	case "fd", "fdfind":
		var ops []string
		glob := false
		for i := 0; i < len(c.Args); i++ {
			a := c.Args[i]
			switch {
			case a == "-x" || a == "--exec" || a == "-X" || a == "--exec-batch":
				i = len(c.Args)
			case a == "-g" || a == "--glob":
				glob = true
			case a == "-e" || a == "--extension" || a == "-t" || a == "--type" || a == "-d" || a == "--max-depth" || a == "-E" || a == "--exclude" || a == "-S" || a == "--size" || a == "-j" || a == "--threads":
				i++
			case strings.HasPrefix(a, "-"):
			default:
				ops = append(ops, a)
			}
		}
		pat, dir := "", "."
		if len(ops) > 0 {
			// a regular expression: its anchors dropped and \. read as the dot it escapes
			pat = strings.ReplaceAll(strings.Trim(ops[0], "^$"), `\.`, ".")
		}
		if len(ops) > 1 {
			dir = ops[1]
		}
		if !glob && pat != "" && !strings.ContainsAny(pat, "*?[") {
			pat = "*" + pat + "*" // a regular expression, found anywhere in the name
		}
		if pat == "" || pat == "*.*" {
			pat = "*"
		}
		return shell.Resolve(dir, c.Dir, ""), strings.ToLower(pat)
	}
	return "", ""
}

// printsVars reports a command that prints variables' values: echo or printf of a $NAME, env
// or printenv (all of them, or the ones named), set and export with no arguments.
func printsVars(c *shell.Cmd) bool {
	switch c.Name {
	case "env", "printenv":
		return true
	case "set", "export":
		return len(c.Args) == 0
	case "echo", "printf":
		return strings.Contains(c.Text, "$")
	}
	return false
}

// patchText is an apply_patch call's patch: its command, patch or input field.
func patchText(in event.ToolInput) string {
	for _, k := range []string{"command", "patch", "input"} {
		if v := in.Get(k); v.Exists() {
			return v.String()
		}
	}
	return ""
}
