package runner

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/failover"
)

// byProfile is a provider that fails requests as fail says (by profile and
// model) and answers the others "ok from PROFILE".
type byProfile struct {
	fail func(profile, model string) *agent.ProviderError
	mu   sync.Mutex
	keys []string // the key each request carried
}

func (p *byProfile) stream(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	p.mu.Lock()
	p.keys = append(p.keys, opts.APIKey)
	p.mu.Unlock()
	return scripted(func(_ context.Context, w *agent.StreamWriter, m agent.Model, opts agent.StreamOptions) {
		if perr := p.fail(opts.Profile, m.ID); perr != nil {
			w.Fail(perr)
			return
		}
		w.TextDelta("ok from " + opts.Profile)
		w.Finish(agent.StopReasonStop)
	})(ctx, m, llm, opts)
}

// scripted is a StreamFn whose response play writes.
func scripted(play func(ctx context.Context, w *agent.StreamWriter, m agent.Model, opts agent.StreamOptions)) agent.StreamFn {
	return func(ctx context.Context, m agent.Model, _ agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
		out := agent.NewAssistantStream()
		go func() {
			w := agent.NewStreamWriter(ctx, out, m, agenttest.Epoch)
			w.Start()
			play(ctx, w, m, opts)
		}()
		return out
	}
}

var (
	primary  = agent.Model{Provider: "p", ID: "big", API: "test"}
	fallback = agent.Model{Provider: "p", ID: "small", API: "test"}
)

// attemptRuntime runs one prompt on provider p with profiles a and b and
// returns the annotations the run carried, its last message and the ledger.
func attemptRuntime(t *testing.T, p *byProfile, fallbacks ...string) ([]agent.Annotation, agent.Message, failover.Ledger) {
	t.Helper()
	ledger := &failover.MemLedger{}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary, fallback}, Stream: p.stream,
			Profiles: []Profile{{ID: "p:a", APIKey: "key-a"}, {ID: "p:b", APIKey: "key-b"}}}},
		Model: "p/big", Fallbacks: fallbacks, Ledger: ledger, Now: time.Now, Failover: noCooldownWait,
	})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var notes []agent.Annotation
	rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok {
			mu.Lock()
			notes = append(notes, a)
			mu.Unlock()
		}
	})
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	msgs := rt.State().Messages
	return notes, msgs[len(msgs)-1], ledger
}

// trace renders the attempt loop's annotations as "kind profile model
// reason decision from→to", leaving out the others (cooldown).
func trace(notes []agent.Annotation) []string {
	var out []string
	for _, n := range notes {
		i, ok := n.Data.(AttemptInfo)
		if !ok {
			continue
		}
		s := strings.Join(strings.Fields(fmt.Sprintf("%s %s %s %s %s", n.Kind, i.Profile, i.Model, i.Reason, i.Decision)), " ")
		if i.From != "" {
			s += " " + i.From + "→" + i.To
		}
		out = append(out, s)
	}
	return out
}

