package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

// budgetMsg is /budget [session|run] [AMOUNT | N tokens | off]: show the
// spend caps, or change one of the current session's.
type budgetMsg struct{ args string }

// budgetUsage is what /budget takes.
const budgetUsage = "/budget [session|run] [$AMOUNT | N tokens | off], e.g. /budget 5, /budget run 0.50, /budget 200k tokens"

// budgetChange is a parsed /budget: change says whether it changes a cap
// (else it only shows them).
type budgetChange struct {
	change bool
	apply  func(runner.BudgetLimits) runner.BudgetLimits
}

// parseBudget reads /budget's arguments; the scope defaults to the session.
func parseBudget(args string) (budgetChange, error) {
	f := strings.Fields(strings.ToLower(args))
	if len(f) == 0 {
		return budgetChange{}, nil
	}
	run := false
	if f[0] == "session" || f[0] == "run" {
		run, f = f[0] == "run", f[1:]
	}
	tokens := len(f) == 2 && f[1] == "tokens"
	if tokens {
		f = f[:1]
	}
	if len(f) != 1 {
		return budgetChange{}, fmt.Errorf("usage: %s", budgetUsage)
	}
	if f[0] == "off" {
		return budgetChange{change: true, apply: func(l runner.BudgetLimits) runner.BudgetLimits {
			if run {
				l.RunUSD, l.RunTokens = 0, 0
			} else {
				l.SessionUSD, l.SessionTokens = 0, 0
			}
			return l
		}}, nil
	}
	if tokens {
		n, err := parseTokens(f[0])
		if err != nil {
			return budgetChange{}, err
		}
		return budgetChange{change: true, apply: func(l runner.BudgetLimits) runner.BudgetLimits {
			if run {
				l.RunTokens = n
			} else {
				l.SessionTokens = n
			}
			return l
		}}, nil
	}
	usd, err := strconv.ParseFloat(strings.TrimPrefix(f[0], "$"), 64)
	if err != nil || usd <= 0 {
		return budgetChange{}, fmt.Errorf("%q is not an amount of dollars; usage: %s", f[0], budgetUsage)
	}
	return budgetChange{change: true, apply: func(l runner.BudgetLimits) runner.BudgetLimits {
		if run {
			l.RunUSD = usd
		} else {
			l.SessionUSD = usd
		}
		return l
	}}, nil
}

// parseTokens reads a count of tokens: 200000, 200k, 2m.
func parseTokens(s string) (int, error) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1_000, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "m"):
		mult, s = 1_000_000, strings.TrimSuffix(s, "m")
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a count of tokens; usage: %s", s, budgetUsage)
	}
	return int(n * float64(mult)), nil
}

// budgetLine words the caps and what was spent against them.
func budgetLine(st runner.BudgetStatus) string {
	scope := func(name string, spent runner.Spend, usd float64, tokens int) string {
		s := fmt.Sprintf("%s $%.4f", name, spent.USD)
		if usd > 0 {
			s += fmt.Sprintf(" of $%.2f", usd)
		}
		s += fmt.Sprintf(" · %d tokens", spent.Tokens)
		if tokens > 0 {
			s += fmt.Sprintf(" of %d", tokens)
		}
		return s
	}
	l := st.Limits
	line := "budget: " + scope("session", st.Session, l.SessionUSD, l.SessionTokens) + "; " + scope("run", st.Run, l.RunUSD, l.RunTokens)
	if l == (runner.BudgetLimits{}) {
		line += " · no caps: /budget 5 caps the session at $5"
	}
	if !st.Priced {
		line += " · this model has no prices: only tokens are counted"
	}
	return line
}

// handleBudget shows the caps or changes one, off the update loop.
func (m Model) handleBudget(msg budgetMsg) (Model, tea.Cmd) {
	ch, err := parseBudget(msg.args)
	if err != nil {
		return m.hint(err.Error())
	}
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		st, err := rt.Budget(ctx)
		if err == nil && ch.change {
			if err = rt.SetBudget(ch.apply(st.Limits)); err == nil {
				st, err = rt.Budget(ctx)
			}
		}
		if err != nil {
			return msgs.ErrorMsg{Action: "the budget", Err: err}
		}
		return msgs.NoteMsg{Text: budgetLine(st)}
	}})
	return m, nil
}
