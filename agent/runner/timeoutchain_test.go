package runner

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/failover"
)

// stallingBig is a provider whose model big always stalls after the
// response headers (a watchdog timeout with the provider reached), and whose
// model small answers: a summary for a summary request, "ok" otherwise.
type stallingBig struct {
	mu       sync.Mutex
	requests []string // "main|summary MODEL PROFILE", in order
}

func isSummaryRequest(llm agent.LLMContext) bool {
	return strings.Contains(strings.ToLower(llm.SystemPrompt), "summar")
}

func (p *stallingBig) stream(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	kind := "main"
	if isSummaryRequest(llm) {
		kind = "summary"
	}
	p.mu.Lock()
	p.requests = append(p.requests, fmt.Sprintf("%s %s %s", kind, m.ID, opts.Profile))
	p.mu.Unlock()
	return scripted(func(_ context.Context, w *agent.StreamWriter, m agent.Model, _ agent.StreamOptions) {
		switch {
		case m.ID == "big":
			w.Fail(&agent.ProviderError{Kind: agent.ErrorTimeout, Header: http.Header{"Content-Type": {"text/event-stream"}},
				Message: "the stream stalled: no data for 30s"})
		case kind == "summary":
			w.TextDelta("## Goal\nKeep going (summary of the earlier talk).")
			w.Finish(agent.StopReasonStop)
		default:
			w.TextDelta("ok")
			w.Finish(agent.StopReasonStop)
		}
	})(ctx, m, llm, opts)
}

// chainTrace words a run's annotations as the failover trace reads: each
// attempt's end, compactions and failovers.
func chainTrace(notes []agent.Annotation) []string {
	var out []string
	for _, n := range notes {
		switch d := n.Data.(type) {
		case AttemptInfo:
			if n.Kind == AnnotationAttemptEnd {
				out = append(out, fmt.Sprintf("attempt %s %s %s %s", d.Model, d.Profile, orOK(d.Reason), d.Decision))
			} else if n.Kind == AnnotationFailover {
				out = append(out, fmt.Sprintf("failover %s → %s", d.From, d.To))
			}
		case CompactionStart:
			out = append(out, "compaction_start "+d.Reason)
		case CompactionEnd:
			out = append(out, fmt.Sprintf("compaction_end %s ok=%v", d.Reason, d.Result != nil))
		}
	}
	return out
}

func orOK(reason string) string {
	if reason == "" {
		return "ok"
	}
	return reason
}

// TestTimeoutCompactsBeforeFallingBack: a prompt at ~78 % of a 20k window,
// big always stalling after the headers, small as the fallback. The timeout
// compacts first (its summary is not refused for the cooldown the timeout
// recorded: it times out on big too and small writes it), the retry goes to
// the same profile of big, and only its timeout falls back to small. With
// two profiles, big's second profile is never tried: a timeout does not
// rotate without other evidence (seed 000 §5.2).
func TestTimeoutCompactsBeforeFallingBack(t *testing.T) {
	cases := []struct {
		name     string
		profiles []Profile
		want     []string
	}{
		{"one profile", nil, []string{
			"main big p:default", "summary big p:default", "summary big p:default", "summary small p:default",
			"main big p:default", "main small p:default"}},
		{"two profiles", []Profile{{ID: "p:a"}, {ID: "p:b"}}, []string{
			"main big p:a", "summary big p:a", "summary big p:a", "summary small p:a",
			"main big p:a", "main small p:a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &stallingBig{}
			big := agent.Model{Provider: "p", ID: "big", API: "test", ContextWindow: 20_000, MaxOutput: 1_000}
			small := agent.Model{Provider: "p", ID: "small", API: "test", ContextWindow: 20_000, MaxOutput: 1_000}
			rt, err := New(context.Background(), Options{
				Providers: []Provider{{Name: "p", Models: []agent.Model{big, small}, Stream: p.stream, Profiles: c.profiles}},
				Model:     "p/big", Fallbacks: []string{"p/small"}, Ledger: &failover.MemLedger{}, Now: time.Now, Failover: noCooldownWait,
			})
			if err != nil {
				t.Fatal(err)
			}
			notes := recordNotes(rt)
			session := history(16, 1_580)
			if fill := contextguard.EstimateContext(agent.LLMContext{Messages: session}) * 100 / big.ContextWindow; fill < 70 || fill > 85 {
				t.Fatalf("the session fills %d %% of the window, want ~78 %%", fill)
			}
			if err := rt.agent.ReplaceMessages(session); err != nil {
				t.Fatal(err)
			}
			if err := rt.Prompt(context.Background(), "and now?"); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, rt)
			msgs := rt.State().Messages
			steps := chainTrace(notes.all())
			if last := msgs[len(msgs)-1]; last.TextContent() != "ok" {
				t.Fatalf("the run did not complete: %q %s\n%s", last.TextContent(), last.ErrorMessage, strings.Join(steps, "\n"))
			}
			if got := strings.Join(p.requests, "\n"); got != strings.Join(c.want, "\n") {
				t.Fatalf("requests:\n%s\nwant:\n%s\ntrace:\n%s", got, strings.Join(c.want, "\n"), strings.Join(steps, "\n"))
			}
			if !contextguard.IsSummary(msgs[0]) {
				t.Fatalf("the session does not open with the summary: %q", msgs[0].TextContent())
			}
			last := 0
			for _, n := range notes.all() {
				if info, ok := n.Data.(AttemptInfo); ok && n.Kind == AnnotationAttemptStart {
					if info.Attempt <= last {
						t.Fatalf("attempt %d after attempt %d: the numbering starts over after the compaction", info.Attempt, last)
					}
					last = info.Attempt
				}
			}
			compacted := strings.Index(strings.Join(steps, "\n"), "compaction_end timeout ok=true")
			fellBack := strings.Index(strings.Join(steps, "\n"), "failover p/big → p/small")
			if compacted < 0 || fellBack < compacted {
				t.Fatalf("the trace does not read compact → retry → fall back:\n%s", strings.Join(steps, "\n"))
			}
		})
	}
}