func TestAttemptLoop(t *testing.T) {
	rateLimited := &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Type: "rate_limit_error", Message: "Rate limit reached"}
	notFound := &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 404, Message: "The model `big` does not exist"}
	badFormat := &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 400, Type: "invalid_request_error", Message: "messages: roles must alternate"}
	cases := []struct {
		name      string
		fail      func(profile, model string) *agent.ProviderError
		fallbacks []string
		answer    string // "" when the run fails
		errorHas  string
		trace     []string
		keys      []string
	}{
		{
			name: "a rate-limited profile rotates to the next",
			fail: func(profile, _ string) *agent.ProviderError {
				if profile == "p:a" {
					return rateLimited
				}
				return nil
			},
			answer: "ok from p:b",
			trace: []string{"attempt_start p:a p/big", "attempt_end p:a p/big rate_limit rotate_profile",
				"failover rate_limit rotate_profile p:a→p:b", "attempt_start p:b p/big", "attempt_end p:b p/big"},
			keys: []string{"key-a", "key-b"},
		},
		{
			name: "a model missing on every profile falls back to the next model",
			fail: func(_, model string) *agent.ProviderError {
				if model == "big" {
					return notFound
				}
				return nil
			},
			fallbacks: []string{"p/small"},
			// model_not_found cools only the missing model (SPEC §5.3): the
			// fallback model starts on the same profile.
			answer: "ok from p:a",
			trace: []string{"attempt_start p:a p/big", "attempt_end p:a p/big model_not_found fallback_model",
				"failover model_not_found fallback_model p/big→p/small", "attempt_start p:a p/small", "attempt_end p:a p/small"},
			keys: []string{"key-a", "key-a"},
		},
		{
			name:     "a format error is surfaced without rotating",
			fail:     func(string, string) *agent.ProviderError { return badFormat },
			errorHas: "roles must alternate",
			trace:    []string{"attempt_start p:a p/big", "attempt_end p:a p/big format surface_error"},
			keys:     []string{"key-a"},
		},
		{
			name:     "every profile limited fails naming the rate limit",
			fail:     func(string, string) *agent.ProviderError { return rateLimited },
			errorHas: "Rate limit",
			trace: []string{"attempt_start p:a p/big", "attempt_end p:a p/big rate_limit rotate_profile",
				"failover rate_limit rotate_profile p:a→p:b", "attempt_start p:b p/big", "attempt_end p:b p/big rate_limit surface_error"},
			keys: []string{"key-a", "key-b"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &byProfile{fail: tc.fail}
			notes, last, _ := attemptRuntime(t, p, tc.fallbacks...)
			if got := trace(notes); fmt.Sprint(got) != fmt.Sprint(tc.trace) {
				t.Errorf("trace\n got %q\nwant %q", got, tc.trace)
			}
			if fmt.Sprint(p.keys) != fmt.Sprint(tc.keys) {
				t.Errorf("keys sent %v, want %v", p.keys, tc.keys)
			}
			switch {
			case tc.answer != "" && (last.StopReason != agent.StopReasonStop || last.TextContent() != tc.answer):
				t.Errorf("last message %q (%s), want %q", last.TextContent(), last.StopReason, tc.answer)
			case tc.answer == "" && (last.StopReason != agent.StopReasonError || !strings.Contains(last.ErrorMessage, tc.errorHas)):
				t.Errorf("last message %s %q, want an error with %q", last.StopReason, last.ErrorMessage, tc.errorHas)
			}
		})
	}
}

// TestEmptyAnswerFallsBack: an answer with nothing in it counts as a
// failure (SPEC §5.4) and the next model is tried; without one it is the
// answer.
func TestEmptyAnswerFallsBack(t *testing.T) {
	empty := scripted(func(_ context.Context, w *agent.StreamWriter, m agent.Model, _ agent.StreamOptions) {
		if m.ID == "small" {
			w.TextDelta("ok from small")
		}
		w.Finish(agent.StopReasonStop)
	})
	for _, tc := range []struct {
		fallbacks []string
		answer    string
		trace     []string
	}{
		{[]string{"p/small"}, "ok from small", []string{"attempt_start p:a p/big", "attempt_end p:a p/big empty_response fallback_model",
			"failover empty_response fallback_model p/big→p/small", "attempt_start p:a p/small", "attempt_end p:a p/small"}},
		{nil, "", []string{"attempt_start p:a p/big", "attempt_end p:a p/big empty_response surface_error"}},
	} {
		rt, err := New(context.Background(), Options{
			Providers: []Provider{{Name: "p", Models: []agent.Model{primary, fallback}, Stream: empty,
				Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}}},
			Model: "p/big", Fallbacks: tc.fallbacks, Now: time.Now,
		})
		if err != nil {
			t.Fatal(err)
		}
		var notes []agent.Annotation
		rt.Subscribe(func(ev agent.Event) {
			if a, ok := ev.(agent.Annotation); ok {
				notes = append(notes, a)
			}
		})
		if err := rt.Prompt(context.Background(), "hi"); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, rt)
		msgs := rt.State().Messages
		last := msgs[len(msgs)-1]
		if last.TextContent() != tc.answer || last.StopReason != agent.StopReasonStop {
			t.Errorf("fallbacks %v: answer %q (%s), want %q", tc.fallbacks, last.TextContent(), last.StopReason, tc.answer)
		}
		if got := trace(notes); fmt.Sprint(got) != fmt.Sprint(tc.trace) {
			t.Errorf("fallbacks %v: trace\n got %q\nwant %q", tc.fallbacks, got, tc.trace)
		}
	}
}

