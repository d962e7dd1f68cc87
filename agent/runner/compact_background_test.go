package runner

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/lanes"
)

// ownerSummary opens the transcript an owning engine compacts to.
const ownerSummary = "the owning engine's summary"

// owningEngine is an in-process engine that owns compaction: it assembles
// as the transcript stands and compacts to its own summary and the last
// message. compact, when set, decides its answer instead. Every call goes
// to log, in order with the provider's requests.
type owningEngine struct {
	log     *callLog
	compact func(ctx context.Context, req engines.CompactRequest) (engines.CompactResult, error)
}

func (e *owningEngine) Info(context.Context) (engines.Info, error) {
	return engines.Info{Name: "owner", OwnsCompaction: true}, nil
}
func (e *owningEngine) Bootstrap(context.Context, engines.BootstrapRequest) error { return nil }
func (e *owningEngine) Ingest(context.Context, engines.IngestRequest) error       { return nil }
func (e *owningEngine) AfterTurn(context.Context, engines.AfterTurnRequest) error { return nil }
func (e *owningEngine) Assemble(_ context.Context, req engines.AssembleRequest) (engines.AssembleResult, error) {
	return engines.AssembleResult{Messages: req.Messages}, nil
}

func (e *owningEngine) Compact(ctx context.Context, req engines.CompactRequest) (engines.CompactResult, error) {
	e.log.add("engine compact " + string(req.Reason))
	if e.compact != nil {
		return e.compact(ctx, req)
	}
	return engines.CompactResult{Compacted: true, Summary: ownerSummary,
		Messages: []agent.Message{agent.UserMessage(ownerSummary, agenttest.Epoch), req.Messages[len(req.Messages)-1]}}, nil
}

// callLog is what happened, in order.
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(s string) {
	l.mu.Lock()
	l.calls = append(l.calls, s)
	l.mu.Unlock()
}

func (l *callLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.calls...)
}

// loggingProvider answers summaries and requests, logging each with the
// first and last message of a request.
type loggingProvider struct {
	log *callLog
	mu  sync.Mutex
	// requests are the main requests' contexts, in order.
	requests []agent.LLMContext
}

func (p *loggingProvider) stream(ctx context.Context, m agent.Model, llm agent.LLMContext, _ agent.StreamOptions) *agent.AssistantStream {
	summary := strings.Contains(llm.SystemPrompt, "summarise conversations")
	if summary {
		p.log.add("summary request")
	} else {
		p.log.add("request")
		p.mu.Lock()
		p.requests = append(p.requests, llm)
		p.mu.Unlock()
	}
	out := agent.NewAssistantStream()
	go func() {
		w := agent.NewStreamWriter(ctx, out, m, agenttest.Epoch)
		w.Start()
		if summary {
			w.TextDelta("## Goal\nthe built-in summary")
		} else {
			w.TextDelta("ok")
		}
		w.Finish(agent.StopReasonStop)
	}()
	return out
}

func (p *loggingProvider) lastRequest() agent.LLMContext {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests[len(p.requests)-1]
}

// engineRuntime is a runtime on a 20k window whose engine is e behind its
// guard (nil: legacy), with a transcript far over the window; notes and
// notices collect what it reports.
func engineRuntime(t *testing.T, p *loggingProvider, e engines.Engine) (rt *Runtime, notes *[]agent.Annotation, notices func() []Notice) {
	t.Helper()
	model := agent.Model{Provider: "p", ID: "m", API: "test", ContextWindow: 20_000}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{model}, Stream: p.stream}},
		Model:     "p/m", Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	stopOnCleanup(t, rt)
	if e != nil {
		rt.keeper.engines.engine = engines.NewGuard("owner", e, engines.Legacy(nil, rt.keeper.compactBuiltin), engines.GuardOptions{})
	}
	var mu sync.Mutex
	var ns []agent.Annotation
	var nts []Notice
	rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok {
			mu.Lock()
			ns = append(ns, a)
			mu.Unlock()
		}
	})
	rt.SubscribeNotices(func(n Notice) {
		mu.Lock()
		nts = append(nts, n)
		mu.Unlock()
	})
	if err := rt.agent.ReplaceMessages(history(20, 4_000)); err != nil {
		t.Fatal(err)
	}
	return rt, &ns, func() []Notice {
		mu.Lock()
		defer mu.Unlock()
		return append([]Notice(nil), nts...)
	}
}

