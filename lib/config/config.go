package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
)

// Config is the three scopes, read once.
type Config struct {
	system, user, project gjson.Result
	// systemFile and projectFile are where the system and project scopes were read from.
	systemFile, projectFile string
	// Problems are the files that could not be used, one message each; their keys fall back
	// to the defaults.
	Problems []string
}

// DefaultSystemDir is the system-wide scope an administrator owns, where the hooks look when
// their command line names no other (--system-dir): /etc/harness (macOS: /Library/Application
// Support/harness; Windows: C:\ProgramData\harness). Compiled in: no variable moves it.
func DefaultSystemDir() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/harness"
	case "windows":
		return `C:\ProgramData\harness`
	}
	return "/etc/harness"
}

// DefaultHome is the harness home of a user with no other said: ~/.claude/harness under
// home; "" when home is not known.
func DefaultHome(home string) string {
	if home == "" {
		return ""
	}
	return home + "/.claude/harness"
}

// Scopes are the folders of the three scopes: the administrator's system folder, the user's
// harness home and the project root ("" for a scope not known).
type Scopes struct {
	System, Home, Project string
}

// SystemPath is the system scope's configuration file.
func (s Scopes) SystemPath() string { return filepath.Join(s.System, "config.json") }

// UserPath and ProjectPath are where the user's and the project's files live.
func UserPath(harnessHome string) string { return filepath.Join(harnessHome, "config.json") }

// ProjectPath is the project scope's file.
func ProjectPath(project string) string { return filepath.Join(project, ".claude", "harness.json") }

// Files are where one policy file lives in each scope ("" for a scope not known).
type Files struct {
	System, User, Project string
}

// Files are where a policy file of the given name lives in each scope: <system>/NAME,
// <harness home>/NAME and <project>/.claude/harness/NAME.
func (s Scopes) Files(name string) Files {
	var f Files
	if s.System != "" {
		f.System = filepath.Join(s.System, name)
	}
	if s.Home != "" {
		f.User = filepath.Join(s.Home, name)
	}
	if s.Project != "" {
		f.Project = filepath.Join(s.Project, ".claude", "harness", name)
	}
	return f
}

// Load reads the three scopes, system, user and project; a missing file is an empty scope, an
// invalid one a Problem, and so is a key this harness does not know or a value of the wrong
// type (which falls back to its default). The system scope gives defaults, except for the
// locked keys: those it sets, the user and the project cannot change. A project never sets
// the keys that watch the guards or keep the records (ownerOnly): they are reported and
// ignored. A file that is not a regular file of at most MaxFile bytes is a Problem too.
func Load(s Scopes) *Config {
	c := &Config{}
	if s.System != "" {
		c.systemFile = s.SystemPath()
		c.system = c.read(c.systemFile)
		c.check(c.systemFile, c.system)
	}
	if s.Home != "" {
		c.user = c.read(UserPath(s.Home))
		c.check(UserPath(s.Home), c.user)
	}
	if s.Project != "" {
		c.projectFile = ProjectPath(s.Project)
		c.project = c.read(c.projectFile)
		c.check(c.projectFile, c.project)
	}
	return c
}

type kind int

const (
	boolKind kind = iota + 1
	countKind
	stringsKind
	stringKind
	headersKind
	durationKind
)

func (k kind) String() string {
	switch k {
	case boolKind:
		return "true or false"
	case countKind:
		return "a positive whole number"
	case stringKind:
		return "a non-empty string"
	case headersKind:
		return `an object of header names, each {"env": "VARIABLE"} or {"file": "/path"}`
	case durationKind:
		return `a positive duration such as "24h" or "90m"`
	}
	return "a list of strings"
}

// keys are the configuration keys and the kind of value each takes (README.md,
// "Configuration"); built on first use, so hooks that never check a file pay nothing at start.
var keys = sync.OnceValue(func() map[string]kind {
	k := map[string]kind{
		"context.canary": boolKind, "context.prompt.changes": boolKind,
		"context.caps.prompt_file": countKind, "context.caps.total": countKind, "context.caps.per_turn_file": countKind,
		"context.listing_max": countKind, "context.command_timeout_ms": countKind, "context.budget_ms": countKind,
		"context.prompt_files": stringsKind, "context.subagent_sections": stringsKind, "context.per_turn_files": stringsKind,
		"context.preserve":       stringsKind,
		"summary.keep":           countKind,
		"doctor.never_ran_after": durationKind,
		// lib/ship: read from the user and system scopes only (a project cannot redirect the
		// audit trail).
		"audit.ship.endpoint": stringKind, "audit.ship.headers": headersKind,
		"audit.ship.batch": countKind, "audit.ship.timeout_ms": countKind,
	}
	for _, s := range []string{"continuity", "wip", "shape", "prompt_files", "host"} {
		k["context.sections."+s] = boolKind
		k["context.caps."+s] = countKind
	}
	return k
})

// locked reports the keys the system scope, when it sets them, decides for every user and
// project: those that say whether the guards are watched and where their records go
// (docs/configuration.md, "System scope"). A switch: no map built at every hook's start.
func locked(key string) bool {
	switch key {
	case "context.canary", "doctor.never_ran_after", "audit.ship.endpoint", "audit.ship.headers":
		return true
	}
	return false
}

