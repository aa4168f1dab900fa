package hook

import (
	"path/filepath"
	"syscall"
)

// ownerHome is the profile folder Windows keeps for the account the hook runs as, asked of the
// process's own token: the home no variable (USERPROFILE, HOMEDRIVE, HOMEPATH) can move. ""
// when the token gives none.
func ownerHome() string {
	t, err := syscall.OpenCurrentProcessToken()
	if err != nil {
		return ""
	}
	defer t.Close()
	dir, err := t.GetUserProfileDirectory()
	if err != nil || !filepath.IsAbs(dir) {
		return ""
	}
	return filepath.Clean(dir)
}
