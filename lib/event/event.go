package event

import "sort"

// Name is a hook event name exactly as settings.json and hook_event_name spell it.
type Name string

// The 34 hook events of Claude Code 2.1.332: the 33 of 2.1.330 (HOOK_EVENTS in the agent SDK
// types) and PreSkillShellCommand.
const (
	PreToolUse          Name = "PreToolUse"
	PermissionRequest   Name = "PermissionRequest"
	PermissionDenied    Name = "PermissionDenied"
	PostToolUse         Name = "PostToolUse"
	PostToolUseFailure  Name = "PostToolUseFailure"
	PostToolBatch       Name = "PostToolBatch"
	UserPromptSubmit    Name = "UserPromptSubmit"
	UserPromptExpansion Name = "UserPromptExpansion"
	Notification        Name = "Notification"
	MessageDisplay      Name = "MessageDisplay"
	Stop                Name = "Stop"
	StopFailure         Name = "StopFailure"
	SubagentStart       Name = "SubagentStart"
	SubagentStop        Name = "SubagentStop"
	TaskCreated         Name = "TaskCreated"
	TaskCompleted       Name = "TaskCompleted"
	TeammateIdle        Name = "TeammateIdle"
	SessionStart        Name = "SessionStart"
	SessionEnd          Name = "SessionEnd"
	Setup               Name = "Setup"
	PreCompact          Name = "PreCompact"
	PostCompact         Name = "PostCompact"
	PreModelSwitch      Name = "PreModelSwitch"
	PostModelSwitch     Name = "PostModelSwitch"
	InstructionsLoaded  Name = "InstructionsLoaded"
	ConfigChange        Name = "ConfigChange"
	CwdChanged          Name = "CwdChanged"
	DirectoryAdded      Name = "DirectoryAdded"
	FileChanged         Name = "FileChanged"
	WorktreeCreate      Name = "WorktreeCreate"
	WorktreeRemove      Name = "WorktreeRemove"
	Elicitation         Name = "Elicitation"
	ElicitationResult   Name = "ElicitationResult"
	// PreSkillShellCommand fires before each inline shell command (!`cmd`) of a skill or custom
	// slash command, which no PreToolUse sees (2.1.332).
	PreSkillShellCommand Name = "PreSkillShellCommand"
)

// Block says what a hook can do to the action its event is about.
type Block uint8

const (
	// NoBlock: the event cannot be blocked; exit 2 at most shows stderr to the user.
	NoBlock Block = iota
	// Blocks: exit 2 (reason on stderr) or a JSON decision blocks the action.
	Blocks
	// JSONOnly: exit 2 is ignored; only a JSON decision blocks (PermissionRequest).
	JSONOnly
	// Feedback: the action already happened; exit 2 feeds stderr back to the model.
	Feedback
)

func (b Block) String() string {
	switch b {
	case Blocks:
		return "blocks"
	case JSONOnly:
		return "json-only"
	case Feedback:
		return "feedback"
	}
	return "no"
}

// Syntax is the matcher syntax an event's matcher is read with.
type Syntax uint8

const (
	// NoMatcher: the event ignores matchers; every group runs.
	NoMatcher Syntax = iota
	// Wide: exact names may use letters, digits, _, -, space, comma and |; anything else is a regexp.
	Wide
	// Narrow: exact names may use letters, digits, _ and | only; anything else is a regexp.
	Narrow
)

// Kind is the JSON type of a payload field.
type Kind uint8

const (
	Any Kind = iota
	String
	Bool
	Number
	Object
	Array
)

func (k Kind) String() string {
	return [...]string{"any", "string", "bool", "number", "object", "array"}[k]
}

// Field is one payload field. A field that is not Required may be absent or null.
type Field struct {
	Name     string
	Kind     Kind
	Required bool
}

// Spec is everything the protocol says about one event.
type Spec struct {
	Name Name
	// Matcher is the payload field a settings matcher is compared against ("" when the event has none).
	Matcher string
	Syntax  Syntax
	// Fields are the event's own payload fields, beyond Common.
	Fields []Field
	Block  Block
	// Exit2 says, for people, what exit 2 does on this event.
	Exit2 string
	// Decision: the event honours a top-level {"decision":"block","reason":...}.
	Decision bool
	// Specific lists the hookSpecificOutput fields the event accepts, besides hookEventName.
	Specific []string
	// Continue: the event honours "continue": false with "stopReason".
	Continue bool
	// SystemMessage: the event honours "systemMessage".
	SystemMessage bool
	// PlainContext: plain text on stdout (exit 0) becomes model context.
	PlainContext bool
	// StdoutPath: the answer is a path on the last non-empty stdout line (WorktreeCreate).
	StdoutPath bool
	// Since is the Claude Code version that added the event (REFERENCE.md §10); zero where no
	// record says, for events older than any client the harness supports.
	Since Version
}

