package paths

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// pathArgs are the argument names under which MCP tools take local paths, singular and plural.
var pathArgs = []string{"path", "paths", "file_path", "file_paths", "filepath", "filename", "filenames",
	"destination", "destinations", "dest", "target", "targets", "source", "sources", "src"}

// Words in an MCP tool's name that say it changes files, and that say it only reads them. A
// name with neither counts as a write: an unknown tool is judged by the stricter tier.
var (
	writeWords = []string{"write", "create", "edit", "move", "delete", "remove", "rename", "copy", "save", "update",
		"append", "put", "upload", "download", "mkdir", "patch", "replace", "insert", "modify", "touch", "set", "add",
		"rm", "mv", "cp", "unlink", "truncate", "overwrite", "store", "apply", "extract", "unzip", "install"}
	readWords = []string{"read", "get", "list", "ls", "search", "find", "view", "show", "cat", "open", "head",
		"tail", "stat", "info", "tree", "grep", "glob", "describe", "inspect", "query", "fetch", "load", "diff", "count", "exists", "check", "dir", "directory"}
)

// mcpAccess finds the local paths an MCP tool's arguments name and whether the tool reads or
// writes them: its own words decide ("write_file", "move_file" write; "read_file",
// "list_directory" read), unless the policy fixes a mode for the server. A path argument that
// is not a string (or an array of strings) is an error naming it: the guard blocks.
func (e Env) mcpAccess(tool string, in event.ToolInput, pol *Policy) (ws, rs []Access, err error) {
	server, name, _ := event.MCPTool(tool)
	mode := pol.MCP[server]
	if mode == "ignore" {
		return nil, nil, nil
	}
	writes := mode == "write" || mode != "read" && mcpWrites(name)
	moves := hasWord(name, "move", "rename", "mv", "delete", "remove", "rm", "unlink")
	for _, k := range pathArgs {
		v := in.Get(k)
		if !v.Exists() || v.Type == gjson.Null {
			continue
		}
		var vals []string
		switch {
		case v.Type == gjson.String:
			vals = []string{v.Str}
		case v.IsArray():
			for i, x := range v.Array() {
				if x.Type != gjson.String {
					return nil, nil, fmt.Errorf("%s: tool_input.%s[%d] is %s, not a path", tool, k, i, kind(x))
				}
				vals = append(vals, x.Str)
			}
		default:
			return nil, nil, fmt.Errorf("%s: tool_input.%s is %s, not a path", tool, k, kind(v))
		}
		for _, p := range vals {
			p, ok := localPath(p)
			if !ok {
				continue
			}
			// A copy reads its source and writes its destination; a move or delete changes both.
			src := k == "source" || k == "sources" || k == "src"
			if writes && (!src || moves) {
				ws = append(ws, Access{Path: p, How: tool + " " + k})
			} else {
				rs = append(rs, Access{Path: p, How: tool + " " + k, Read: true})
			}
		}
	}
	return ws, rs, nil
}

// localPath turns an argument into a path of this machine: file:// URLs lose their scheme;
// other URLs and empty values are no local path.
func localPath(p string) (string, bool) {
	if rest, ok := strings.CutPrefix(p, "file://"); ok {
		return rest, rest != ""
	}
	if strings.Contains(p, "://") || strings.TrimSpace(p) == "" {
		return "", false
	}
	return p, true
}

// mcpWrites decides from a tool's name whether it changes files: a write word anywhere wins;
// a name with only read words reads.
func mcpWrites(name string) bool {
	if hasWord(name, writeWords...) {
		return true
	}
	return !hasWord(name, readWords...)
}

// hasWord reports whether a tool name (snake_case, kebab-case or camelCase) holds one of ws.
func hasWord(name string, ws ...string) bool {
	var words []string
	cur := []rune{}
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	for _, w := range words {
		for _, x := range ws {
			if w == x {
				return true
			}
		}
	}
	return false
}
