//go:build !unix

package hook

import "os"

// pollableStdin: elsewhere stdin is read on a goroutine raced against the deadline.
func pollableStdin(*os.File) *os.File { return nil }
