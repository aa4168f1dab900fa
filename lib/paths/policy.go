package paths

import (
	"errors"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/config"
)

// PolicyFiles returns where the user and project write policies live.
func PolicyFiles(harnessHome, project string) (user, proj string) {
	return config.ScopeFiles(harnessHome, project, "writes.json")
}

// LoadPolicy reads the user's and the project's write policies (missing files are fine):
//
//	{"allow_dirs": ["~/notes"], "deny": ["**/*.sqlite"], "read_only": ["vendor/**"],
//	 "ask": ["migrations/**"], "ask_workflows": true, "allow_read": ["~/.aws/config"],
//	 "deny_read": ["secrets/**"], "mcp": {"github": "ignore", "fs": "write"}}
//
// allow_dirs loosens the guard and belongs to the user; a project file may only tighten. A file
// that cannot be read or is invalid is an error naming it, so the guard fails closed.
func LoadPolicy(userFile, projectFile string) (*Policy, error) {
	p := &Policy{}
	if _, err := config.LoadScopes(userFile, projectFile, p.apply); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Policy) apply(doc gjson.Result, project bool) error {
	var err error
	doc.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "allow_dirs":
			if project {
				err = errors.New(`"allow_dirs" loosens the guard, and a project policy may only tighten it; put it in the user policy`)
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
			if project {
				err = errors.New(`"allow_read" loosens the guard, and a project policy may only tighten it; put it in the user policy`)
				return false
			}
			err = config.AppendStrings(&p.AllowRead, k.Str, v)
		case "deny_read":
			err = config.AppendStrings(&p.DenyRead, k.Str, v)
		case "mcp":
			err = p.applyMCP(v, project)
		case "$schema", "comment":
		default:
			err = fmt.Errorf("unknown key %q (known: allow_dirs, deny, read_only, ask, ask_workflows, allow_read, deny_read, mcp)", k.Str)
		}
		return err == nil
	})
	return err
}

// applyMCP reads {"server": "auto|write|read|ignore"}. A project may only make a server's
// tools count as writes; reading them as reads only, or ignoring them, loosens the guard.
func (p *Policy) applyMCP(v gjson.Result, project bool) error {
	if !v.IsObject() {
		return errors.New(`"mcp" must be an object of server names to "auto", "write", "read" or "ignore"`)
	}
	var err error
	v.ForEach(func(k, m gjson.Result) bool {
		switch mode := m.String(); {
		case m.Type != gjson.String || mode != "auto" && mode != "write" && mode != "read" && mode != "ignore":
			err = fmt.Errorf(`mcp.%s must be "auto", "write", "read" or "ignore"`, k.Str)
		case project && (mode == "read" || mode == "ignore"):
			err = fmt.Errorf(`mcp.%s: %q loosens the guard, and a project policy may only tighten it; put it in the user policy`, k.Str, mode)
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
