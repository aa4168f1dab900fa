// Command record is the least a record hook built as the issues ask can do: read the payload,
// take its fields with gjson and append one redacted line to the project's audit log under a
// lock (lib/audit), with no runtime: no deadline, failure policy or payload validation. Timed
// beside the hooks (go run ./tests/startup -all), it shows what recording costs on its own.
package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/audit"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	in := gjson.ParseBytes(data)
	home := os.Getenv("HARNESS_HOME")
	if home == "" {
		home = filepath.Join(os.Getenv("HOME"), ".claude", "harness")
	}
	err = audit.Append(home, audit.Record{Project: in.Get("cwd").Str, Session: in.Get("session_id").Str,
		Event: in.Get("hook_event_name").Str, Hook: "record", Tool: in.Get("tool_name").Str,
		ToolUseID: in.Get("tool_use_id").Str, Summary: in.Get("tool_input.command").Str})
	if err != nil {
		os.Exit(1)
	}
}
