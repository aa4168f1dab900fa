package settings

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// A client with no command hooks, only plugins (dialect.PluginFile), gets a plugin file of the
// installer's own in its plugin folder: the template Files.Template, with the hooks' argument
// vectors, the client's tool names and the hooks' timeouts put in as one JSON value. The file is
// the installer's whole: Add writes it (and refuses to overwrite a file that is not the one it
// wrote), Remove deletes it unless it was edited since.

//go:embed plugins/*.js
var pluginTemplates embed.FS

// configMark is where the template takes its configuration.
const configMark = "__CONFIG__"

// template is d's plugin before its configuration goes in: what every plugin does (core.js:
// running a hook, reading its answer), then the client's own entry point (Files.Template).
func template(d *dialect.Dialect) ([]byte, error) {
	core, err := pluginTemplates.ReadFile("plugins/core.js")
	if err != nil {
		return nil, err
	}
	own, err := pluginTemplates.ReadFile("plugins/" + d.Files.Template)
	if err != nil {
		return nil, fmt.Errorf("%s: no plugin template %q", d.Title, d.Files.Template)
	}
	return append(core, own...), nil
}

// PluginHook is one hook as a plugin runs it.
type PluginHook struct {
	Hook    string   `json:"hook"`
	Event   string   `json:"event"`
	Matcher string   `json:"matcher"`
	Argv    []string `json:"argv"`
	Timeout int64    `json:"timeout"`
}

// RenderPlugin renders d's plugin running the entries' hooks.
func RenderPlugin(d *dialect.Dialect, entries []Entry) (string, error) {
	tmpl, err := template(d)
	if err != nil {
		return "", err
	}
	hooks := []PluginHook{}
	for _, e := range entries {
		for _, h := range gjson.GetBytes(e.Group, "hooks").Array() {
			argv, err := SplitCommand(h.Get("command").Str)
			if err != nil {
				return "", fmt.Errorf("%s: %w", e.Hook, err)
			}
			secs := int64(d.HookTimeout(h.Get("timeout").Float(), h.Get("timeout").Exists()).Seconds())
			hooks = append(hooks, PluginHook{Hook: e.Hook, Event: e.Event, Matcher: e.Matcher, Argv: argv, Timeout: secs})
		}
	}
	builtin := slices.Clone(d.Files.PluginTools)
	for t := range d.Tools {
		builtin = append(builtin, t)
	}
	sort.Strings(builtin)
	cfg := PluginConfig{d.Tools, map[string][]string{"apply_patch": {"Write", "Edit"}}, builtin, hooks}
	js, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return "", err
	}
	out := strings.Replace(string(tmpl), configMark, string(js), 1)
	return strings.ReplaceAll(out, "__CLIENT__", string(d.Client)), nil
}

// SplitCommand reads back a command line the installer wrote (ShellQuote and shellArgs): bare
// words and single-quoted ones, with '\” for a quote. Anything else is refused: a plugin runs
// an argument vector, never a shell.
func SplitCommand(cmd string) ([]string, error) {
	var out []string
	var word strings.Builder
	in, started := false, false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case in && c == '\'':
			in = false
		case in:
			word.WriteByte(c)
		case c == '\'':
			in, started = true, true
		case c == '\\' && i+1 < len(cmd) && cmd[i+1] == '\'':
			word.WriteByte('\'')
			i++
		case c == ' ':
			if started {
				out = append(out, word.String())
				word.Reset()
				started = false
			}
		case strings.IndexByte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%", c) >= 0:
			word.WriteByte(c)
			started = true
		default:
			return nil, fmt.Errorf("the command %q is not one the installer writes (%q at %d): a plugin runs no shell", cmd, c, i)
		}
	}
	if in {
		return nil, fmt.Errorf("the command %q has an unclosed quote", cmd)
	}
	if started {
		out = append(out, word.String())
	}
	if len(out) == 0 {
		return nil, errors.New("an empty command")
	}
	return out, nil
}

// pluginFile is a PluginFile: a file of the installer's own.
type pluginFile struct{}

// Read reads the file as bytes; one not there yet is created readable by all, as the client's
// own plugins are.
func (pluginFile) Read(path string) (*File, error) { return readRaw(path) }

