package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/lanes"
)

// The soak test (issue 14): 100 runs in 20 sessions, each session its own
// Runtime, all sharing one lanes scheduler (maxConcurrent 4), one SQLite
// store and its auth-profile ledger, and one fake provider. The provider
// serves every run a seeded plan, one step per request whatever profile or
// model the request went to: rate limits (with and without a short
// Retry-After), overloads before and after content, watchdog timeouts
// before and after the headers, malformed chunks, a tool call cut off
// mid-stream, answers that call a counting tool, and one stream that hangs
// until its session's run timeout cuts it. Which profile takes which fault
// depends on the interleaving and the shared cooldowns, so the checks are
// invariants computed from what the provider saw, true for every
// interleaving: each run ends as its last request says; no tool call runs
// twice, and none from a cut-off message runs; the lanes never run more
// than four; the run records hold exactly the attempts the provider saw,
// classified and decided as the failover rules say; the ledger counts
// exactly the failures whose profile was given up on (not those a
// same-profile retry absorbed, nor those failover.Ledgered leaves out) and
// every success; no profile is skipped without a failure behind it; and no
// goroutine outlives the runtimes.

const (
	soakRuns          = 100
	soakSessions      = 20
	soakMaxConcurrent = 4
	soakSeed          = 14
	// soakHangRun is the run that hangs, alone in session 0: that session
	// alone has a run timeout, soakHangTimeout, the only real wait here
	// (another run under it could time out on a busy machine).
	soakHangRun     = 0
	soakHangTimeout = 2 * time.Second
	// soakTick is how far the shared fake clock moves with every run
	// started and every request: a 30 s cooldown ends after some sixty, so
	// profiles go in and out of cooldown, and now and then a model has none
	// left.
	soakTick = 500 * time.Millisecond
	// soakDeadline bounds the whole test; the runs take a few seconds.
	soakDeadline = 60 * time.Second
	soakToolName = "tally"
)

var (
	soakBig   = agent.Model{Provider: "p", ID: "big", API: "test", ContextWindow: 200_000}
	soakSmall = agent.Model{Provider: "p", ID: "small", API: "test", ContextWindow: 200_000}
	soakTiny  = agent.Model{Provider: "q", ID: "tiny", API: "test", ContextWindow: 200_000}
	// soakProfiles are each provider's auth profiles, in the configured order.
	soakProfiles = map[string][]string{"p": {"p:a", "p:b", "p:c"}, "q": {"q:a", "q:b"}}
	// soakNoProfile is the error of a model whose every profile is cooling down.
	soakNoProfile = regexp.MustCompile(`^every auth profile of \w+ is in \w+ \((\w+)\)`)
)

// fault is what the provider does with one request.
type fault int

const (
	faultAnswer              fault = iota // text, stop
	faultAnswerLength                     // text, cut at the output limit
	faultAnswerTool                       // a call of the tally tool
	faultRateLimited                      // 429 without a hint: rotates at once
	faultRateLimitedSoon                  // 429 with Retry-After: 1, retried on the profile
	faultOverloaded                       // 529 before any content, retried with backoff
	faultOverloadedMidStream              // text, then an overloaded error event
	faultToolCallCut                      // a tool call, then an overloaded error event
	faultIdleAfterHeaders                 // the watchdog cut a response whose headers came
	faultIdleBeforeHeaders                // the watchdog cut a request nothing answered
	faultMalformed                        // a chunk that cannot be parsed
	faultHang                             // nothing, until the request is cancelled
)

// faultSpec says how a fault plays and what failover must make of it.
type faultSpec struct {
	name string
	// before is what streams ahead of the end: "text", "tool" or nothing.
	before string
	// err fails the request; without it the request answers with stop.
	err  *agent.ProviderError
	stop agent.StopReason
	// reason is how failover classifies err; ledgered says whether the
	// ledger keeps it once its profile is given up on (SPEC §5.3: not
	// server_error, nor a timeout before the provider answered anything).
	reason   failover.Reason
	ledgered bool
}

var (
	sseHeader = map[string][]string{"Content-Type": {"text/event-stream"}}
	midStream = &agent.ProviderError{Kind: agent.ErrorStream, Type: "overloaded_error", Message: "Overloaded (mid-stream)", Header: sseHeader}
)