// settle waits for the run and then for the engine feed, where the
// background compaction runs.
func settle(t *testing.T, rt *Runtime) {
	t.Helper()
	waitIdle(t, rt)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rt.keeper.engines.feed.flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestOwningEngineCompactsInTheBackground: a session over its budget
// compacts in the request path with the built-in engine (a summary request
// before the run's request); with an engine that owns compaction the
// request goes on uncompacted, no summary is asked for, and the engine
// compacts after the run, its transcript becoming the session's.
func TestOwningEngineCompactsInTheBackground(t *testing.T) {
	cases := []struct {
		name      string
		owning    bool
		wantCalls []string
	}{
		{"the built-in engine compacts in the request", false, []string{"summary request", "request"}},
		{"an owning engine compacts after the run", true, []string{"request", "engine compact threshold"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := &callLog{}
			p := &loggingProvider{log: log}
			var e engines.Engine
			if c.owning {
				e = &owningEngine{log: log}
			}
			rt, notes, notices := engineRuntime(t, p, e)
			if err := rt.Prompt(context.Background(), "and now?"); err != nil {
				t.Fatal(err)
			}
			settle(t, rt)
			if got := log.list(); strings.Join(got, ", ") != strings.Join(c.wantCalls, ", ") {
				t.Fatalf("calls %q, want %q", got, c.wantCalls)
			}
			msgs := rt.State().Messages
			inRun := len(kinds(*notes, AnnotationCompactionStart))
			if !c.owning {
				if inRun != 1 || !contextguard.IsSummary(msgs[0]) {
					t.Fatalf("compactions in the run %d, first message %q", inRun, msgs[0].TextContent())
				}
				return
			}
			if inRun != 0 {
				t.Fatalf("%d compactions in the run's request path", inRun)
			}
			if len(msgs) != 2 || msgs[0].TextContent() != ownerSummary || msgs[1].TextContent() != "ok" {
				t.Fatalf("the transcript after the background compaction: %d messages, opening %q", len(msgs), msgs[0].TextContent())
			}
			ns := notices()
			if len(ns) != 1 || ns[0].Kind != NoticeCompaction || !strings.HasPrefix(ns[0].Text, "compacted (threshold)") {
				t.Fatalf("notices %+v, want one saying it compacted", ns)
			}
		})
	}
}

// TestBackgroundCompactionFailureKeepsTheSession: an owning engine that
// compacts nothing, or whose compaction is cancelled by the safety limit,
// leaves the session as it was, says so in a notice, and the next run goes
// on; the engine is not quarantined.
func TestBackgroundCompactionFailureKeepsTheSession(t *testing.T) {
	log := &callLog{}
	p := &loggingProvider{log: log}
	e := &owningEngine{log: log, compact: func(context.Context, engines.CompactRequest) (engines.CompactResult, error) {
		return engines.CompactResult{Reason: "the index is busy"}, nil
	}}
	rt, _, notices := engineRuntime(t, p, e)
	if err := rt.Prompt(context.Background(), "and now?"); err != nil {
		t.Fatal(err)
	}
	settle(t, rt)
	before := len(rt.State().Messages)
	if before != 42 {
		t.Fatalf("the session holds %d messages, want the 42 it had", before)
	}
	ns := notices()
	if len(ns) != 1 || ns[0].Kind != NoticeCompaction || !strings.Contains(ns[0].Text, "the index is busy") {
		t.Fatalf("notices %+v, want one saying why nothing was compacted", ns)
	}
	if q, on := rt.keeper.engines.engine.Quarantine(context.Background()); on {
		t.Fatalf("the engine was quarantined: %+v", q)
	}
	if err := rt.Prompt(context.Background(), "again"); err != nil {
		t.Fatal(err)
	}
	settle(t, rt)
	if msgs := rt.State().Messages; len(msgs) != before+2 || msgs[len(msgs)-1].TextContent() != "ok" {
		t.Fatalf("the next run: %d messages", len(msgs))
	}
}

// TestTheNextRunWaitsForTheBackgroundCompaction: a run started while the
// background compaction is still under way waits for it in the lane and
// then sends the compacted transcript, its own prompt after it.
func TestTheNextRunWaitsForTheBackgroundCompaction(t *testing.T) {
	log := &callLog{}
	p := &loggingProvider{log: log}
	started, release := make(chan struct{}), make(chan struct{})
	e := &owningEngine{log: log}
	e.compact = func(ctx context.Context, req engines.CompactRequest) (engines.CompactResult, error) {
		close(started)
		<-release
		e.compact = nil
		return e.Compact(ctx, req)
	}
	rt, notes, _ := engineRuntime(t, p, e)
	if err := rt.Prompt(context.Background(), "and now?"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	<-started
	if err := rt.Prompt(context.Background(), "next"); err != nil {
		t.Fatal(err)
	}
	if !rt.State().Running {
		t.Fatal("the next run is not under way")
	}
	close(release)
	settle(t, rt)
	req := p.lastRequest()
	if n := len(req.Messages); n != 3 || req.Messages[0].TextContent() != ownerSummary || req.Messages[n-1].TextContent() != "next" {
		var texts []string
		for _, m := range req.Messages {
			texts = append(texts, m.TextContent())
		}
		t.Fatalf("the next run sent %q, want the compaction, then its prompt", texts)
	}
	if got := len(kinds(*notes, AnnotationCompactionEnd)); got != 1 {
		t.Fatalf("%d compaction_end annotations, want the adopted one", got)
	}
	if msgs := rt.State().Messages; len(msgs) != 4 || msgs[0].TextContent() != ownerSummary {
		t.Fatalf("the stored transcript: %d messages", len(msgs))
	}
}

// TestTheBackgroundCompactionIsReservedBeforeTheLanesAreLeft: when the run
// that deferred a compaction leaves its lanes (laneProgress at agent_end),
// the compaction already holds the session's maintenance, so nothing
// queued in the session's lane (the next run, a /compact) gets in ahead of
// it — not even before the engine feed has scheduled it.
func TestTheBackgroundCompactionIsReservedBeforeTheLanesAreLeft(t *testing.T) {
	rt, _, _ := engineRuntime(t, &loggingProvider{log: &callLog{}}, &owningEngine{log: &callLog{}})
	task, err := rt.sched.Enter(context.Background(), lanes.Request{ID: "run", Session: rt.SessionID(), Trigger: triggerUser})
	if err != nil {
		t.Fatal(err)
	}
	rt.lane.mu.Lock()
	rt.lane.task = task
	rt.lane.mu.Unlock()
	rt.keeper.bg.mark()
	rt.laneProgress(agent.AgentEnd{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	next, err := rt.sched.Enter(ctx, lanes.Request{ID: "next", Session: rt.SessionID(), Trigger: triggerManual})
	if err == nil {
		next.Leave()
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("an entry into the session's lane once the run left it: %v, want it to wait for the compaction", err)
	}
	if done := rt.keeper.bg.takeReserved(); done != nil {
		done()
	}
}
