package tui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
)

func TestParseBudget(t *testing.T) {
	start := runner.BudgetLimits{SessionUSD: 1, RunUSD: 0.5, SessionTokens: 100, RunTokens: 10}
	cases := []struct {
		args   string
		change bool
		want   runner.BudgetLimits
		err    string
	}{
		{args: "", change: false},
		{args: "5", change: true, want: runner.BudgetLimits{SessionUSD: 5, RunUSD: 0.5, SessionTokens: 100, RunTokens: 10}},
		{args: "$2.50", change: true, want: runner.BudgetLimits{SessionUSD: 2.5, RunUSD: 0.5, SessionTokens: 100, RunTokens: 10}},
		{args: "run 0.25", change: true, want: runner.BudgetLimits{SessionUSD: 1, RunUSD: 0.25, SessionTokens: 100, RunTokens: 10}},
		{args: "200k tokens", change: true, want: runner.BudgetLimits{SessionUSD: 1, RunUSD: 0.5, SessionTokens: 200000, RunTokens: 10}},
		{args: "Run 2M tokens", change: true, want: runner.BudgetLimits{SessionUSD: 1, RunUSD: 0.5, SessionTokens: 100, RunTokens: 2000000}},
		{args: "off", change: true, want: runner.BudgetLimits{RunUSD: 0.5, RunTokens: 10}},
		{args: "run off", change: true, want: runner.BudgetLimits{SessionUSD: 1, SessionTokens: 100}},
		{args: "lots", err: `"lots" is not an amount of dollars`},
		{args: "-3", err: "not an amount of dollars"},
		{args: "run x tokens", err: "not a count of tokens"},
		{args: "session 1 2", err: "usage: /budget"},
	}
	for _, c := range cases {
		t.Run(c.args, func(t *testing.T) {
			ch, err := parseBudget(c.args)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one saying %q", err, c.err)
				}
				return
			}
			if err != nil || ch.change != c.change {
				t.Fatalf("change %v, err %v; want change %v", ch.change, err, c.change)
			}
			if c.change {
				if got := ch.apply(start); got != c.want {
					t.Fatalf("limits %+v, want %+v", got, c.want)
				}
			}
		})
	}
}

// TestBudgetCommand: /budget raises the session's cap through the runtime
// and says what was spent against it.
func TestBudgetCommand(t *testing.T) {
	rt := newStoredRuntime(t, "s_a")
	h := newHarness(t, rt, 100, 24)
	h.typeText("/budget 2")
	h.key(tea.KeyEnter, false)
	h.waitView("budget: session $0.0000 of $2.00")
	st, err := rt.Budget(context.Background())
	if err != nil || st.Limits.SessionUSD != 2 {
		t.Fatalf("the runtime's budget %+v, %v; want the session's cap at $2", st, err)
	}
}