var faults = [...]faultSpec{
	faultAnswer:       {name: "answer", before: "text", stop: agent.StopReasonStop},
	faultAnswerLength: {name: "answer cut at the limit", before: "text", stop: agent.StopReasonLength},
	faultAnswerTool:   {name: "tool call", before: "tool", stop: agent.StopReasonToolUse},
	faultRateLimited: {name: "429", reason: failover.ReasonRateLimit, ledgered: true,
		err: &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Type: "rate_limit_error", Message: "Rate limit reached for requests"}},
	faultRateLimitedSoon: {name: "429 retry after 1 s", reason: failover.ReasonRateLimit, ledgered: true,
		err: &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Type: "rate_limit_error", Message: "Rate limit reached, try again shortly",
			Header: map[string][]string{"Retry-After": {"1"}}}},
	faultOverloaded: {name: "529", reason: failover.ReasonOverloaded, ledgered: true,
		err: &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 529, Type: "overloaded_error", Message: "Overloaded"}},
	faultOverloadedMidStream: {name: "529 after text", before: "text", err: midStream, reason: failover.ReasonOverloaded, ledgered: true},
	faultToolCallCut:         {name: "529 after a tool call", before: "tool", err: midStream, reason: failover.ReasonOverloaded, ledgered: true},
	faultIdleAfterHeaders: {name: "idle timeout after the headers", reason: failover.ReasonTimeout, ledgered: true,
		err: &agent.ProviderError{Kind: agent.ErrorTimeout, Message: "no data from p for 1m0s (idle timeout)", Header: sseHeader}},
	faultIdleBeforeHeaders: {name: "idle timeout before the headers", reason: failover.ReasonTimeout,
		err: &agent.ProviderError{Kind: agent.ErrorTimeout, Message: "no data from p for 2m0s (idle timeout)"}},
	faultMalformed: {name: "malformed chunk", reason: failover.ReasonServerError,
		err: &agent.ProviderError{Kind: agent.ErrorMalformed, Message: "cannot parse a chunk of the stream from p",
			Body: `data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"`, Header: sseHeader}},
	faultHang: {name: "hang"},
}

func (f fault) failure() bool { return f != faultHang && faults[f].err != nil }
func (f fault) success() bool { return faults[f].err == nil && f != faultHang }

// soakPlans draws every run's plan: up to three faults before content, then
// half the time a tool call and up to two more, then how the run's last
// response ends. The hang run only hangs.
func soakPlans(seed uint64, runs int) [][]fault {
	rng := rand.New(rand.NewPCG(seed, 0))
	early := []fault{faultRateLimited, faultRateLimitedSoon, faultOverloaded, faultIdleAfterHeaders, faultIdleBeforeHeaders, faultMalformed}
	endings := []fault{faultAnswer, faultAnswer, faultAnswer, faultAnswer, faultAnswer, faultAnswerLength, faultOverloadedMidStream, faultToolCallCut}
	plans := make([][]fault, runs)
	for run := range plans {
		var plan []fault
		draw := func(most int) {
			for range rng.IntN(most + 1) {
				plan = append(plan, early[rng.IntN(len(early))])
			}
		}
		draw(3)
		if rng.IntN(2) == 0 {
			plan = append(plan, faultAnswerTool)
			draw(2)
		}
		plans[run] = append(plan, endings[rng.IntN(len(endings))])
	}
	plans[soakHangRun] = []fault{faultHang}
	return plans
}

// soakClock is the fake clock every runtime shares.
type soakClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *soakClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *soakClock) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(soakTick)
}

// soakRequest is one request as the provider saw it; the log's order is
// the order the requests were made in.
type soakRequest struct {
	run     int // -1: no run's prompt was found
	profile string
	model   string // the model's ref
	fault   fault
	callID  string // the tool call it streamed, if any
	// cancelled: the request's context was done when it ended (its run was
	// cut), so the runner writes nothing about it.
	cancelled bool
}

// soakProvider serves every run its plan and logs the requests. It is the
// StreamFn of both providers.
type soakProvider struct {
	plans [][]fault
	clock *soakClock
	// full is closed once soakMaxConcurrent requests are in flight; every
	// request waits for it, so the cap is reached for sure before anything
	// answers, and a scheduler that let in fewer would stall the test.
	full chan struct{}
	// hung is closed when the hang request arrives; the other sessions
	// start then, so that it meets an empty ledger and surely hangs.
	hung chan struct{}

	mu       sync.Mutex
	served   map[int]int // run → requests served
	log      []soakRequest
	inFlight int
	peak     int
	opened   bool
}

