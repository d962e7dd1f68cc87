package runner

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// fakeSleep records the waits of the retry loop and returns at once, or —
// with block — waits for ctx, after saying so on waiting.
type fakeSleep struct {
	mu      sync.Mutex
	waits   []time.Duration
	block   bool
	waiting chan struct{}
}

func (s *fakeSleep) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	if !s.block {
		return nil
	}
	close(s.waiting)
	<-ctx.Done()
	return ctx.Err()
}

func (s *fakeSleep) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// counted is a provider whose n-th request (from 1, across profiles and
// models) fails with fail(n, profile, model) unless that is nil.
type counted struct {
	mu   sync.Mutex
	n    int
	fail func(n int, profile, model string) *agent.ProviderError
}

func (c *counted) stream(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	c.mu.Lock()
	c.n++
	n := c.n
	c.mu.Unlock()
	return scripted(func(_ context.Context, w *agent.StreamWriter, m agent.Model, opts agent.StreamOptions) {
		if perr := c.fail(n, opts.Profile, m.ID); perr != nil {
			w.Fail(perr)
			return
		}
		w.TextDelta("ok from " + opts.Profile + " on " + m.ID)
		w.Finish(agent.StopReasonStop)
	})(ctx, m, llm, opts)
}

// retryRun runs one prompt with profiles a and b of models big and small
// and returns its annotations as text, its last message and the runtime.
func retryRun(t *testing.T, c *counted, sleep *fakeSleep, fallbacks ...string) ([]string, agent.Message, *Runtime) {
	t.Helper()
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary, fallback}, Stream: c.stream,
			Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}}},
		Model: "p/big", Fallbacks: fallbacks, Now: time.Now, Sleep: sleep.sleep, Failover: retryOnly,
	})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var notes []string
	rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok && a.Kind != AnnotationRunEnd { // the attempt loop's only
			mu.Lock()
			notes = append(notes, noteText(a))
			mu.Unlock()
		}
	})
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if sleep.block {
		<-sleep.waiting
		rt.Abort()
	}
	waitIdle(t, rt)
	msgs := rt.State().Messages
	mu.Lock()
	defer mu.Unlock()
	return notes, msgs[len(msgs)-1], rt
}

// noteText renders an annotation of the attempt loop on one line.
func noteText(a agent.Annotation) string {
	switch d := a.Data.(type) {
	case AttemptInfo:
		s := strings.Join(strings.Fields(fmt.Sprintf("%s %s %s %s %s", a.Kind, d.Profile, d.Model, d.Reason, d.Decision)), " ")
		if d.From != "" {
			s += " " + d.From + "→" + d.To
		}
		return s
	case RetryStartInfo:
		return fmt.Sprintf("%s %d/%d %dms %s %s", a.Kind, d.Attempt, d.MaxAttempts, d.DelayMs, d.Reason, d.DelaySource)
	case RetryEndInfo:
		return fmt.Sprintf("%s %d success=%v", a.Kind, d.Attempt, d.Success)
	case CooldownInfo:
		return strings.Join(strings.Fields(fmt.Sprintf("%s %s %s %s %s", a.Kind, d.Profile, d.Model, d.Reason, d.Source)), " ")
	}
	return a.Kind
}

var (
	stalled = &agent.ProviderError{Kind: agent.ErrorTimeout, Header: map[string][]string{},
		Message: "no progress from p for 3s (idle timeout; 3 keep-alives did not count)"}
	overloaded = &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 529, Type: "overloaded_error", Message: "Overloaded"}
)

func withRetryAfter(e agent.ProviderError, value string) *agent.ProviderError {
	e.Header = map[string][]string{"Retry-After": {value}}
	return &e
}

