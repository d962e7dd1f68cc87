package runner

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// pricedModel costs $1 per million input tokens and $2 per million output
// tokens: a request's estimate is small beside the answers' scripted cost.
var pricedModel = agent.Model{Provider: "test", ID: "priced", API: "test", ContextWindow: 100000,
	Cost: agent.ModelCost{Input: 1, Output: 2}}

func TestOverBudget(t *testing.T) {
	unpriced := agent.Model{Provider: "test", ID: "free", API: "test"}
	cases := []struct {
		name              string
		c                 budgetCheck
		stopped           bool
		scope             BudgetScope
		unit              BudgetUnit
		messageMentions   string
		spent, limit, est float64
	}{
		{name: "no caps", c: budgetCheck{model: pricedModel, estimate: Spend{USD: 5, Tokens: 5000}}},
		{name: "under the session's dollars",
			c: budgetCheck{limits: BudgetLimits{SessionUSD: 1}, session: Spend{USD: 0.5}, estimate: Spend{USD: 0.5}, model: pricedModel}},
		{name: "over the session's dollars",
			c:       budgetCheck{limits: BudgetLimits{SessionUSD: 1}, session: Spend{USD: 0.6}, estimate: Spend{USD: 0.5}, model: pricedModel},
			stopped: true, scope: BudgetSession, unit: BudgetUSD, spent: 0.6, limit: 1, est: 0.5, messageMentions: "$1.0000 budget"},
		{name: "the run's limit before the session's",
			c: budgetCheck{limits: BudgetLimits{SessionUSD: 1, RunUSD: 0.1}, session: Spend{USD: 0.9}, run: Spend{USD: 0.09},
				estimate: Spend{USD: 0.2}, model: pricedModel},
			stopped: true, scope: BudgetRun, unit: BudgetUSD, spent: 0.09, limit: 0.1, est: 0.2, messageMentions: "run's spend"},
		{name: "dollars before tokens",
			c: budgetCheck{limits: BudgetLimits{SessionUSD: 1, SessionTokens: 10}, session: Spend{USD: 0.9, Tokens: 9},
				estimate: Spend{USD: 0.2, Tokens: 2}, model: pricedModel},
			stopped: true, scope: BudgetSession, unit: BudgetUSD, spent: 0.9, limit: 1, est: 0.2},
		{name: "over the run's tokens",
			c:       budgetCheck{limits: BudgetLimits{RunTokens: 1000}, run: Spend{Tokens: 900}, estimate: Spend{Tokens: 200}, model: pricedModel},
			stopped: true, scope: BudgetRun, unit: BudgetTokens, spent: 900, limit: 1000, est: 200, messageMentions: "1000 tokens budget"},
		{name: "an unpriced model is not stopped by dollars",
			c: budgetCheck{limits: BudgetLimits{SessionUSD: 0.009}, session: Spend{USD: 5}, estimate: Spend{Tokens: 100}, model: unpriced}},
		{name: "an unpriced model is stopped by tokens",
			c: budgetCheck{limits: BudgetLimits{SessionUSD: 0.01, SessionTokens: 100}, session: Spend{Tokens: 90},
				estimate: Spend{Tokens: 20}, model: unpriced},
			stopped: true, scope: BudgetSession, unit: BudgetTokens, spent: 90, limit: 100, est: 20},
		{name: "exactly at the cap is allowed",
			c: budgetCheck{limits: BudgetLimits{SessionTokens: 100}, session: Spend{Tokens: 80}, estimate: Spend{Tokens: 20}, model: pricedModel}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info, stopped := overBudget(c.c)
			if stopped != c.stopped {
				t.Fatalf("stopped = %v, want %v (%+v)", stopped, c.stopped, info)
			}
			if !stopped {
				return
			}
			if info.Scope != c.scope || info.Unit != c.unit || info.Spent != c.spent || info.Limit != c.limit || info.Estimate != c.est {
				t.Errorf("got %+v, want %s %s spent %v limit %v estimate %v", info, c.scope, c.unit, c.spent, c.limit, c.est)
			}
			if !info.Stopped || !strings.Contains(info.Message, "not sent") || !strings.Contains(info.Message, c.messageMentions) {
				t.Errorf("message %q does not say it was not sent or lacks %q", info.Message, c.messageMentions)
			}
		})
	}
}

func TestUnpricedNote(t *testing.T) {
	unpriced := agent.Model{Provider: "test", ID: "free"}
	cases := []struct {
		name     string
		limits   BudgetLimits
		model    agent.Model
		due      bool
		mentions string
	}{
		{"priced", BudgetLimits{SessionUSD: 1}, pricedModel, false, ""},
		{"no dollar cap", BudgetLimits{SessionTokens: 5}, unpriced, false, ""},
		{"dollar cap only", BudgetLimits{RunUSD: 1}, unpriced, true, "set budget.sessionTokens"},
		{"dollar and token caps", BudgetLimits{RunUSD: 1, RunTokens: 9}, unpriced, true, "count in tokens only"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info, due := unpricedNote(c.limits, c.model)
			if due != c.due || !strings.Contains(info.Message, c.mentions) || (due && info.Stopped) {
				t.Fatalf("got %+v due %v, want due %v mentioning %q", info, due, c.due, c.mentions)
			}
		})
	}
}

