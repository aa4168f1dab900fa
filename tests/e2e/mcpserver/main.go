// mcpserver is a minimal MCP server over stdio (JSON-RPC 2.0, one message per line) with one
// tool, write_file {path, content}, that really writes. The end-to-end tests give it to the
// client so that a guard on MCP file tools is proven against a write that would happen.
package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
)

type request struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

var tools = []any{map[string]any{
	"name":        "write_file",
	"description": "Write content to the file at path, creating its directory.",
	"inputSchema": map[string]any{
		"type":       "object",
		"properties": map[string]any{"path": map[string]any{"type": "string"}, "content": map[string]any{"type": "string"}},
		"required":   []string{"path", "content"},
	},
}}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := json.NewEncoder(os.Stdout) // Encode ends every message with a newline
	for in.Scan() {
		var req request
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue // a notification (notifications/initialized) needs no answer
		}
		result, err := handle(req)
		msg := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if err != nil {
			msg["error"] = err
		} else {
			msg["result"] = result
		}
		out.Encode(msg)
	}
}

func handle(req request) (any, map[string]any) {
	switch req.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(req.Params, &p)
		return map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "harness-e2e", "version": "1.0.0"}}, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		return map[string]any{"tools": tools}, nil
	case "tools/call":
		var p struct {
			Name      string `json:"name"`
			Arguments struct {
				Path    string `json:"path"`
				Content string `json:"content"`
			} `json:"arguments"`
		}
		json.Unmarshal(req.Params, &p)
		if p.Name != "write_file" {
			return nil, map[string]any{"code": -32602, "message": "unknown tool " + p.Name}
		}
		text := "wrote " + p.Arguments.Path
		err := os.MkdirAll(filepath.Dir(p.Arguments.Path), 0o755)
		if err == nil {
			err = os.WriteFile(p.Arguments.Path, []byte(p.Arguments.Content), 0o644)
		}
		if err != nil {
			text = err.Error()
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": err != nil}, nil
	}
	return nil, map[string]any{"code": -32601, "message": "method not found: " + req.Method}
}
