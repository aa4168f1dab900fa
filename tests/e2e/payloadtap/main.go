// payloadtap appends the payload it gets on stdin, as one line, to the file named by
// HARNESS_E2E_TAP, and answers nothing. The end-to-end tests wire it on every event so that a
// failing scenario can show exactly what the client sent to the hooks.
package main

import (
	"bytes"
	"io"
	"os"
)

func main() {
	b, _ := io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
	name := os.Getenv("HARNESS_E2E_TAP")
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	// One write per payload: appends from parallel hooks do not interleave.
	f.Write(append(bytes.TrimSpace(b), '\n'))
}