// answer is an answer billed for 2,000 input and 1,000 output tokens at
// pricedModel's prices: $0.004.
func answer(text string) *agenttest.Response {
	u := agent.Usage{Input: 2000, Output: 1000}
	u.Cost = pricedModel.Cost.Price(u)
	return agenttest.Reply().Text(text).Usage(u).Stop(agent.StopReasonStop)
}

func budgetRuntime(t *testing.T, dir string, script *agenttest.Script, limits BudgetLimits, cont bool) (*Runtime, func() []BudgetInfo) {
	t.Helper()
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "test", Models: []agent.Model{pricedModel}, Stream: script.Stream}},
		Model:     "test/priced", Workspace: "/ws", Store: openStore(t, dir), Now: agenttest.Clock,
		Budget: limits, Continue: cont,
	})
	if err != nil {
		t.Fatal(err)
	}
	stopOnCleanup(t, rt)
	var mu sync.Mutex
	var got []BudgetInfo
	rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationBudget {
			mu.Lock()
			got = append(got, a.Data.(BudgetInfo))
			mu.Unlock()
		}
	})
	return rt, func() []BudgetInfo { mu.Lock(); defer mu.Unlock(); return append([]BudgetInfo(nil), got...) }
}

// TestSessionBudgetStopsTheRequestThatWouldExceedIt: with $0.009 for the
// session and answers of $0.004 (1,000 output tokens each, which the next
// request's estimate expects again: $0.002), the third request is not made; it fails
// with the budget's message. A runtime that resumes the session counts
// from its saved total, and a raised budget lets the request through.
func TestSessionBudgetStopsTheRequestThatWouldExceedIt(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	script := agenttest.NewScript(answer("one"), answer("two"), answer("three"))
	rt, budgets := budgetRuntime(t, dir, script, BudgetLimits{SessionUSD: 0.009}, false)
	for _, prompt := range []string{"first", "second", "third"} {
		if err := rt.Prompt(ctx, prompt); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, rt)
	}
	if n := len(script.Requests()); n != 2 {
		t.Fatalf("the provider got %d requests, want 2", n)
	}
	got := budgets()
	if len(got) != 1 || !got[0].Stopped || got[0].Scope != BudgetSession || got[0].Spent < 0.0079 || got[0].Spent > 0.0081 {
		t.Fatalf("budget events %+v, want one stop of the session at $0.008 spent", got)
	}
	msgs := rt.agent.State().Messages
	last := msgs[len(msgs)-1]
	if last.StopReason != agent.StopReasonError || !strings.Contains(last.ErrorMessage, "budget") {
		t.Fatalf("the last message is %+v, want the budget's error", last)
	}
	status, err := rt.Budget(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if status.Session.USD < 0.0079 || status.Session.USD > 0.0081 || !status.Priced {
		t.Fatalf("status %+v, want $0.008 spent by the session", status)
	}
	if err := rt.Close(ctx); err != nil {
		t.Fatal(err)
	}

	again := agenttest.NewScript(answer("resumed"))
	rt2, budgets2 := budgetRuntime(t, dir, again, BudgetLimits{SessionUSD: 0.009}, true)
	if err := rt2.Prompt(ctx, "fourth"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt2)
	if n := len(again.Requests()); n != 0 || len(budgets2()) != 1 {
		t.Fatalf("resumed: %d requests and budget events %+v, want none and one stop", n, budgets2())
	}
	if err := rt2.SetBudget(BudgetLimits{SessionUSD: 1}); err != nil {
		t.Fatal(err)
	}
	if err := rt2.Prompt(ctx, "fifth"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt2)
	if n := len(again.Requests()); n != 1 {
		t.Fatalf("after raising the budget the provider got %d requests, want 1", n)
	}
	if err := rt2.SetBudget(BudgetLimits{RunUSD: -1}); err == nil {
		t.Fatal("a negative budget was accepted")
	}
}

// TestRunBudgetStartsAgainEachRun: the run's account starts at zero with
// each run, the session's does not.
func TestRunBudgetStartsAgainEachRun(t *testing.T) {
	ctx := context.Background()
	script := agenttest.NewScript(answer("one"), answer("two"), answer("three"))
	rt, budgets := budgetRuntime(t, t.TempDir(), script, BudgetLimits{RunUSD: 0.005}, false)
	for _, prompt := range []string{"first", "second", "third"} {
		if err := rt.Prompt(ctx, prompt); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, rt)
	}
	if n := len(script.Requests()); n != 3 || len(budgets()) != 0 {
		t.Fatalf("%d requests and budget events %+v, want 3 and none", n, budgets())
	}
	status, err := rt.Budget(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if status.Run.USD < 0.0039 || status.Run.USD > 0.0041 || status.Session.USD < 0.0119 {
		t.Fatalf("status %+v, want $0.004 for the run and $0.012 for the session", status)
	}
}
