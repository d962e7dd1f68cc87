package discover

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
)

// The defaults of Options.
const (
	// DefaultTimeout bounds one server's listing: a local server answers
	// in milliseconds, and one that does not must not hold up the picker.
	DefaultTimeout = 2 * time.Second
	// DefaultMaxAge is how long a listing stands before RefreshStale
	// starts another: models are pulled and removed now and then, not by
	// the second.
	DefaultMaxAge = 5 * time.Minute
)

// Options tune a Cache; the zero value is the default.
type Options struct {
	// Timeout bounds each listing (DefaultTimeout).
	Timeout time.Duration
	// MaxAge is how old a listing may be before RefreshStale starts
	// another (DefaultMaxAge).
	MaxAge time.Duration
	// Now defaults to time.Now.
	Now func() time.Time
	// Client makes the requests; nil is http.DefaultClient.
	Client *http.Client
}

// Change is what one listing of a server found; the watchers are told of
// every listing, after the cache holds its outcome.
type Change struct {
	Provider string
	// Models are the server's models as the Cache holds them (described,
	// see Server.Describe); nil when the listing failed.
	Models []agent.Model
	// Err is why the listing failed; nil when it succeeded.
	Err *Error
	// Report says that the change is news to tell the user once: the
	// first failure of an outage (Err set), or the first listing after one.
	Report bool
}

// Cache holds the last listing of each discovering provider's server, for
// the process: reads never wait on a network. A nil *Cache discovers
// nothing. Its methods are safe for concurrent use.
type Cache struct {
	opts    Options
	servers []Server
	// ctx ends the listings under way when the cache is closed.
	ctx      context.Context
	cancel   context.CancelFunc
	listings sync.WaitGroup

	mu      sync.Mutex
	entries map[string]*entry // by provider
	closed  bool

	watchMu  sync.Mutex
	nextID   int
	watchers map[int]func(Change)
	emit     sync.Mutex // one Change at a time, so that watchers see one order
}

// entry is one server's state.
type entry struct {
	models []agent.Model
	// at is when the last listing ended; zero when none has.
	at time.Time
	// down says that an outage was reported and has not ended.
	down bool
	// running is closed when the listing under way ends; nil when none is.
	running chan struct{}
}

// NewCache is a cache of servers' listings, none made yet: the first read
// or Refresh starts them.
func NewCache(servers []Server, opts Options) *Cache {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxAge <= 0 {
		opts.MaxAge = DefaultMaxAge
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Client == nil {
		opts.Client = http.DefaultClient
	}
	c := &Cache{opts: opts, servers: slices.Clone(servers), entries: map[string]*entry{}, watchers: map[int]func(Change){}}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	for _, s := range servers {
		c.entries[s.Provider] = &entry{}
	}
	return c
}

// Discovers reports whether provider's server lists its models.
func (c *Cache) Discovers(provider string) bool {
	if c == nil {
		return false
	}
	_, ok := c.entries[provider] // never written after NewCache
	return ok
}

// Listed is the models provider's server listed last time, described
// (Server.Describe); nil when it never answered or its last listing
// failed. It does no IO and starts none.
func (c *Cache) Listed(provider string) []agent.Model {
	if !c.Discovers(provider) {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.entries[provider].models)
}

// RefreshStale starts, in the background, a listing of every server whose
// last one is older than MaxAge or that was never listed, and returns at
// once: who reads the models for a user calls it, so that they never get
// older than that while nobody waits on a server.
func (c *Cache) RefreshStale() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.servers {
		if e := c.entries[s.Provider]; due(e.at, e.running != nil, c.opts.Now(), c.opts.MaxAge) {
			c.start(s, e)
		}
	}
}

// Refresh lists every server again and waits for the listings, each within
// Options.Timeout, or until ctx ends. A listing already under way is
// waited for rather than started again.
func (c *Cache) Refresh(ctx context.Context) {
	if c == nil {
		return
	}
	c.mu.Lock()
	waits := make([]chan struct{}, 0, len(c.servers))
	for _, s := range c.servers {
		waits = append(waits, c.start(s, c.entries[s.Provider]))
	}
	c.mu.Unlock()
	for _, w := range waits {
		select {
		case <-w:
		case <-ctx.Done():
			return
		}
	}
}

