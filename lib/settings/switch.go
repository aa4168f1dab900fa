package settings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// SwitchedOff is a setting of a project's file that switches off hooks the user installed for
// a client (dialect.Files.Switches), found set.
type SwitchedOff struct {
	Client *dialect.Dialect
	Switch dialect.Switch
	// File is the file that sets it; Value the value it has there, as JSON.
	File, Value string
	// Own: the file is the user's own, in the home (~/.qwen/settings.json), not a project's.
	Own bool
}

// Message says what the setting does, for doctor and status.
func (s SwitchedOff) Message() string {
	what := "switches off every hook installed for " + s.Client.Title
	if s.Switch.Off == "" {
		what = "switches off the hooks it names, of those installed for " + s.Client.Title
	}
	if s.Own {
		return s.File + " (your own settings) sets " + s.Switch.Key + " = " + s.Value + ", which " + what +
			": they guard nothing anywhere; remove the setting"
	}
	when := ""
	if s.Switch.When != "" {
		when = " (" + s.Switch.When + ")"
	}
	return s.File + " sets " + s.Switch.Key + " = " + s.Value + ", which " + what + when +
		": in this project they guard nothing; remove the setting, or ask whoever added it why"
}

// ProjectSwitches finds the settings of d's declaration that switch off the user's hooks, set
// in the project folder dir or a folder above it, short of the home directory home; then the
// same files in the home, which are the user's own (Own: most clients keep their user settings
// where a project keeps its own, .qwen/settings.json: the switches in the client's folder). A file that cannot be read or parsed is
// skipped: a client that reads it either stops or ignores it (tests/clients shows which).
func ProjectSwitches(d *dialect.Dialect, dir, home string) []SwitchedOff {
	var out []SwitchedOff
	find := func(dir string, own bool) {
		for _, sw := range d.Files.Switches {
			if own && (d.Files.Dir == "" || !strings.HasPrefix(filepath.ToSlash(sw.File), filepath.ToSlash(d.Files.Dir)+"/")) {
				continue // in the home, only a file of the client's own folder is its user settings
			}
			if own && offChecked(d, sw) {
				continue // the hook file's own switch: the install's check reports it, as a failure
			}
			f := filepath.Join(dir, sw.File)
			if v, ok := switchValue(f, sw); ok {
				out = append(out, SwitchedOff{Client: d, Switch: sw, File: f, Value: v, Own: own})
			}
		}
	}
	home = filepath.Clean(home)
	for dir = filepath.Clean(dir); dir != home; {
		find(dir, false)
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	if home != "." && home != "" {
		find(home, true)
	}
	return out
}

// offChecked reports a switch in the user's hook file that the declaration's Files.Off names:
// status and doctor's check of the installed file already fail on it.
func offChecked(d *dialect.Dialect, sw dialect.Switch) bool {
	if filepath.ToSlash(sw.File) != filepath.ToSlash(filepath.Join(d.Files.Dir, d.Files.User)) {
		return false
	}
	for _, o := range d.Files.Off {
		if o.Path == sw.Key {
			return true
		}
	}
	return false
}

// switchValue reads sw's key in file f, and reports whether it is set to switch the hooks off.
func switchValue(f string, sw dialect.Switch) (string, bool) {
	b, err := os.ReadFile(f)
	if err != nil {
		return "", false
	}
	var raw string
	if strings.HasSuffix(f, ".toml") {
		doc, err := DecodeTOML(f, b)
		if err != nil {
			return "", false
		}
		var v any = doc
		for _, k := range strings.Split(sw.Key, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				return "", false
			}
			if v, ok = m[k]; !ok {
				return "", false
			}
		}
		j, err := json.Marshal(v)
		if err != nil {
			return "", false
		}
		raw = string(j)
	} else {
		v := gjson.GetBytes(b, sw.Key)
		if !v.Exists() {
			return "", false
		}
		raw = v.Raw
	}
	if sw.Off == "" {
		// A list each of whose entries switches a hook off: any entry counts.
		var list []any
		return raw, json.Unmarshal([]byte(raw), &list) == nil && len(list) > 0
	}
	return raw, raw == sw.Off
}
