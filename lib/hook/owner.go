package hook

import (
	"bufio"
	"bytes"
	"path/filepath"
)

// passwdFile is the password database the account's own home is read from; tests point it at
// a fixture.
var passwdFile = "/etc/passwd"

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
