package paths

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/event"
)

// TestReadPolicy: allow_read lets the user open one no-access file, deny_read closes a project
// file, and the mcp modes decide how a server's paths are judged.
func TestReadPolicy(t *testing.T) {
	e := Env{Cwd: "/home/dev/proj", Home: "/home/dev", Project: "/home/dev/proj", Temp: []string{"/tmp"}}
	tests := []struct {
		name, tool, input string
		pol               Policy
		want              Action
		rule              string
	}{
		{"key denied", "Read", `{"file_path":"/home/dev/.aws/config"}`, Policy{}, Deny, "credentials.read"},
		{"allow_read opens one file", "Read", `{"file_path":"/home/dev/.aws/config"}`, Policy{AllowRead: []string{"~/.aws/config"}}, Allow, ""},
		{"allow_read opens only that file", "Read", `{"file_path":"/home/dev/.aws/credentials"}`, Policy{AllowRead: []string{"~/.aws/config"}}, Deny, "credentials.read"},
		{"allow_read for cat", "Bash", `{"command":"cat ~/.aws/config"}`, Policy{AllowRead: []string{"~/.aws/config"}}, Allow, ""},
		{"allow_read for .env", "Read", `{"file_path":"/home/dev/proj/.env"}`, Policy{AllowRead: []string{".env"}}, Allow, ""},
		{"deny_read", "Read", `{"file_path":"/home/dev/proj/secrets/db.yaml"}`, Policy{DenyRead: []string{"secrets/**"}}, Deny, "policy.deny-read"},
		{"deny_read through grep", "Bash", `{"command":"grep pass secrets/db.yaml"}`, Policy{DenyRead: []string{"secrets/**"}}, Deny, "policy.deny-read"},
		// harness serve's secret (install --serve): with it any request passes as the hooks.
		{"serve secret read", "Read", `{"file_path":"/home/dev/.config/harness/serve.secret"}`, Policy{}, Deny, "credentials.read"},
		{"serve secret grep", "Grep", `{"pattern":".","path":"/home/dev/.config/harness/serve.secret"}`, Policy{}, Deny, "credentials.read"},
		{"serve secret cat", "Bash", `{"command":"cat ~/.config/harness/serve.secret"}`, Policy{}, Deny, "credentials.read"},
		{"mcp auto write", "mcp__gh__create_or_update_file", `{"path":"/home/dev/x"}`, Policy{}, Deny, "outside-project"},
		{"mcp ignore", "mcp__gh__create_or_update_file", `{"path":"/home/dev/x"}`, Policy{MCP: map[string]string{"gh": "ignore"}}, Allow, ""},
		{"mcp read mode", "mcp__fs__frob", `{"path":"/home/dev/x"}`, Policy{MCP: map[string]string{"fs": "read"}}, Allow, ""},
		{"mcp read mode still guards keys", "mcp__fs__frob", `{"path":"/home/dev/.ssh/id_rsa"}`, Policy{MCP: map[string]string{"fs": "read"}}, Deny, "credentials.read"},
		{"mcp write mode", "mcp__fs__read_file", `{"path":"/home/dev/x"}`, Policy{MCP: map[string]string{"fs": "write"}}, Deny, "outside-project"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js, err := e.JudgeCall(tt.tool, event.ToolInput{Result: gjson.Parse(tt.input)}, &tt.pol, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, rule := Allow, ""
			if len(js) > 0 {
				got, rule = js[0].Action, js[0].Rule
			}
			if got != tt.want || rule != tt.rule {
				t.Errorf("got %s [%s], want %s [%s]", got, rule, tt.want, tt.rule)
			}
		})
	}
}

// TestMCPBadInput: a path argument of the wrong type is an error naming it.
func TestMCPBadInput(t *testing.T) {
	e := Env{Cwd: "/p", Home: "/h", Project: "/p"}
	for in, want := range map[string]string{
		`{"path":42}`:             "tool_input.path is a number",
		`{"paths":["a",{"x":1}]}`: "tool_input.paths[1] is an object",
		`{"destination":true}`:    "tool_input.destination is a boolean",
	} {
		_, err := e.JudgeCall("mcp__fs__write_file", event.ToolInput{Result: gjson.Parse(in)}, nil, nil)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "mcp__fs__write_file") {
			t.Errorf("%s: got %v, want an error with %q", in, err, want)
		}
	}
}

