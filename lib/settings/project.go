package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
)

// ProjectHooks says which of a client's project files (Files.Project, Files.Local) in dir
// brings hooks of its own, which the client runs beside the user's, outside the guards' view
// (a setting that switches the user's off is ProjectSwitches'). Only the JSON hook files a client reads from a
// project are looked at; a client that reads none has nothing to say.
func ProjectHooks(d *dialect.Dialect, dir string) []Problem {
	if d.Files.Kind != dialect.HookGroups && d.Files.Kind != dialect.TrustedHookGroups {
		return nil
	}
	var out []Problem
	for _, rel := range []string{d.Files.Project, d.Files.Local} {
		if rel == "" {
			continue
		}
		path := filepath.Join(dir, rel)
		raw, err := os.ReadFile(path)
		if err != nil || !gjson.ValidBytes(raw) {
			continue // a file that is not there, or that the client cannot read either
		}
		var events []string
		gjson.GetBytes(raw, "hooks").ForEach(func(ev, groups gjson.Result) bool {
			if len(groups.Array()) > 0 {
				events = append(events, ev.Str)
			}
			return true
		})
		if len(events) > 0 {
			slices.Sort(events)
			out = append(out, Problem{path, fmt.Sprintf("it brings hooks of its own (%s): %s runs them beside the user's, as the project wrote them",
				strings.Join(events, ", "), d.Name())})
		}
	}
	return out
}
