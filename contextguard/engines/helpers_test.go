package engines

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// epoch is where test clocks start.
var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func user(text string) agent.Message {
	return agent.Message{Role: agent.RoleUser, Content: []agent.Content{agent.Text(text)}, Timestamp: epoch}
}

func assistant(blocks ...agent.Content) agent.Message {
	return agent.Message{Role: agent.RoleAssistant, Content: blocks, StopReason: agent.StopReasonStop, Timestamp: epoch}
}

func thinking(text string) agent.Content {
	return agent.Content{Type: agent.ContentThinking, Thinking: text, Signature: "sig-" + text}
}

func toolResult(id, text string) agent.Message {
	return agent.Message{Role: agent.RoleToolResult, ToolCallID: id, ToolName: "ls",
		Content: []agent.Content{agent.Text(text)}, Timestamp: epoch}
}

// transcript is a small session ending with the prompt to answer.
func transcript() []agent.Message {
	return []agent.Message{user("list the files"), assistant(thinking("old"), agent.ToolCall("c1", "ls", map[string]any{})),
		toolResult("c1", "a.go\nb.go"), assistant(agent.Text("two files")), user("and now?")}
}

var session = Session{ID: "s1", Key: "main", Workspace: "/work"}

// builtinSummary marks a compaction done by the test's built-in compaction.
const builtinSummary = "built-in summary"

// builtinCompact is the test's built-in compaction: the last message
// behind a summary.
func builtinCompact(_ context.Context, req CompactRequest) (CompactResult, error) {
	return CompactResult{Compacted: true, Summary: builtinSummary,
		Messages: []agent.Message{user(builtinSummary), req.Messages[len(req.Messages)-1]}}, nil
}

// testLegacy is the default engine of the tests.
func testLegacy() Engine { return Legacy(nil, builtinCompact) }

// mode is how a fake engine's method behaves.
type mode int

const (
	answer         mode = iota
	fails               // returns an error
	panics              // panics
	hangs               // ignores its context and waits for the test to end
	crashes             // returns a *Failure of ReasonCrash, as External does
	breaks              // returns a result that breaks its contract
	delegates           // Compact delegates
	waitsForStop        // signals started, then waits for its context
	failsWhenLetGo      // signals started, then fails once the test lets it go
)

// fakeMark is what a fake engine's answers carry, so a test can tell who
// answered.
const fakeMark = "fake"

// fake is an in-process engine whose methods behave as its modes say.
type fake struct {
	modes   map[Method]mode
	release chan struct{} // closed when the test ends: frees hung calls
	started chan Method   // waitsForStop and failsWhenLetGo calls announce themselves here
	letGo   chan struct{} // closed by a test to let failsWhenLetGo calls fail
	calls   sync.Map      // Method → *atomic.Int32
	resets  atomic.Int32
}

func newFake(t *testing.T, modes map[Method]mode) *fake {
	f := &fake{modes: modes, release: make(chan struct{}), started: make(chan Method, 16), letGo: make(chan struct{})}
	t.Cleanup(func() { close(f.release) })
	return f
}

func (f *fake) called(m Method) int {
	n, _ := f.calls.LoadOrStore(m, new(atomic.Int32))
	return int(n.(*atomic.Int32).Load())
}

func (f *fake) Reset() { f.resets.Add(1) }

// behave acts out m's mode; ok reports that the method should answer
// normally (or break its contract, which only the caller can do).
func (f *fake) behave(ctx context.Context, m Method) (mode, error) {
	n, _ := f.calls.LoadOrStore(m, new(atomic.Int32))
	n.(*atomic.Int32).Add(1)
	switch md := f.modes[m]; md {
	case fails:
		return md, errors.New("the fake failed " + string(m))
	case panics:
		panic("the fake panicked in " + string(m))
	case hangs:
		<-f.release
		return md, errors.New("released")
	case crashes:
		return md, &Failure{Reason: ReasonCrash, Err: errors.New("the engine exited: exit status 3")}
	case waitsForStop:
		f.started <- m
		<-ctx.Done()
		return md, ctx.Err()
	case failsWhenLetGo:
		f.started <- m
		<-f.letGo
		return md, errors.New("the fake failed " + string(m) + " late")
	default:
		return md, nil
	}
}