// TestReadPolicyFiles: allow_read and loosening mcp modes belong to the user.
func TestReadPolicyFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	user := write("user.json", `{"allow_read": ["~/.aws/config"], "mcp": {"github": "ignore", "fs": "read"}}`)
	p, err := LoadPolicy(config.Files{User: user})
	if err != nil || len(p.AllowRead) != 1 || p.MCP["github"] != "ignore" {
		t.Fatalf("user policy: %+v, %v", p, err)
	}
	proj := write("proj.json", `{"deny_read": ["secrets/**"], "mcp": {"fs": "write"}}`)
	p, err = LoadPolicy(config.Files{User: user, Project: proj})
	if err != nil || p.MCP["fs"] != "write" || len(p.DenyRead) != 1 {
		t.Fatalf("project tightening: %+v, %v", p, err)
	}
	for body, want := range map[string]string{
		`{"allow_read": [".env"]}`:     `"allow_read" loosens the guard`,
		`{"mcp": {"fs": "ignore"}}`:    `"ignore" loosens the guard`,
		`{"mcp": {"fs": "sometimes"}}`: `mcp.fs must be`,
		`{"mcp": ["fs"]}`:              `"mcp" must be an object`,
	} {
		if p, err := LoadPolicy(config.Files{Project: write("bad.json", body)}); err != nil || len(p.Problems) != 1 || !strings.Contains(p.Problems[0], want) {
			t.Errorf("%s: got %v, want it ignored: %q", body, err, want)
		}
	}
	// With a system policy, loosening is the system's alone: the user's allow_read is refused,
	// naming both files, and the system's own loosening and the user's tightening apply.
	system := write("system.json", `{"deny_read": ["~/corp/**"], "allow_dirs": ["/srv/shared"], "mcp": {"fs": "read"}}`)
	if _, err := LoadPolicy(config.Files{System: system, User: user}); err == nil ||
		!strings.Contains(err.Error(), "policy file "+user+`: "allow_read" loosens the guard, and a user policy may only tighten it: the system policy `+system+" decides that") {
		t.Errorf("a user policy loosening under a system one: %v", err)
	}
	p, err = LoadPolicy(config.Files{System: system, User: proj})
	if err != nil || p.MCP["fs"] != "write" || len(p.DenyRead) != 2 || len(p.AllowDirs) != 1 {
		t.Fatalf("system then user: %+v, %v", p, err)
	}
}

func TestHasWord(t *testing.T) {
	for name, want := range map[string]bool{"write_file": true, "read_file": false, "list_directory": false, "deleteFile": true,
		"get-file-info": false, "create_or_update_file": true, "frobnicate": true, "search_files": false, "readWriteThing": true} {
		if got := mcpWrites(name); got != want {
			t.Errorf("mcpWrites(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestMCPKeys: MCP path arguments are found by normalised name, nested, and by value.
func TestMCPKeys(t *testing.T) {
	e := Env{Cwd: "/h/p", Home: "/h", Project: "/h/p", Temp: []string{"/tmp"}}
	tests := []struct {
		tool, input string
		want        string // "how path" of the first path found, "" for none, "error"
	}{
		{"mcp__fs__write_file", `{"filePath":"~/.ssh/authorized_keys"}`, "filePath ~/.ssh/authorized_keys"},
		{"mcp__fs__write_file", `{"FILE-PATH":"a"}`, "FILE-PATH a"},
		{"mcp__fs__write_file", `{"uri":"file:///h/.ssh/authorized_keys"}`, "uri /h/.ssh/authorized_keys"},
		{"mcp__fs__read_text_file", `{"file":"~/.ssh/id_rsa"}`, "file ~/.ssh/id_rsa"},
		{"mcp__fs__edit_file", `{"edits":[{"path":"~/.bashrc","oldText":"/a"}]}`, "edits[0].path ~/.bashrc"},
		{"mcp__fs__write", `{"files":[{"path":"x","content":"/* c */"}]}`, "files[0].path x"},
		{"mcp__fs__export", `{"output":"o.txt"}`, "output o.txt"},
		{"mcp__fs__export", `{"reportFile":"r.txt"}`, "reportFile r.txt"},
		{"mcp__x__run", `{"opts":{"where":"~/.aws/credentials"}}`, "opts.where ~/.aws/credentials"},
		{"mcp__x__run", `{"content":"/etc/passwd","query":"/x","n":"//y"}`, ""},
		{"mcp__x__run", `{"where":"/a\nb"}`, ""},
		{"mcp__fs__write_file", `{"uri":"https://x/y"}`, ""},
		{"mcp__fs__write_file", `{"file":7}`, "error"},
		{"mcp__fs__write_file", `{"files":[{"name":"x"}]}`, "error"},
	}
	for _, tt := range tests {
		ws, rs, err := e.mcpAccess(tt.tool, event.ToolInput{Result: gjson.Parse(tt.input)}, &Policy{})
		got := ""
		if all := append(ws, rs...); len(all) > 0 {
			got = strings.TrimPrefix(all[0].How, tt.tool+" ") + " " + all[0].Path
		}
		if err != nil {
			got = "error"
		}
		if got != tt.want {
			t.Errorf("%s %s: got %q, want %q", tt.tool, tt.input, got, tt.want)
		}
	}
}
