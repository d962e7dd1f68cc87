package engines

import (
	"context"

	"github.com/steer-tui/steer/agent"
)

// Engine is a context engine. The contract:
//
//   - Calls: the runner calls Bootstrap when a session is opened, Ingest
//     after messages are appended to its transcript, Assemble before every
//     request to the model, Compact when the session must shrink (any of the
//     four triggers) and AfterTurn when a turn has ended. Info may be called
//     at any time.
//   - Goroutines: methods may be called concurrently, for different sessions
//     and from different runs; an engine serialises what it must.
//   - Ownership: requests belong to the caller and must not be modified or
//     kept past the call (copy what you keep); results belong to the caller.
//   - Cancellation: every method honours ctx and returns promptly once it is
//     done. The Guard enforces a time limit anyway, by abandoning the call.
//   - Failure: a method reports failure by returning an error. Callers do
//     not call engines directly but through a Guard, which quarantines an
//     engine that errs, panics, times out or breaks the contract of a
//     result, and answers with the default engine instead.
//
// Every request and result is plain JSON (messages in pi's shapes, as
// agent.Message marshals them), so an engine may be another process.
type Engine interface {
	// Info describes the engine.
	Info(ctx context.Context) (Info, error)
	// Bootstrap shows the engine a session as it was loaded, before the
	// session's first Assemble.
	Bootstrap(ctx context.Context, req BootstrapRequest) error
	// Ingest shows the engine messages just appended to the transcript.
	Ingest(ctx context.Context, req IngestRequest) error
	// Assemble returns the messages this request sends.
	Assemble(ctx context.Context, req AssembleRequest) (AssembleResult, error)
	// Compact shrinks the session, or delegates to the built-in compaction.
	Compact(ctx context.Context, req CompactRequest) (CompactResult, error)
	// AfterTurn tells the engine a turn has ended.
	AfterTurn(ctx context.Context, req AfterTurnRequest) error
}

// Method names an Engine method, as quarantines record it and as the
// external protocol spells it.
type Method string

// The methods of an Engine.
const (
	MethodInfo      Method = "info"
	MethodBootstrap Method = "bootstrap"
	MethodIngest    Method = "ingest"
	MethodAssemble  Method = "assemble"
	MethodCompact   Method = "compact"
	MethodAfterTurn Method = "afterTurn"
)

// Info describes an engine.
type Info struct {
	// Name is the name the engine is registered (configured) under.
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	// OwnsCompaction is true when Compact does the engine's own compaction;
	// false when the compaction is the built-in one (legacy, or an engine
	// whose Compact delegates). The runner may use it to keep budget
	// compaction off the request path of an engine that owns it (seed).
	OwnsCompaction bool `json:"ownsCompaction"`
}

// Session names the session a call is about.
type Session struct {
	ID  string `json:"id"`
	Key string `json:"key,omitempty"`
	// Workspace is the session's working directory.
	Workspace string `json:"workspace,omitempty"`
}

// Model is what an engine is told about the model a request goes to.
type Model struct {
	Provider string `json:"provider"`
	ID       string `json:"id"`
	// ContextWindow is the model's window in tokens; 0 when unknown.
	ContextWindow int `json:"contextWindow"`
	// MaxOutput is the most the model may answer, in tokens; 0 when unknown.
	MaxOutput int `json:"maxOutput,omitempty"`
}

// ModelOf is what an engine is told about m.
func ModelOf(m agent.Model) Model {
	return Model{Provider: m.Provider, ID: m.ID, ContextWindow: m.ContextWindow, MaxOutput: m.MaxOutput}
}

// BootstrapRequest is a session as it was loaded: its whole transcript.
type BootstrapRequest struct {
	Session  Session         `json:"session"`
	Messages []agent.Message `json:"messages"`
}

// IngestRequest carries the messages just appended to a session's
// transcript, in order.
type IngestRequest struct {
	Session  Session         `json:"session"`
	Messages []agent.Message `json:"messages"`
}

// AssembleRequest is one request about to be sent: the transcript as the
// kernel would send it, ending with what the model must answer.
type AssembleRequest struct {
	Session      Session         `json:"session"`
	Model        Model           `json:"model"`
	SystemPrompt string          `json:"systemPrompt"`
	Messages     []agent.Message `json:"messages"`
	// TokenBudget is how many input tokens the request may use (the window
	// less the output reserve); 0 when unknown.
	TokenBudget int `json:"tokenBudget"`
}

// AssembleResult is what the request sends instead. Messages must not be
// empty when the request's were not, and when the request did not end with
// an assistant message neither may the result: a contract the Guard checks.
// The stored transcript is not changed; the pre-request guard still trims
// what is sent to the window afterwards.
type AssembleResult struct {
	Messages []agent.Message `json:"messages"`
	// SystemPromptAddition is appended to the system prompt of this request.
	SystemPromptAddition string `json:"systemPromptAddition,omitempty"`
}

// CompactReason says what triggered a compaction, as the compaction events
// spell it.
type CompactReason string

// The four triggers of compaction (SPEC §6.3).
const (
	CompactManual    CompactReason = "manual"
	CompactThreshold CompactReason = "threshold"
	CompactOverflow  CompactReason = "overflow"
	CompactTimeout   CompactReason = "timeout"
)

// CompactRequest asks for the session to shrink.
type CompactRequest struct {
	Session Session       `json:"session"`
	Model   Model         `json:"model"`
	Reason  CompactReason `json:"reason"`
	// Instructions are the user's, from `/compact [instructions]`.
	Instructions string `json:"instructions,omitempty"`
	// Messages is the whole transcript.
	Messages    []agent.Message `json:"messages"`
	TokenBudget int             `json:"tokenBudget"`
}

// CompactResult is the outcome of a compaction. Compact writes nothing:
// when Compacted, Messages is the transcript the caller stores in place of
// the request's (through persistence's single write path), and it must not
// be empty.
type CompactResult struct {
	// Delegate asks for the built-in compaction instead. A Guard answers such
	// a result with its default engine's Compact, so a Guard's callers never
	// see it.
	Delegate  bool            `json:"delegate,omitempty"`
	Compacted bool            `json:"compacted"`
	Messages  []agent.Message `json:"messages,omitempty"`
	// Summary is the summary the compacted transcript opens with, if any.
	Summary      string `json:"summary,omitempty"`
	TokensBefore int    `json:"tokensBefore,omitempty"`
	TokensAfter  int    `json:"tokensAfter,omitempty"`
	// Reason says why nothing was compacted.
	Reason string `json:"reason,omitempty"`
}

// AfterTurnRequest carries the messages one turn added: the assistant's
// answer and its tool results.
type AfterTurnRequest struct {
	Session  Session         `json:"session"`
	Messages []agent.Message `json:"messages"`
}
