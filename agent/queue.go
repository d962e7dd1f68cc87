package agent

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// QueueKind says when a pending input is delivered.
type QueueKind string

// The kinds of pending input (seed: the queue modes steer, followup,
// collect and interrupt). Steer and interrupt items wait in the steering
// queue, follow-up and collect items in the follow-up queue.
const (
	// QueueSteer items are injected at the next turn boundary of a run.
	QueueSteer QueueKind = "steer"
	// QueueFollowUp items are delivered when the agent would otherwise stop.
	QueueFollowUp QueueKind = "follow_up"
	// QueueCollect items do not steer the run either: they are collected and
	// delivered together, as one turn, when the agent would otherwise stop,
	// whatever the follow-up mode, so that a burst of messages is answered
	// once.
	QueueCollect QueueKind = "collect"
	// QueueInterrupt items abort the active run when delivered to it (see
	// Deliver); the item then starts the next run.
	QueueInterrupt QueueKind = "interrupt"
)

// ParseQueueKind returns the kind named s, or false when s names none.
func ParseQueueKind(s string) (QueueKind, bool) {
	switch k := QueueKind(s); k {
	case QueueSteer, QueueFollowUp, QueueCollect, QueueInterrupt, QueueShell, QueueShellPrivate:
		return k, true
	}
	return "", false
}

// followsUp says whether items of kind k wait in the follow-up queue.
func (k QueueKind) followsUp() bool { return k == QueueFollowUp || k == QueueCollect || k.isShell() }

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
	if it.Kind.isShell() {
		return it.shellRequest(at)
	}
	content := append([]Content{Text(it.Text)}, it.Images...)
	return Message{Role: RoleUser, Content: content, Timestamp: at, QueueItemID: it.ID}
}

// pendingQueue is one FIFO of items with its drain mode. The Agent guards it.
type pendingQueue struct {
	items []QueueItem
	mode  QueueMode
}

// drain removes and returns what one drain point takes: when the oldest
// item is collected, every collected item (the others keep their places);
// else what the queue's mode takes.
func (q *pendingQueue) drain() []QueueItem {
	if len(q.items) == 0 {
		return nil
	}
	if q.items[0].Kind == QueueCollect {
		return q.take(func(it QueueItem) bool { return it.Kind == QueueCollect })
	}
	n := 1
	if q.mode == QueueAll {
		n = len(q.items)
	}
	taken := append([]QueueItem(nil), q.items[:n]...)
	q.items = append(q.items[:0:0], q.items[n:]...)
	return taken
}

// take removes and returns the items that match, in their order.
func (q *pendingQueue) take(match func(QueueItem) bool) []QueueItem {
	var taken, kept []QueueItem
	for _, it := range q.items {
		if match(it) {
			taken = append(taken, it)
		} else {
			kept = append(kept, it)
		}
	}
	q.items = kept
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

// Steer queues text to be injected at the next turn boundary.
func (a *Agent) Steer(text string, images ...Content) QueueItem {
	return a.Enqueue(QueueItem{Kind: QueueSteer, Text: text, Images: images})
}

// FollowUp queues text to be delivered when the agent would otherwise stop.
func (a *Agent) FollowUp(text string, images ...Content) QueueItem {
	return a.Enqueue(QueueItem{Kind: QueueFollowUp, Text: text, Images: images})
}

// Enqueue adds an item to the queue its Kind names, filling in a missing ID
// and creation time (restored items keep theirs), and emits a QueueUpdate.
func (a *Agent) Enqueue(it QueueItem) QueueItem {
	a.mu.Lock()
	it = a.pushLocked(a.stampLocked(it))
	a.mu.Unlock()
	a.emitQueue()
	return it
}

// Deliver hands an input to the agent in one step, deciding under one lock.
// While a run is active the input is queued under its Kind (queued is true);
// an interrupt also aborts the run, and starts the next one (see
// interruptLocked). Otherwise it starts a run: with the input itself when
// nothing is waiting, or when it is an interrupt; else the input joins the
// back of its queue (queued is true) and the run starts from the queues'
// first drain point, steering before follow-ups, as an abort or a resumed
// session left them; each queue's mode then decides how many items a
// request gains. Callers that cannot know whether a run is about to end use
// it so that nothing is queued behind a run that already stopped polling.
// The user message carries the item's ID, so that a persisted pending input
// is retired with the message.
func (a *Agent) Deliver(it QueueItem) (item QueueItem, queued bool) {
	a.mu.Lock()
	it = a.stampLocked(it)
	if a.running {
		// Queued under the lock that saw the run: the run's last drain point,
		// taken under it too, either sees the item or has not come yet.
		it = a.pushLocked(it)
		if it.Kind == QueueInterrupt {
			a.interruptLocked(it)
		}
		a.mu.Unlock()
		if a.deliverHook != nil {
			a.deliverHook()
		}
		a.emitQueue()
		return it, true
	}
	defer a.mu.Unlock()
	if len(a.steering.items)+len(a.followUps.items) == 0 || it.Kind == QueueInterrupt {
		a.startLocked([]Message{it.message(a.cfg.Now())}, true)
		return it, false
	}
	// The queue display learns of the item as the first drained message
	// starts, before the run's first request.
	it = a.pushLocked(it)
	a.startLocked(a.nextLocked(), true)
	return it, !a.isDrained(it.ID)
}

// Dequeue takes the item with id back out of its queue.
func (a *Agent) Dequeue(id string) (QueueItem, bool) {
	a.mu.Lock()
	it, ok := a.steering.remove(id)
	if !ok {
		it, ok = a.followUps.remove(id)
	}
	a.mu.Unlock()
	if ok {
		a.emitQueue()
	}
	return it, ok
}

// ClearQueues empties both queues and returns what they held, steering first.
func (a *Agent) ClearQueues() []QueueItem {
	a.mu.Lock()
	items := a.queueLocked()
	a.steering.items, a.followUps.items = nil, nil
	a.mu.Unlock()
	if len(items) > 0 {
		a.emitQueue()
	}
	return items
}

// Queue returns the pending items, steering first, each queue oldest first.
func (a *Agent) Queue() []QueueItem {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.queueLocked()
}

// SetSteeringMode sets how many steering items a drain point takes.
func (a *Agent) SetSteeringMode(m QueueMode) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.steering.mode = m
}

