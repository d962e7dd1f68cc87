package hooks

import (
	"fmt"
	"slices"
	"strconv"
	"time"
)

// Event names a point at which hooks run; the names are Claude Code's.
type Event string

// The events.
const (
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	UserPromptSubmit Event = "UserPromptSubmit"
	Stop             Event = "Stop"
	SubagentStop     Event = "SubagentStop"
	SessionStart     Event = "SessionStart"
	SessionEnd       Event = "SessionEnd"
	PreCompact       Event = "PreCompact"
	Notification     Event = "Notification"
)

// Events lists every event, in the order /hooks shows them.
var Events = []Event{PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop,
	SessionStart, SessionEnd, PreCompact, Notification}

// ParseEvent reads an event name; false for a name that is none of Events.
func ParseEvent(s string) (Event, bool) {
	if slices.Contains(Events, Event(s)) {
		return Event(s), true
	}
	return "", false
}

// CanBlock reports whether a hook of the event can stop what it announces
// (exit 2 or decision "block"); for the others a block is only reported.
func (e Event) CanBlock() bool {
	switch e {
	case PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop:
		return true
	}
	return false
}

// matchesOn says what an event's matcher is matched against: the tool's
// name, SessionStart's source, PreCompact's trigger, Notification's type;
// "" for the events without a matcher.
func (e Event) matchesOn() string {
	switch e {
	case PreToolUse, PostToolUse:
		return "tool_name"
	case SessionStart:
		return "source"
	case PreCompact:
		return "trigger"
	case Notification:
		return "notification_type"
	}
	return ""
}

// HasMatcher reports whether the event's hooks are chosen by a matcher.
func (e Event) HasMatcher() bool { return e.matchesOn() != "" }

// DefaultTimeout is a hook's timeout when it sets none (Claude Code's).
const DefaultTimeout = 60 * time.Second

// Hook is one configured command hook.
type Hook struct {
	Event Event
	// Matcher chooses the calls the hook runs for (see CompileMatcher):
	// "" and "*" match every one.
	Matcher string
	Command string
	// Timeout bounds one run; 0 is DefaultTimeout.
	Timeout time.Duration
	// Source is the file the hook was configured in.
	Source string
	// Index is the hook's place among the event's hooks, in configuration
	// order across matcher groups: PreToolUse[0] is the first.
	Index int

	match Matcher
}

// New checks a hook: its matcher must compile and its timeout must not be
// negative.
func New(h Hook) (Hook, error) {
	if h.Command == "" {
		return Hook{}, fmt.Errorf("a command hook needs a command")
	}
	if h.Timeout < 0 {
		return Hook{}, fmt.Errorf("timeout must not be negative, got %v", h.Timeout)
	}
	if !h.Event.HasMatcher() && h.Matcher != "" && h.Matcher != "*" {
		return Hook{}, fmt.Errorf("%s hooks have no matcher (got %q): remove it", h.Event, h.Matcher)
	}
	m, err := CompileMatcher(h.Matcher)
	if err != nil {
		return Hook{}, err
	}
	h.match = m
	return h, nil
}

// Name is the hook as reports name it: "PreToolUse[0]".
func (h Hook) Name() string { return string(h.Event) + "[" + strconv.Itoa(h.Index) + "]" }

// EffectiveTimeout is the hook's timeout, DefaultTimeout when it sets none.
func (h Hook) EffectiveTimeout() time.Duration { return h.timeout() }

// timeout is the hook's timeout, DefaultTimeout when it sets none.
func (h Hook) timeout() time.Duration {
	if h.Timeout == 0 {
		return DefaultTimeout
	}
	return h.Timeout
}
