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