// ownerOnly reports the keys read from the system and user scopes only: a project that sets
// one would weaken what watches the guards or keeps the records (docs/configuration.md,
// "Trust model"), so its value is ignored and reported.
func ownerOnly(key string) bool {
	switch key {
	case "context.canary", "summary.keep", "doctor.never_ran_after",
		"audit.ship.endpoint", "audit.ship.headers", "audit.ship.batch", "audit.ship.timeout_ms":
		return true
	}
	return false
}

// Locked reports whether key is set by the system scope and locked there.
func (c *Config) Locked(key string) bool {
	return locked(key) && c.system.Get(key).Exists() && ofKind(c.system.Get(key), keys()[key])
}

// check reports the keys of one file that are unknown or of the wrong kind.
func (c *Config) check(path string, doc gjson.Result) {
	var walk func(prefix string, v gjson.Result)
	walk = func(prefix string, v gjson.Result) {
		v.ForEach(func(k, val gjson.Result) bool {
			key := k.Str
			if prefix != "" {
				key = prefix + "." + k.Str
			}
			want, known := keys()[key]
			switch {
			case prefix == "" && (k.Str == "$schema" || k.Str == "comment"):
			case strings.Contains(k.Str, "."):
				c.Problems = append(c.Problems, fmt.Sprintf("%s: %q is read as nested keys: write it as {%q: {...}}, ignored", path, key, strings.SplitN(k.Str, ".", 2)[0]))
			case known && !ofKind(val, want):
				c.Problems = append(c.Problems, fmt.Sprintf("%s: %s should be %s; using its default", path, key, want))
			case known && path == c.projectFile && ownerOnly(key):
				c.Problems = append(c.Problems, fmt.Sprintf("%s: %s is read from the user and system configuration only, never a project's; ignored", path, key))
			case known && path != c.systemFile && c.Locked(key):
				c.Problems = append(c.Problems, fmt.Sprintf("%s: %s is locked by the system configuration %s; ignored", path, key, c.systemFile))
			case known:
			case val.IsObject() && isPrefix(key):
				walk(key, val)
			default:
				c.Problems = append(c.Problems, fmt.Sprintf("%s: unknown key %s, ignored", path, key))
			}
			return true
		})
	}
	walk("", doc)
}

func ofKind(v gjson.Result, k kind) bool {
	switch k {
	case boolKind:
		return v.Type == gjson.True || v.Type == gjson.False
	case countKind:
		return v.Type == gjson.Number && v.Int() > 0 && float64(v.Int()) == v.Num
	case durationKind:
		d, err := time.ParseDuration(v.Str)
		return v.Type == gjson.String && err == nil && d > 0
	case stringsKind:
		if !v.IsArray() {
			return false
		}
		for _, x := range v.Array() {
			if x.Type != gjson.String {
				return false
			}
		}
		return true
	case stringKind:
		return v.Type == gjson.String && v.Str != ""
	case headersKind:
		return IsHeaders(v)
	}
	return false
}

// IsHeaders reports whether v names HTTP headers by where their values are kept, never the
// values: {"Authorization": {"env": "VARIABLE"}, "X-Org": {"file": "/path"}}, one source each.
func IsHeaders(v gjson.Result) bool {
	if !v.IsObject() {
		return false
	}
	ok := true
	v.ForEach(func(name, src gjson.Result) bool {
		ok = name.Str != "" && !strings.ContainsAny(name.Str, " :\r\n") && src.IsObject() && oneSource(src)
		return ok
	})
	return ok
}

// oneSource reports whether a header's source is exactly one of env or file, a non-empty string.
func oneSource(src gjson.Result) bool {
	n, good := 0, true
	src.ForEach(func(k, val gjson.Result) bool {
		n++
		good = good && (k.Str == "env" || k.Str == "file") && val.Type == gjson.String && val.Str != ""
		return good
	})
	return n == 1 && good
}

func isPrefix(key string) bool {
	for k := range keys() {
		if strings.HasPrefix(k, key+".") {
			return true
		}
	}
	return false
}

func (c *Config) read(path string) gjson.Result {
	b, err := ReadFile(path)
	if err != nil {
		if !os.IsNotExist(err) {
			c.Problems = append(c.Problems, fmt.Sprintf("%s: %v; using the defaults", path, err))
		}
		return gjson.Result{}
	}
	if !gjson.ValidBytes(b) || !gjson.ParseBytes(b).IsObject() {
		c.Problems = append(c.Problems, fmt.Sprintf("%s is not a JSON object; using the defaults", path))
		return gjson.Result{}
	}
	return gjson.ParseBytes(b)
}

// Get is the value of a dotted key: the project's over the user's over the system's, or the
// system's alone for a key it locks, and never the project's for a key only the user and the
// system set; it does not exist when no scope sets it.
func (c *Config) Get(key string) gjson.Result {
	if c.Locked(key) {
		return c.system.Get(key)
	}
	project := c.project
	if ownerOnly(key) {
		project = gjson.Result{}
	}
	for _, s := range []gjson.Result{project, c.user, c.system} {
		if v := s.Get(key); v.Exists() && v.Type != gjson.Null {
			return v
		}
	}
	return gjson.Result{}
}