// TestASummarysCooldownIsAnnounced: a window a compaction's summary request
// opens (a 429 on profile a) reaches the front ends like any request's,
// though the summariser reads its own stream for the text alone.
func TestASummarysCooldownIsAnnounced(t *testing.T) {
	stream := func(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
		return scripted(func(_ context.Context, w *agent.StreamWriter, _ agent.Model, opts agent.StreamOptions) {
			switch {
			case !isSummaryRequest(llm):
				w.TextDelta("ok")
			case opts.Profile == "p:a":
				w.Fail(&agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Type: "rate_limit_error", Message: "Rate limit reached"})
				return
			default:
				w.TextDelta("## Goal\nKeep going (summary).")
			}
			w.Finish(agent.StopReasonStop)
		})(ctx, m, llm, opts)
	}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: stream, Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}}},
		Model:     "p/big", Ledger: &failover.MemLedger{}, Now: time.Now, Failover: noCooldownWait,
	})
	if err != nil {
		t.Fatal(err)
	}
	notes := recordNotes(rt)
	if err := rt.agent.ReplaceMessages(history(6, 2_000)); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Compact(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	for _, n := range notes.all() {
		if info, ok := n.Data.(CooldownInfo); ok && n.Kind == AnnotationCooldown && info.Profile == "p:a" && info.Reason == "rate_limit" {
			return
		}
	}
	t.Fatalf("no cooldown for p:a among %d annotations", len(notes.all()))
}

// TestTimeoutChainCompactFor: the chain compacts only when the attempt loop
// asked, under a context exempting who asked; a failed compaction drops the
// exemption; either way the request is retried once, unless it was aborted.
func TestTimeoutChainCompactFor(t *testing.T) {
	asked := exemption{profile: "p:a", model: "big"}
	cases := []struct {
		name        string
		asked       exemption
		compacts    bool
		cancelled   bool
		wantRetry   bool
		wantCalled  bool
		wantExempt  []exemption
		wantCompact bool // tc.compacted after
	}{
		{name: "nobody asked", wantRetry: false},
		{name: "compacted", asked: asked, compacts: true, wantRetry: true, wantCalled: true, wantExempt: []exemption{asked}, wantCompact: true},
		{name: "not compacted", asked: asked, wantRetry: true, wantCalled: true, wantCompact: true},
		{name: "aborted", asked: asked, compacts: true, cancelled: true, wantCalled: true, wantExempt: []exemption{asked}, wantCompact: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			chain := &timeoutChain{asked: tc.asked}
			called := false
			retry := chain.compactFor(ctx, func(ctx context.Context, who exemption) bool {
				called = true
				if exempt, _ := ctx.Value(exemptKey{}).([]exemption); who != tc.asked || len(exempt) != 1 || exempt[0] != who {
					t.Errorf("compacting for %v with exemptions %v, want %v exempted", who, exempt, tc.asked)
				}
				if tc.cancelled {
					cancel()
				}
				return tc.compacts
			})
			if retry != tc.wantRetry || called != tc.wantCalled || chain.compacted != tc.wantCompact {
				t.Errorf("retry %v, compacted called %v, chain.compacted %v; want %v, %v, %v",
					retry, called, chain.compacted, tc.wantRetry, tc.wantCalled, tc.wantCompact)
			}
			if fmt.Sprint(chain.exempt) != fmt.Sprint(tc.wantExempt) || chain.asked != (exemption{}) {
				t.Errorf("exempt %v, asked %v; want %v and none", chain.exempt, chain.asked, tc.wantExempt)
			}
		})
	}
}
