package runner

import (
	"slices"
	"sync"
	"time"
)

// NoticeKind names what a Notice reports.
type NoticeKind string

// The notices a Runtime sends. Failover and the context guard add theirs.
const (
	// NoticePersistError: a save failed (disk full, database unwritable).
	// Text says what failed; the session goes on in memory and
	// State().PersistError keeps the text until a later save succeeds.
	NoticePersistError NoticeKind = "persist_error"
	// NoticePersistRecovered: a save succeeded after a failure.
	NoticePersistRecovered NoticeKind = "persist_recovered"
	// NoticeQuarantine: a context engine failed outside a request and was
	// put in quarantine; the built-in engine answers in its place.
	NoticeQuarantine NoticeKind = "quarantine"
	// NoticeQuarantineCleared: this runtime lifted an engine's quarantine;
	// the engine answers again (quarantine.go).
	NoticeQuarantineCleared NoticeKind = "quarantine_cleared"
)

// Notice is something the runtime reports that is not a kernel event: front
// ends show it (the TUI as a warning line, rpc as an event, steer run on
// stderr).
type Notice struct {
	Kind NoticeKind
	Text string
	At   time.Time
	// Data is the notice's structured form, when it has one: a
	// QuarantineInfo for NoticeQuarantine, a QuarantineCleared for
	// NoticeQuarantineCleared, a CompactionEnd for NoticeCompaction.
	Data any
}

// notices fans notices out to their subscribers, in order, one at a time.
type notices struct {
	mu   sync.Mutex
	next int
	subs map[int]func(Notice)
	emit sync.Mutex // serialises deliveries so subscribers see one order
}

// runNotices is a runtime's notices: it stamps each with now and hands it
// to the subscribers, in order. It calls nothing else.
type runNotices struct {
	notices notices
	now     func() time.Time
}

// SubscribeNotices calls fn with every notice, in order, on the runtime's
// goroutine; fn must return quickly and must not call the Runtime's input
// methods. The returned func removes it.
func (n *runNotices) SubscribeNotices(fn func(Notice)) (unsubscribe func()) {
	return n.notices.subscribe(fn)
}

func (n *notices) subscribe(fn func(Notice)) (unsubscribe func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.subs == nil {
		n.subs = map[int]func(Notice){}
	}
	n.next++
	id := n.next
	n.subs[id] = fn
	return func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		delete(n.subs, id)
	}
}

func (n *runNotices) notify(kind NoticeKind, text string) { n.notifyData(kind, text, nil) }

func (n *runNotices) notifyData(kind NoticeKind, text string, data any) {
	n.notices.deliver(Notice{Kind: kind, Text: text, Data: data, At: n.now()})
}

// deliver hands note to every subscriber, in the order they subscribed.
func (n *notices) deliver(note Notice) {
	n.emit.Lock()
	defer n.emit.Unlock()
	n.mu.Lock()
	ids := make([]int, 0, len(n.subs))
	for id := range n.subs {
		ids = append(ids, id)
	}
	fns := make([]func(Notice), 0, len(ids))
	slices.Sort(ids)
	for _, id := range ids {
		fns = append(fns, n.subs[id])
	}
	n.mu.Unlock()
	for _, fn := range fns {
		fn(note)
	}
}
