package runner

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/contextguard/engines"
)

// keeperSession is a keptSession in memory: a transcript, a running flag,
// and what the keeper told it. idle, when set, is what waitIdle waits for.
type keeperSession struct {
	mu        sync.Mutex
	sid       string
	msgs      []agent.Message
	run       bool
	idle      chan struct{}
	notes     []Notice
	announced []agent.Annotation
}

func (s *keeperSession) id() string { s.mu.Lock(); defer s.mu.Unlock(); return s.sid }
func (s *keeperSession) state() agent.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return agent.State{Messages: s.msgs, Running: s.run}
}
func (s *keeperSession) running() bool { s.mu.Lock(); defer s.mu.Unlock(); return s.run }
func (s *keeperSession) waitIdle(ctx context.Context) error {
	if s.idle == nil {
		return nil
	}
	return agent.WaitClosed(ctx, s.idle)
}
func (s *keeperSession) announce(a agent.Annotation) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.announced = append(s.announced, a)
	return nil
}
func (s *keeperSession) preCompact(context.Context, bool, string) {}
func (s *keeperSession) compacted(context.Context)                {}
func (s *keeperSession) replaceTranscript(msgs []agent.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = msgs
	return nil
}
func (s *keeperSession) holdInputs() func() { return func() {} }
func (s *keeperSession) notify(kind NoticeKind, text string, data any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notes = append(s.notes, Notice{Kind: kind, Text: text, Data: data})
}

// keeperOf is a keeper of session on the legacy engine, with no request
// path (the cases here make no request) and quarantines kept in store.
func keeperOf(t *testing.T, session *keeperSession, store engines.QuarantineStore) *contextKeeper {
	t.Helper()
	k, err := newContextKeeper(session, nil, engineSetup{log: slog.New(slog.DiscardHandler), now: agenttest.Clock, store: store})
	if err != nil {
		t.Fatal(err)
	}
	k.engines.startFeed(t.Context())
	t.Cleanup(func() { k.engines.close(context.Background()) })
	return k
}

// keeperQuarantines is an engines.QuarantineStore in memory.
type keeperQuarantines struct {
	mu sync.Mutex
	qs map[string]engines.Quarantine
}

func (s *keeperQuarantines) Record(_ context.Context, q engines.Quarantine) (engines.Quarantine, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.qs[q.Engine] = q
	return q, nil
}
func (s *keeperQuarantines) Load(_ context.Context, engine string) (engines.Quarantine, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.qs[engine]
	return q, ok, nil
}
func (s *keeperQuarantines) List(context.Context) ([]engines.Quarantine, error) { return nil, nil }
func (s *keeperQuarantines) Clear(_ context.Context, engine string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.qs[engine]
	delete(s.qs, engine)
	return ok, nil
}

// TestKeeperReportsQuarantinesOnce: a failure the guard recorded goes out
// once — with the next request's events, or as a notice outside one — and
// a clear that lifted a quarantine is a quarantine_cleared notice, one
// that lifted none says nothing.
func TestKeeperReportsQuarantinesOnce(t *testing.T) {
	failure := engines.QuarantineEvent{Quarantine: engines.Quarantine{Engine: "lcm", Count: 1},
		Method: engines.MethodIngest, Reason: engines.ReasonCrash, Err: errors.New("exit 1")}
	cases := []struct {
		name       string
		inRequest  bool
		quarantine []string // engines in the store
		clear      string
		wantKinds  []NoticeKind
		wantNotes  int // quarantine annotations in the request
	}{
		{name: "outside a request: a notice", wantKinds: []NoticeKind{NoticeQuarantine}},
		{name: "in a request: an annotation, no notice", inRequest: true, wantNotes: 1},
		{name: "a clear that lifted one", quarantine: []string{"lcm"}, clear: "lcm",
			wantKinds: []NoticeKind{NoticeQuarantine, NoticeQuarantineCleared}},
		{name: "a clear of an engine without one", clear: "lcm", wantKinds: []NoticeKind{NoticeQuarantine}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			session := &keeperSession{sid: "s_1"}
			store := &keeperQuarantines{qs: map[string]engines.Quarantine{}}
			for _, e := range c.quarantine {
				store.qs[e] = engines.Quarantine{Engine: e}
			}
			k := keeperOf(t, session, store)
			k.engines.quarantined(failure)
			out := agent.NewAssistantStream()
			if c.inRequest {
				k.engines.announceQuarantines(t.Context(), out)
			}
			out.End(agent.Message{})
			k.engines.noticeQuarantines()
			k.engines.noticeQuarantines() // reported already: nothing more
			if c.clear != "" {
				if _, err := k.engines.clear(t.Context(), c.clear); err != nil {
					t.Fatal(err)
				}
			}
			notes := 0
			for ev := range out.Events() {
				if ev.Type == agent.EventAnnotation && ev.Annotation.Kind == AnnotationQuarantine {
					notes++
				}
			}
			var kinds []NoticeKind
			for _, n := range session.notes {
				kinds = append(kinds, n.Kind)
			}
			if notes != c.wantNotes || !slices.Equal(kinds, c.wantKinds) {
				t.Fatalf("annotations %d, notices %v; want %d, %v", notes, kinds, c.wantNotes, c.wantKinds)
			}
			if c.clear != "" && len(c.quarantine) > 0 {
				if got := session.notes[len(session.notes)-1].Data; got != (QuarantineCleared{Engine: "lcm"}) {
					t.Fatalf("cleared notice data %v", got)
				}
			}
		})
	}
}

