// Package contextguard keeps what is sent to a model within its context
// window (SPEC §6). It is pure: of steer's packages it imports only agent, it
// does no IO, and every decision is a function of its arguments.
//
// # Three actions, never confused
//
// Compaction shrinks the whole session: the older history becomes one summary
// message written by a model, the recent tail stays verbatim, and the caller
// rewrites the stored transcript with the result (see Compact).
//
// Truncation cuts one oversized piece, a tool result: head, or head and tail
// when the tail looks important, with a marker and a suffix saying how much
// was dropped (see TruncateToolResult). It runs when a result is stored (at
// PersistMaxChars) and again before each request (at ToolResultLimit).
//
// The guard trims only what one request sends, never the stored transcript:
// it truncates oversized tool results, then replaces the oldest tool results
// with a placeholder until the request fits (see Guard). It is installed as
// the kernel's transformContext.
//
// # Deciding before it is too late
//
// Estimates (see Estimator) measure a request the way SPEC §6.2 says, cached
// per message. Assess turns an estimate into Pressure, whose Route says what
// would make the request fit: nothing, compaction, truncation of tool
// results, or both. Precheck raises a MidTurnSignal when tool results that
// arrived during a run push the next request over its budget.
//
// # When the provider says no
//
// NextOverflowStep is the recovery chain in the seed's three steps: compact
// (or retry once after a compaction that already ran for the request), then
// cut the session's oversized tool results (TruncateToolResults), then give
// up with context_overflow or compaction_failure. OverflowLimit reads the limit a
// provider's overflow error states, so that the recovery can use it as the
// window for the rest of the run. CompactAfterTimeout decides the timeout
// trigger. Snapshot keeps the messages from before a compaction for a
// timeout that hits during it. StripStaleThinkingSignatures removes thinking
// signatures that a compaction invalidated.
package contextguard
