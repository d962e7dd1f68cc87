package contextguard

import (
	"slices"

	"github.com/steer-tui/steer/agent"
)

// Snapshot is the session's messages as they were before the runner waited
// for an in-flight compaction (SPEC §6.3): if a timeout hits during that
// compaction, the session may be half compacted, and the run goes on from
// the snapshot instead. (seed)
type Snapshot struct {
	// Messages is a copy of the messages (the slice, not the messages, which
	// are values and never modified).
	Messages []agent.Message
	// Trusted is false when a compaction was running when the snapshot was
	// taken, or had started by the time it was done: then it may itself be
	// half compacted.
	Trusted bool
}

// TakeSnapshot copies messages(), asking compacting() before and after: the
// snapshot is trusted only if neither saw a compaction running.
func TakeSnapshot(compacting func() bool, messages func() []agent.Message) Snapshot {
	before := compacting()
	msgs := slices.Clone(messages())
	after := compacting()
	return Snapshot{Messages: msgs, Trusted: !before && !after}
}

// SnapshotChoice says which messages a run goes on from after a timeout.
type SnapshotChoice int

// The choices.
const (
	// ChoseCurrent: the session's messages as they are now.
	ChoseCurrent SnapshotChoice = iota
	// ChosePreCompaction: the snapshot taken before the compaction.
	ChosePreCompaction
)

// AfterTimeout returns the messages to go on from after a timeout: the
// snapshot when the timeout hit during a compaction and the snapshot is
// trusted; the current messages otherwise.
func (s Snapshot) AfterTimeout(current []agent.Message, duringCompaction bool) ([]agent.Message, SnapshotChoice) {
	if duringCompaction && s.Trusted {
		return s.Messages, ChosePreCompaction
	}
	return current, ChoseCurrent
}
