package danger

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCatalog checks the rules as declared: ids unique and named for their pack, every deny
// with advice, every program judged by one pack only.
func TestCatalog(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range packs {
		for _, r := range p.rules {
			if seen[r.ID] {
				t.Errorf("rule %s is declared twice", r.ID)
			}
			seen[r.ID] = true
			if !strings.HasPrefix(r.ID, p.name+".") {
				t.Errorf("rule %s is in pack %s: its id must start with %s.", r.ID, p.name, p.name)
			}
			// policy.deny's advice is the reason the user's policy gives.
			if r.Action == Deny && r.Instead == "" && r != policyDeny {
				t.Errorf("rule %s denies without advice (Instead)", r.ID)
			}
		}
		if p.production != nil && (!slices.Contains(p.rules, p.production) || !slices.Contains(p.rules, p.listed)) {
			t.Errorf("pack %s escalates to rules it does not list", p.name)
		}
	}
	judged := map[string]string{}
	for _, p := range packs {
		for _, pr := range p.programs {
			for _, n := range pr.names {
				if other, ok := judged[n]; ok {
					t.Errorf("program %s is judged by packs %s and %s", n, other, p.name)
				}
				judged[n] = p.name
			}
		}
	}
}

// TestEveryRuleHit checks that each rule is the finding of at least one labelled case of the
// corpus or the holdouts.
func TestEveryRuleHit(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	hit := map[string]bool{}
	for _, f := range files {
		for _, c := range loadCases(t, f) {
			v := Judge(c.Cmd, Input{World: testWorld(c.Cwd)})
			if c.Shell == "powershell" {
				v = JudgePowerShell(c.Cmd, Input{World: testWorld(c.Cwd)})
			}
			for _, f := range v.Findings {
				hit[f.Rule] = true
			}
		}
	}
	for _, e := range Catalog() {
		if !hit[e.ID] && e.Pack != "policy" {
			t.Errorf("no case of the corpus or the holdouts hits rule %s (%s %s)", e.ID, e.Action, e.Radius)
		}
	}
}

// TestEveryRuleListed checks that every Rule declared in the package's files is in its
// pack's list, so that the catalog, --rules and disable know it.
func TestEveryRuleListed(t *testing.T) {
	listed := map[string]bool{}
	for _, e := range Catalog() {
		listed[e.ID] = true
	}
	files, _ := filepath.Glob("*.go")
	decl := regexp.MustCompile(`&Rule\{ID: "([^"]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			if !listed[m[1]] {
				t.Errorf("%s declares rule %s, which no pack lists", f, m[1])
			}
		}
	}
}

// TestDocsNamePacks checks that the rule reference (docs/hooks.md) names every pack.
func TestDocsNamePacks(t *testing.T) {
	doc, err := os.ReadFile("../../docs/hooks.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	for _, p := range packs {
		if !strings.Contains(text, "`"+p.name+"` ("+p.title) {
			t.Errorf("docs/hooks.md does not name pack %s as `%s` (%s)", p.name, p.name, p.title)
		}
	}
}
