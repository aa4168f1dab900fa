package paths

import (
	"testing"

	"github.com/hookkit/harness/lib/dialect"
)

// Every project file that a client's declaration says can switch off the hooks a user installed
// (dialect.Files.Switches, each seen in the real client) is one whose write asks: a planted file,
// or Claude Code's project settings.
func TestSwitchFilesAsk(t *testing.T) {
	const project = "/home/dev/proj"
	for _, d := range dialect.All() {
		for _, sw := range d.Files.Switches {
			if Planted(sw.File) == "" && !ProjectSettings(project, project+"/"+sw.File) {
				t.Errorf("%s: %s can switch its hooks off (%s), but a write to it does not ask: add it to the planted list", d.Title, sw.File, sw.Key)
			}
		}
	}
}
