package dialect

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
)

// Detect names the client a payload came from by its shape, for hooks wired without
// --client. It is a fallback: the installer names the client on the command line. Every other
// dialect blocks wherever Claude Code's does (an ask becomes a block, a deny stays one), so a
// shape read as another client's never weakens an answer; a payload with no mark of another
// client is Claude Code's.
func Detect(data []byte) *Dialect {
	// One pass over the top-level members, with no allocation: a large payload (a Write's
	// content) is read once, and a Claude Code payload costs next to nothing.
	var ev, hookName, sessionID, turnID, tool, toolCallID, timestamp, transcript, mode,
		toolResult, stopReason, envFile, messageID gjson.Result
	gjson.ParseBytes(data).ForEach(func(k, v gjson.Result) bool {
		var p *gjson.Result
		switch k.Str {
		case "hook_event_name":
			p = &ev
		case "hookName":
			p = &hookName
		case "sessionId":
			p = &sessionID
		case "turn_id":
			p = &turnID
		case "tool_name":
			p = &tool
		case "tool_call_id":
			p = &toolCallID
		case "timestamp":
			p = &timestamp
		case "transcript_path":
			p = &transcript
		case "permission_mode":
			p = &mode
		case "tool_result":
			p = &toolResult
		case "stop_reason":
			p = &stopReason
		case "CLAUDE_ENV_FILE":
			p = &envFile
		case "message_id":
			p = &messageID
		}
		if p != nil && !p.Exists() {
			*p = v
		}
		return true
	})
	must := func(c Client) *Dialect {
		d, _ := Lookup(string(c))
		return d
	}
	switch {
	case !ev.Exists() && (hookName.Exists() || sessionID.Exists()):
		return must(Copilot)
	case ev.Type == gjson.String && isGeminiEvent(ev.Str):
		return must(Gemini)
	case ev.Type == gjson.String && strings.Contains(ev.Str, "_") && strings.ToLower(ev.Str) == ev.Str:
		return must(DockerAgent)
	case strings.Contains(transcript.Str, "/.codex/"):
		return must(Codex)
	case strings.Contains(transcript.Str, "/.factory/"):
		return must(Droid)
	case strings.Contains(transcript.Str, "/.qwen/"):
		return must(Qwen)
	case strings.Contains(transcript.Str, "/.gemini/"):
		return must(Gemini)
	case strings.Contains(transcript.Str, "/.copilot/"):
		return must(Copilot)
	case turnID.Exists() && ev.Str != string(event.MessageDisplay):
		return must(Codex)
	case tool.Str == "Execute" || tool.Str == "Create" || tool.Str == "ApplyPatch" ||
		strings.HasPrefix(mode.Str, "auto-") || envFile.Exists() || (messageID.Exists() && ev.Str != string(event.MessageDisplay)):
		return must(Droid)
	case toolCallID.Exists() || tool.Str == "run_shell_command" || tool.Str == "write_file" || tool.Str == "edit" || mode.Str == "yolo":
		return must(Qwen)
	case toolResult.Exists() || stopReason.Exists() || (timestamp.Exists() && !transcript.Exists()):
		return must(Copilot)
	case timestamp.Exists() && mode.Exists():
		return must(Qwen)
	case timestamp.Exists():
		return must(Gemini)
	}
	return claude
}

func isGeminiEvent(name string) bool {
	switch name {
	case "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "PreCompress", "BeforeModel",
		"AfterModel", "BeforeToolSelection":
		return true
	}
	return false
}
