package paths

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tidwall/gjson"
)

// PolicyFiles returns where the user and project write policies live.
func PolicyFiles(harnessHome, project string) (user, proj string) {
	if harnessHome != "" {
		user = filepath.Join(harnessHome, "writes.json")
	}
	if project != "" {
		proj = filepath.Join(project, ".claude", "harness", "writes.json")
	}
	return user, proj
}

// LoadPolicy reads the user's and the project's write policies (missing files are fine):
//
//	{"allow_dirs": ["~/notes"], "deny": ["**/*.sqlite"], "read_only": ["vendor/**"],
//	 "ask": ["migrations/**"], "ask_workflows": true}
//
// allow_dirs loosens the guard and belongs to the user; a project file may only tighten. A file
// that cannot be read or is invalid is an error naming it, so the guard fails closed.
func LoadPolicy(userFile, projectFile string) (*Policy, error) {
	p := &Policy{}
	for _, f := range []struct {
		name    string
		project bool
	}{{userFile, false}, {projectFile, true}} {
		if f.name == "" {
			continue
		}
		b, err := os.ReadFile(f.name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			err = p.apply(b, f.project)
		}
		if err != nil {
			return nil, fmt.Errorf("policy file %s: %w", f.name, err)
		}
	}
	return p, nil
}

func (p *Policy) apply(b []byte, project bool) error {
	if !gjson.ValidBytes(b) || !gjson.ParseBytes(b).IsObject() {
		return errors.New("not a JSON object")
	}
	var err error
	gjson.ParseBytes(b).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "allow_dirs":
			if project {
				err = errors.New(`"allow_dirs" loosens the guard, and a project policy may only tighten it; put it in the user policy`)
				return false
			}
			err = stringList(&p.AllowDirs, k.Str, v)
		case "deny":
			err = stringList(&p.Deny, k.Str, v)
		case "read_only":
			err = stringList(&p.ReadOnly, k.Str, v)
		case "ask":
			err = stringList(&p.Ask, k.Str, v)
		case "ask_workflows":
			if v.Type != gjson.True && v.Type != gjson.False {
				err = errors.New("ask_workflows must be true or false")
			}
			p.AskWorkflows = p.AskWorkflows || v.Type == gjson.True
		case "$schema", "comment":
		default:
			err = fmt.Errorf("unknown key %q (known: allow_dirs, deny, read_only, ask, ask_workflows)", k.Str)
		}
		return err == nil
	})
	return err
}

func stringList(dst *[]string, key string, v gjson.Result) error {
	if !v.IsArray() {
		return fmt.Errorf("%s must be an array of strings", key)
	}
	for _, s := range v.Array() {
		if s.Type != gjson.String || s.Str == "" {
			return fmt.Errorf("%s must be an array of non-empty strings", key)
		}
		*dst = append(*dst, s.Str)
	}
	return nil
}
