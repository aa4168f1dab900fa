package event

import "github.com/tidwall/gjson"

// Typed views of each event's own fields. A view is the Input itself, so common fields and
// unknown fields stay reachable on it. Accessors return the zero value for an absent field.

// ToolCall holds the fields every tool event shares.
type ToolCall struct{ Input }

func (t ToolCall) ToolName() string { return t.str("tool_name") }

// Tool returns tool_input with typed access for the built-in tools.
func (t ToolCall) ToolInput() ToolInput { return ToolInput{t.Get("tool_input")} }
func (t ToolCall) ToolUseID() string    { return t.str("tool_use_id") }

// MCPServer returns mcp_server {name, source} for MCP tools.
func (t ToolCall) MCPServer() gjson.Result { return t.Get("mcp_server") }

type (
	PreToolUseInput          struct{ ToolCall }
	PermissionRequestInput   struct{ ToolCall }
	PermissionDeniedInput    struct{ ToolCall }
	PostToolUseInput         struct{ ToolCall }
	PostToolUseFailureInput  struct{ ToolCall }
	PostToolBatchInput       struct{ Input }
	UserPromptSubmitInput    struct{ Input }
	UserPromptExpansionInput struct{ Input }
	NotificationInput        struct{ Input }
	MessageDisplayInput      struct{ Input }
	StopInput                struct{ Input }
	StopFailureInput         struct{ Input }
	SubagentStartInput       struct{ Input }
	SubagentStopInput        struct{ StopInput }
	TaskInput                struct{ Input }
	TeammateIdleInput        struct{ Input }
	SessionStartInput        struct{ Input }
	SessionEndInput          struct{ Input }
	SetupInput               struct{ Input }
	CompactInput             struct{ Input }
	ModelSwitchInput         struct{ Input }
	InstructionsLoadedInput  struct{ Input }
	ConfigChangeInput        struct{ Input }
	CwdChangedInput          struct{ Input }
	DirectoryAddedInput      struct{ Input }
	FileChangedInput         struct{ Input }
	WorktreeCreateInput      struct{ Input }
	WorktreeRemoveInput      struct{ Input }
	ElicitationInput         struct{ Input }
	// PreSkillShellCommandInput is a skill's inline shell command: tool_name is Bash (or
	// PowerShell) and tool_input holds the command, as on PreToolUse.
	PreSkillShellCommandInput struct{ ToolCall }
)

// Tool returns the tool fields of any event that carries them (tool_name, tool_input), for a
// hook that judges a command the same way whichever event brought it: PreToolUse,
// PreSkillShellCommand, PermissionRequest, ...
func (in Input) Tool() ToolCall { return ToolCall{in} }

