// Command parse is the least a Bash guard built as the issues ask can do: read the payload, take
// the command with gjson and parse it with mvdan.cc/sh/v3/syntax, with no runtime, policy, rule
// or record. Timed beside the hooks (go run ./tests/startup -all), it shows what the required
// parser costs over an empty Go binary on its own.
package main

import (
	"io"
	"os"
	"strings"

	"github.com/tidwall/gjson"
	"mvdan.cc/sh/v3/syntax"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(gjson.GetBytes(data, "tool_input.command").Str), "")
	if err != nil {
		os.Exit(2)
	}
	calls := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.CallExpr); ok {
			calls++
		}
		return true
	})
	if calls == 0 {
		os.Exit(3)
	}
}
