//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package hook

import "os"

func isTTY(fd uintptr) bool {
	st, err := os.NewFile(fd, "").Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
