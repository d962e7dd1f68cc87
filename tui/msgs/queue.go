package msgs

import "github.com/steer-tui/steer/agent"

// TakeBackMsg asks to take the queued item ID back into the editor; an empty
// ID means the newest item.
type TakeBackMsg struct{ ID string }

// DropQueuedMsg asks to remove the queued item ID without sending it.
type DropQueuedMsg struct{ ID string }

// ItemsTakenBackMsg reports queued items that left the queue unsent and
// belong in the editor again, oldest first: taken back by the user, left
// over after an abort, or saved from a session switch.
type ItemsTakenBackMsg struct {
	Items []agent.QueueItem
	// Reason is shown as a hint when not empty.
	Reason string
	// Unsent says that the runtime refused the items before queueing them
	// (too large, empty, not saved): their text comes back as it was typed,
	// as no queue's item.
	Unsent bool
	// Kept counts the follow-ups left in the queue (an interruption takes
	// back only steering).
	Kept int
}

// QueuedDroppedMsg reports that a queued item was removed unsent.
type QueuedDroppedMsg struct{ Item agent.QueueItem }
