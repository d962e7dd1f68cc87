package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
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
	soakNoProfile = regexp.MustCompile(`^every auth profile of \w+ is in \w+ \((\w+)\) until `)
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
				if err := rt.Prompt(soakPrompt(run)); err != nil {
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
	up := givenUp(log)
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

// givenUp says, for each failed request of the log, whether its profile
// was given up on (and the failure handed to the ledger) rather than tried
// again: a same-profile retry is the run's next request, on the same
// profile and model. A rotation, a fallback or the run's end gives it up.
func givenUp(log []soakRequest) []bool {
	up := make([]bool, len(log))
	for _, seq := range byRun(log) {
		for i, s := range seq {
			if !log[s].fault.failure() || log[s].cancelled {
				continue
			}
			up[s] = i+1 == len(seq) || log[seq[i+1]].profile != log[s].profile || log[seq[i+1]].model != log[s].model
		}
	}
	return up
}

// byRun is the log's indexes by run, in order.
func byRun(log []soakRequest) map[int][]int {
	out := map[int][]int{}
	for i, r := range log {
		out[r.run] = append(out[r.run], i)
	}
	return out
}

// checkOutcomes: every run ended, as its last request says — its answer,
// the error of a fault it was served (or of every profile cooling down),
// or, for the hang, its run timeout.
func checkOutcomes(t *testing.T, plans [][]fault, log []soakRequest, results []soakResult) {
	t.Helper()
	runs := byRun(log)
	if stray := runs[-1]; len(stray) > 0 {
		t.Errorf("%d requests named no run", len(stray))
	}
	for run, res := range results {
		if !res.done {
			continue // reported where it failed
		}
		last, seq := res.last, runs[run]
		served := map[string]bool{}
		end := fault(-1)
		for _, s := range seq {
			end = log[s].fault
			if end.failure() {
				served[faults[end].err.Error()] = true
			}
		}
		noProfile := false
		if m := soakNoProfile.FindStringSubmatch(last.ErrorMessage); m != nil {
			reason, ok := failover.ParseReason(m[1])
			noProfile = ok && reason != failover.ReasonUnknown
		}
		var ok bool
		switch {
		case run == soakHangRun:
			ok = last.StopReason == agent.StopReasonAborted && last.ErrorMessage == AbortTimeout(soakHangTimeout) && res.timedOut
		case end == -1 || end == faultAnswerTool: // no profile left for the run's (next) request
			ok = last.StopReason == agent.StopReasonError && noProfile
		case end == faultAnswer || end == faultAnswerLength:
			ok = last.StopReason == faults[end].stop && last.TextContent() == soakAnswer(run)
		default:
			ok = last.StopReason == agent.StopReasonError && (served[last.ErrorMessage] || noProfile)
		}
		if !ok || (run != soakHangRun && res.timedOut) {
			t.Errorf("run %d (plan %v, %d requests) ended %s %q %q, timed out %v", run, plans[run], len(seq),
				last.StopReason, last.TextContent(), last.ErrorMessage, res.timedOut)
		}
	}
}

// checkToolCalls: every call of an answer ran exactly once, and no call
// from a message cut off by an error ran at all.
func checkToolCalls(t *testing.T, log []soakRequest, ran map[string]int) {
	t.Helper()
	for _, r := range log {
		if r.callID == "" {
			continue
		}
		want := 0
		if r.fault == faultAnswerTool && !r.cancelled {
			want = 1
		}
		if ran[r.callID] != want {
			t.Errorf("tool call %s (%s) ran %d times, want %d", r.callID, faults[r.fault].name, ran[r.callID], want)
		}
		delete(ran, r.callID)
	}
	if len(ran) > 0 {
		t.Errorf("tool calls no answer made ran: %v", ran)
	}
}

// checkRecords: each run's record ended with the outcome of its last
// message and holds one attempt per request the provider saw, on its
// profile and model, with the reason its fault classifies as and the
// decision the failover rules give: a retry on the profile, a rotation to
// the next request's profile, a fallback to its model, or the end.
func checkRecords(t *testing.T, store *persistence.Store, log []soakRequest, up []bool, results []soakResult) {
	t.Helper()
	ctx := context.Background()
	runs := byRun(log)
	outcomes := map[agent.StopReason]string{agent.StopReasonError: OutcomeFailed, agent.StopReasonAborted: OutcomeAborted}
	for run, res := range results {
		if !res.done {
			continue
		}
		rec, err := store.Run(ctx, res.id)
		if err != nil {
			t.Errorf("run %d: %v", run, err)
			continue
		}
		want, ok := outcomes[res.last.StopReason]
		if !ok {
			want = OutcomeCompleted
		}
		if rec.Ended.IsZero() || rec.Outcome != want {
			t.Errorf("run %d: record ended %v with %q, want %q", run, rec.Ended, rec.Outcome, want)
		}
		if run == soakHangRun {
			continue // an attempt cut by the abort may go unrecorded
		}
		attempts, err := store.RunAttempts(ctx, res.id)
		if err != nil {
			t.Errorf("run %d: %v", run, err)
			continue
		}
		seq := runs[run]
		if len(attempts) != len(seq) {
			t.Errorf("run %d: %d attempts recorded, the provider saw %d requests", run, len(attempts), len(seq))
			continue
		}
		for i, s := range seq {
			r, a := log[s], attempts[i]
			var next *soakRequest
			if i+1 < len(seq) {
				next = &log[seq[i+1]]
			}
			reason, decisions := soakDecisions(r, up[s], next)
			if a.Profile != r.profile || a.Model != r.model || a.Reason != reason || !slices.Contains(decisions, a.Decision) {
				t.Errorf("run %d attempt %d: recorded %s %s %q %q; the provider saw %s on %s %s, want reason %q and a decision in %q",
					run, i+1, a.Profile, a.Model, a.Reason, a.Decision, faults[r.fault].name, r.profile, r.model, reason, decisions)
			}
		}
	}
}

// soakDecisions is the reason and the decisions an attempt's record may
// carry, given how its request went and the run's next request.
func soakDecisions(r soakRequest, up bool, next *soakRequest) (reason string, decisions []string) {
	spec := faults[r.fault]
	switch {
	case !r.fault.failure():
		return "", []string{""}
	case !up:
		return spec.reason.String(), []string{failover.DecisionContinueNormal.String()}
	case spec.before != "": // partly delivered: nothing to decide
		return spec.reason.String(), []string{""}
	case next != nil && next.model == r.model:
		return spec.reason.String(), []string{failover.DecisionRotateProfile.String()}
	case next != nil:
		return spec.reason.String(), []string{failover.DecisionFallbackModel.String()}
	}
	// The run's end: surfaced, or a fallback to models with no profile left.
	return spec.reason.String(), []string{failover.DecisionSurfaceError.String(), failover.DecisionFallbackModel.String()}
}

// checkLedger: each profile's lifetime counts are exactly the ledgered
// failures it was given up on and the answers it gave; what the failure
// window holds (reason counts, the cooldown) came from those failures.
func checkLedger(t *testing.T, ledger failover.Ledger, log []soakRequest, up []bool) {
	t.Helper()
	type expect struct {
		failures, successes int
		reasons             failover.ReasonCounts
		models              map[string]bool // the ids of the models it failed on
	}
	want := map[string]*expect{}
	for _, ids := range soakProfiles {
		for _, id := range ids {
			want[id] = &expect{models: map[string]bool{}}
		}
	}
	for i, r := range log {
		e := want[r.profile]
		spec := faults[r.fault]
		switch {
		case r.cancelled:
		case r.fault.success():
			e.successes++
		case up[i] && spec.ledgered:
			e.failures++
			e.reasons[spec.reason]++
			_, model, _ := strings.Cut(r.model, "/")
			e.models[model] = true
		}
	}
	for id, e := range want {
		st, err := ledger.Load(context.Background(), id)
		if err != nil {
			t.Error(err)
			continue
		}
		if st.Failures != e.failures || st.Successes != e.successes {
			t.Errorf("%s: the ledger counts %d failures and %d successes, the provider injected %d ledgered failures given up on and served %d answers",
				id, st.Failures, st.Successes, e.failures, e.successes)
		}
		for reason, n := range st.ReasonCounts {
			if n > e.reasons[reason] {
				t.Errorf("%s: %d %s failures in the window, %d injected", id, n, failover.Reason(reason), e.reasons[reason])
			}
		}
		if st.Failures > 0 && e.reasons[st.LastFailureReason] == 0 {
			t.Errorf("%s: the last failure is %s, never injected", id, st.LastFailureReason)
		}
		cooling := !st.CooldownUntil.IsZero()
		if cooling && (e.reasons[st.CooldownReason] == 0 || st.CooldownModel != "" && !e.models[st.CooldownModel]) {
			t.Errorf("%s: cooling down for %s on %q, injected %v on %v", id, st.CooldownReason, st.CooldownModel, e.reasons, e.models)
		}
		if !st.DisabledUntil.IsZero() {
			t.Errorf("%s: disabled for %s, which nothing injected", id, st.DisabledReason)
		}
	}
}

// checkSkips: a request's first attempt on a model skips the profiles
// configured before its own only when they are cooling down, which takes
// a ledgered failure given up on earlier (on any model: a cooldown widens
// to the profile when another model fails inside it).
func checkSkips(t *testing.T, log []soakRequest, up []bool) (skipped int) {
	t.Helper()
	failedBefore := func(profile string, before int) bool {
		for i := range before {
			if log[i].profile == profile && up[i] && faults[log[i].fault].ledgered {
				return true
			}
		}
		return false
	}
	for run, seq := range byRun(log) {
		tried := map[string]bool{} // models tried in the request under way
		for _, s := range seq {
			r := log[s]
			if !tried[r.model] {
				tried[r.model] = true
				provider, _, _ := strings.Cut(r.model, "/")
				order := soakProfiles[provider]
				for _, earlier := range order[:slices.Index(order, r.profile)] {
					skipped++
					if !failedBefore(earlier, s) {
						t.Errorf("run %d: request %d went to %s on %s, skipping %s, which had no ledgered failure", run, s, r.profile, r.model, earlier)
					}
				}
			}
			if r.fault.success() {
				clear(tried) // the next request of the run starts over
			}
		}
	}
	return skipped
}

// soakCoverage summarises what the run went through, for the log.
func soakCoverage(log []soakRequest, up []bool, results []soakResult) string {
	served := make([]int, len(faults))
	absorbed, ledgered := 0, 0
	for i, r := range log {
		served[r.fault]++
		switch {
		case r.fault.failure() && !up[i] && !r.cancelled:
			absorbed++
		case up[i] && faults[r.fault].ledgered:
			ledgered++
		}
	}
	ends := map[agent.StopReason]int{}
	noProfile := 0
	for _, res := range results {
		ends[res.last.StopReason]++
		if soakNoProfile.MatchString(res.last.ErrorMessage) {
			noProfile++
		}
	}
	var kinds []string
	for f, n := range served {
		kinds = append(kinds, fmt.Sprintf("%s %d", faults[f].name, n))
	}
	return fmt.Sprintf("served: %v; %d failures retried on their profile, %d ledgered; runs ended %v, %d with every profile cooling down",
		kinds, absorbed, ledgered, ends, noProfile)
}
