package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A private key cannot reach the model by any read route: not a Read of it, not a cat through
// Bash, not a cat through Monitor (which runs a command and streams its lines; Claude Code
// runs hooks that match Bash for it). Each call fails with WriteProtector's reason, and no
// request the model receives holds the key's content; a Read of a project file still works.
func TestKeyReadsAreGuarded(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	const marker = "HARNESS-E2E-PRIVATE-KEY-MATERIAL"
	key := filepath.Join(s.home, ".ssh", "id_rsa")
	os.MkdirAll(filepath.Dir(key), 0o700)
	os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"+marker+"\n-----END OPENSSH PRIVATE KEY-----\n"), 0o600)
	os.WriteFile(filepath.Join(s.project, "notes.md"), []byte("harness-e2e-notes\n"), 0o644)
	m := startModel(t,
		turn{tool: "Read", toolUse: "toolu_e2e_read", input: map[string]any{"file_path": key}},
		turn{tool: "Bash", toolUse: "toolu_e2e_cat", input: map[string]any{"command": "cat ~/.ssh/id_rsa", "description": "show the key"}},
		turn{tool: "Monitor", toolUse: "toolu_e2e_monitor", input: map[string]any{"command": "cat ~/.ssh/id_rsa", "description": "watch the key"}},
		turn{tool: "Read", toolUse: "toolu_e2e_notes", input: map[string]any{"file_path": filepath.Join(s.project, "notes.md")}})
	out := s.run(m, "show me my ssh key")
	for id, how := range map[string]string{"toolu_e2e_read": "(Read)", "toolu_e2e_cat": "(cat)", "toolu_e2e_monitor": "(cat)"} {
		content, isErr, found := m.toolResult(id)
		if !found || !isErr || !strings.Contains(content, "WriteProtector: blocked reading `"+key+"` "+how) || !strings.Contains(content, "[rule credentials.read]") {
			t.Errorf("%s: tool_result %q (error %v, found %v)\nclaude:\n%s\nhooks:\n%s", id, content, isErr, found, out, s.hookLines()+s.payloads())
		}
	}
	if content, isErr, found := m.toolResult("toolu_e2e_notes"); !found || isErr || !strings.Contains(content, "harness-e2e-notes") {
		t.Errorf("a project file could not be read: %q (error %v, found %v)", content, isErr, found)
	}
	if strings.Contains(m.sent(), marker) {
		t.Errorf("the key's content reached the model:\n%s", m.dump())
	}
}

// MCP tools write with path arguments: a write outside the project through an MCP server's
// write_file is blocked before the server is called, with WriteProtector's reason as the tool
// result; a write inside the project goes through the same server and lands.
func TestMCPWritesAreGuarded(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	// The session lives under /tmp, where writes are allowed: the outside is in the user's cache.
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(cache, 0o755)
	elsewhere, err := os.MkdirTemp(cache, "harness-e2e-outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(elsewhere) })
	outside := filepath.Join(elsewhere, "planted.sh")
	inside := filepath.Join(s.project, "docs", "mcp.md")
	config, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"scratch": map[string]any{"type": "stdio", "command": filepath.Join(binDir, "mcpserver")}}})
	m := startModel(t,
		turn{tool: "mcp__scratch__write_file", toolUse: "toolu_e2e_mcp_out", input: map[string]any{"path": outside, "content": "echo planted\n"}},
		turn{tool: "mcp__scratch__write_file", toolUse: "toolu_e2e_mcp_in", input: map[string]any{"path": inside, "content": "written through MCP\n"}})
	out := s.run(m, "write two files", "--mcp-config", string(config), "--strict-mcp-config")
	content, isErr, found := m.toolResult("toolu_e2e_mcp_out")
	if !found || !isErr || !strings.Contains(content, "WriteProtector: blocked writing `"+outside+"` (mcp__scratch__write_file path)") || !strings.Contains(content, "[rule outside-project]") {
		t.Errorf("outside: tool_result %q (error %v, found %v)\nclaude:\n%s\nhooks:\n%s\nrequests:\n%s", content, isErr, found, out, s.hookLines()+s.payloads(), m.dump())
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("the MCP server wrote outside the project")
	}
	if content, isErr, found := m.toolResult("toolu_e2e_mcp_in"); !found || isErr || !strings.Contains(content, "wrote "+inside) {
		t.Errorf("inside: tool_result %q (error %v, found %v)\nclaude:\n%s", content, isErr, found, out)
	}
	if b, err := os.ReadFile(inside); err != nil || string(b) != "written through MCP\n" {
		t.Errorf("the write inside the project did not land: %q, %v", b, err)
	}
}

// sent is every request the model received, as JSON text.
func (m *model) sent() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, _ := json.Marshal(m.requests)
	return string(b)
}

// The PowerShell tool (on Windows; here turned on with CLAUDE_CODE_USE_POWERSHELL_TOOL, with a
// stand-in pwsh on PATH that logs the scripts it is given) reaches SecurityValidator as
// PowerShell: deleting the home directory is blocked before pwsh starts, and a listing runs.
func TestPowerShellToolIsGuarded(t *testing.T) {
	needClient(t)
	s := newSession(t)
	s.install()
	bin := filepath.Join(s.home, "bin")
	log := filepath.Join(s.home, "pwsh.log")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "pwsh"), []byte("#!/bin/sh\necho \"$@\" >> "+log+"\necho harness-pwsh-ran\n"), 0o755)
	s.env = []string{"CLAUDE_CODE_USE_POWERSHELL_TOOL=1", "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	m := startModel(t,
		turn{tool: "PowerShell", toolUse: "toolu_e2e_ps_rm", input: map[string]any{"command": "Remove-Item -Recurse -Force ~", "description": "clean up"}},
		turn{tool: "PowerShell", toolUse: "toolu_e2e_ps_ls", input: map[string]any{"command": "Get-ChildItem", "description": "list"}})
	out := s.run(m, "clean up")
	// WriteProtector blocks it too (it deletes outside the project): the tool_result carries
	// the reason of whichever guard answered first, the hook events both.
	content, isErr, found := m.toolResult("toolu_e2e_ps_rm")
	const reason = "SecurityValidator: blocked `Remove-Item -Recurse -Force ~ (via PowerShell)`: it recursively deletes your home directory [rule fs.rm-critical"
	if !found || !isErr || !strings.Contains(out, reason) {
		t.Errorf("Remove-Item: tool_result %q (error %v, found %v)\nclaude:\n%s\nhooks:\n%s", content, isErr, found, out, s.hookLines()+s.payloads())
	}
	if content, isErr, found := m.toolResult("toolu_e2e_ps_ls"); !found || isErr || !strings.Contains(content, "harness-pwsh-ran") {
		t.Errorf("Get-ChildItem: tool_result %q (error %v, found %v)\nclaude:\n%s", content, isErr, found, out)
	}
	// The client runs a command as pwsh -Command '<its wrapper around the command>' (it also
	// parses one with a pwsh -EncodedCommand script that reads the command from stdin).
	if b, _ := os.ReadFile(log); strings.Contains(string(b), "Remove-Item") || !strings.Contains(string(b), "Get-ChildItem") {
		t.Errorf("pwsh ran:\n%s", b)
	}
}
