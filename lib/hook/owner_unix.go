//go:build !windows

package hook

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
)

// ownerHome is the home directory the password database gives the account the hook runs as:
// the home no variable can move. "" where the file does not list the account (macOS keeps its
// users in Directory Services; an account from a directory service), or names no absolute
// path. It reads only as far as the account's line, and no line past
// 4 KiB: the file is small and the lookup runs on every call. os/user is not used: it costs
// every hook its start-up time, and needs cgo for the full lookup.
func ownerHome() string {
	if runtime.GOOS == "darwin" {
		return ""
	}
	f, err := os.Open(passwdFile)
	if err != nil {
		return ""
	}
	defer f.Close()
	return homeOf(bufio.NewScanner(f), strconv.Itoa(os.Getuid()))
}
