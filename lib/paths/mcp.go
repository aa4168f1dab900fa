package paths

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// pathKey reports whether an argument name names local paths. Names are compared without
// case, _ and - (filePath is file_path): path, file, uri, dir, destination, source and the
// like, and any name ending in path(s) or file(s).
func pathKey(k string) bool {
	switch n := normKey(k); n {
	case "path", "paths", "filename", "filenames", "file", "files", "uri", "uris", "dir", "dirs", "directory", "directories",
		"folder", "folders", "destination", "destinations", "dest", "target", "targets", "source", "sources", "src",
		"output", "outputdir", "outputdirectory":
		return true
	default:
		return strings.HasSuffix(n, "path") || strings.HasSuffix(n, "paths") || strings.HasSuffix(n, "file") || strings.HasSuffix(n, "files")
	}
}

// srcKey reports a path argument that a copy only reads.
func srcKey(k string) bool {
	switch normKey(k) {
	case "source", "sources", "src", "from", "sourcepath", "sourcepaths", "sourcefile", "sourcefiles", "srcpath":
		return true
	}
	return false
}

// textKey reports an argument that carries text, not a place: a value there that happens to
// start with / (a comment, a regular expression, a command line) is no path.
func textKey(k string) bool {
	switch normKey(k) {
	case "content", "contents", "text", "body", "data", "message", "newtext", "oldtext", "newstring", "oldstring", "newstr",
		"oldstr", "code", "command", "script", "query", "pattern", "regex", "search", "replace", "replacement", "description",
		"prompt", "comment", "title", "url", "endpoint", "route":
		return true
	}
	return false
}

func normKey(k string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k))
}

// maxArgDepth bounds how deep the arguments are walked; deeper is an error (the guard blocks).
const maxArgDepth = 16

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
	add := func(key, p string, src bool) {
		p, ok := localPath(p)
		if !ok {
			return
		}
		// A copy reads its source and writes its destination; a move or delete changes both.
		if writes && (!src || moves) {
			ws = append(ws, Access{Path: p, How: tool + " " + key})
		} else {
			rs = append(rs, Access{Path: p, How: tool + " " + key, Read: true})
		}
	}
	err = walkArgs(in.Result, "", "", false, 0, tool, add)
	if len(ws) > 0 && holdsKey(in.Result, 0) {
		// a private key in what the tool writes (its content, as text or escaped in JSON)
		for i := range ws {
			ws[i].Key = true
		}
	}
	return ws, rs, err
}

// walkArgs finds the paths in an MCP tool's arguments, nested objects and arrays included
// (edits[].path, files[].path): a string under a path key, and under any other key but a
// text one a one-line string that starts with /, ~/ or file://. Under a path key anything but
// a string, an array of them or an object that holds a path is an error naming it.
func walkArgs(v gjson.Result, where, key string, under bool, depth int, tool string, add func(where, p string, src bool)) error {
	if depth > maxArgDepth {
		return fmt.Errorf("%s: tool_input.%s nests deeper than %d levels", tool, where, maxArgDepth)
	}
	switch {
	case v.Type == gjson.String:
		s := v.Str
		if under || !textKey(key) && !strings.Contains(s, "\n") &&
			(strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, "file://")) {
			add(where, s, srcKey(key))
		}
	case v.IsObject():
		found := 0
		var err error
		v.ForEach(func(k, x gjson.Result) bool {
			sub := k.Str
			if where != "" {
				sub = where + "." + k.Str
			}
			n := 0
			err = walkArgs(x, sub, k.Str, pathKey(k.Str), depth+1, tool, func(w, p string, src bool) { n++; add(w, p, src) })
			found += n
			return err == nil
		})
		if err == nil && under && found == 0 {
			err = fmt.Errorf("%s: tool_input.%s is an object with no path in it, not a path", tool, where)
		}
		return err
	case v.IsArray():
		for i, x := range v.Array() {
			if err := walkArgs(x, fmt.Sprintf("%s[%d]", where, i), key, under, depth+1, tool, add); err != nil {
				return err
			}
		}
	case under && v.Type != gjson.Null:
		return fmt.Errorf("%s: tool_input.%s is %s, not a path", tool, where, kind(v))
	}
	return nil
}

// localPath turns an argument into a path of this machine: file:// URLs lose their scheme;
// other URLs and empty values are no local path.
func localPath(p string) (string, bool) {
	if rest, ok := strings.CutPrefix(p, "file://"); ok {
		rest = strings.TrimPrefix(rest, "localhost")
		if u, err := url.PathUnescape(rest); err == nil {
			rest = u // file:///home/dev/.ssh/id%5Frsa
		}
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

// holdsKey reports a private key in any string of an MCP tool's arguments.
func holdsKey(v gjson.Result, depth int) bool {
	if v.Type == gjson.String {
		return PrivateKey(v.Str)
	}
	found := false
	if depth <= maxArgDepth && (v.IsObject() || v.IsArray()) {
		v.ForEach(func(_, x gjson.Result) bool {
			found = holdsKey(x, depth+1)
			return !found
		})
	}
	return found
}
