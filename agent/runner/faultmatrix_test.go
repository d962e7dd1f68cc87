package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// The fault matrix (issue 25): 100 scripted runs in 20 sessions, each
// session its own Runtime, sharing one lanes scheduler, one SQLite store
// and its ledger, and the soak test's fake clock and provider faults (429
// with and without Retry-After, 529 before and after content, timeouts
// before and after the headers, a tool call cut off mid-stream), plus a
// context overflow, a context engine that crashes assembling a request,
// a tool whose process is killed, an abort while the answer streams,
// while a tool runs and while a 529's backoff waits, and steering (with a
// follow-up now and then) sent while a batch of tool calls runs. Each
// session's driver is the user: the provider, the tool, the backoff wait
// and the engine reach it at their scripted points and it aborts, steers
// or kills there, so every point is hit for sure; which profile, model or
// lane a request gets depends on the interleaving, so the checks are
// invariants true for every one: every run ends in a defined outcome, no
// tool runs twice, every tool call has exactly one result on disk, and no
// input is lost.

const (
	matrixRuns          = 100
	matrixSessions      = 20
	matrixMaxConcurrent = 4
	matrixSeed          = 25
	matrixDeadline      = 60 * time.Second
	matrixToolName      = "work"
)

// act is what a tool call of a batch does when it runs.
type act int

const (
	actTally act = iota // answers at once
	actKill             // starts a process, which the driver kills
	actSteer            // the driver steers (and may follow up) while the batch runs
	actHold             // the driver aborts the run while the tool waits
)

// matrixStep is what the provider does with one request of a run: a fault of
// the soak's table (faultAnswerTool: the batch calls), unless one of the
// matrix's own faults is set.
type matrixStep struct {
	fault fault
	calls []act
	// overflow: the request is refused as over the context window.
	// abortStream: text, then the driver aborts while the stream waits.
	// abortWait (on a 529): the driver aborts in the backoff wait after it.
	// crash: the context engine crashes assembling this request.
	// followUp: the batch's steering comes with a follow-up.
	overflow, abortStream, abortWait, crash, followUp bool
}

// The aborts a run may plan, at most one each.
const (
	planAbortStream = iota
	planAbortTool
	planAbortWait
	planAbortKinds
)

// matrixPlans draws every run's steps: up to two early faults (the first
// request may crash the engine), perhaps a 529 whose backoff is aborted,
// two times in three a batch of one to three calls and up to one fault
// after it, then the run's last answer; a run plans an abort one time in
// two.
func matrixPlans(seed uint64, runs int) [][]matrixStep {
	rng := rand.New(rand.NewPCG(seed, matrixSeed))
	early := []fault{faultRateLimited, faultRateLimitedSoon, faultOverloaded, faultIdleAfterHeaders, faultIdleBeforeHeaders}
	acts := []act{actTally, actKill, actSteer, actSteer}
	endings := []matrixStep{{fault: faultAnswer}, {fault: faultAnswer}, {fault: faultAnswer}, {fault: faultAnswerLength},
		{overflow: true}, {overflow: true}, {fault: faultOverloadedMidStream}, {fault: faultToolCallCut}}
	plans := make([][]matrixStep, runs)
	for run := range plans {
		abort := rng.IntN(2 * planAbortKinds)
		var plan []matrixStep
		draw := func(most int) {
			for range rng.IntN(most + 1) {
				plan = append(plan, matrixStep{fault: early[rng.IntN(len(early))]})
			}
		}
		draw(2)
		if abort == planAbortWait {
			plan = append(plan, matrixStep{fault: faultOverloaded, abortWait: true})
		}
		if rng.IntN(3) > 0 || abort == planAbortTool {
			calls := make([]act, 1+rng.IntN(3))
			for i := range calls {
				calls[i] = acts[rng.IntN(len(acts))]
			}
			if abort == planAbortTool {
				calls[rng.IntN(len(calls))] = actHold
			}
			plan = append(plan, matrixStep{fault: faultAnswerTool, calls: calls, followUp: rng.IntN(2) == 0})
			draw(1)
		}
		if abort == planAbortStream {
			plan = append(plan, matrixStep{fault: faultAnswer, abortStream: true})
		} else {
			plan = append(plan, endings[rng.IntN(len(endings))])
		}
		plan[0].crash = rng.IntN(5) == 0
		plans[run] = plan
	}
	return plans
}