func TestSameProfileRetries(t *testing.T) {
	cases := []struct {
		name      string
		fail      func(n int, profile, model string) *agent.ProviderError
		fallbacks []string
		answer    string
		waits     []time.Duration
		notes     []string
	}{
		{
			name: "a stall is retried once at once, then the run falls back",
			fail: func(_ int, _, model string) *agent.ProviderError {
				if model == "big" {
					return stalled
				}
				return nil
			},
			fallbacks: []string{"p/small"},
			answer:    "ok from p:a on small",
			notes: []string{"attempt_start p:a p/big", "attempt_end p:a p/big timeout continue_normal",
				"auto_retry_start 1/1 0ms timeout ", "attempt_start p:a p/big", "cooldown p:a big timeout schedule",
				"attempt_end p:a p/big timeout fallback_model",
				"auto_retry_end 1 success=false", "failover timeout fallback_model p/big→p/small",
				"attempt_start p:a p/small", "attempt_end p:a p/small"},
		},
		{
			name: "a short Retry-After is waited out on the same profile",
			fail: func(n int, _, _ string) *agent.ProviderError {
				if n == 1 {
					return withRetryAfter(*overloaded, "3")
				}
				return nil
			},
			answer: "ok from p:a on big",
			waits:  []time.Duration{3 * time.Second},
			notes: []string{"attempt_start p:a p/big", "attempt_end p:a p/big overloaded continue_normal",
				"auto_retry_start 1/2 3000ms overloaded retry-after", "attempt_start p:a p/big", "attempt_end p:a p/big",
				"auto_retry_end 1 success=true"},
		},
		{
			name: "overloaded without a hint backs off twice, then rotates",
			fail: func(_ int, profile, _ string) *agent.ProviderError {
				if profile == "p:a" {
					return overloaded
				}
				return nil
			},
			answer: "ok from p:b on big",
			waits:  []time.Duration{2 * time.Second, 4 * time.Second},
			notes: []string{"attempt_start p:a p/big", "attempt_end p:a p/big overloaded continue_normal",
				"auto_retry_start 1/2 2000ms overloaded ", "attempt_start p:a p/big", "attempt_end p:a p/big overloaded continue_normal",
				"auto_retry_start 2/2 4000ms overloaded ", "attempt_start p:a p/big", "cooldown p:a big overloaded schedule",
				"attempt_end p:a p/big overloaded rotate_profile",
				"auto_retry_end 2 success=false", "failover overloaded rotate_profile p:a→p:b",
				"attempt_start p:b p/big", "attempt_end p:b p/big"},
		},
		{
			name: "a long Retry-After is not waited: the run rotates at once",
			fail: func(_ int, profile, _ string) *agent.ProviderError {
				if profile == "p:a" {
					return withRetryAfter(agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Message: "Too Many Requests"}, "120")
				}
				return nil
			},
			answer: "ok from p:b on big",
			notes: []string{"attempt_start p:a p/big", "cooldown p:a big rate_limit retry-after",
				"attempt_end p:a p/big rate_limit rotate_profile", "failover rate_limit rotate_profile p:a→p:b", "attempt_start p:b p/big", "attempt_end p:b p/big"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sleep := &fakeSleep{}
			notes, last, _ := retryRun(t, &counted{fail: tc.fail}, sleep, tc.fallbacks...)
			if fmt.Sprint(notes) != fmt.Sprint(tc.notes) {
				t.Errorf("annotations\n got %q\nwant %q", notes, tc.notes)
			}
			if fmt.Sprint(sleep.got()) != fmt.Sprint(tc.waits) {
				t.Errorf("waits %v, want %v", sleep.got(), tc.waits)
			}
			if last.StopReason != agent.StopReasonStop || last.TextContent() != tc.answer {
				t.Errorf("last message %q (%s %s), want %q", last.TextContent(), last.StopReason, last.ErrorMessage, tc.answer)
			}
		})
	}
}