// TestKeeperAppliesABackgroundCompaction: a background compaction is
// written at once between runs (with what came since kept after it),
// parked while the session's next run is active, and dropped when the
// session changed under it.
func TestKeeperAppliesABackgroundCompaction(t *testing.T) {
	base := history(3, 10)
	later := agent.UserMessage("later", agenttest.Epoch)
	summary := agent.UserMessage("summary", agenttest.Epoch)
	cases := []struct {
		name      string
		session   string
		now       []agent.Message
		running   bool
		wantErr   error
		wantMsgs  []agent.Message // the transcript after
		wantPark  bool
		wantNotes int
	}{
		{name: "between runs", session: "s_1", now: append(append([]agent.Message(nil), base...), later),
			wantMsgs: []agent.Message{summary, later}, wantNotes: 1},
		{name: "while the next run waits", session: "s_1", now: base, running: true, wantMsgs: base, wantPark: true},
		{name: "another session", session: "s_2", now: base, wantErr: errStaleCompaction, wantMsgs: base},
		{name: "a rewritten transcript", session: "s_1", now: base[:1], wantErr: errStaleCompaction, wantMsgs: base[:1]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			session := &keeperSession{sid: c.session, msgs: c.now, run: c.running}
			k := keeperOf(t, session, nil)
			p := &parkedCompaction{session: "s_1", base: base, res: engines.CompactResult{Messages: []agent.Message{summary}},
				end: CompactionEnd{Reason: string(engines.CompactThreshold)}}
			if err := k.applyBackgroundCompaction(p); !errors.Is(err, c.wantErr) {
				t.Fatalf("apply: %v, want %v", err, c.wantErr)
			}
			if got := session.state().Messages; len(got) != len(c.wantMsgs) || got[0].TextContent() != c.wantMsgs[0].TextContent() {
				t.Fatalf("transcript %d messages, want %d", len(got), len(c.wantMsgs))
			}
			if parked := k.bg.takeParked() != nil; parked != c.wantPark || len(session.notes) != c.wantNotes {
				t.Fatalf("parked %v, notices %d; want %v, %d", parked, len(session.notes), c.wantPark, c.wantNotes)
			}
		})
	}
}

// TestKeeperAwaitsTheRunThatScheduledTheCompaction: the background job
// waiting for the run's end to be over goes on once the agent is idle, or
// once the next run has started (which stays active: the agent never goes
// idle while it waits for the compaction in its lane).
func TestKeeperAwaitsTheRunThatScheduledTheCompaction(t *testing.T) {
	for _, how := range []string{"idle", "next run"} {
		t.Run(how, func(t *testing.T) {
			session := &keeperSession{sid: "s_1", idle: make(chan struct{})}
			k := keeperOf(t, session, nil)
			next := k.bg.awaitNextRun()
			over := make(chan struct{})
			go func() { k.awaitRunOver(next); close(over) }()
			if how == "idle" {
				close(session.idle)
			} else {
				k.bg.runStarted()
			}
			<-over
		})
	}
}
