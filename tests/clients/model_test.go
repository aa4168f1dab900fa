package clients

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// The wire protocols the fake model speaks, one per client family.
const (
	responses = "responses" // OpenAI Responses (Codex)
	chat      = "chat"      // OpenAI Chat Completions (Copilot, Qwen, droid)
	geminiAPI = "gemini"    // Gemini API (Gemini CLI)
	anthropic = "anthropic" // Anthropic Messages (Kimi Code)
)

// call is one tool call the scripted model makes, in the client's own tool names.
type call struct {
	id   string
	name string
	args map[string]any
	// freeform is a freeform tool's input (Codex's apply_patch), sent instead of args.
	freeform string
}

// model is a scripted model server. It is stateless: the reply to a request is chosen by how
// many tool calls the conversation in it already holds, so a retry gets the same answer, and
// after the last call it answers "Done.". Every request body is kept, whatever its path.
type model struct {
	proto string
	calls []call
	addr  string // http://127.0.0.1:PORT

	mu     sync.Mutex
	bodies []string
	paths  []string
	issued map[string]bool // the calls the model has made
}

func startModel(t *testing.T, proto string) *model {
	t.Helper()
	m := &model{proto: proto, issued: map[string]bool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m.addr = "http://" + ln.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(m.serve), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return m
}

// script sets the calls the model makes. The calls name paths of the session, which needs the
// model's address first: hence after startModel, before the client runs.
func (m *model) script(calls ...call) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = calls
}

func (m *model) serve(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.bodies = append(m.bodies, string(b))
	m.paths = append(m.paths, r.Method+" "+r.URL.String())
	m.mu.Unlock()
	var req map[string]any
	if json.Unmarshal(b, &req) != nil || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	switch {
	case m.proto == responses && strings.HasSuffix(r.URL.Path, "/responses"):
		m.serveResponses(w, req)
	case m.proto == chat && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		m.serveChat(w, req)
	case m.proto == geminiAPI && strings.HasSuffix(r.URL.Path, ":streamGenerateContent"):
		m.serveGemini(w, req)
	case m.proto == anthropic && strings.HasSuffix(r.URL.Path, "/v1/messages"):
		m.serveAnthropic(w, req)
	default:
		http.NotFound(w, r)
	}
}

// next is the scripted reply after n tool calls: a call, or nil for the final text.
func (m *model) next(n int) *call {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n < len(m.calls) {
		m.issued[m.calls[n].id] = true
		return &m.calls[n]
	}
	return nil
}

// made reports whether the model has made the call with this id.
func (m *model) made(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.issued[id]
}

func sse(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
}

func (m *model) serveResponses(w http.ResponseWriter, req map[string]any) {
	n := 0
	for _, it := range list(req["input"]) {
		if t := str(it, "type"); t == "function_call" || t == "custom_tool_call" {
			n++
		}
	}
	var item map[string]any
	if c := m.next(n); c == nil {
		item = map[string]any{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "Done.", "annotations": []any{}}}}
	} else if c.freeform != "" {
		item = map[string]any{"type": "custom_tool_call", "id": "ctc_" + c.id, "call_id": c.id, "status": "completed", "name": c.name, "input": c.freeform}
	} else {
		args, _ := json.Marshal(c.args)
		item = map[string]any{"type": "function_call", "id": "fc_" + c.id, "call_id": c.id, "status": "completed", "name": c.name, "arguments": string(args)}
	}
	resp := func(status string, output []any) map[string]any {
		r := map[string]any{"id": "resp_1", "object": "response", "status": status, "model": "fake-model", "output": output}
		if status == "completed" {
			r["usage"] = map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
				"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}
		}
		return r
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "response.created", map[string]any{"type": "response.created", "response": resp("in_progress", []any{})})
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if item["type"] == "message" {
		sse(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "Done."})
	}
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": resp("completed", []any{item})})
}

