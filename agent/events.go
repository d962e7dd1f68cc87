package agent

// Event is one step of an agent run. The set is sealed: only this package
// defines events, so a type switch over them can be exhaustive. Each event's
// wire name (pi's "type") is returned by Type.
type Event interface {
	// Type is the event's name in pi's JSON protocol.
	Type() string
	isEvent()
}

// AgentStart opens a run.
type AgentStart struct{}

// AgentEnd closes a run: no more events follow. Messages are the ones this run
// added to the transcript.
type AgentEnd struct{ Messages []Message }

// TurnStart opens one assistant response and the tools it causes.
type TurnStart struct{}

// TurnEnd closes a turn with its assistant message and tool results.
type TurnEnd struct {
	Message     Message
	ToolResults []Message
}

// MessageStart announces a message: a user message, a streaming assistant
// message (with what it holds so far) or a tool result.
type MessageStart struct{ Message Message }

// MessageUpdate carries one streaming step of an assistant message: the message
// so far and the provider event that changed it.
type MessageUpdate struct {
	Message Message
	Event   AssistantEvent
}

// MessageEnd carries the finished message; it is now part of the transcript.
type MessageEnd struct{ Message Message }

// ToolExecutionStart says a tool began running with Args.
type ToolExecutionStart struct {
	ToolCallID string
	ToolName   string
	Args       map[string]any
}

// ToolExecutionUpdate carries the output of a running tool so far (not a delta).
type ToolExecutionUpdate struct {
	ToolCallID string
	ToolName   string
	Args       map[string]any
	Partial    ToolResult
}

// ToolExecutionEnd carries a tool's result. It is emitted as each tool
// finishes; the result messages follow in the order the model asked for them.
type ToolExecutionEnd struct {
	ToolCallID string
	ToolName   string
	Result     ToolResult
	IsError    bool
}

// QueueUpdate carries both pending queues, whole, after any change.
type QueueUpdate struct{ Items []QueueItem }

// ContextReplaced says that the run's context is now Messages: a compaction
// replaced older history with a summary, or a truncation shortened it.
// State's Messages become these; Replaced are the messages the model saw
// before, which a front end keeps showing and a store keeps.
type ContextReplaced struct{ Messages, Replaced []Message }

// Type names of the events, as pi's clients read them.
func (AgentStart) Type() string          { return "agent_start" }
func (AgentEnd) Type() string            { return "agent_end" }
func (TurnStart) Type() string           { return "turn_start" }
func (TurnEnd) Type() string             { return "turn_end" }
func (MessageStart) Type() string        { return "message_start" }
func (MessageUpdate) Type() string       { return "message_update" }
func (MessageEnd) Type() string          { return "message_end" }
func (ToolExecutionStart) Type() string  { return "tool_execution_start" }
func (ToolExecutionUpdate) Type() string { return "tool_execution_update" }
func (ToolExecutionEnd) Type() string    { return "tool_execution_end" }
func (QueueUpdate) Type() string         { return "queue_update" }
func (ContextReplaced) Type() string     { return "context_replaced" }

func (AgentStart) isEvent()          {}
func (AgentEnd) isEvent()            {}
func (TurnStart) isEvent()           {}
func (TurnEnd) isEvent()             {}
func (MessageStart) isEvent()        {}
func (MessageUpdate) isEvent()       {}
func (MessageEnd) isEvent()          {}
func (ToolExecutionStart) isEvent()  {}
func (ToolExecutionUpdate) isEvent() {}
func (ToolExecutionEnd) isEvent()    {}
func (QueueUpdate) isEvent()         {}
func (ContextReplaced) isEvent()     {}
