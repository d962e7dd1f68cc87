package runner

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/llm/llmtest"
	"github.com/steer-tui/steer/failover"
)

// attemptsAlone is the attempt loop built by itself — no runtime — over
// provider p (profiles p:a and p:b, models big and small), recording the
// thinking resets it asks for.
type attemptsAlone struct {
	*attempts
	use    *ledgerUse
	resets []string
}

func newAttemptsAlone(t *testing.T, p *byProfile, locked string) *attemptsAlone {
	t.Helper()
	clock := &fakeClock{now: agenttest.Epoch}
	x := &attemptsAlone{use: newLedgerUse(t, clock, "", locked)}
	cat := catalogFor(nil, Provider{Name: "p", Models: []agent.Model{primary, fallback}, Stream: p.stream,
		Profiles: []Profile{{ID: "p:a", APIKey: "key-a"}, {ID: "p:b", APIKey: "key-b"}}})
	x.attempts = &attempts{catalog: cat, profiles: x.use.profileLedger, failover: noCooldownWait, now: clock.Now, sleep: clock.Sleep,
		log: slog.New(slog.DiscardHandler), resetThinking: func(m agent.Model) { x.resets = append(x.resets, m.Ref()) },
		timeoutCompactions: func() int { return 0 }}
	return x
}

// TestAttemptsAlone: the loop reaches the rest of the runtime only through
// its parts and funcs — the ledger for failures and successes, the choice
// for the lock's note, resetThinking after a switch.
func TestAttemptsAlone(t *testing.T) {
	limited := &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Type: "rate_limit_error", Message: "Rate limit reached"}
	failOn := func(profiles ...string) func(string, string) *agent.ProviderError {
		return func(profile, _ string) *agent.ProviderError {
			if slices.Contains(profiles, profile) {
				return limited
			}
			return nil
		}
	}
	cases := []struct {
		name        string
		fail        func(profile, model string) *agent.ProviderError
		locked      string
		wantText    string // the answer, or what the error says
		wantResets  []string
		wantCooling []string
		wantSuccess string
	}{
		{name: "the first profile answers", fail: failOn(), wantText: "ok from p:a", wantSuccess: "p:a"},
		{name: "a switch answers and resets the thinking level", fail: failOn("p:a"), wantText: "ok from p:b",
			wantResets: []string{"p/big"}, wantCooling: []string{"p:a"}, wantSuccess: "p:b"},
		{name: "a locked session says so", fail: failOn("p:a"), locked: "p:a",
			wantText: "the session is locked to auth profile p:a", wantCooling: []string{"p:a"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := newAttemptsAlone(t, &byProfile{fail: tc.fail}, tc.locked)
			_, msg := llmtest.Drain(t, x.stream(context.Background(), primary, llmtest.Prompt, agent.StreamOptions{}))
			x.use.wait()
			if got := msg.TextContent() + msg.ErrorMessage; !strings.Contains(got, tc.wantText) {
				t.Errorf("result %q, want %q in it", got, tc.wantText)
			}
			if !slices.Equal(x.resets, tc.wantResets) {
				t.Errorf("thinking resets %v, want %v", x.resets, tc.wantResets)
			}
			now := x.now()
			for _, id := range []string{"p:a", "p:b"} {
				st, _ := x.use.mem.Load(context.Background(), id)
				if cooling := st.Status(now).State != failover.StateAvailable; cooling != slices.Contains(tc.wantCooling, id) {
					t.Errorf("%s cooling %v, want %v", id, cooling, !cooling)
				}
				if succeeded := st.Successes > 0; succeeded != (id == tc.wantSuccess) {
					t.Errorf("%s success recorded %v, want %v", id, succeeded, !succeeded)
				}
			}
		})
	}
}
