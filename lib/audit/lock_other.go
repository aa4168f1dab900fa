//go:build !unix

package audit

import "os"

// Elsewhere appends are single writes to a file opened for appending, without a lock: the
// lines stay whole, but parallel hooks may fork the chain (verify reports it).
func lock(*os.File) error { return nil }

func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
