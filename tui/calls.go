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
// IO. One goroutine, started with start (by Run, or by a test), runs the
// requests one at a time in that order and sends each reply to the program
// as a callDoneMsg carrying its request's id. So two quick Enters reach the
// runtime in the order they were typed, and since nothing waits for a Cmd
// to run, a request that is never answered or a Cmd that is dropped cannot
// hold up the requests after it.
//
// Replies come back in order too, but the user may have moved on by then:
// the root keeps the id of the latest request of each topic and drops a
// reply to an older one (handleCallDone), e.g. a session that finished
// loading after the user switched to another one.
type calls struct {
	mu      sync.Mutex
	pending []call
	nextID  uint64
	stopped bool
	running bool // the goroutine is alive

	wake chan struct{}
	quit chan struct{} // closed by stop
	done chan struct{} // closed when the goroutine ends
	once sync.Once
}

// call is one request: run does the runtime call on the owner's goroutine
// and returns the message that reports it (nil for none).
type call struct {
	id    uint64
	topic topic
	run   func() tea.Msg
	// unsent is the text the user loses if the call never runs: Run prints
	// it with the other unsent input.
	unsent string
	// last ends the goroutine after the call (quitting): calls submitted
	// after it are never run and count as unsent.
	last bool
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
	topicCount
)

// callDoneMsg is the reply to call id: the message its run returned.
type callDoneMsg struct {
	id    uint64
	topic topic
	msg   tea.Msg
}

func newCalls() *calls {
	return &calls{wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
}

// submit queues c and returns its id. It never blocks; after stop, c is
// kept as unsent.
func (c *calls) submit(cl call) uint64 {
	c.mu.Lock()
	c.nextID++
	cl.id = c.nextID
	c.pending = append(c.pending, cl)
	c.mu.Unlock()
	signal(c.wake)
	return cl.id
}

// start runs the owner goroutine, which sends replies with send (the
// program's Send). It must be called at most once.
func (c *calls) start(send func(tea.Msg)) {
	c.mu.Lock()
	c.running = true
	c.mu.Unlock()
	go c.serve(send)
}

func (c *calls) serve(send func(tea.Msg)) {
	defer close(c.done)
	for {
		cl, ok := c.next()
		if !ok {
			return
		}
		msg := cl.run()
		select {
		case <-c.quit: // the program is gone: nobody reads replies
		default:
			send(callDoneMsg{id: cl.id, topic: cl.topic, msg: msg})
		}
		if cl.last {
			c.mu.Lock()
			c.stopped = true
			c.mu.Unlock()
			return
		}
	}
}

// next waits for the oldest pending call; false means stop.
func (c *calls) next() (call, bool) {
	for {
		c.mu.Lock()
		if c.stopped {
			c.mu.Unlock()
			return call{}, false
		}
		if len(c.pending) > 0 {
			cl := c.pending[0]
			c.pending = c.pending[1:]
			c.mu.Unlock()
			return cl, true
		}
		c.mu.Unlock()
		select {
		case <-c.wake:
		case <-c.quit:
		}
	}
}

// stop ends the goroutine: it waits up to wait for a call in flight to
// return, so that nothing it does races with what the caller does next, and
// returns the texts of the calls that never ran.
func (c *calls) stop(wait time.Duration) (unsent []string) {
	c.once.Do(func() { close(c.quit) })
	c.mu.Lock()
	c.stopped = true
	running := c.running
	c.mu.Unlock()
	if running {
		timer := time.NewTimer(wait)
		select {
		case <-c.done:
		case <-timer.C:
		}
		timer.Stop()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cl := range c.pending {
		if cl.unsent != "" {
			unsent = append(unsent, cl.unsent)
		}
	}
	c.pending = nil
	return unsent
}
