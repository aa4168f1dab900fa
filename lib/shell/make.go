package shell

import (
	"regexp"
	"strings"
	"sync"
)

// makeStdin reports make reading its makefile from stdin (make -f -).
func makeStdin(args []string) bool {
	for i, a := range args {
		switch {
		case (a == "-f" || a == "--file" || a == "--makefile") && i+1 < len(args) && (args[i+1] == "-" || args[i+1] == "/dev/stdin"):
			return true
		case a == "-f-" || a == "--file=-" || a == "--makefile=-" || a == "--file=/dev/stdin" || a == "-f/dev/stdin":
			return true
		}
	}
	return false
}

var makeRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`) })

// makeRecipes returns the shell lines of a makefile's recipes, with make's variables replaced
// by their values in the file, or by the environment variable of the same name.
func makeRecipes(text string) []string {
	vars := map[string]string{}
	var recipes []string
	text = strings.ReplaceAll(text, "\\\n", " ") // a line ending in \ goes on on the next
	recipes = append(recipes, makeShellCalls(text)...)
	inDefine := false
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "define ") || t == "define" {
			inDefine = true // define ... endef holds text, not a recipe
		} else if t == "endef" {
			inDefine = false
			continue
		}
		if inDefine {
			continue
		}
		if strings.HasPrefix(line, "\t") {
			recipes = append(recipes, strings.TrimLeft(line[1:], "@-+ \t"))
			continue
		}
		if name, val, ok := strings.Cut(line, "="); ok && !strings.Contains(name, ":") || ok && strings.HasSuffix(name, ":") && !strings.Contains(strings.TrimSuffix(name, ":"), ":") {
			name = strings.TrimSpace(strings.TrimRight(name, ":?+!"))
			if validName(name) {
				vars[name] = strings.TrimSpace(val)
				continue
			}
		}
		if _, rest, ok := strings.Cut(line, ":"); ok {
			if _, recipe, ok := strings.Cut(rest, ";"); ok {
				recipes = append(recipes, strings.TrimLeft(recipe, "@-+ \t"))
			}
		}
	}
	for i, r := range recipes {
		r = strings.ReplaceAll(r, "$$", "\x00")
		r = makeRef().ReplaceAllStringFunc(r, func(m string) string {
			name := m[2 : len(m)-1]
			if v, ok := vars[name]; ok {
				return v
			}
			return "${" + name + "}"
		})
		recipes[i] = strings.ReplaceAll(r, "\x00", "$")
	}
	return recipes
}

// justStdin reports just reading its justfile from stdin (just --justfile /dev/stdin).
func justStdin(args []string) bool {
	for i, a := range args {
		if (a == "-f" || a == "--justfile") && i+1 < len(args) && (args[i+1] == "-" || args[i+1] == "/dev/stdin") ||
			a == "--justfile=/dev/stdin" || a == "--justfile=-" {
			return true
		}
	}
	return false
}

// justRecipes returns the shell lines of a justfile's recipes: the indented lines under a
// recipe's header, with just's {{var}} left as a run-time value.
func justRecipes(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimLeft(line, " \t"); t != line && t != "" && !strings.HasPrefix(t, "#") {
			out = append(out, strings.TrimLeft(t, "@-"))
		}
	}
	return out
}

// makeShellCalls finds make's $(shell CMD) calls, which run CMD when the makefile is read.
func makeShellCalls(text string) []string {
	var out []string
	for from := 0; len(out) < 32; {
		i := strings.Index(text[from:], "$(shell ")
		if i < 0 {
			break
		}
		start := from + i + len("$(shell ")
		depth, end := 1, len(text)
		for k := start; k < len(text); k++ {
			if text[k] == '(' {
				depth++
			} else if text[k] == ')' {
				if depth--; depth == 0 {
					end = k
					break
				}
			}
		}
		out = append(out, text[start:end])
		from = end
	}
	return out
}

// inlineRecipes are the shell lines a build tool runs that the command line itself gives: make
// --eval TEXT (-E), and the recipes of a makefile, justfile or Taskfile written earlier in the
// same line (every recipe of it: which target runs is not followed).
func (a *analyzer) inlineRecipes(c *Cmd) []string {
	var out []string
	file := ""
	for i, w := range c.Args {
		switch {
		case (c.Name == "make" || c.Name == "gmake") && (w == "--eval" || w == "-E") && i+1 < len(c.Args):
			out = append(out, makeRecipes(c.Args[i+1])...)
		case (c.Name == "make" || c.Name == "gmake") && strings.HasPrefix(w, "--eval="):
			out = append(out, makeRecipes(strings.TrimPrefix(w, "--eval="))...)
		case (w == "-f" || w == "--file" || w == "--makefile" || w == "--justfile" || w == "-t" || w == "--taskfile") && i+1 < len(c.Args):
			file = c.Args[i+1]
		}
	}
	names := map[string][]string{"make": {"GNUmakefile", "makefile", "Makefile"}, "gmake": {"GNUmakefile", "makefile", "Makefile"},
		"just": {"justfile", "Justfile", ".justfile"}, "task": {"Taskfile.yml", "Taskfile.yaml", "taskfile.yml"}, "go-task": {"Taskfile.yml", "Taskfile.yaml"}}[c.Name]
	if file != "" {
		names = []string{file}
	}
	for _, n := range names {
		text, ok := a.written[a.resolve(n, c.Dir)]
		if !ok {
			continue
		}
		switch c.Name {
		case "make", "gmake":
			out = append(out, makeRecipes(text)...)
		case "just":
			out = append(out, justRecipes(text)...)
		default:
			out = append(out, taskCommands(text)...)
		}
		break
	}
	return out
}

// taskCommands are the shell lines of a Taskfile: the items of each task's cmds list (a
// `- task: other` item calls a task, not the shell).
func taskCommands(text string) []string {
	var out []string
	in, indent := false, 0
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimLeft(line, " ")
		lead := len(line) - len(t)
		switch {
		case strings.HasPrefix(t, "cmds:") && strings.HasPrefix(strings.TrimSpace(t[5:]), "["):
			// cmds: ["a", "b"]: a flow sequence on one line
			flow := strings.TrimSpace(t[5:])
			flow = strings.TrimSuffix(strings.TrimPrefix(flow, "["), "]")
			for _, item := range splitArgs(flow) {
				out = append(out, unquoteYAML(strings.TrimSpace(item)))
			}
		case strings.HasPrefix(t, "cmds:"):
			in, indent = true, lead
		case in && strings.HasPrefix(t, "- ") && lead > indent:
			item := strings.TrimSpace(t[2:])
			if strings.HasPrefix(item, "task:") || strings.HasPrefix(item, "cmd:") {
				item = strings.TrimSpace(strings.TrimPrefix(item, "cmd:"))
				if strings.HasPrefix(item, "task:") {
					continue
				}
			}
			out = append(out, unquoteYAML(item))
		case in && t != "" && lead <= indent:
			in = false
		}
	}
	return out
}

// unquoteYAML removes the quotes of a one-line YAML scalar.
func unquoteYAML(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

// gradleCommands are the commands of a Gradle build file written earlier in the same line (-b
// FILE, --build-file FILE, or build.gradle[.kts] in -p DIR or the working folder): each
// commandLine of an Exec task and each "...".execute(), as shell lines.
func (a *analyzer) gradleCommands(c *Cmd) []string {
	dir, names := c.Dir, []string{"build.gradle", "build.gradle.kts"}
	for i, w := range c.Args {
		switch {
		case (w == "-b" || w == "--build-file") && i+1 < len(c.Args):
			names = []string{c.Args[i+1]}
		case (w == "-p" || w == "--project-dir") && i+1 < len(c.Args):
			dir = a.resolve(c.Args[i+1], c.Dir)
		}
	}
	for _, n := range names {
		text, ok := a.written[a.resolve(n, dir)]
		if !ok {
			continue
		}
		var out []string
		for from := 0; ; {
			i := strings.Index(text[from:], "commandLine")
			if i < 0 {
				break
			}
			from += i + len("commandLine")
			rest := strings.TrimLeft(text[from:], " \t=(")
			rest = strings.TrimPrefix(rest, "listOf(")
			rest = strings.TrimPrefix(rest, "[")
			line, _, _ := strings.Cut(rest, "\n")
			var words []string
			for _, arg := range splitArgs(strings.TrimRight(line, " \t)]}")) {
				words = append(words, gradleWord(strings.TrimSpace(arg)))
			}
			if len(words) > 0 {
				out = append(out, strings.Join(words, " "))
			}
		}
		for from := 0; ; {
			i := strings.Index(text[from:], ".execute()")
			if i < 0 {
				break
			}
			head := text[:from+i]
			from += i + len(".execute()")
			if q := strings.LastIndexAny(head, "\"'"); q > 0 {
				if o := strings.LastIndexByte(head[:q], head[q]); o >= 0 {
					out = append(out, head[o+1:q])
				}
			}
		}
		return out
	}
	return nil
}

// gradleWord is one argument of a commandLine as a shell word: a literal quoted, the user's
// home (System.getProperty('user.home'), System.getenv('HOME')) as ~, anything else a value
// only known when it runs.
func gradleWord(arg string) string {
	switch {
	case strings.Contains(arg, "user.home") || strings.Contains(arg, "getenv('HOME'") || strings.Contains(arg, `getenv("HOME"`):
		return "~"
	}
	if lit, ok := stringLiteral(arg); ok && strings.TrimSpace(skipLiteral(arg)) == "" {
		return "'" + strings.ReplaceAll(lit, "'", `'"'"'`) + "'"
	}
	return dynWord
}
