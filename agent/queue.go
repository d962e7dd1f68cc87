package agent

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// QueueKind says when a pending input is delivered.
type QueueKind string

// The two pending queues.
const (
	// QueueSteer items are injected at the next turn boundary of a run.
	QueueSteer QueueKind = "steer"
	// QueueFollowUp items are delivered when the agent would otherwise stop.
	QueueFollowUp QueueKind = "follow_up"
)

// QueueMode says how many pending items one drain point takes.
type QueueMode string

// The queue modes. (seed)
const (
	// QueueOneAtATime takes only the oldest item and leaves the rest for the
	// next drain point. It is the default for both queues.
	QueueOneAtATime QueueMode = "one-at-a-time"
	// QueueAll takes every pending item at once.
	QueueAll QueueMode = "all"
)

// ParseQueueMode returns the mode named s, or false when s names none.
func ParseQueueMode(s string) (QueueMode, bool) {
	switch m := QueueMode(s); m {
	case QueueOneAtATime, QueueAll:
		return m, true
	}
	return "", false
}

// QueueItem is one pending input. Its ID lets a UI show, take back or drop it,
// and lets persistence retire it when it is injected.
type QueueItem struct {
	ID      string
	Kind    QueueKind
	Text    string
	Images  []Content
	Created time.Time
}

// NewQueueItemID returns a fresh random item id.
func NewQueueItemID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "q_" + hex.EncodeToString(b[:])
}

// message turns the item into the user message that is injected.
func (it QueueItem) message(at time.Time) Message {
	content := append([]Content{Text(it.Text)}, it.Images...)
	return Message{Role: RoleUser, Content: content, Timestamp: at, QueueItemID: it.ID}
}

// pendingQueue is one FIFO of items with its drain mode. The Agent guards it.
type pendingQueue struct {
	items []QueueItem
	mode  QueueMode
}

// drain removes and returns what one drain point takes under the queue's mode.
func (q *pendingQueue) drain() []QueueItem {
	if len(q.items) == 0 {
		return nil
	}
	n := 1
	if q.mode == QueueAll {
		n = len(q.items)
	}
	taken := append([]QueueItem(nil), q.items[:n]...)
	q.items = append(q.items[:0:0], q.items[n:]...)
	return taken
}

// remove takes the item with id out of the queue.
func (q *pendingQueue) remove(id string) (QueueItem, bool) {
	for i, it := range q.items {
		if it.ID == id {
			q.items = append(q.items[:i:i], q.items[i+1:]...)
			return it, true
		}
	}
	return QueueItem{}, false
}