// matrixRequest is one request as the provider saw it.
type matrixRequest struct {
	session, run int
	index        int // its step's index in the run's plan; past the end: the plain answer
	step         matrixStep
	calls        []string // the tool calls it streamed
	cancelled    bool     // its context was done when it ended
}

// matrixCall is what the provider said a tool call is to do.
type matrixCall struct {
	act      act
	session  int
	followUp bool
}

// matrix is what all sessions share: the plans, the provider's log, the
// tool calls and what each run of them returned, and the counts of the
// scripted points reached.
type matrix struct {
	plans    [][]matrixStep
	clock    *soakClock
	sleep    string // the path of sleep(1), the killed tool's process
	sessions []*matrixSession

	mu       sync.Mutex
	log      []matrixRequest
	calls    map[string]matrixCall
	ran      map[string]int
	returned map[string]string // call id → the text its (last) run returned
	reached  map[string]int    // scripted point → times reached
}

func (m *matrix) count(what string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reached[what]++
}

func (m *matrix) requests() []matrixRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]matrixRequest(nil), m.log...)
}

// pointKind is what a driver is asked to do.
type pointKind int

const (
	pointAbort pointKind = iota
	pointSteer
	pointKill
)

// point is a scripted point reached: the driver acts, then closes done.
type point struct {
	kind     pointKind
	what     string      // the count it goes to
	followUp bool        // pointSteer: a follow-up too
	proc     *os.Process // pointKill
	done     chan struct{}
}

// sentInput is an input the driver sent and the runtime accepted.
type sentInput struct {
	text string
	kind agent.QueueKind // "" for a prompt
	id   string          // the queue item's, for steering and follow-ups
}

// matrixSession is one session: its runtime, its driver's inbox and the
// run its driver is on.
type matrixSession struct {
	m      *matrix
	idx    int
	rt     *Runtime
	guard  *engines.Guard
	points chan point

	mu      sync.Mutex
	run     int
	served  int          // requests of the run so far
	armed   map[int]bool // steps of the run whose scripted point has fired
	sent    []sentInput
	results []matrixResult
}

// matrixResult is how a run ended: its last run record (a steer sent
// as an aborted run ended starts another) and message, and how many
// aborts the driver sent during it.
type matrixResult struct {
	run    int
	id     string
	last   agent.Message
	aborts int
}

// reach hands p to the driver and waits until it has acted; false when
// the run's context ended first.
func (s *matrixSession) reach(ctx context.Context, p point) bool {
	p.done = make(chan struct{})
	select {
	case s.points <- p:
	case <-ctx.Done():
		return false
	}
	select {
	case <-p.done:
		return true
	case <-ctx.Done():
		return false
	}
}

// fire reports whether step index of the run has the scripted point that
// want picks and it has not fired yet, and marks it fired.
func (s *matrixSession) fire(index int, want func(matrixStep) bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	plan := s.m.plans[s.run]
	if index < 0 || index >= len(plan) || !want(plan[index]) || s.armed[index] {
		return false
	}
	s.armed[index] = true
	return true
}

func (s *matrixSession) stream(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	s.mu.Lock()
	req := matrixRequest{session: s.idx, run: s.run, index: s.served, step: matrixStep{fault: faultAnswer}}
	if plan := s.m.plans[s.run]; s.served < len(plan) {
		req.step = plan[s.served]
	}
	s.served++
	s.mu.Unlock()
	s.m.mu.Lock()
	switch {
	case req.step.fault == faultAnswerTool:
		for i, a := range req.step.calls {
			id := fmt.Sprintf("call-%03d-%d-%d", req.run, req.index, i)
			req.calls = append(req.calls, id)
			s.m.calls[id] = matrixCall{act: a, session: s.idx, followUp: req.step.followUp}
		}
	case faults[req.step.fault].before == "tool" && !req.step.overflow:
		id := fmt.Sprintf("call-%03d-%d-cut", req.run, req.index)
		req.calls = []string{id}
		s.m.calls[id] = matrixCall{act: actTally, session: s.idx}
	}
	seq := len(s.m.log)
	s.m.log = append(s.m.log, req)
	s.m.mu.Unlock()
	s.m.clock.tick()
	out := agent.NewAssistantStream()
	go s.play(ctx, out, m, seq, req)
	return out
}

