//go:build !unix

package hook

import "os"

// pollableStdin: elsewhere stdin is read on a goroutine raced against the deadline.
func pollableStdin(*os.File) *os.File { return nil }

// privateStdout: elsewhere the answer shares os.Stdout with the hook's code.
func privateStdout() *os.File { return os.Stdout }