func (p *soakProvider) stream(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	req := soakRequest{run: soakRunOf(llm), profile: opts.Profile, model: m.Ref(), fault: faultAnswer}
	p.mu.Lock()
	if req.run >= 0 {
		if n := p.served[req.run]; n < len(p.plans[req.run]) {
			req.fault = p.plans[req.run][n]
		}
		if faults[req.fault].before == "tool" {
			req.callID = fmt.Sprintf("call-%03d-%d", req.run, p.served[req.run])
		}
		p.served[req.run]++
	}
	seq := len(p.log)
	p.log = append(p.log, req)
	p.inFlight++
	p.peak = max(p.peak, p.inFlight)
	if p.inFlight == soakMaxConcurrent && !p.opened {
		p.opened = true
		close(p.full)
	}
	p.mu.Unlock()
	p.clock.tick()
	if req.fault == faultHang {
		close(p.hung)
	}
	out := agent.NewAssistantStream()
	go p.play(ctx, out, m, seq, req)
	return out
}

func (p *soakProvider) play(ctx context.Context, out *agent.AssistantStream, m agent.Model, seq int, req soakRequest) {
	w := agent.NewStreamWriter(ctx, out, m, p.clock.now())
	w.Start()
	select {
	case <-p.full:
	case <-ctx.Done():
	}
	if req.fault == faultHang {
		<-ctx.Done()
	}
	spec := faults[req.fault]
	if ctx.Err() == nil {
		switch spec.before {
		case "text":
			w.TextDelta(soakAnswer(req.run))
		case "tool":
			w.ToolCallStart(req.callID, soakToolName)
			w.ToolCallDelta(`{}`)
		}
	}
	// Out of flight before the final event: the next run may start the
	// moment the runner sees it.
	p.mu.Lock()
	p.inFlight--
	p.log[seq].cancelled = ctx.Err() != nil
	p.mu.Unlock()
	switch {
	case ctx.Err() != nil:
		w.Fail(&agent.ProviderError{Kind: agent.ErrorNetwork, Message: "request cancelled"})
	case spec.err != nil:
		perr := *spec.err
		w.Fail(&perr)
	default:
		w.Finish(spec.stop)
	}
}

// requests returns a copy of the log.
func (p *soakProvider) requests() []soakRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.log)
}

func soakPrompt(run int) string { return fmt.Sprintf("soak run %03d", run) }
func soakAnswer(run int) string { return fmt.Sprintf("answer to run %03d", run) }

// soakRunOf is the run a request belongs to: the one its last prompt names.
func soakRunOf(llm agent.LLMContext) int {
	for i := len(llm.Messages) - 1; i >= 0; i-- {
		if m := llm.Messages[i]; m.Role == agent.RoleUser {
			var run int
			if _, err := fmt.Sscanf(m.TextContent(), "soak run %d", &run); err != nil {
				return -1
			}
			return run
		}
	}
	return -1
}

// soakTool counts every call id it runs.
type soakTool struct {
	mu  sync.Mutex
	ran map[string]int
}

func (*soakTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: soakToolName, Description: "counts its calls", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (t *soakTool) Execute(_ context.Context, callID string, _ map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ran[callID]++
	return agent.TextResult("tallied"), nil
}

func (t *soakTool) runs() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.ran)
}

// laneWatch is what sampling the scheduler at every change saw.
type laneWatch struct {
	running, waiting int      // the most runs the global lane ran and held waiting
	doubled          []string // session lanes seen running two runs
}

func watchLanes(sched *lanes.Scheduler, stop <-chan struct{}) <-chan laneWatch {
	out := make(chan laneWatch, 1)
	go func() {
		var w laneWatch
		for {
			select {
			case <-stop:
				out <- w
				return
			case <-sched.Changes():
			}
			for _, l := range sched.Snapshot().Lanes {
				switch l.Kind {
				case lanes.KindGlobal:
					w.running, w.waiting = max(w.running, len(l.Running)), max(w.waiting, len(l.Waiting))
				case lanes.KindSession:
					if len(l.Running) > 1 {
						w.doubled = append(w.doubled, l.Name)
					}
				}
			}
		}
	}()
	return out
}

// soakResult is how one run ended.
type soakResult struct {
	id       string // its run record
	last     agent.Message
	timedOut bool
	done     bool
}