// TestRateLimitCoolsTheProfileDown: the rate-limited profile is in a ~30 s
// cooldown for that model in the ledger, and the next request skips it.
func TestRateLimitCoolsTheProfileDown(t *testing.T) {
	p := &byProfile{fail: func(profile, _ string) *agent.ProviderError {
		if profile == "p:a" {
			return &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Message: "Too Many Requests"}
		}
		return nil
	}}
	_, _, ledger := attemptRuntime(t, p)
	st, err := ledger.Load(context.Background(), "p:a")
	if err != nil {
		t.Fatal(err)
	}
	status := st.Status(time.Now())
	if status.State != failover.StateCooldown || status.Reason != failover.ReasonRateLimit || status.Model != "big" ||
		time.Until(status.Until) < 25*time.Second || time.Until(status.Until) > 31*time.Second {
		t.Fatalf("p:a = %+v, want a ~30 s rate_limit cooldown on big", status)
	}
}

// TestAttemptsAreRecordedWithTheRun: the run record keeps every attempt of
// the run, for the trace.
func TestAttemptsAreRecordedWithTheRun(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	p := &byProfile{fail: func(profile, _ string) *agent.ProviderError {
		if profile == "p:a" {
			return &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Message: "Too Many Requests"}
		}
		return nil
	}}
	var runID string
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: p.stream,
			Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}}},
		Store: store, Ledger: store.Ledger(), Workspace: "/ws", Now: time.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	stopOnCleanup(t, rt) // its background writes end before the store closes
	rt.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.AgentStart); ok {
			runID = rt.currentRun()
		}
	})
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	attempts, err := store.RunAttempts(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range attempts {
		got = append(got, strings.TrimSpace(a.Profile+" "+a.Model+" "+a.Reason+" "+a.Decision))
	}
	if want := []string{"p:a p/big rate_limit rotate_profile", "p:b p/big"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("recorded attempts %q, want %q", got, want)
	}
}

// currentRun is the run that is the session's writer now.
func (r *Runtime) currentRun() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.session.runID
}

// TestASwitchResetsTheThinkingLevel: after a rotation the request and the
// session go back to the configured thinking level.
func TestASwitchResetsTheThinkingLevel(t *testing.T) {
	var mu sync.Mutex
	var levels []agent.ThinkingLevel
	p := &byProfile{fail: func(profile, _ string) *agent.ProviderError {
		if profile == "p:a" {
			return &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Message: "Too Many Requests"}
		}
		return nil
	}}
	stream := func(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
		mu.Lock()
		levels = append(levels, opts.Thinking)
		mu.Unlock()
		return p.stream(ctx, m, llm, opts)
	}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: stream, Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}}},
		Thinking:  agent.ThinkingLow, Now: time.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	rt.SetThinking(agent.ThinkingHigh)
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	if fmt.Sprint(levels) != "[high low]" || rt.State().Thinking != agent.ThinkingLow {
		t.Fatalf("levels %v, session %s; want the switch back on low", levels, rt.State().Thinking)
	}
}