func (in Input) PreToolUse() PreToolUseInput { return PreToolUseInput{ToolCall{in}} }
func (in Input) PermissionRequest() PermissionRequestInput {
	return PermissionRequestInput{ToolCall{in}}
}
func (in Input) PermissionDenied() PermissionDeniedInput { return PermissionDeniedInput{ToolCall{in}} }
func (in Input) PostToolUse() PostToolUseInput           { return PostToolUseInput{ToolCall{in}} }
func (in Input) PostToolUseFailure() PostToolUseFailureInput {
	return PostToolUseFailureInput{ToolCall{in}}
}
func (in Input) PostToolBatch() PostToolBatchInput       { return PostToolBatchInput{in} }
func (in Input) UserPromptSubmit() UserPromptSubmitInput { return UserPromptSubmitInput{in} }
func (in Input) UserPromptExpansion() UserPromptExpansionInput {
	return UserPromptExpansionInput{in}
}
func (in Input) Notification() NotificationInput             { return NotificationInput{in} }
func (in Input) MessageDisplay() MessageDisplayInput         { return MessageDisplayInput{in} }
func (in Input) Stop() StopInput                             { return StopInput{in} }
func (in Input) StopFailure() StopFailureInput               { return StopFailureInput{in} }
func (in Input) SubagentStart() SubagentStartInput           { return SubagentStartInput{in} }
func (in Input) SubagentStop() SubagentStopInput             { return SubagentStopInput{StopInput{in}} }
func (in Input) Task() TaskInput                             { return TaskInput{in} }
func (in Input) TeammateIdle() TeammateIdleInput             { return TeammateIdleInput{in} }
func (in Input) SessionStart() SessionStartInput             { return SessionStartInput{in} }
func (in Input) SessionEnd() SessionEndInput                 { return SessionEndInput{in} }
func (in Input) Setup() SetupInput                           { return SetupInput{in} }
func (in Input) Compact() CompactInput                       { return CompactInput{in} }
func (in Input) ModelSwitch() ModelSwitchInput               { return ModelSwitchInput{in} }
func (in Input) InstructionsLoaded() InstructionsLoadedInput { return InstructionsLoadedInput{in} }
func (in Input) ConfigChange() ConfigChangeInput             { return ConfigChangeInput{in} }
func (in Input) CwdChanged() CwdChangedInput                 { return CwdChangedInput{in} }
func (in Input) DirectoryAdded() DirectoryAddedInput         { return DirectoryAddedInput{in} }
func (in Input) FileChanged() FileChangedInput               { return FileChangedInput{in} }
func (in Input) WorktreeCreate() WorktreeCreateInput         { return WorktreeCreateInput{in} }
func (in Input) WorktreeRemove() WorktreeRemoveInput         { return WorktreeRemoveInput{in} }
func (in Input) Elicitation() ElicitationInput               { return ElicitationInput{in} }
func (in Input) PreSkillShellCommand() PreSkillShellCommandInput {
	return PreSkillShellCommandInput{ToolCall{in}}
}

// View returns the typed view of the payload's own event (the Input itself for an unknown event).
func (in Input) View() any {
	switch in.name {
	case PreToolUse:
		return in.PreToolUse()
	case PermissionRequest:
		return in.PermissionRequest()
	case PermissionDenied:
		return in.PermissionDenied()
	case PostToolUse:
		return in.PostToolUse()
	case PostToolUseFailure:
		return in.PostToolUseFailure()
	case PostToolBatch:
		return in.PostToolBatch()
	case UserPromptSubmit:
		return in.UserPromptSubmit()
	case UserPromptExpansion:
		return in.UserPromptExpansion()
	case Notification:
		return in.Notification()
	case MessageDisplay:
		return in.MessageDisplay()
	case Stop:
		return in.Stop()
	case StopFailure:
		return in.StopFailure()
	case SubagentStart:
		return in.SubagentStart()
	case SubagentStop:
		return in.SubagentStop()
	case TaskCreated, TaskCompleted:
		return in.Task()
	case TeammateIdle:
		return in.TeammateIdle()
	case SessionStart:
		return in.SessionStart()
	case SessionEnd:
		return in.SessionEnd()
	case Setup:
		return in.Setup()
	case PreCompact, PostCompact:
		return in.Compact()
	case PreModelSwitch, PostModelSwitch:
		return in.ModelSwitch()
	case InstructionsLoaded:
		return in.InstructionsLoaded()
	case ConfigChange:
		return in.ConfigChange()
	case CwdChanged:
		return in.CwdChanged()
	case DirectoryAdded:
		return in.DirectoryAdded()
	case FileChanged:
		return in.FileChanged()
	case WorktreeCreate:
		return in.WorktreeCreate()
	case WorktreeRemove:
		return in.WorktreeRemove()
	case Elicitation, ElicitationResult:
		return in.Elicitation()
	case PreSkillShellCommand:
		return in.PreSkillShellCommand()
	}
	return in
}

// PermissionRequest: no tool_use_id.

// PermissionSuggestions returns the permission updates Claude Code would offer the user.
func (p PermissionRequestInput) PermissionSuggestions() gjson.Result {
	return p.Get("permission_suggestions")
}

// Reason says why auto mode denied the call.
func (p PermissionDeniedInput) Reason() string { return p.str("reason") }

// ToolResponse is the tool's structured output (Bash: stdout, stderr, interrupted, ...).
func (p PostToolUseInput) ToolResponse() gjson.Result { return p.Get("tool_response") }
func (p PostToolUseInput) DurationMS() int64          { return p.Get("duration_ms").Int() }