func TestSoakMixedFaults(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), soakDeadline)
	defer cancel()
	clock := &soakClock{t: time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)}
	prov := &soakProvider{plans: soakPlans(soakSeed, soakRuns), clock: clock, full: make(chan struct{}),
		hung: make(chan struct{}), served: map[int]int{}}
	tool := &soakTool{ran: map[string]int{}}
	store := openStore(t, t.TempDir())
	sched := lanes.New(lanes.Options{MaxConcurrent: soakMaxConcurrent})
	stop := make(chan struct{})
	watched := watchLanes(sched, stop)

	providers := []Provider{
		{Name: "p", Models: []agent.Model{soakBig, soakSmall}, Stream: prov.stream, Profiles: soakProfilesOf("p")},
		{Name: "q", Models: []agent.Model{soakTiny}, Stream: prov.stream, Profiles: soakProfilesOf("q")},
	}
	rts := make([]*Runtime, soakSessions)
	for s := range rts {
		opts := Options{Providers: providers, Model: soakBig.Ref(), Fallbacks: []string{soakSmall.Ref(), soakTiny.Ref()},
			Tools: []agent.Tool{tool}, Store: store, Ledger: store.Ledger(), Lanes: sched, Workspace: "/ws", Now: clock.now,
			Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
		if s == soakSessionOf(soakHangRun) {
			opts.RunTimeout = soakHangTimeout
		}
		rt, err := New(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		rts[s] = rt
	}

	results := make([]soakResult, soakRuns)
	var wg sync.WaitGroup
	for s, rt := range rts {
		if s == soakSessionOf(soakHangRun)+1 {
			select {
			case <-prov.hung:
			case <-ctx.Done():
				t.Error("the hang run never reached the provider")
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for run := range soakRuns {
				if soakSessionOf(run) != s {
					continue
				}
				clock.tick()
				if err := rt.Prompt(context.Background(), soakPrompt(run)); err != nil {
					t.Errorf("run %d: prompt: %v", run, err)
					return
				}
				if err := rt.WaitForIdle(ctx); err != nil {
					t.Errorf("run %d never ended: %v", run, err)
					return
				}
				msgs := rt.State().Messages
				results[run] = soakResult{id: rt.currentRun(), last: msgs[len(msgs)-1], timedOut: rt.TimedOut(), done: true}
			}
		}()
	}
	wg.Wait()
	ran := time.Since(began)
	if left := sched.Snapshot(); len(left.Lanes) != 2 || len(left.Lanes[0].Running)+len(left.Lanes[0].Waiting) > 0 {
		t.Errorf("every run is over, yet the lanes hold %+v", left.Lanes)
	}
	close(stop)
	seen := <-watched
	for _, rt := range rts {
		if err := rt.Close(ctx); err != nil {
			t.Errorf("closing a runtime: %v", err)
		}
	}

	log := prov.requests()
	up := givenUp(log, recordedDecisions(t, store, log, results))
	checkOutcomes(t, prov.plans, log, results)
	checkToolCalls(t, log, tool.runs())
	checkRecords(t, store, log, up, results)
	checkLedger(t, store.Ledger(), log, up)
	skipped := checkSkips(t, log, up)
	if prov.peak != soakMaxConcurrent || seen.running > soakMaxConcurrent || len(seen.doubled) > 0 {
		t.Errorf("concurrency: %d requests in flight at most, the global lane ran %d at most, session lanes running two: %v; want %d, at most %d, none",
			prov.peak, seen.running, seen.doubled, soakMaxConcurrent, soakMaxConcurrent)
	}
	if err := store.Close(); err != nil {
		t.Error(err)
	}
	goleak.VerifyNone(t, ignore)
	t.Logf("%d runs, %d requests in %v; at most %d requests in flight, %d running and %d waiting in the global lane; %d profiles skipped cooling down; %s",
		soakRuns, len(log), ran.Round(time.Millisecond), prov.peak, seen.running, seen.waiting, skipped, soakCoverage(log, up, results))
}

// soakSessionOf is the session of a run: the hang run has session 0 to
// itself, the others take turns in the rest.
func soakSessionOf(run int) int {
	if run == soakHangRun {
		return 0
	}
	return 1 + run%(soakSessions-1)
}

func soakProfilesOf(provider string) []Profile {
	var out []Profile
	for _, id := range soakProfiles[provider] {
		out = append(out, Profile{ID: id, APIKey: "key-" + id})
	}
	return out
}