// SetFollowUpMode sets how many follow-ups a drain point takes.
func (a *Agent) SetFollowUpMode(m QueueMode) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.followUps.mode = m
}

// stampLocked fills in a missing ID and creation time.
func (a *Agent) stampLocked(it QueueItem) QueueItem {
	if it.ID == "" {
		it.ID = a.cfg.NewItemID()
	}
	if it.Created.IsZero() {
		it.Created = a.cfg.Now()
	}
	return it
}

// pushLocked appends it to the back of the queue its Kind names; an unknown
// kind steers.
func (a *Agent) pushLocked(it QueueItem) QueueItem {
	if _, ok := ParseQueueKind(string(it.Kind)); !ok {
		it.Kind = QueueSteer
	}
	if it.Kind.followsUp() {
		a.followUps.items = append(a.followUps.items, it)
	} else {
		a.steering.items = append(a.steering.items, it)
	}
	return it
}

func (a *Agent) queueLocked() []QueueItem {
	items := make([]QueueItem, 0, len(a.steering.items)+len(a.followUps.items))
	items = append(items, a.steering.items...)
	return append(items, a.followUps.items...)
}

// nextLocked is what a run started from the queues begins with: the steering
// drain point, else the follow-up one.
func (a *Agent) nextLocked() []Message {
	if msgs := a.drainLocked(&a.steering); len(msgs) > 0 {
		return msgs
	}
	return a.drainLocked(&a.followUps)
}

// drain takes what a drain point of q takes, as user messages.
func (a *Agent) drain(q *pendingQueue) []Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.drainLocked(q)
}

func (a *Agent) drainLocked(q *pendingQueue) []Message {
	items := q.drain()
	msgs := make([]Message, len(items))
	for i, it := range items {
		msgs[i] = it.message(a.cfg.Now())
		a.drained[it.ID] = it
	}
	return msgs
}

func (a *Agent) isDrained(id string) bool {
	_, ok := a.drained[id]
	return ok
}

// unpoll puts drained items whose messages were never injected back at the
// front of their queues, in their order.
func (a *Agent) unpoll(msgs []Message) {
	a.mu.Lock()
	var steer, follow []QueueItem
	for _, m := range msgs {
		it, ok := a.drained[m.QueueItemID]
		if !ok {
			continue
		}
		delete(a.drained, m.QueueItemID)
		if it.Kind.followsUp() {
			follow = append(follow, it)
		} else {
			steer = append(steer, it)
		}
	}
	a.steering.items = append(steer, a.steering.items...)
	a.followUps.items = append(follow, a.followUps.items...)
	// Announced by dispatch with the run's next event, so that the update
	// cannot overtake events the run emitted before.
	a.queueChanged = true
	a.mu.Unlock()
}
