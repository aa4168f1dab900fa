//go:build !unix

package hook

import "os"

// pollableStdin: elsewhere stdin is read on a goroutine raced against the deadline.
func pollableStdin(*os.File, int64) (*os.File, []byte, bool) { return nil, nil, false }

// privateStdout: elsewhere the answer shares os.Stdout with the hook's code.
func privateStdout() *os.File { return os.Stdout }