// Duration is a duration key ("24h"), def when unset or not a positive duration.
func (c *Config) Duration(key string, def time.Duration) time.Duration {
	v := c.Get(key)
	if d, err := time.ParseDuration(v.Str); v.Type == gjson.String && err == nil && d > 0 {
		return d
	}
	return def
}

// Bool is a boolean key, def when unset or not a boolean.
func (c *Config) Bool(key string, def bool) bool {
	v := c.Get(key)
	if v.Type == gjson.True || v.Type == gjson.False {
		return v.Bool()
	}
	return def
}

// Int is a positive whole-number key, def when unset or not one.
func (c *Config) Int(key string, def int) int {
	v := c.Get(key)
	if v.Type == gjson.Number && v.Int() > 0 && float64(v.Int()) == v.Num {
		return int(v.Int())
	}
	return def
}

// Strings is a list-of-strings key, def when unset or not a list of strings.
func (c *Config) Strings(key string, def []string) []string {
	v := c.Get(key)
	if !v.IsArray() {
		return def
	}
	out := []string{}
	for _, x := range v.Array() {
		if x.Type != gjson.String {
			return def
		}
		out = append(out, x.Str)
	}
	return out
}

// FileError names a policy file that could not be used and why.
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string { return fmt.Sprintf("policy file %s: %v", e.File, e.Err) }

func (e *FileError) Unwrap() error { return e.Err }

// Scope is one of the policy files a guard reads, as LoadScopes hands it over.
type Scope struct {
	// Name is "system", "user" or "project".
	Name string
	// Senior is the file of the scope that may loosen the guard: the system policy when there
	// is one, else the user's. Every other scope may only tighten.
	Senior string
	file   string
	system bool // Senior is the system policy
}

// Loosens is the error for a key that loosens the guard (what names it), given in a scope
// that may only tighten; nil in the senior scope.
func (s Scope) Loosens(what string) error {
	switch {
	case s.file == s.Senior:
		return nil
	case !s.system:
		return fmt.Errorf("%s loosens the guard, and a project policy may only tighten it; put it in the user policy", what)
	}
	return fmt.Errorf("%s loosens the guard, and a %s policy may only tighten it: the system policy %s decides that", what, s.Name, s.Senior)
}

// LoadScopes reads a guard's policy files, the system's, the user's then the project's (""
// or missing: skipped), and applies each JSON object to p with its Scope, whose Loosens says
// whether it may loosen the guard. It returns the files that were applied, and the problems:
// one line for each file that was ignored.
//
// The owner's files fail closed: a system or user file that cannot be read (not a regular
// file, larger than MaxFile), is not a JSON object or that apply rejects is a *FileError
// naming it, so a guard does not run without it. A project file with any of those faults,
// a loosening key among them, is ignored whole, none of its rules applied: a repository can
// tighten a guard, never loosen or disarm it. It is first applied to a fresh value, so a
// fault found half way leaves nothing behind.
func LoadScopes[P any](files Files, p *P, apply func(p *P, doc gjson.Result, s Scope) error) (used, problems []string, err error) {
	var docs []gjson.Result
	var scopes []Scope
	for _, f := range []struct{ name, file string }{{"system", files.System}, {"user", files.User}, {"project", files.Project}} {
		if f.file == "" || f.name == "project" && (f.file == files.User || f.file == files.System) {
			continue
		}
		b, err := ReadFile(f.file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil && !gjson.ValidBytes(b) {
			err = errors.New("not valid JSON")
		}
		if err == nil && !gjson.ParseBytes(b).IsObject() {
			err = errors.New("not a JSON object")
		}
		if err != nil && f.name == "project" {
			problems = append(problems, ignored(f.file, err))
			continue
		}
		if err != nil {
			return nil, nil, &FileError{f.file, err}
		}
		docs = append(docs, gjson.ParseBytes(b))
		scopes = append(scopes, Scope{Name: f.name, file: f.file})
	}
	// The senior scope is the first present, unless that is the project's: a project never
	// loosens.
	senior, system := files.User, false
	if len(scopes) > 0 && scopes[0].Name == "system" {
		senior, system = files.System, true
	}
	for i, doc := range docs {
		s := scopes[i]
		s.Senior, s.system = senior, system
		if s.Name == "project" {
			if err := apply(new(P), doc, s); err != nil {
				problems = append(problems, ignored(s.file, err))
				continue
			}
		}
		if err := apply(p, doc, s); err != nil {
			return nil, nil, &FileError{s.file, err}
		}
		used = append(used, s.file)
	}
	return used, problems, nil
}

// ignored is the problem line for a project policy file that is not used.
func ignored(file string, err error) string {
	return fmt.Sprintf("project policy file %s is ignored: %v", file, err)
}

// AppendStrings appends a JSON array of non-empty strings to dst; anything else is an error
// naming key.
func AppendStrings(dst *[]string, key string, v gjson.Result) error {
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