// Error starts "Exit code N" for a Bash command that failed.
func (p PostToolUseFailureInput) Error() string     { return p.str("error") }
func (p PostToolUseFailureInput) IsInterrupt() bool { return p.Get("is_interrupt").Bool() }
func (p PostToolUseFailureInput) DurationMS() int64 { return p.Get("duration_ms").Int() }

// BatchCall is one call of a PostToolBatch; its ToolResponse is the rendered tool_result text.
type BatchCall struct{ gjson.Result }

func (c BatchCall) ToolName() string     { return c.Get("tool_name").String() }
func (c BatchCall) ToolInput() ToolInput { return ToolInput{c.Get("tool_input")} }
func (c BatchCall) ToolUseID() string    { return c.Get("tool_use_id").String() }
func (c BatchCall) ToolResponse() string { return c.Get("tool_response").String() }

func (p PostToolBatchInput) ToolCalls() []BatchCall {
	var out []BatchCall
	for _, r := range p.Get("tool_calls").Array() {
		out = append(out, BatchCall{r})
	}
	return out
}

func (p UserPromptSubmitInput) Prompt() string       { return p.str("prompt") }
func (p UserPromptSubmitInput) Source() string       { return p.str("source") }
func (p UserPromptSubmitInput) SessionTitle() string { return p.str("session_title") }

func (p UserPromptExpansionInput) ExpansionType() string { return p.str("expansion_type") }
func (p UserPromptExpansionInput) CommandName() string   { return p.str("command_name") }
func (p UserPromptExpansionInput) CommandArgs() string   { return p.str("command_args") }
func (p UserPromptExpansionInput) CommandSource() string { return p.str("command_source") }
func (p UserPromptExpansionInput) Prompt() string        { return p.str("prompt") }

func (p NotificationInput) Message() string          { return p.str("message") }
func (p NotificationInput) Title() string            { return p.str("title") }
func (p NotificationInput) NotificationType() string { return p.str("notification_type") }

func (p MessageDisplayInput) TurnID() string    { return p.str("turn_id") }
func (p MessageDisplayInput) MessageID() string { return p.str("message_id") }
func (p MessageDisplayInput) Index() int64      { return p.Get("index").Int() }
func (p MessageDisplayInput) Final() bool       { return p.Get("final").Bool() }
func (p MessageDisplayInput) Delta() string     { return p.str("delta") }

// StopHookActive is true on the Stop that follows a hook-forced continuation: check it, or loop.
func (p StopInput) StopHookActive() bool { return p.Get("stop_hook_active").Bool() }

// LastAssistantMessage is the final reply; prefer it to the transcript, which may lag.
func (p StopInput) LastAssistantMessage() string        { return p.str("last_assistant_message") }
func (p StopInput) BackgroundTasks() gjson.Result       { return p.Get("background_tasks") }
func (p StopInput) SessionCrons() gjson.Result          { return p.Get("session_crons") }
func (p SubagentStopInput) AgentTranscriptPath() string { return p.str("agent_transcript_path") }

func (p StopFailureInput) Error() string                { return p.str("error") }
func (p StopFailureInput) ErrorDetails() gjson.Result   { return p.Get("error_details") }
func (p StopFailureInput) LastAssistantMessage() string { return p.str("last_assistant_message") }

func (p TaskInput) TaskID() string          { return p.str("task_id") }
func (p TaskInput) TaskSubject() string     { return p.str("task_subject") }
func (p TaskInput) TaskDescription() string { return p.str("task_description") }
func (p TaskInput) TeammateName() string    { return p.str("teammate_name") }
func (p TaskInput) TeamName() string        { return p.str("team_name") }

func (p TeammateIdleInput) TeammateName() string { return p.str("teammate_name") }
func (p TeammateIdleInput) TeamName() string     { return p.str("team_name") }

