package agent

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