func (m *model) serveChat(w http.ResponseWriter, req map[string]any) {
	n := 0
	for _, msg := range list(req["messages"]) {
		if str(msg, "role") == "assistant" && len(list(msg.(map[string]any)["tool_calls"])) > 0 {
			n++
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	if c := m.next(n); c == nil {
		sse(w, "", chunk(map[string]any{"role": "assistant", "content": "Done."}, nil))
		sse(w, "", chunk(map[string]any{}, "stop"))
	} else {
		args, _ := json.Marshal(c.args)
		sse(w, "", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"index": 0, "id": c.id, "type": "function",
			"function": map[string]any{"name": c.name, "arguments": string(args)}}}}, nil))
		sse(w, "", chunk(map[string]any{}, "tool_calls"))
	}
	sse(w, "", map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "fake-model", "choices": []any{},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func (m *model) serveGemini(w http.ResponseWriter, req map[string]any) {
	n := 0
	for _, c := range list(req["contents"]) {
		if str(c, "role") != "model" {
			continue
		}
		for _, p := range list(c.(map[string]any)["parts"]) {
			if pm, _ := p.(map[string]any); pm["functionCall"] != nil {
				n++
				break
			}
		}
	}
	var part map[string]any
	if c := m.next(n); c == nil {
		part = map[string]any{"text": "Done."}
	} else {
		part = map[string]any{"functionCall": map[string]any{"id": c.id, "name": c.name, "args": c.args}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "", map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}, "modelVersion": "fake-model", "responseId": "r1"})
}

// serveAnthropic answers a Messages request as a stream: one tool_use block, or the final text.
func (m *model) serveAnthropic(w http.ResponseWriter, req map[string]any) {
	n := 0
	for _, msg := range list(req["messages"]) {
		if str(msg, "role") != "assistant" {
			continue
		}
		for _, b := range list(msg.(map[string]any)["content"]) {
			if str(b, "type") == "tool_use" {
				n++
			}
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message", "role": "assistant",
		"model": "fake-model", "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}})
	stop := "end_turn"
	if c := m.next(n); c == nil {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "Done."}})
	} else {
		args, _ := json.Marshal(c.args)
		stop = "tool_use"
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": c.id, "name": c.name, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(args)}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// result is the tool result the model was sent for the call with this id, as text.
func (m *model) result(id string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.bodies) - 1; i >= 0; i-- {
		var req map[string]any
		if json.Unmarshal([]byte(m.bodies[i]), &req) != nil {
			continue
		}
		switch m.proto {
		case responses:
			for _, it := range list(req["input"]) {
				if t := str(it, "type"); (t == "function_call_output" || t == "custom_tool_call_output") && str(it, "call_id") == id {
					return text(it.(map[string]any)["output"]), true
				}
			}
		case chat:
			for _, msg := range list(req["messages"]) {
				if str(msg, "role") == "tool" && str(msg, "tool_call_id") == id {
					return text(msg.(map[string]any)["content"]), true
				}
			}
		case anthropic:
			for _, msg := range list(req["messages"]) {
				for _, b := range list(msg.(map[string]any)["content"]) {
					if str(b, "type") == "tool_result" && str(b, "tool_use_id") == id {
						return text(b.(map[string]any)["content"]), true
					}
				}
			}
		case geminiAPI:
			for _, c := range list(req["contents"]) {
				for _, p := range list(c.(map[string]any)["parts"]) {
					if fr, _ := p.(map[string]any)["functionResponse"].(map[string]any); fr != nil && fr["id"] == id {
						return text(fr["response"]), true
					}
				}
			}
		}
	}
	return "", false
}

// contains reports whether any request body holds s.
func (m *model) contains(s string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, b := range m.bodies {
		if strings.Contains(b, s) {
			return true
		}
	}
	return false
}

// body is the i-th request's body.
func (m *model) body(i int) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if i < len(m.bodies) {
		return m.bodies[i]
	}
	return ""
}

// count is how many times the i-th request's body holds s.
func (m *model) count(i int, s string) int { return strings.Count(m.body(i), s) }

func (m *model) requests() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.bodies)
}

// dump shows what the model received, for a failing check: every path, and the last body.
func (m *model) dump() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "%d requests to the model: %s\n", len(m.bodies), strings.Join(m.paths, ", "))
	if len(m.bodies) > 0 {
		last := m.bodies[len(m.bodies)-1]
		if len(last) > 6000 {
			last = "..." + last[len(last)-6000:]
		}
		b.WriteString("the last body (its end):\n" + last + "\n")
	}
	return b.String()
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func str(v any, key string) string {
	m, _ := v.(map[string]any)
	s, _ := m[key].(string)
	return s
}

// text flattens a tool result: a string, or a list of content parts with text.
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var parts []string
		for _, p := range v {
			if s := str(p, "text"); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "\n")
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep a reason's <, > and & as they are
	enc.Encode(v)
	return strings.TrimSpace(b.String())
}