// Source is startup, resume, clear, compact or fork.
func (p SessionStartInput) Source() string       { return p.str("source") }
func (p SessionStartInput) Model() string        { return p.str("model") }
func (p SessionStartInput) SessionTitle() string { return p.str("session_title") }
func (p SessionStartInput) SecondsSinceLastResponse() float64 {
	return p.Get("seconds_since_last_response").Float()
}
func (p SessionStartInput) ContextTokens() int64 { return p.Get("context_tokens").Int() }
func (p SessionStartInput) PromptCacheLikelyExpired() bool {
	return p.Get("prompt_cache_likely_expired").Bool()
}
func (p SessionStartInput) EstimatedCacheWriteUSD() float64 {
	return p.Get("estimated_cache_write_usd").Float()
}

func (p SessionEndInput) Reason() string { return p.str("reason") }

func (p SetupInput) Trigger() string { return p.str("trigger") }

func (p CompactInput) Trigger() string            { return p.str("trigger") }
func (p CompactInput) CustomInstructions() string { return p.str("custom_instructions") }
func (p CompactInput) CompactSummary() string     { return p.str("compact_summary") }

func (p ModelSwitchInput) FromModel() string      { return p.str("from_model") }
func (p ModelSwitchInput) ToModel() string        { return p.str("to_model") }
func (p ModelSwitchInput) RequestedModel() string { return p.str("requested_model") }
func (p ModelSwitchInput) Source() string         { return p.str("source") }
func (p ModelSwitchInput) ContextTokens() int64   { return p.Get("context_tokens").Int() }
func (p ModelSwitchInput) PromptCacheWarm() bool  { return p.Get("prompt_cache_warm").Bool() }
func (p ModelSwitchInput) CacheTTL() string       { return p.str("cache_ttl") }
func (p ModelSwitchInput) EstimatedCacheWriteUSD() float64 {
	return p.Get("estimated_cache_write_usd").Float()
}
func (p ModelSwitchInput) Pricing() string { return p.str("pricing") }

func (p InstructionsLoadedInput) FilePath() string        { return p.str("file_path") }
func (p InstructionsLoadedInput) MemoryType() string      { return p.str("memory_type") }
func (p InstructionsLoadedInput) LoadReason() string      { return p.str("load_reason") }
func (p InstructionsLoadedInput) Globs() gjson.Result     { return p.Get("globs") }
func (p InstructionsLoadedInput) TriggerFilePath() string { return p.str("trigger_file_path") }
func (p InstructionsLoadedInput) ParentFilePath() string  { return p.str("parent_file_path") }

func (p ConfigChangeInput) Source() string   { return p.str("source") }
func (p ConfigChangeInput) FilePath() string { return p.str("file_path") }

func (p CwdChangedInput) OldCwd() string { return p.str("old_cwd") }
func (p CwdChangedInput) NewCwd() string { return p.str("new_cwd") }

func (p DirectoryAddedInput) Directory() string { return p.str("directory") }
func (p DirectoryAddedInput) Source() string    { return p.str("source") }

func (p FileChangedInput) FilePath() string { return p.str("file_path") }

// FileEvent is the payload field "event": change, add or unlink.
func (p FileChangedInput) FileEvent() string { return p.str("event") }

func (p WorktreeCreateInput) Name() string         { return p.str("name") }
func (p WorktreeRemoveInput) WorktreePath() string { return p.str("worktree_path") }

func (p ElicitationInput) MCPServerName() string         { return p.str("mcp_server_name") }
func (p ElicitationInput) Message() string               { return p.str("message") }
func (p ElicitationInput) Mode() string                  { return p.str("mode") }
func (p ElicitationInput) URL() string                   { return p.str("url") }
func (p ElicitationInput) ElicitationID() string         { return p.str("elicitation_id") }
func (p ElicitationInput) RequestedSchema() gjson.Result { return p.Get("requested_schema") }
func (p ElicitationInput) Action() string                { return p.str("action") }
func (p ElicitationInput) Content() gjson.Result         { return p.Get("content") }

// CommandName is the skill or command the shell command belongs to, without its slash.
func (p PreSkillShellCommandInput) CommandName() string { return p.str("command_name") }

// CommandSource is where the command is defined: projectSettings, userSettings, plugin, ...
func (p PreSkillShellCommandInput) CommandSource() string { return p.str("command_source") }

// InvokedBy is user (typed, or sent by an SDK host), claude (the Skill tool) or other.
func (p PreSkillShellCommandInput) InvokedBy() string { return p.str("invoked_by") }
