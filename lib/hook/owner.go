package hook

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

// passwdFile is the password database the account's own home is read from; tests point it at
// a fixture.
var passwdFile = "/etc/passwd"

// ownerHome is the home directory the password database gives the account the hook runs as:
// the home no variable can move. "" where the file does not list the account (macOS keeps its
// users in Directory Services, Windows in the registry; an account from a directory service),
// or names no absolute path. It reads only as far as the account's line, and no line past
// 4 KiB: the file is small and the lookup runs on every call. os/user is not used: it costs
// every hook its start-up time, and needs cgo for the full lookup.
func ownerHome() string {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return ""
	}
	f, err := os.Open(passwdFile)
	if err != nil {
		return ""
	}
	defer f.Close()
	return homeOf(bufio.NewScanner(f), strconv.Itoa(os.Getuid()))
}

// homeOf is the sixth field of the first line whose third is uid (name:password:uid:gid:gecos:home:shell).
func homeOf(sc *bufio.Scanner, uid string) string {
	sc.Buffer(make([]byte, 0, 4096), 4096)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' || line[0] == '+' || line[0] == '-' {
			continue // a comment, or an NIS include whose entries are not in the file
		}
		var f [6][]byte
		rest, ok := line, true
		for i := range f {
			if !ok {
				break
			}
			f[i], rest, ok = bytes.Cut(rest, []byte(":"))
		}
		if !ok || string(f[2]) != uid {
			continue // too few fields, or another account
		}
		if home := string(f[5]); filepath.IsAbs(home) {
			return filepath.Clean(home)
		}
		return ""
	}
	return ""
}
