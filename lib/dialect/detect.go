package dialect

import (
	"slices"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// Detect names the client a payload came from by its shape, for hooks wired without
// --client. It is a fallback: the installer names the client on the command line. Every other
// dialect blocks wherever Claude Code's does (an ask becomes a block, a deny stays one), so a
// shape read as another client's never weakens an answer; a payload with no mark of another
// client is Claude Code's. The marks are each client's (client_<name>.go), tried lowest rank
// first; they are plain functions, registered apart from the declarations, so that reading a
// Claude Code payload builds no client's tables.
func Detect(data []byte) *Dialect {
	s := shapeOf(data)
	for _, m := range marks() {
		if m.Is(&s) {
			d, _ := Lookup(string(m.client))
			return d
		}
	}
	return claude
}

// Shape is what Detect reads of a payload's top level.
type Shape struct {
	Event, HookName, SessionID, TurnID, Tool, ToolCallID, Timestamp, Transcript, Mode,
	ToolResult, StopReason, EnvFile, MessageID, ClientType, HookEventName, WorkspaceRoot,
	ToolCall, ConversationID gjson.Result
}

// shapeOf reads the members marks look at in one pass over the top level, with no allocation:
// a large payload (a Write's content) is read once, and a Claude Code payload costs next to
// nothing.
func shapeOf(data []byte) Shape {
	var s Shape
	gjson.ParseBytes(data).ForEach(func(k, v gjson.Result) bool {
		var p *gjson.Result
		switch k.Str {
		case "hook_event_name":
			p = &s.Event
		case "hookName":
			p = &s.HookName
		case "sessionId":
			p = &s.SessionID
		case "turn_id":
			p = &s.TurnID
		case "tool_name":
			p = &s.Tool
		case "tool_call_id":
			p = &s.ToolCallID
		case "timestamp":
			p = &s.Timestamp
		case "transcript_path":
			p = &s.Transcript
		case "permission_mode":
			p = &s.Mode
		case "tool_result":
			p = &s.ToolResult
		case "stop_reason":
			p = &s.StopReason
		case "CLAUDE_ENV_FILE":
			p = &s.EnvFile
		case "message_id":
			p = &s.MessageID
		case "client_type":
			p = &s.ClientType
		case "hookEventName":
			p = &s.HookEventName
		case "workspaceRoot":
			p = &s.WorkspaceRoot
		case "toolCall":
			p = &s.ToolCall
		case "conversationId":
			p = &s.ConversationID
		}
		if p != nil && !p.Exists() {
			*p = v
		}
		return true
	})
	return s
}

// Mark is one sign that a payload is a client's. Ranks order the marks of every client: a
// mark that only one client's payloads can show goes before one that several share.
type Mark struct {
	Rank int
	Is   func(*Shape) bool
}

// The ranks of the kinds of mark.
const (
	// RankFormat: a format of the client's own (no hook_event_name, its own event names).
	RankFormat = 10
	// RankTranscript: the transcript lies in the client's own folder.
	RankTranscript = 40
	// RankField: a field or a value only the client sends.
	RankField = 50
	// RankFallback: what is left when nothing else told (a timestamp).
	RankFallback = 80
	// RankRunner: no mark in the payload, but the hook's environment says which client ran it;
	// read last, for payloads in Claude Code's own shape.
	RankRunner = 90
)

type mark struct {
	Mark
	client Client
}

// marked holds every client's marks, registered at init (a few function values).
var marked []mark

// detectBy adds a client's marks.
func detectBy(c Client, ms ...Mark) {
	for _, m := range ms {
		marked = append(marked, mark{m, c})
	}
}

var marks = sync.OnceValue(func() []mark {
	out := slices.Clone(marked)
	slices.SortStableFunc(out, func(a, b mark) int { return a.Rank - b.Rank })
	return out
})

// TranscriptIn is a mark: the payload's transcript lies in the folder dir of a home.
func TranscriptIn(dir string) func(*Shape) bool {
	return func(s *Shape) bool { return strings.Contains(s.Transcript.Str, "/"+dir+"/") }
}
