package danger

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	policyAsk  = &Rule{ID: "policy.ask", Action: Ask, Radius: Low}
	policyDeny = &Rule{ID: "policy.deny", Action: Deny, Radius: Medium}
)

var packPolicy = pack{name: "policy", title: "policy",
	rules: []*Rule{policyAsk, policyDeny},
	each:  []func(*judge, *shell.Cmd){(*judge).policyRules},
}

// Policy is what the rules are tuned by: embedded defaults, then the system's file, the user's
// and the project's; only the most senior present (the system's, else the user's) may loosen.
type Policy struct {
	// ProtectedBranches are glob patterns of branches never to force-push or delete.
	ProtectedBranches []string
	// TrustedHosts are installer sources whose scripts piped to a shell are asked about rather
	// than denied: "host" or "host/path-prefix".
	TrustedHosts []string
	// Deny and Ask are extra rules matching commands by program and leading arguments.
	Deny, Ask []PatternRule
	// Disable turns off built-in rules by id (senior policy only).
	Disable []string
	// Sources lists the files the policy was read from.
	Sources []string
	// Problems are the project policy files that were ignored, one line each, for the guard
	// to report.
	Problems []string
}

// PatternRule matches a command whose program and first arguments match Pattern's words
// (each a glob: "terraform apply", "kubectl delete *", "npm publish").
type PatternRule struct {
	Pattern, Reason string
}

// Defaults returns the embedded policy.
func Defaults() *Policy {
	return &Policy{
		ProtectedBranches: []string{"main", "master", "trunk", "develop", "development", "production", "prod", "stable", "release/*", "releases/*", "release-*"},
		TrustedHosts: []string{"sh.rustup.rs", "get.docker.com", "raw.githubusercontent.com/Homebrew/", "raw.githubusercontent.com/nvm-sh/",
			"install.python-poetry.org", "astral.sh", "bun.sh", "deno.land", "get.pnpm.io", "deb.nodesource.com", "rpm.nodesource.com",
			"get.helm.sh", "raw.githubusercontent.com/helm/", "sdk.cloud.google.com", "get.sdkman.io", "cli.github.com", "fnm.vercel.app"},
	}
}

// LoadPolicy returns the defaults with the system's, the user's and the project's policy files
// applied. A missing file is fine; a system or user file that cannot be read or is invalid is
// an error (*config.FileError), so the guard fails closed rather than run with a policy it does
// not have. A project file that would be one, or that loosens, is ignored whole: none of its
// rules apply, and Problems says why (config.LoadScopes).
func LoadPolicy(files config.Files) (*Policy, error) {
	p := Defaults()
	used, problems, err := config.LoadScopes(files, p, (*Policy).apply)
	if err != nil {
		return nil, err
	}
	p.Sources = append(p.Sources, used...)
	p.Problems = problems
	return p, nil
}

// PolicyFiles returns where the system, user and project policies live.
func PolicyFiles(s config.Scopes) config.Files {
	return s.Files("security.json")
}

func (p *Policy) apply(doc gjson.Result, s config.Scope) error {
	var err error
	doc.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "protected_branches":
			err = config.AppendStrings(&p.ProtectedBranches, k.Str, v)
		case "deny":
			err = appendRules(&p.Deny, v)
		case "ask":
			err = appendRules(&p.Ask, v)
		case "trusted_hosts", "disable":
			if err = s.Loosens(fmt.Sprintf("%q", k.Str)); err != nil {
				return false
			}
			if k.Str == "disable" {
				n := len(p.Disable)
				if err = config.AppendStrings(&p.Disable, k.Str, v); err != nil {
					return false
				}
				for _, d := range p.Disable[n:] {
					if err = checkDisable(d); err != nil {
						return false
					}
				}
			} else {
				err = config.AppendStrings(&p.TrustedHosts, k.Str, v)
			}
		case "$schema", "comment":
		default:
			err = fmt.Errorf("unknown key %q (known: protected_branches, trusted_hosts, deny, ask, disable)", k.Str)
		}
		return err == nil
	})
	return err
}

func appendRules(dst *[]PatternRule, v gjson.Result) error {
	if !v.IsArray() {
		return errors.New(`deny and ask must be arrays of {"pattern": "...", "reason": "..."}`)
	}
	for _, r := range v.Array() {
		pat := r.Get("pattern")
		if !r.IsObject() || pat.Type != gjson.String || strings.TrimSpace(pat.Str) == "" {
			return errors.New(`deny and ask entries need a "pattern" string, e.g. {"pattern": "terraform apply", "reason": "..."}`)
		}
		if _, err := path.Match(strings.Fields(pat.Str)[0], ""); err != nil {
			return fmt.Errorf("pattern %q: %v", pat.Str, err)
		}
		*dst = append(*dst, PatternRule{Pattern: pat.Str, Reason: r.Get("reason").String()})
	}
	return nil
}

func (p *Policy) disabled(rule string) bool {
	for _, d := range p.Disable {
		if d == rule || strings.HasSuffix(d, ".*") && strings.HasPrefix(rule, strings.TrimSuffix(d, "*")) {
			return true
		}
	}
	return false
}

// Matches reports whether a pattern rule matches a command's program and first arguments.
func (r PatternRule) Matches(c *shell.Cmd) bool {
	words := strings.Fields(r.Pattern)
	have := append([]string{c.Name}, c.Args...)
	if len(words) > len(have) {
		return words[len(words)-1] == "*" && len(words)-1 <= len(have) && r.matchPrefix(words[:len(words)-1], have)
	}
	return r.matchPrefix(words, have)
}

func (r PatternRule) matchPrefix(words, have []string) bool {
	for i, w := range words {
		if ok, _ := path.Match(w, have[i]); !ok && w != have[i] {
			return false
		}
	}
	return true
}

func (j *judge) policyRules(c *shell.Cmd) {
	for _, r := range j.pol.Deny {
		if r.Matches(c) {
			j.add(c, policyDeny, cmp.Or(r.Reason, "the policy denies `"+r.Pattern+"`"), "")
		}
	}
	for _, r := range j.pol.Ask {
		if r.Matches(c) {
			j.add(c, policyAsk, cmp.Or(r.Reason, "the policy asks before `"+r.Pattern+"`"), "")
		}
	}
}