// TestReasoningOnlyFallsBack: an answer that only reasons counts as a
// failure when another model can still answer, and its thinking is never
// shown; without one, the thinking streams live and is the answer.
func TestReasoningOnlyFallsBack(t *testing.T) {
	thinker := scripted(func(_ context.Context, w *agent.StreamWriter, m agent.Model, _ agent.StreamOptions) {
		if m.ID == "small" {
			w.TextDelta("ok from small")
		} else {
			w.ThinkingDelta("let me think")
		}
		w.Finish(agent.StopReasonStop)
	})
	for _, tc := range []struct {
		fallbacks []string
		answer    string
		thinking  bool // any thinking delta reached the session's events
	}{
		{[]string{"p/small"}, "ok from small", false},
		{nil, "", true},
	} {
		rt, err := New(context.Background(), Options{
			Providers: []Provider{{Name: "p", Models: []agent.Model{primary, fallback}, Stream: thinker}},
			Model:     "p/big", Fallbacks: tc.fallbacks, Now: time.Now,
		})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		thinking := false
		rt.Subscribe(func(ev agent.Event) {
			if u, ok := ev.(agent.MessageUpdate); ok && u.Event.Type == agent.EventThinkingDelta {
				mu.Lock()
				thinking = true
				mu.Unlock()
			}
		})
		if err := rt.Prompt(context.Background(), "hi"); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, rt)
		msgs := rt.State().Messages
		last := msgs[len(msgs)-1]
		mu.Lock()
		shown := thinking
		mu.Unlock()
		if last.TextContent() != tc.answer || shown != tc.thinking {
			t.Errorf("fallbacks %v: answer %q, thinking shown %v; want %q, %v", tc.fallbacks, last.TextContent(), shown, tc.answer, tc.thinking)
		}
	}
}

// TestAProviderThatPanicsFailsTheRequest: the attempt goroutine is beyond
// the loop's recovery; a panicking provider (or one that returns no
// stream) must fail the request, not the process.
func TestAProviderThatPanicsFailsTheRequest(t *testing.T) {
	for name, stream := range map[string]agent.StreamFn{
		"panics": func(context.Context, agent.Model, agent.LLMContext, agent.StreamOptions) *agent.AssistantStream {
			panic("boom")
		},
		"no stream": func(context.Context, agent.Model, agent.LLMContext, agent.StreamOptions) *agent.AssistantStream {
			return nil
		},
	} {
		rt, err := New(context.Background(), Options{
			Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: stream}}, Now: time.Now,
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.Prompt(context.Background(), "hi"); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, rt)
		msgs := rt.State().Messages
		if last := msgs[len(msgs)-1]; last.StopReason != agent.StopReasonError || last.ErrorMessage == "" {
			t.Errorf("%s: last message %s %q, want an error", name, last.StopReason, last.ErrorMessage)
		}
	}
}

// TestAnAbortedAttemptStillEnds: an abort during an attempt still puts its
// attempt_end into the run, so the trace has every attempt.
func TestAnAbortedAttemptStillEnds(t *testing.T) {
	started := make(chan struct{})
	hang := scripted(func(ctx context.Context, w *agent.StreamWriter, _ agent.Model, _ agent.StreamOptions) {
		w.TextDelta("working")
		close(started)
		<-ctx.Done()
		w.Fail(&agent.ProviderError{Kind: agent.ErrorNetwork, Message: "cancelled"})
	})
	rt, err := New(context.Background(), Options{Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: hang}}, Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var kinds []string
	rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok {
			mu.Lock()
			kinds = append(kinds, a.Kind)
			mu.Unlock()
		}
	})
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	<-started
	rt.Abort()
	waitIdle(t, rt)
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(kinds) != "[attempt_start attempt_end run_end]" {
		t.Fatalf("annotations %v, want the attempt's start and end, then the run's end", kinds)
	}
}

// noCooldownWait is a failover policy that never waits for a cooldown: the
// tests of rotation and retries see a request fail once its candidates are
// spent (cooldownwait_test.go tests the waits).
var noCooldownWait = failover.Config{CooldownWait: new(time.Duration)}