// matrixOverflow is how a provider refuses a context over its window.
var matrixOverflow = &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 400, Type: "invalid_request_error", Code: "context_length_exceeded",
	Message: "This model's maximum context length is 200000 tokens. However, your messages resulted in 250000 tokens."}

func (s *matrixSession) play(ctx context.Context, out *agent.AssistantStream, m agent.Model, seq int, req matrixRequest) {
	w := agent.NewStreamWriter(ctx, out, m, s.m.clock.now())
	w.Start()
	st, spec := req.step, faults[req.step.fault]
	var fail *agent.ProviderError
	switch {
	case st.overflow:
		fail = matrixOverflow
	case st.abortStream:
		w.TextDelta(matrixAnswer(req.run))
		if s.fire(req.index, func(st matrixStep) bool { return st.abortStream }) {
			s.reach(ctx, point{kind: pointAbort, what: "abort-stream"})
			<-ctx.Done()
		}
	case st.fault == faultAnswerTool:
		for _, id := range req.calls {
			w.ToolCallStart(id, matrixToolName)
			w.ToolCallDelta(`{}`)
		}
	default:
		switch spec.before {
		case "text":
			w.TextDelta(matrixAnswer(req.run))
		case "tool":
			w.ToolCallStart(req.calls[0], matrixToolName)
			w.ToolCallDelta(`{}`)
		}
		fail = spec.err
	}
	s.m.mu.Lock()
	s.m.log[seq].cancelled = ctx.Err() != nil
	s.m.mu.Unlock()
	switch {
	case ctx.Err() != nil:
		w.Fail(&agent.ProviderError{Kind: agent.ErrorNetwork, Message: "request cancelled"})
	case fail != nil:
		perr := *fail
		w.Fail(&perr)
	default:
		w.Finish(spec.stop)
	}
}

// sleep is the runtime's backoff wait: the scripted abort, else none.
func (s *matrixSession) sleep(ctx context.Context, _ time.Duration) error {
	s.mu.Lock()
	last := s.served - 1
	s.mu.Unlock()
	if s.fire(last, func(st matrixStep) bool { return st.abortWait }) {
		s.reach(ctx, point{kind: pointAbort, what: "abort-retry-wait"})
		<-ctx.Done()
	}
	return ctx.Err()
}

// crashingEngine is a context engine that crashes (as a process that
// exited) assembling the requests the plan says, and passes the
// transcript through otherwise.
type crashingEngine struct{ s *matrixSession }

func (crashingEngine) Info(context.Context) (engines.Info, error) {
	return engines.Info{Name: "matrix"}, nil
}
func (crashingEngine) Bootstrap(context.Context, engines.BootstrapRequest) error { return nil }
func (crashingEngine) Ingest(context.Context, engines.IngestRequest) error       { return nil }
func (crashingEngine) AfterTurn(context.Context, engines.AfterTurnRequest) error { return nil }
func (crashingEngine) Compact(context.Context, engines.CompactRequest) (engines.CompactResult, error) {
	return engines.CompactResult{Delegate: true}, nil
}

func (e crashingEngine) Assemble(_ context.Context, req engines.AssembleRequest) (engines.AssembleResult, error) {
	e.s.mu.Lock()
	next := e.s.served
	e.s.mu.Unlock()
	if e.s.fire(next, func(st matrixStep) bool { return st.crash }) {
		e.s.m.count("engine-crash")
		return engines.AssembleResult{}, &engines.Failure{Reason: engines.ReasonCrash, Err: errors.New("the engine exited: signal: killed")}
	}
	return engines.AssembleResult{Messages: req.Messages}, nil
}

// matrixTool does what the provider said each of its calls is to do.
type matrixTool struct{ m *matrix }