// Accepts reports whether the event accepts the hookSpecificOutput field.
func (s Spec) Accepts(field string) bool {
	for _, f := range s.Specific {
		if f == field {
			return true
		}
	}
	return false
}

// Field returns the named payload field of the event, common fields included.
func (s Spec) Field(name string) (Field, bool) {
	for _, f := range Common {
		if f.Name == name {
			return f, true
		}
	}
	for _, f := range s.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Common are the fields every payload may carry (BaseHookInput); only hook_event_name is
// required, so agents that send fewer fields than Claude Code still parse.
var Common = []Field{
	{"session_id", String, false},
	{"transcript_path", String, false},
	{"cwd", String, false},
	{"hook_event_name", String, true},
	{"permission_mode", String, false},
	{"prompt_id", String, false},
	{"agent_id", String, false},
	{"agent_type", String, false},
	{"effort", Object, false},
}

var (
	toolCall = []Field{
		{"tool_name", String, true},
		{"tool_input", Object, true},
		{"tool_use_id", String, false},
		{"mcp_server", Object, false},
	}
	stopFields = []Field{
		{"stop_hook_active", Bool, false},
		{"last_assistant_message", String, false},
		{"background_tasks", Array, false},
		{"session_crons", Array, false},
	}
	taskFields = []Field{
		{"task_id", String, true},
		{"task_subject", String, false},
		{"task_description", String, false},
		{"teammate_name", String, false},
		{"team_name", String, false},
	}
	modelSwitch = []Field{
		{"from_model", String, false},
		{"to_model", String, true},
		{"requested_model", String, false},
		{"source", String, false},
		{"context_tokens", Number, false},
		{"prompt_cache_warm", Bool, false},
		{"cache_ttl", String, false},
		{"estimated_cache_write_usd", Number, false},
		{"pricing", String, false},
	}
)

// The table: REFERENCE.md §4 (events, fields, matchers) and §5 (outputs, exit codes).
var table = []Spec{
	{Name: PreToolUse, Matcher: "tool_name", Syntax: Wide, Fields: toolCall,
		Block: Blocks, Exit2: "blocks the tool call; stderr goes to the model as the tool error",
		Specific: []string{"permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"},
		Continue: true, SystemMessage: true},
	{Name: PermissionRequest, Matcher: "tool_name", Syntax: Wide,
		Fields: []Field{{"tool_name", String, true}, {"tool_input", Object, true},
			{"permission_suggestions", Array, false}, {"mcp_server", Object, false}},
		Block: JSONOnly, Exit2: "ignored: only decision.behavior \"deny\" denies",
		Specific: []string{"decision"}, Continue: true, SystemMessage: true},
	{Name: PermissionDenied, Matcher: "tool_name", Syntax: Wide,
		Fields: []Field{{"tool_name", String, true}, {"tool_input", Object, true}, {"tool_use_id", String, false},
			{"mcp_server", Object, false}, {"reason", String, false}},
		Block: NoBlock, Exit2: "ignored", Specific: []string{"retry"}, Continue: true, SystemMessage: true},
	{Name: PostToolUse, Matcher: "tool_name", Syntax: Wide,
		Fields: []Field{{"tool_name", String, true}, {"tool_input", Object, true}, {"tool_use_id", String, false},
			{"mcp_server", Object, false}, {"tool_response", Any, false}, {"duration_ms", Number, false}},
		Block: Feedback, Exit2: "cannot undo the call; stderr goes to the model", Decision: true,
		Specific: []string{"additionalContext", "updatedToolOutput", "updatedMCPToolOutput", "classifierContext"},
		Continue: true, SystemMessage: true},
	{Name: PostToolUseFailure, Matcher: "tool_name", Syntax: Wide,
		Fields: []Field{{"tool_name", String, true}, {"tool_input", Object, true}, {"tool_use_id", String, false},
			{"mcp_server", Object, false}, {"error", String, false}, {"is_interrupt", Bool, false}, {"duration_ms", Number, false}},
		Block: Feedback, Exit2: "cannot undo the call; stderr goes to the model", Decision: true,
		Specific: []string{"additionalContext"}, Continue: true, SystemMessage: true},
	{Name: PostToolBatch, Fields: []Field{{"tool_calls", Array, true}},
		Block: Blocks, Exit2: "stops the agentic loop before the next model call", Decision: true,
		Specific: []string{"additionalContext"}, Continue: true, SystemMessage: true},
	{Name: UserPromptSubmit,
		Fields: []Field{{"prompt", String, true}, {"source", String, false}, {"session_title", String, false}},
		Block:  Blocks, Exit2: "blocks and erases the prompt; stderr is shown to the user, not the model", Decision: true,
		Specific: []string{"additionalContext", "sessionTitle", "suppressOriginalPrompt"},
		Continue: true, SystemMessage: true, PlainContext: true},
	{Name: UserPromptExpansion, Matcher: "command_name", Syntax: Wide,
		Fields: []Field{{"expansion_type", String, false}, {"command_name", String, true},
			{"command_args", String, false}, {"command_source", String, false}, {"prompt", String, false}},
		Block: Blocks, Exit2: "blocks the expansion; stderr is shown to the user", Decision: true,
		Specific: []string{"additionalContext", "suppressOriginalPrompt"},
		Continue: true, SystemMessage: true, PlainContext: true},
	{Name: Notification, Matcher: "notification_type", Syntax: Wide,
		Fields: []Field{{"message", String, false}, {"title", String, false}, {"notification_type", String, false}},
		Block:  NoBlock, Exit2: "ignored"},
	{Name: MessageDisplay,
		Fields: []Field{{"turn_id", String, false}, {"message_id", String, false}, {"index", Number, false},
			{"final", Bool, false}, {"delta", String, false}},
		Block: NoBlock, Exit2: "the original text is displayed", Specific: []string{"displayContent"}},
	{Name: Stop, Fields: stopFields,
		Block: Blocks, Exit2: "prevents stopping; stderr becomes the model's next instruction", Decision: true,
		Specific: []string{"additionalContext"}, Continue: true, SystemMessage: true},
	{Name: StopFailure, Matcher: "error", Syntax: Narrow,
		Fields: []Field{{"error", String, false}, {"error_details", Any, false}, {"last_assistant_message", String, false}},
		Block:  NoBlock, Exit2: "ignored"},
	{Name: SubagentStart, Matcher: "agent_type", Syntax: Wide,
		Block: NoBlock, Exit2: "cannot block; stderr is shown in the subagent's transcript",
		Specific: []string{"additionalContext"}, Continue: true, SystemMessage: true},
	{Name: SubagentStop, Matcher: "agent_type", Syntax: Wide,
		Fields: []Field{{"stop_hook_active", Bool, false}, {"last_assistant_message", String, false},
			{"background_tasks", Array, false}, {"session_crons", Array, false}, {"agent_transcript_path", String, false}},
		Block: Blocks, Exit2: "prevents the subagent from stopping; stderr becomes its next instruction", Decision: true,
		Specific: []string{"additionalContext"}, Continue: true, SystemMessage: true},
	{Name: TaskCreated, Fields: taskFields,
		Block: Blocks, Exit2: "rolls the task back; stderr goes to the model as the tool error", Decision: true,
		SystemMessage: true},
	{Name: TaskCompleted, Fields: taskFields,
		Block: Blocks, Exit2: "the task is not marked completed; stderr goes to the model",
		Continue: true, SystemMessage: true},
	{Name: TeammateIdle, Fields: []Field{{"teammate_name", String, false}, {"team_name", String, false}},
		Block: Blocks, Exit2: "the teammate keeps working with stderr as feedback",
		Continue: true, SystemMessage: true},
	{Name: SessionStart, Matcher: "source", Syntax: Wide,
		Fields: []Field{{"source", String, true}, {"model", String, false}, {"session_title", String, false},
			{"seconds_since_last_response", Number, false}, {"context_tokens", Number, false},
			{"prompt_cache_likely_expired", Bool, false}, {"estimated_cache_write_usd", Number, false}},
		Block: NoBlock, Exit2: "cannot block; stderr is shown to the user",
		Specific: []string{"additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"},
		Continue: true, SystemMessage: true, PlainContext: true},
	{Name: SessionEnd, Matcher: "reason", Syntax: Wide, Fields: []Field{{"reason", String, false}},
		Block: NoBlock, Exit2: "cannot block; stderr is shown to the user"},
	{Name: Setup, Matcher: "trigger", Syntax: Wide, Fields: []Field{{"trigger", String, true}},
		Block: NoBlock, Exit2: "cannot block; stderr is shown to the user",
		Specific: []string{"additionalContext"}, Continue: true, SystemMessage: true},
	{Name: PreCompact, Matcher: "trigger", Syntax: Wide,
		Fields: []Field{{"trigger", String, false}, {"custom_instructions", String, false}},
		Block:  Blocks, Exit2: "blocks the compaction", Decision: true},
	{Name: PostCompact, Matcher: "trigger", Syntax: Wide,
		Fields: []Field{{"trigger", String, false}, {"compact_summary", String, false}},
		Block:  NoBlock, Exit2: "cannot block; stderr is shown to the user"},
	{Name: PreModelSwitch, Matcher: "to_model", Syntax: Wide, Fields: modelSwitch, Since: Version{2, 1, 251},
		Block: Blocks, Exit2: "cancels the model switch",
		Specific: []string{"permissionDecision", "permissionDecisionReason"}, Continue: true, SystemMessage: true},
	{Name: PostModelSwitch, Matcher: "to_model", Syntax: Wide, Fields: modelSwitch, Since: Version{2, 1, 251},
		Block: NoBlock, Exit2: "cannot block",
		Specific: []string{"additionalContext"}, Continue: true, SystemMessage: true},
	{Name: InstructionsLoaded, Matcher: "load_reason", Syntax: Wide,
		Fields: []Field{{"file_path", String, false}, {"memory_type", String, false}, {"load_reason", String, false},
			{"globs", Array, false}, {"trigger_file_path", String, false}, {"parent_file_path", String, false}},
		Block: NoBlock, Exit2: "ignored"},
	{Name: ConfigChange, Matcher: "source", Syntax: Wide,
		Fields: []Field{{"source", String, false}, {"file_path", String, false}},
		Block:  Blocks, Exit2: "the change is not applied (except policy_settings); no message anywhere", Decision: true},
	{Name: CwdChanged, Fields: []Field{{"old_cwd", String, false}, {"new_cwd", String, false}},
		Block: NoBlock, Exit2: "cannot block; stderr is shown to the user",
		Specific: []string{"watchPaths"}, SystemMessage: true},
	{Name: DirectoryAdded, Matcher: "source", Syntax: Wide,
		Fields: []Field{{"directory", String, false}, {"source", String, false}},
		Block:  NoBlock, Exit2: "stderr goes to the debug log", SystemMessage: true},
	{Name: FileChanged, Matcher: "file_path", Syntax: Narrow,
		Fields: []Field{{"file_path", String, false}, {"event", String, false}},
		Block:  NoBlock, Exit2: "cannot block; stderr is shown to the user",
		Specific: []string{"watchPaths"}, SystemMessage: true},
	{Name: WorktreeCreate, Fields: []Field{{"name", String, false}},
		Block: Blocks, Exit2: "creation fails (any non-zero exit does)", StdoutPath: true},
	{Name: WorktreeRemove, Fields: []Field{{"worktree_path", String, false}},
		Block: NoBlock, Exit2: "logged in debug mode only"},
	{Name: Elicitation, Matcher: "mcp_server_name", Syntax: Wide,
		Fields: []Field{{"mcp_server_name", String, false}, {"message", String, false}, {"mode", String, false},
			{"url", String, false}, {"elicitation_id", String, false}, {"requested_schema", Object, false}},
		Block: Blocks, Exit2: "denies the elicitation; stderr is not shown",
		Specific: []string{"action", "content"}},
	{Name: ElicitationResult, Matcher: "mcp_server_name", Syntax: Wide,
		Fields: []Field{{"mcp_server_name", String, false}, {"action", String, false}, {"mode", String, false},
			{"elicitation_id", String, false}, {"content", Object, false}},
		Block: Blocks, Exit2: "the answer becomes decline; stderr is not shown",
		Specific: []string{"action", "content"}},
	// REFERENCE.md §5.13. deny, ask and defer all keep the command from running (a skill cannot
	// wait for approval). updatedInput is left out: Claude Code refuses to run a changed command
	// and reports "the hook changed the command", a block in disguise. Prompt and agent handlers
	// do not run here.
	{Name: PreSkillShellCommand, Matcher: "tool_name", Syntax: Wide, Since: Version{2, 1, 332},
		Fields: []Field{{"tool_name", String, true}, {"tool_input", Object, true}, {"tool_use_id", String, false},
			{"command_name", String, false}, {"command_source", String, false}, {"invoked_by", String, false}},
		Block: Blocks, Exit2: "the command does not run; the model gets [not run: blocked by hook: <stderr>] in its place", Decision: true,
		Specific: []string{"permissionDecision", "permissionDecisionReason"}, Continue: true, SystemMessage: true},
}

// Lookup returns the spec of a known event. The table is static data (no map built at start-up):
// a scan of 34 names costs less than the init it saves.
func Lookup(n Name) (Spec, bool) {
	for i := range table {
		if table[i].Name == n {
			return table[i], true
		}
	}
	return Spec{}, false
}

// Known reports whether n is one of the 34 events.
func (n Name) Known() bool { _, ok := Lookup(n); return ok }

// All returns every event's spec, sorted by name.
func All() []Spec {
	out := append([]Spec(nil), table...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