// Verify checks the plugin still holds its configuration as one JSON value.
func (pluginFile) Verify(path string, raw []byte) error {
	if len(raw) == 0 {
		return nil
	}
	if !bytes.Contains(raw, []byte("const HARNESS = {")) {
		return fmt.Errorf("%s: not a harness plugin", path)
	}
	return nil
}

// Add writes the plugin, in place of the one an earlier install wrote; a file there that the
// installer did not write, or that was edited since, is refused.
func (pluginFile) Add(f *File, rec *Record, p Plan) (Edit, error) {
	e := Edit{Entries: p.Groups, Block: p.Block, Raw: []byte(p.Block)}
	ours := rec != nil && rec.Block != "" && string(f.Raw) == rec.Block
	switch {
	case f.Exists && string(f.Raw) == p.Block && rec != nil:
		for _, g := range p.Groups {
			e.Changes = append(e.Changes, Change{"keep", g.Hook, g.Event, g.Matcher})
		}
		return e, nil
	case f.Exists && !ours && rec != nil:
		return e, fmt.Errorf("%s was edited since the install; delete it (or put it back as it was), then install again; nothing was written", p.File)
	case f.Exists && !ours:
		return e, fmt.Errorf("%s is there already and is not the harness's; move it away, then install again; nothing was written", p.File)
	}
	if ours {
		for _, r := range rec.Entries {
			e.Changes = append(e.Changes, Change{"remove", r.Hook, r.Event, r.Matcher})
		}
	}
	for _, g := range p.Groups {
		e.Changes = append(e.Changes, Change{"add", g.Hook, g.Event, g.Matcher})
	}
	return e, nil
}

// Remove deletes the plugin the install wrote; one edited since is left, and stays recorded.
func (pluginFile) Remove(f *File, rec *Record, force bool) (Edit, error) {
	var e Edit
	kind := "remove"
	switch {
	case !f.Exists:
		kind = "missing"
	case string(f.Raw) != rec.Block && !force:
		kind = "edited"
	}
	for _, r := range rec.Entries {
		e.Changes = append(e.Changes, Change{kind, r.Hook, r.Event, r.Matcher})
	}
	switch kind {
	case "edited":
		e.Raw, e.Entries, e.Block = f.Raw, rec.Entries, rec.Block
	case "remove":
		e.Delete = true
	}
	return e, nil
}

// Find reports a plugin edited or removed since the install.
func (pluginFile) Find(f *File, rec *Record) ([]Problem, []Entry) {
	if !f.Exists || string(f.Raw) != rec.Block {
		return []Problem{{rec.Path, fmt.Sprintf("the harness plugin was edited or removed since the install (run harness install --client %s again)", rec.Client)}}, nil
	}
	return nil, rec.Entries
}

// PluginConfig is the configuration a plugin file holds.
type PluginConfig struct {
	Tools   map[string]string   `json:"tools"`
	Aliases map[string][]string `json:"aliases"`
	Builtin []string            `json:"builtin"`
	Hooks   []PluginHook        `json:"hooks"`
}

// ReadPlugin reads the configuration back from a plugin file, and says whether the rest of the
// file is d's template as the installer writes it (false: edited by hand).
func ReadPlugin(d *dialect.Dialect, raw []byte) (PluginConfig, bool, error) {
	var cfg PluginConfig
	const at = "const HARNESS = "
	i := bytes.Index(raw, []byte(at))
	if i < 0 {
		return cfg, false, errors.New("not a harness plugin: it holds no `const HARNESS = {...}`")
	}
	dec := json.NewDecoder(bytes.NewReader(raw[i+len(at):]))
	if err := dec.Decode(&cfg); err != nil {
		return cfg, false, fmt.Errorf("the plugin's configuration is not JSON: %v", err)
	}
	js, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return cfg, false, err
	}
	tmpl, err := template(d)
	if err != nil {
		return cfg, false, err
	}
	want := strings.ReplaceAll(strings.Replace(string(tmpl), configMark, string(js), 1), "__CLIENT__", string(d.Client))
	return cfg, want == string(raw), nil
}
