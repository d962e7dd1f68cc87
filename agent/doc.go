// Package agent is steer's kernel: the message and event types, the StreamFn and
// Tool contracts, the generic EventStream, the two-level agent loop and the Agent
// that owns a transcript, its pending queues and its subscribers.
//
// # The loop
//
// The outer loop runs until no follow-up is pending. The inner loop runs while the
// last assistant message asked for tools or steering messages are pending: it
// injects pending messages, streams one assistant response, executes the tools it
// asked for, closes the turn and polls steering again. Steering is polled before
// the first request and after every turn and never cancels the tool batch in
// flight; follow-ups are polled only when the agent would otherwise stop.
//
// # Contracts the kernel relies on
//
//   - A StreamFn never returns an error and never panics out: every failure is an
//     error event carrying a final message (stopReason error or aborted).
//   - Every run ends with agent_end, also when the loop itself fails: the tail
//     message_start, message_end, turn_end, agent_end is always emitted in order.
//   - An aborted run leaves an assistant message with stopReason aborted, so no
//     later run resumes from a dangling tool call.
package agent
