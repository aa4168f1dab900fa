package paths

import (
	"errors"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/config"
)

// PolicyFiles returns where the system, user and project write policies live.
func PolicyFiles(s config.Scopes) config.Files {
	return s.Files("writes.json")
}

// LoadPolicy reads the system's, the user's and the project's write policies (missing files
// are fine):
//
//	{"allow_dirs": ["~/notes"], "deny": ["**/*.sqlite"], "read_only": ["vendor/**"],
//	 "ask": ["migrations/**"], "ask_workflows": true, "allow_read": ["~/.aws/config"],
//	 "deny_read": ["secrets/**"], "mcp": {"github": "ignore", "fs": "write"}}
//
// allow_dirs, allow_read and the read and ignore mcp modes loosen the guard and belong to the
// senior scope (the system's when it has a file, else the user's); the others may only tighten.
// A system or user file that cannot be read or is invalid is an error naming it, so the guard
// fails closed; a project file that would be one, or that loosens, is ignored whole and named
// in Problems.
func LoadPolicy(files config.Files) (*Policy, error) {
	p := &Policy{}
	_, problems, err := config.LoadScopes(files, p, (*Policy).apply)
	if err != nil {
		return nil, err
	}
	p.Problems = problems
	return p, nil
}

func (p *Policy) apply(doc gjson.Result, s config.Scope) error {
	var err error
	doc.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "allow_dirs":
			if err = s.Loosens(`"allow_dirs"`); err != nil {
				return false
			}
			err = config.AppendStrings(&p.AllowDirs, k.Str, v)
		case "deny":
			err = config.AppendStrings(&p.Deny, k.Str, v)
		case "read_only":
			err = config.AppendStrings(&p.ReadOnly, k.Str, v)
		case "ask":
			err = config.AppendStrings(&p.Ask, k.Str, v)
		case "ask_workflows":
			if v.Type != gjson.True && v.Type != gjson.False {
				err = errors.New("ask_workflows must be true or false")
			}
			p.AskWorkflows = p.AskWorkflows || v.Type == gjson.True
		case "allow_read":
			if err = s.Loosens(`"allow_read"`); err != nil {
				return false
			}
			err = config.AppendStrings(&p.AllowRead, k.Str, v)
		case "deny_read":
			err = config.AppendStrings(&p.DenyRead, k.Str, v)
		case "mcp":
			err = p.applyMCP(v, s)
		case "$schema", "comment":
		default:
			err = fmt.Errorf("unknown key %q (known: allow_dirs, deny, read_only, ask, ask_workflows, allow_read, deny_read, mcp)", k.Str)
		}
		return err == nil
	})
	return err
}

// applyMCP reads {"server": "auto|write|read|ignore"}. A junior scope may only make a server's
// tools count as writes; reading them as reads only, or ignoring them, loosens the guard.
func (p *Policy) applyMCP(v gjson.Result, s config.Scope) error {
	if !v.IsObject() {
		return errors.New(`"mcp" must be an object of server names to "auto", "write", "read" or "ignore"`)
	}
	var err error
	v.ForEach(func(k, m gjson.Result) bool {
		switch mode := m.String(); {
		case m.Type != gjson.String || mode != "auto" && mode != "write" && mode != "read" && mode != "ignore":
			err = fmt.Errorf(`mcp.%s must be "auto", "write", "read" or "ignore"`, k.Str)
		case mode == "read" || mode == "ignore":
			if err = s.Loosens(fmt.Sprintf("mcp.%s: %q", k.Str, mode)); err != nil {
				break
			}
			fallthrough
		default:
			if p.MCP == nil {
				p.MCP = map[string]string{}
			}
			if old := p.MCP[k.Str]; old != "write" { // a project's "write" wins over the user's mode
				p.MCP[k.Str] = mode
			}
		}
		return err == nil
	})
	return err
}
