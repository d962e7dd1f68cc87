package tui

import (
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// calls is the one owner of the TUI's runtime calls.
//
// Update hands it each request with submit, in the order the user made
// them; submit only appends to a queue, so Update never waits and does no
// IO. Requests travel on two lanes, each one goroutine, started with start
// (by Run, or by a test), that runs its requests one at a time in order and
// sends each reply to the program as a callDoneMsg carrying its request's
// id:
//
//   - the ordered lane carries what changes the runtime (inputs, aborts,
//     settings, session switches), so two quick Enters reach the runtime
//     in the order they were typed;
//   - the reads lane carries what only reads it for a view (pickers,
//     inspectors, the status badge and meter), so an input waiting for the
//     runtime (behind a /compact, say) never keeps /profiles from opening.
//
// A detached request (/compact) starts in its turn on the ordered lane but
// runs on a goroutine of its own, so that a slow operation the user may
// cancel holds up neither lane. Since nothing waits for a Cmd to run, a
// request that is never answered or a Cmd that is dropped cannot hold up
// the requests after it.
//
// Replies come back in order on each lane, but the user may have moved on
// by then: the root keeps the id of the latest request of each topic and
// drops a reply to an older one (handleCallDone), e.g. a session that
// finished loading after the user switched to another one. Every topic
// travels on one lane only, so its replies keep their order.
type calls struct {
	mu     sync.Mutex
	nextID uint64
	// lastOrdered is the id of the latest call of no topic on the ordered
	// lane, detached ones aside: once its reply is handled, so are those of
	// every call before it (settled).
	lastOrdered uint64
	ordered     *lane
	reads       *lane
}

// lane is one queue of calls and the goroutine that runs them.
type lane struct {
	mu      sync.Mutex
	pending []call
	stopped bool
	running bool // the goroutine is alive

	wake chan struct{}
	quit chan struct{} // closed by stop
	done chan struct{} // closed when the goroutine ends
	once sync.Once
}

// call is one request: run does the runtime call on its lane's goroutine
// and returns the message that reports it (nil for none).
type call struct {
	id    uint64
	topic topic
	run   func() tea.Msg
	// unsent is the text the user loses if the call never runs: Run prints
	// it with the other unsent input.
	unsent string
	// last ends the lane's goroutine after the call (quitting): calls
	// submitted after it are never run and count as unsent.
	last bool
	// detached runs the call on a goroutine of its own once its turn
	// comes; its reply comes when it returns. Its caller must be able to
	// cancel it (as Esc and quitting cancel a compaction): stop does not
	// wait for it.
	detached bool
}

// topic groups requests of which only the latest one's reply matters.
type topic int

const (
	topicNone    topic = iota // every reply counts
	topicSession              // what the transcript shows: start, /new, resume
	topicPicker               // the list a picker opens with (sessions, models)
	topicInspect              // the open inspector's view
	topicHealth               // the profiles and engines the status badge counts
	topicMeter                // the status bar's context meter
	topicStore                // the store's version (health.go)
	topicEarlier              // the saved history above a loaded session's (earlier.go)
	topicHistory              // the prompt history the editor walks (prompthistory.go)
	topicFound                // the older prompt history a search reads
	topicModels               // the servers' models listed at start (pickers.go)
	topicCount
)

// reads says whether the topic's requests only read the runtime for a view,
// and so travel on the reads lane.
func (t topic) reads() bool {
	switch t {
	case topicPicker, topicInspect, topicHealth, topicMeter, topicStore, topicEarlier, topicHistory, topicFound, topicModels:
		return true
	}
	return false
}

// callDoneMsg is the reply to call id: the message its run returned.
type callDoneMsg struct {
	id    uint64
	topic topic
	msg   tea.Msg
}

func newCalls() *calls { return &calls{ordered: newLane(), reads: newLane()} }

func newLane() *lane {
	return &lane{wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
}

// submit queues c on its lane and returns its id. It never blocks; after
// stop, c is kept as unsent.
func (c *calls) submit(cl call) uint64 {
	c.mu.Lock()
	c.nextID++
	cl.id = c.nextID
	if cl.topic == topicNone && !cl.detached {
		c.lastOrdered = cl.id
	}
	c.mu.Unlock()
	l := c.ordered
	if cl.topic.reads() {
		l = c.reads
	}
	l.submit(cl)
	return cl.id
}

// latestOrdered is lastOrdered, read under the lock.
func (c *calls) latestOrdered() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastOrdered
}

// start runs the lanes' goroutines, which send replies with send (the
// program's Send). It must be called at most once.
func (c *calls) start(send func(tea.Msg)) {
	c.ordered.start(send)
	c.reads.start(send)
}

// stop ends the lanes: it waits up to wait for the calls in flight to
// return, so that nothing they do races with what the caller does next, and
// returns the texts of the calls that never ran.
func (c *calls) stop(wait time.Duration) (unsent []string) {
	until := time.Now().Add(wait)
	unsent = c.ordered.stop(until)
	return append(unsent, c.reads.stop(until)...)
}

func (l *lane) submit(cl call) {
	l.mu.Lock()
	l.pending = append(l.pending, cl)
	l.mu.Unlock()
	signal(l.wake)
}

func (l *lane) start(send func(tea.Msg)) {
	l.mu.Lock()
	l.running = true
	l.mu.Unlock()
	go l.serve(send)
}

func (l *lane) serve(send func(tea.Msg)) {
	defer close(l.done)
	for {
		cl, ok := l.next()
		if !ok {
			return
		}
		if cl.detached {
			go func() { l.reply(send, cl, cl.run()) }()
			continue
		}
		l.reply(send, cl, cl.run())
		if cl.last {
			l.mu.Lock()
			l.stopped = true
			l.mu.Unlock()
			return
		}
	}
}

// reply sends the reply to cl unless the program is gone.
func (l *lane) reply(send func(tea.Msg), cl call, msg tea.Msg) {
	select {
	case <-l.quit: // the program is gone: nobody reads replies
	default:
		send(callDoneMsg{id: cl.id, topic: cl.topic, msg: msg})
	}
}

// next waits for the oldest pending call; false means stop.
func (l *lane) next() (call, bool) {
	for {
		l.mu.Lock()
		if l.stopped {
			l.mu.Unlock()
			return call{}, false
		}
		if len(l.pending) > 0 {
			cl := l.pending[0]
			l.pending = l.pending[1:]
			l.mu.Unlock()
			return cl, true
		}
		l.mu.Unlock()
		select {
		case <-l.wake:
		case <-l.quit:
		}
	}
}

// stop ends the lane's goroutine, waiting for a call in flight until
// until, and returns the texts of the calls that never ran.
func (l *lane) stop(until time.Time) (unsent []string) {
	l.once.Do(func() { close(l.quit) })
	l.mu.Lock()
	l.stopped = true
	running := l.running
	l.mu.Unlock()
	if running {
		timer := time.NewTimer(time.Until(until))
		select {
		case <-l.done:
		case <-timer.C:
		}
		timer.Stop()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, cl := range l.pending {
		if cl.unsent != "" {
			unsent = append(unsent, cl.unsent)
		}
	}
	l.pending = nil
	return unsent
}
