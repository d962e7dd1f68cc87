package scripted

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// fakeSleeper records the pauses asked for and returns at once.
type fakeSleeper struct {
	mu     sync.Mutex
	pauses []time.Duration
}

func (f *fakeSleeper) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pauses = append(f.pauses, d)
	return ctx.Err()
}

func TestPacingWaitsBetweenChunks(t *testing.T) {
	tests := []struct {
		name string
		pace float64
		step *Step
		want time.Duration
	}{
		{"provider pace", 20, &Step{Text: "abcdefghij", ToolCalls: []ToolCall{{Name: "ls"}}}, 50 * time.Millisecond},
		{"step pace overrides", 20, &Step{Text: "abcdefghij", Pace: 100}, 10 * time.Millisecond},
		{"unpaced", 0, &Step{Text: "abcdefghij"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeSleeper{}
			p := New(Options{Pace: tt.pace, ChunkSize: 2, Sleep: f.sleep, Now: fixedNow,
				Scenario: &Scenario{Steps: []Step{*tt.step}}})
			events, msg := ask(t, p, llmOf(user("x")), agent.StreamOptions{})
			if msg.TextContent() != "abcdefghij" {
				t.Fatalf("text = %q", msg.TextContent())
			}
			chunks := count(events, agent.EventTextDelta) + count(events, agent.EventToolCallStart) +
				count(events, agent.EventToolCallDelta)
			wantPauses := chunks - 1
			if tt.want == 0 {
				wantPauses = 0
			}
			if len(f.pauses) != wantPauses {
				t.Fatalf("%d pauses for %d chunks, want %d", len(f.pauses), chunks, wantPauses)
			}
			for _, d := range f.pauses {
				if d != tt.want {
					t.Fatalf("paused %v, want %v", d, tt.want)
				}
			}
		})
	}
}

func TestCancelDuringPacedStreamEndsPromptly(t *testing.T) {
	p := New(Options{Pace: 1, Now: fixedNow}) // a chunk a second: the answer would take minutes
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := p.Stream(ctx, DefaultModel(), llmOf(user("hello")), agent.StreamOptions{})
	start := time.Now()
	var last agent.AssistantEvent
	for ev := range stream.Events() {
		if ev.Type == agent.EventTextDelta {
			cancel()
		}
		last = ev
	}
	if elapsed := time.Since(start); elapsed > 500*time.Millisecond {
		t.Errorf("the stream took %v to end after cancel", elapsed)
	}
	msg, err := stream.Result(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if last.Type != agent.EventError || msg.StopReason != agent.StopReasonAborted {
		t.Errorf("last event %q, stopReason %q; want error, aborted", last.Type, msg.StopReason)
	}
	if kept := msg.TextContent(); kept == "" || !strings.HasPrefix("You said: hello", kept) {
		t.Errorf("kept text %q, want the first chunk", msg.TextContent())
	}
}

func TestAlreadyCancelledRequestIsAborted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, msg := drain(t, newTestProvider(nil).Stream(ctx, DefaultModel(), llmOf(user("hello")), agent.StreamOptions{}))
	if msg.StopReason != agent.StopReasonAborted || msg.ErrorMessage != agent.AbortedMessage {
		t.Errorf("stopReason %q (%q), want aborted", msg.StopReason, msg.ErrorMessage)
	}
}

func TestPanicBecomesErrorEvent(t *testing.T) {
	p := New(Options{Now: func() time.Time { panic("clock broke") }})
	events, msg := ask(t, p, llmOf(user("hello")), agent.StreamOptions{})
	if len(events) == 0 || events[len(events)-1].Type != agent.EventError {
		t.Fatalf("events %v, want a final error", types(events))
	}
	if msg.StopReason != agent.StopReasonError || !strings.Contains(msg.ErrorMessage, "clock broke") {
		t.Errorf("stopReason %q, error %q", msg.StopReason, msg.ErrorMessage)
	}
}

func TestToolCallIDsAreUnique(t *testing.T) {
	p, q := newTestProvider(nil), newTestProvider(nil)
	seen := map[string]bool{}
	for _, prov := range []*Provider{p, p, q, q} {
		_, msg := ask(t, prov, llmOf(user("list files")), agent.StreamOptions{})
		id := msg.ToolCalls()[0].ID
		if seen[id] {
			t.Fatalf("id %q used twice", id)
		}
		seen[id] = true
	}
}

func TestConcurrentRequestsShareTheScenario(t *testing.T) {
	const n = 8
	sc := &Scenario{}
	for i := range n {
		sc.Steps = append(sc.Steps, Step{Text: strings.Repeat("x", i+1)})
	}
	p := newTestProvider(sc)
	texts := make(chan string, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			stream := p.Stream(context.Background(), DefaultModel(), llmOf(user("hi")), agent.StreamOptions{})
			for range stream.Events() {
			}
			msg, _ := stream.Result(context.Background())
			texts <- msg.TextContent()
		})
	}
	wg.Wait()
	close(texts)
	seen := map[string]bool{}
	for s := range texts {
		if seen[s] {
			t.Errorf("step %q played twice", s)
		}
		seen[s] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct steps played, want %d", len(seen), n)
	}
}

func TestModels(t *testing.T) {
	models := Models()
	if len(models) < 2 || models[0].Ref() != "scripted/echo" || DefaultModel().Ref() != "scripted/echo" {
		t.Fatalf("models = %+v", models)
	}
	for _, m := range models {
		if m.Provider != ProviderName || m.API != API || m.ContextWindow <= 0 || m.MaxOutput <= 0 {
			t.Errorf("model %s is incomplete: %+v", m.Ref(), m)
		}
	}
	if models[0].ContextWindow != 200_000 || models[1].ContextWindow > 8_192 {
		t.Errorf("windows = %d, %d", models[0].ContextWindow, models[1].ContextWindow)
	}
}
