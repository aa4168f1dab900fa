package danger

import (
	"path"
	"strings"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/shell"
)

// hookSwitches denies a command that writes a setting with which a project's own file switches
// off the hooks a user installed for some client (dialect.Files.Switches, each seen in the real
// client): it writes the file and names the setting. Writing the file otherwise asks
// (tamper.planted).
func (j *judge) hookSwitches(c *shell.Cmd) {
	var settings []string
	for _, t := range c.Writes(j.world.Home) {
		if ext := path.Ext(t.Path); ext == ".json" || ext == ".toml" {
			settings = append(settings, t.Path)
		}
	}
	if len(settings) == 0 {
		return // the declarations are built only for a command that writes a settings file
	}
	for _, d := range dialect.All() {
		for _, sw := range d.Files.Switches {
			key := sw.Key[strings.LastIndexByte(sw.Key, '.')+1:]
			if !strings.Contains(c.Text, key) && !argsContain(c, key) && !piped(c, key) {
				continue
			}
			for _, p := range settings {
				if strings.HasSuffix(strings.ToLower(j.canon(p)), "/"+strings.ToLower(sw.File)) {
					j.add(c, tamperDisableHooks, "it writes "+sw.Key+" into "+p+", a setting that switches off the hooks installed for "+d.Title, "")
					return
				}
			}
		}
	}
}

// piped reports whether what is piped into a command names s: the known text, or the words of
// the commands upstream (echo '{"disableAllHooks": true}' | tee FILE, jq '...' FILE | sponge FILE).
func piped(c *shell.Cmd, s string) bool {
	if c.Stdin == nil {
		return false
	}
	if strings.Contains(c.Stdin.Text, s) {
		return true
	}
	for _, f := range c.Stdin.From {
		if strings.Contains(f.Text, s) || argsContain(f, s) {
			return true
		}
	}
	return false
}