func (f *fake) Info(ctx context.Context) (Info, error) {
	if _, err := f.behave(ctx, MethodInfo); err != nil {
		return Info{}, err
	}
	return Info{Name: fakeMark, Version: "9", OwnsCompaction: true}, nil
}

func (f *fake) Bootstrap(ctx context.Context, _ BootstrapRequest) error {
	_, err := f.behave(ctx, MethodBootstrap)
	return err
}

func (f *fake) Ingest(ctx context.Context, _ IngestRequest) error {
	_, err := f.behave(ctx, MethodIngest)
	return err
}

func (f *fake) Assemble(ctx context.Context, req AssembleRequest) (AssembleResult, error) {
	md, err := f.behave(ctx, MethodAssemble)
	switch {
	case err != nil:
		return AssembleResult{}, err
	case md == breaks:
		return AssembleResult{}, nil
	}
	return AssembleResult{Messages: req.Messages, SystemPromptAddition: fakeMark}, nil
}

func (f *fake) Compact(ctx context.Context, req CompactRequest) (CompactResult, error) {
	md, err := f.behave(ctx, MethodCompact)
	switch {
	case err != nil:
		return CompactResult{}, err
	case md == breaks:
		return CompactResult{Compacted: true}, nil
	case md == delegates:
		return CompactResult{Delegate: true}, nil
	}
	return CompactResult{Compacted: true, Summary: fakeMark, Messages: req.Messages[len(req.Messages)-1:]}, nil
}

func (f *fake) AfterTurn(ctx context.Context, _ AfterTurnRequest) error {
	_, err := f.behave(ctx, MethodAfterTurn)
	return err
}

// memStore is a QuarantineStore in memory, shared by the guards of one test
// as the database is by processes. Its failures can be switched on.
type memStore struct {
	mu        sync.Mutex
	rows      map[string]Quarantine
	failRead  bool
	failWrite bool
}

func newMemStore() *memStore { return &memStore{rows: map[string]Quarantine{}} }

var errStoreDown = errors.New("the store is down")

func (s *memStore) Record(_ context.Context, q Quarantine) (Quarantine, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failWrite {
		return Quarantine{}, errStoreDown
	}
	s.rows[q.Engine] = s.rows[q.Engine].Merge(q)
	return s.rows[q.Engine], nil
}

func (s *memStore) Load(_ context.Context, engine string) (Quarantine, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failRead {
		return Quarantine{}, false, errStoreDown
	}
	q, ok := s.rows[engine]
	return q, ok, nil
}

func (s *memStore) List(context.Context) ([]Quarantine, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Quarantine
	for _, name := range slices.Sorted(maps.Keys(s.rows)) {
		out = append(out, s.rows[name])
	}
	return out, nil
}

func (s *memStore) Clear(_ context.Context, engine string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, had := s.rows[engine]
	delete(s.rows, engine)
	return had, nil
}

func (s *memStore) set(fn func(*memStore)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s)
}

// events collects a Guard's quarantine events.
type events struct {
	mu  sync.Mutex
	all []QuarantineEvent
}

func (e *events) add(ev QuarantineEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, ev)
}

func (e *events) list() []QuarantineEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.all)
}

// testClock ticks one second per reading.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// guardOf guards engine as "fake" with the test's legacy engine behind it,
// a short time limit, store and an event log.
func guardOf(engine Engine, store QuarantineStore, ev *events) *Guard {
	clock := &testClock{t: epoch}
	return NewGuard(fakeMark, engine, testLegacy(), GuardOptions{
		Timeout: 50 * time.Millisecond, Store: store, OnQuarantine: ev.add, Now: clock.now})
}
