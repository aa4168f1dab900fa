package audit

import "testing"

// BenchmarkAppend is AuditLog's work on one tool call: one record appended to a project's log
// (go test ./lib/audit -run '^$' -bench Append).
func BenchmarkAppend(b *testing.B) {
	home := b.TempDir()
	r := Record{Project: "/home/dev/proj", Session: "0f918300-c686-4735-8224-dc1346d57197", Event: "PostToolUse",
		Hook: "AuditLog", Tool: "Bash", ToolUseID: "toolu_01ABCDEFGHIJKLMNOPQRSTUV", Summary: "go test ./lib/audit -run TestChain", DurationMS: 51}
	for b.Loop() {
		if err := Append(home, r); err != nil {
			b.Fatal(err)
		}
	}
}
