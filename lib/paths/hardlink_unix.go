//go:build unix

package paths

import (
	"os"
	"syscall"
)

// linked reports a file with more than one name (a hard link of it exists somewhere).
func linked(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink > 1
}
