package danger

import "testing"

// TestPackRelease names the rule of the package releases pack each command must be decided by ("": allowed).
func TestPackRelease(t *testing.T) {
	checkPack(t, []packCase{
		{"npm unpublish @acme/utils@1.0.3", "release.unpublish"},
		{"npm --registry https://registry.npmjs.org unpublish acme@2.0.0", "release.unpublish"},
		{"cargo yank --version 0.3.1", "release.unpublish"},
		{"gem yank acme -v 1.2.0", "release.unpublish"},
		{"dotnet nuget delete Acme.Core 2.1.0 -s https://api.nuget.org/v3/index.json -k KEY", "release.unpublish"},
		{"cargo yank --undo --version 0.3.1", ""},
		{"npm unpublish --dry-run acme@1.0.0", ""},
		{"npm deprecate acme@1.0.0 'use 1.0.1'", ""},
		{"npm publish --dry-run", ""},
	})
}