// TestARetriedBlipCoolsNothingDown: a failure that a same-profile retry
// absorbed is not written to the shared ledger.
func TestARetriedBlipCoolsNothingDown(t *testing.T) {
	c := &counted{fail: func(n int, _, _ string) *agent.ProviderError {
		if n == 1 {
			return withRetryAfter(*overloaded, "1")
		}
		return nil
	}}
	_, _, rt := retryRun(t, c, &fakeSleep{})
	rt.profiles.wait()
	views, err := rt.Profiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if a := views[0]; a.State != failover.StateAvailable || a.Failures != 0 || a.Successes != 1 || a.UntilSource != nil {
		t.Fatalf("p:a = %+v, want available with one success", a)
	}
}

// TestARetryAfterSetsTheCooldown: a 429 saying to come back in 120 s cools
// the profile down for 120 s, not the schedule's 30 s, and the inspector
// says where that came from.
func TestARetryAfterSetsTheCooldown(t *testing.T) {
	c := &counted{fail: func(_ int, profile, _ string) *agent.ProviderError {
		if profile == "p:a" {
			return withRetryAfter(agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Message: "Too Many Requests"}, "120")
		}
		return nil
	}}
	_, _, rt := retryRun(t, c, &fakeSleep{})
	views, err := rt.Profiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a := views[0]
	if a.ID != "p:a" || a.State != failover.StateCooldown || a.Until == nil || a.UntilSource == nil ||
		*a.UntilSource != failover.SourceRetryAfter || time.Until(*a.Until) < 115*time.Second || time.Until(*a.Until) > 121*time.Second {
		t.Fatalf("p:a = %+v, want a ~120 s cooldown from retry-after", a)
	}
	if b := views[1]; b.State != failover.StateAvailable || b.UntilSource != nil {
		t.Fatalf("p:b = %+v", b)
	}
}

// TestAbortEndsTheRetryWait: Esc during the wait before a retry ends the
// request at once, as aborted, and the retry sequence with it.
func TestAbortEndsTheRetryWait(t *testing.T) {
	c := &counted{fail: func(int, string, string) *agent.ProviderError { return withRetryAfter(*overloaded, "5") }}
	sleep := &fakeSleep{block: true, waiting: make(chan struct{})}
	notes, last, _ := retryRun(t, c, sleep)
	if last.StopReason != agent.StopReasonAborted {
		t.Fatalf("last message %s %q, want aborted", last.StopReason, last.ErrorMessage)
	}
	want := []string{"attempt_start p:a p/big", "attempt_end p:a p/big overloaded continue_normal",
		"auto_retry_start 1/2 5000ms overloaded retry-after", "auto_retry_end 1 success=false"}
	if fmt.Sprint(notes) != fmt.Sprint(want) {
		t.Fatalf("annotations\n got %q\nwant %q", notes, want)
	}
	if c.n != 1 {
		t.Fatalf("%d requests, want the one before the wait", c.n)
	}
}

func TestRetryStartSummary(t *testing.T) {
	i := RetryStartInfo{Attempt: 1, MaxAttempts: 2, DelayMs: 3000, Reason: "overloaded", Profile: "anthropic:main"}
	for left, want := range map[time.Duration]string{
		3 * time.Second:         "overloaded on profile anthropic:main: retrying in 3s (1/2)",
		1400 * time.Millisecond: "overloaded on profile anthropic:main: retrying in 1s (1/2)",
		300 * time.Millisecond:  "overloaded on profile anthropic:main: retrying in 300ms (1/2)",
		0:                       "overloaded on profile anthropic:main: retrying now (1/2)",
	} {
		if got := i.Summary(left); got != want {
			t.Errorf("Summary(%v) = %q, want %q", left, got, want)
		}
	}
}

// retryOnly is a failover policy whose wait bound admits the same-profile
// retries (at most MaxRetryWait) but no cooldown (30 s at least): these
// tests see what the retries do, cooldownwait_test.go what the waits do.
var retryOnly = failover.Config{CooldownWait: ptr(failover.MaxRetryWait)}

func ptr[T any](v T) *T { return &v }
