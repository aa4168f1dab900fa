package danger

import (
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// production says what aims c at a production environment ("" if nothing does): an
// environment variable or option naming it, a settings module, a database URL or host, or an
// app whose name says so, or Rails' protection against dropping production turned off.
func production(c *shell.Cmd) string {
	if w := wrapperProd(c); w != "" {
		return w
	}
	items := append(append([]string{}, c.Env...), c.Args...)
	for i, it := range items {
		k, v, hasEq := strings.Cut(it, "=")
		uk := strings.ToUpper(strings.TrimLeft(k, "-"))
		if uk == "DISABLE_DATABASE_ENVIRONMENT_CHECK" && v != "" && v != "0" {
			return it
		}
		if !hasEq && i+1 < len(items) && (k == "--env" || k == "-e" || k == "--environment" || k == "--app" || k == "-a" || k == "--settings") {
			v, hasEq = items[i+1], true
			uk = strings.ToUpper(strings.TrimLeft(k, "-"))
		}
		if !hasEq {
			continue
		}
		switch {
		case strings.HasSuffix(uk, "ENV") || uk == "ENVIRONMENT" || uk == "E" || uk == "STAGE" || uk == "APP" || uk == "A":
			if prodWord(v) {
				return it
			}
		case strings.Contains(uk, "SETTINGS") || strings.Contains(uk, "URL") || strings.Contains(uk, "HOST") || strings.Contains(uk, "DATABASE"):
			if prodWord(v) {
				return it
			}
		}
	}
	return ""
}

// wrapperProd finds a production namespace or context given to the kubectl or docker that runs
// the command (kubectl -n production exec deploy/web -- ...).
func wrapperProd(c *shell.Cmd) string {
	if !c.Remote {
		return ""
	}
	words := strings.Fields(c.Text)
	for _, v := range c.Via { // kubectl exec -n production, then bash -c '...'
		if strings.Contains(v, " -n ") || strings.Contains(v, "--namespace") || strings.Contains(v, "--context") {
			words = append(strings.Fields(v), append([]string{"--"}, words...)...)
		}
	}
	for i, w := range words {
		if w == c.Name {
			break
		}
		if w == "--" {
			continue
		}
		switch {
		case (w == "-n" || w == "--namespace" || w == "--context" || w == "--kube-context") && i+1 < len(words) && prodWord(words[i+1]):
			return w + " " + words[i+1]
		case (strings.HasPrefix(w, "--namespace=") || strings.HasPrefix(w, "--context=")) && prodWord(w[strings.IndexByte(w, '=')+1:]):
			return w
		}
	}
	return ""
}

// prodArgs returns the first argument or variable of c that names production ("" if none):
// -n production, prod-rg, --app acme-prod, RAILS_ENV=production.
func prodArgs(c *shell.Cmd) string {
	if w := production(c); w != "" {
		return w
	}
	args := c.Args
	for _, f := range c.ArgsFrom {
		args = append(append([]string(nil), args...), f.Args...) // $(gcloud ... --filter=name~prod)
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && prodWord(a) {
			return a
		}
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") && prodWord(v) {
			return a
		}
	}
	return ""
}

// prodWord reports a value with "prod", "production" or "live" as one of its words
// (acme-production, config.settings.production, prod-db.internal; not products).
func prodWord(v string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if w == "prod" || w == "production" || w == "prd" {
			return true
		}
	}
	return false
}

// massListing reports commands that list every resource of a kind (kubectl get nodes, aws ...
// list-..., helm list, terraform state list): their output fed to a delete deletes them all.
// A pipeline that narrows the list (grep Evicted, a label or field selector, a JMESPath
// filter, awk '$3 == "Failed"') picks some, which is the usual way to clean up.
func massListing(from []*shell.Cmd) bool {
	listing := false
	for _, f := range from {
		switch f.Name {
		case "grep", "egrep", "fgrep", "rg", "ag":
			if !slices.Contains(f.Args, "-v") && !slices.Contains(f.Args, "--invert-match") {
				return false
			}
			if pat := strings.Join(f.Args, " "); strings.Contains(pat, "main") || strings.Contains(pat, "master") || strings.Contains(pat, "prod") {
				return false // grep -v main: the ones that matter are kept out
			}
		case "head", "tail":
			return false
		case "sed":
			if prog := strings.Join(f.Args, " "); slices.Contains(f.Args, "-n") || strings.Contains(prog, "/d") {
				return false
			}
		case "git":
			if slices.Contains(f.Args, "branch") || slices.Contains(f.Args, "for-each-ref") || slices.Contains(f.Args, "ls-remote") {
				listing = true
			}
		case "awk", "gawk", "mawk":
			if prog := strings.Join(f.Args, " "); strings.ContainsAny(prog, "~/") || strings.Contains(prog, "==") || strings.Contains(prog, "if") {
				return false
			}
		case "jq", "yq":
			if strings.Contains(strings.Join(f.Args, " "), "select(") {
				return false
			}
		}
		for i, a := range f.Args {
			switch {
			case a == "-l" || a == "--selector" || strings.HasPrefix(a, "--selector=") || strings.HasPrefix(a, "--field-selector") ||
				strings.HasPrefix(a, "--filter") || a == "-f" && f.Name == "docker" || strings.HasPrefix(a, "-l") && len(a) > 2 && f.Name == "kubectl":
				return false
			case (a == "--query" || a == "--jq") && strings.Contains(at(f.Args, i+1), "?"), strings.HasPrefix(a, "--query=") && strings.Contains(a, "?"):
				return false
			case a == "list" || strings.HasPrefix(a, "list-") || a == "ls" || a == "get" && f.Name != "git" || strings.HasPrefix(a, "describe-"):
				listing = true
			}
		}
	}
	return listing
}

// previewStage reports a stage or stack named for development or a pull request (dev,
// MyStack-dev, pr-42), and none for production.
func previewStage(args []string) bool {
	dev := false
	for _, a := range args {
		if prodWord(a) {
			return false
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(a), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
			if w == "dev" || w == "development" || w == "test" || w == "preview" || w == "sandbox" || w == "pr" || w == "review" {
				dev = true
			}
		}
	}
	return dev
}