func (matrixTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: matrixToolName, Description: "does scripted work", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (t matrixTool) Execute(ctx context.Context, callID string, _ map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	t.m.mu.Lock()
	t.m.ran[callID]++
	call := t.m.calls[callID]
	t.m.mu.Unlock()
	res := t.run(ctx, call)
	t.m.mu.Lock()
	t.m.returned[callID] = res.Content[0].Text
	t.m.mu.Unlock()
	return res, nil
}

func (t matrixTool) run(ctx context.Context, call matrixCall) agent.ToolResult {
	s := t.m.sessions[call.session]
	switch call.act {
	case actSteer:
		s.reach(ctx, point{kind: pointSteer, what: "steer-mid-batch", followUp: call.followUp})
		return agent.TextResult("steered")
	case actHold:
		s.reach(ctx, point{kind: pointAbort, what: "abort-tool"})
		<-ctx.Done()
		return agent.ErrorResult("stopped: " + ctx.Err().Error())
	case actKill:
		cmd := exec.CommandContext(ctx, t.m.sleep, "60")
		if err := cmd.Start(); err != nil {
			return agent.ErrorResult("could not start: " + err.Error())
		}
		s.reach(ctx, point{kind: pointKill, what: "tool-kill", proc: cmd.Process})
		return agent.ErrorResult("the tool's process ended: " + cmd.Wait().Error())
	}
	return agent.TextResult("tallied")
}

func matrixPrompt(run int) string { return fmt.Sprintf("matrix run %03d", run) }
func matrixAnswer(run int) string { return fmt.Sprintf("answer to run %03d", run) }

// drive runs one run of the session: the prompt, then the scripted points
// as they are reached, until the runtime is idle. A steer that comes as
// an abort ends the run starts another (Runtime.Steer), which is driven
// too.
func (s *matrixSession) drive(ctx context.Context, t *testing.T, run int) {
	s.mu.Lock()
	s.run, s.served, s.armed = run, 0, map[int]bool{}
	s.mu.Unlock()
	if _, err := s.guard.Clear(ctx); err != nil { // each run may crash the engine anew
		t.Errorf("run %d: clearing the engine's quarantine: %v", run, err)
	}
	s.m.clock.tick()
	if err := s.rt.Prompt(context.Background(), matrixPrompt(run)); err != nil {
		t.Errorf("run %d: prompt: %v", run, err)
		return
	}
	s.record(sentInput{text: matrixPrompt(run)})
	idle := make(chan error, 1)
	wait := func() { idle <- s.rt.WaitForIdle(ctx) }
	go wait()
	steers, aborts := 0, 0
	for {
		select {
		case p := <-s.points:
			s.m.count(p.what)
			switch p.kind {
			case pointAbort:
				aborts++
				s.rt.Abort()
			case pointKill:
				_ = p.proc.Kill() // it may have ended with the run already
			case pointSteer:
				steers++
				s.steer(t, fmt.Sprintf("steer %03d.%d", run, steers), s.rt.Steer)
				if p.followUp {
					s.m.count("follow-up")
					s.steer(t, fmt.Sprintf("follow-up %03d.%d", run, steers), s.rt.FollowUp)
				}
			}
			close(p.done)
		case err := <-idle:
			if err != nil {
				t.Errorf("run %d never ended: %v", run, err)
				return
			}
			st := s.rt.State()
			if st.Running {
				go wait()
				continue
			}
			s.mu.Lock()
			s.results = append(s.results, matrixResult{run: run, id: s.rt.currentRun(), last: st.Messages[len(st.Messages)-1], aborts: aborts})
			s.mu.Unlock()
			return
		}
	}
}

func (s *matrixSession) steer(t *testing.T, text string, send func(context.Context, string, ...agent.Content) (agent.QueueItem, bool, error)) {
	it, _, err := send(context.Background(), text)
	if err != nil {
		t.Errorf("%s: %v", text, err)
		return
	}
	s.record(sentInput{text: text, kind: it.Kind, id: it.ID})
}

func (s *matrixSession) record(in sentInput) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, in)
}

