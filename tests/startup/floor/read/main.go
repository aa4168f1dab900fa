// Command read is the least any hook does: read its payload from stdin. Timed beside the hooks
// (go run ./tests/startup -all), it shows what linking os and reading a pipe cost over an
// empty Go binary before any hook work.
package main

import (
	"io"
	"os"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil || len(data) == 0 {
		os.Exit(1)
	}
}