// Watch calls fn with every Change, in order, on the goroutine of the
// listing; fn must return quickly and must not call Refresh. The returned
// func removes it.
func (c *Cache) Watch(fn func(Change)) (unwatch func()) {
	if c == nil {
		return func() {}
	}
	c.watchMu.Lock()
	defer c.watchMu.Unlock()
	c.nextID++
	id := c.nextID
	c.watchers[id] = fn
	return func() {
		c.watchMu.Lock()
		defer c.watchMu.Unlock()
		delete(c.watchers, id)
	}
}

// Close ends the listings under way, whose outcome is dropped, and waits
// for them; later reads start none.
func (c *Cache) Close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.listings.Wait()
}

// due says whether a read should start a listing: none under way, and the
// last one ended at (zero: never) is maxAge old.
func due(at time.Time, running bool, now time.Time, maxAge time.Duration) bool {
	return !running && (at.IsZero() || now.Sub(at) >= maxAge)
}

// report says whether a listing's outcome is news: a failure while no
// outage is reported, a success while one is.
func report(down, failed bool) bool { return down != failed }

var closedCh = func() chan struct{} { ch := make(chan struct{}); close(ch); return ch }()

// start starts a listing of s unless one is under way, and returns the
// channel closed when it has ended and the watchers were told. c.mu is held.
func (c *Cache) start(s Server, e *entry) chan struct{} {
	switch {
	case e.running != nil:
		return e.running
	case c.closed:
		return closedCh
	}
	done := make(chan struct{})
	e.running = done
	c.listings.Add(1)
	go func() {
		defer c.listings.Done()
		defer close(done)
		ctx, cancel := context.WithTimeout(c.ctx, c.opts.Timeout)
		listing, err := List(ctx, c.opts.Client, s)
		cancel()
		if ch, ok := c.settle(s, e, listing, err); ok {
			c.tell(ch)
		}
	}()
	return done
}

// settle records a listing's outcome; false when the cache was closed
// meanwhile, and the outcome dropped.
func (c *Cache) settle(s Server, e *entry, listing Listing, err error) (Change, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.running = nil
	if c.closed {
		return Change{}, false
	}
	e.at = c.opts.Now()
	ch := Change{Provider: s.Provider, Report: report(e.down, err != nil)}
	if err != nil {
		if !errors.As(err, &ch.Err) {
			ch.Err = &Error{Provider: s.Provider, BaseURL: s.BaseURL, Reason: err.Error(), Err: err}
		}
		e.models, e.down = nil, true
		return ch, true
	}
	e.models, e.down = make([]agent.Model, len(listing.Models)), false
	for i, found := range listing.Models {
		e.models[i] = s.describe(found)
	}
	ch.Models = slices.Clone(e.models)
	return ch, true
}

// describe is a model the server listed as steer offers it: what steer knew
// of its id (Describe), with what the server says of it on top.
func (s Server) describe(found agent.Model) agent.Model {
	m := agent.Model{Provider: s.Provider, ID: found.ID, BaseURL: s.BaseURL}
	if s.Describe != nil {
		m = s.Describe(found.ID)
	}
	if found.ContextWindow > 0 {
		m.ContextWindow = found.ContextWindow
	}
	if found.Input != nil {
		m.Input = slices.Clone(found.Input)
	}
	m.Reasoning = m.Reasoning || found.Reasoning
	return m
}

// tell hands ch to every watcher, in the order they watched.
func (c *Cache) tell(ch Change) {
	c.emit.Lock()
	defer c.emit.Unlock()
	c.watchMu.Lock()
	ids := make([]int, 0, len(c.watchers))
	for id := range c.watchers {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	fns := make([]func(Change), len(ids))
	for i, id := range ids {
		fns[i] = c.watchers[id]
	}
	c.watchMu.Unlock()
	for _, fn := range fns {
		fn(ch)
	}
}