// matrixSessionOf is the session of a run: they take turns.
func matrixSessionOf(run int) int { return run % matrixSessions }

func TestFaultMatrixMixedFaults(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	began := time.Now()
	sleepPath, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatalf("the killed tool runs sleep(1): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), matrixDeadline)
	defer cancel()
	m := &matrix{plans: matrixPlans(matrixSeed, matrixRuns), clock: &soakClock{t: time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)},
		sleep: sleepPath, calls: map[string]matrixCall{}, ran: map[string]int{}, returned: map[string]string{}, reached: map[string]int{}}
	store := openStore(t, t.TempDir())
	sched := lanes.New(lanes.Options{MaxConcurrent: matrixMaxConcurrent})
	m.sessions = make([]*matrixSession, matrixSessions)
	for i := range m.sessions {
		m.sessions[i] = newMatrixSession(ctx, t, m, i, store, sched)
	}

	var wg sync.WaitGroup
	var driven atomic.Int32 // the runs actually driven: the figure logged
	for _, s := range m.sessions {
		wg.Go(func() {
			for run := range matrixRuns {
				if matrixSessionOf(run) == s.idx && ctx.Err() == nil {
					s.drive(ctx, t, run)
					driven.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := int(driven.Load()); n != matrixRuns {
		t.Errorf("%d of %d runs driven before the deadline", n, matrixRuns)
	}
	ran := time.Since(began)

	log := m.requests()
	m.mu.Lock()
	toolRuns, returned := maps.Clone(m.ran), maps.Clone(m.returned)
	m.mu.Unlock()
	outcomes := checkMatrixOutcomes(t, store, m.sessions)
	checkMatrixToolRuns(t, log, toolRuns)
	sent, pending := 0, 0
	for _, s := range m.sessions {
		disk := loadMatrixDisk(t, store, s)
		sent, pending = sent+len(s.sent), pending+len(disk.pending)
		checkMatrixTranscript(t, s, disk)
		checkMatrixToolResults(t, s, log, disk, toolRuns, returned)
		checkMatrixInputs(t, s, disk)
	}
	for _, s := range m.sessions {
		if err := s.rt.Close(ctx); err != nil {
			t.Errorf("closing session %d: %v", s.idx, err)
		}
	}
	if err := store.Close(); err != nil {
		t.Error(err)
	}
	goleak.VerifyNone(t, ignore)
	counts := matrixFaultCounts(t, log, m.reached)
	t.Logf("runs=%d faults=%s", driven.Load(), counts)
	t.Logf("%d requests, %d tool calls run, %d inputs sent (%d still queued at the end), in %v; run records %v",
		len(log), len(toolRuns), sent, pending, ran.Round(time.Millisecond), outcomes)
}

// newMatrixSession opens session i's runtime, its provider the session's
// own script and its engine the crashing one behind its quarantine guard.
func newMatrixSession(ctx context.Context, t *testing.T, m *matrix, i int, store *persistence.Store, sched *lanes.Scheduler) *matrixSession {
	t.Helper()
	s := &matrixSession{m: m, idx: i, points: make(chan point)}
	providers := []Provider{
		{Name: "p", Models: []agent.Model{soakBig, soakSmall}, Stream: s.stream, Profiles: soakProfilesOf("p")},
		{Name: "q", Models: []agent.Model{soakTiny}, Stream: s.stream, Profiles: soakProfilesOf("q")},
	}
	rt, err := New(ctx, Options{Providers: providers, Model: soakBig.Ref(), Fallbacks: []string{soakSmall.Ref(), soakTiny.Ref()},
		Tools: []agent.Tool{matrixTool{m}}, Store: store, Ledger: store.Ledger(), Lanes: sched, Workspace: "/ws",
		Now: m.clock.now, Sleep: s.sleep})
	if err != nil {
		t.Fatal(err)
	}
	s.rt = rt
	s.guard = engines.NewGuard("matrix", crashingEngine{s}, engines.Legacy(nil, rt.keeper.compactBuiltin),
		engines.GuardOptions{Now: m.clock.now, OnQuarantine: rt.keeper.engines.quarantined})
	rt.keeper.engines.engine = s.guard
	return s
}
