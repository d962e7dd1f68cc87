package agent

import "context"

// Annotation is an event that a StreamFn adds to its run, in order with the
// response it streams: the runner's attempt loop reports each attempt and
// each failover with it (attempt_start, attempt_end, failover). Kind is its
// wire type; Data, a value that encodes as a JSON object, holds its fields.
// A StreamFn sends one as an AssistantEvent of type EventAnnotation; the
// loop emits it where it reads it and folds nothing of it into the message.
type Annotation struct {
	Kind string
	Data any
}

// Type is the annotation's kind.
func (a Annotation) Type() string { return a.Kind }

func (Annotation) isEvent() {}

// Annotate is the AssistantEvent that carries a through a response stream.
func Annotate(a Annotation) AssistantEvent {
	return AssistantEvent{Type: EventAnnotation, Annotation: &a}
}

type toolAnnotatorKey struct{}

// ToolAnnotate emits a from inside a tool's Execute (ctx is the context
// Execute was given), in order with the run's events: after the tool's
// tool_execution_start, before its tool_execution_end. The runner announces
// an approval request this way. It reports false when ctx is not a running
// tool's or the batch no longer listens (the run was aborted past its grace).
func ToolAnnotate(ctx context.Context, a Annotation) bool {
	emit, ok := ctx.Value(toolAnnotatorKey{}).(func(Annotation) bool)
	return ok && emit(a)
}
