package rpc

import (
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
)

// TestSetBudgetStopsTheNextRequest: set_budget changes only the caps it
// names and answers with the budget; a run over the cap ends with a budget
// event and no request; bad input fails with a reason.
func TestSetBudgetStopsTheNextRequest(t *testing.T) {
	script := agenttest.NewScript(agenttest.Reply().Text("never").Stop(agent.StopReasonStop))
	h := newHarnessWith(t, script, runner.Options{Budget: runner.BudgetLimits{SessionUSD: 5}})
	h.send(`{"type":"set_budget","runTokens":10,"id":"s"}`)
	limits, _ := h.response("s").data()["limits"].(map[string]any)
	if limits["runTokens"] != 10.0 || limits["session"] != 5.0 {
		t.Fatalf("set_budget answered limits %v, want runTokens 10 and the session's $5 kept", limits)
	}
	h.send(`{"type":"prompt","message":"hello","id":"p"}`)
	lines, _ := h.run("p")
	var stop line
	for _, l := range lines {
		if l.is("budget") {
			stop = l
		}
	}
	if stop == nil || stop["stopped"] != true || stop["scope"] != "run" || stop["unit"] != "tokens" {
		t.Fatalf("no budget stop among the run's events: %v", lines)
	}
	if n := len(script.Requests()); n != 0 {
		t.Fatalf("the provider got %d requests, want none", n)
	}
	h.send(`{"type":"get_budget","id":"g"}`)
	if d := h.response("g").data(); d["priced"] != false {
		t.Fatalf("get_budget: %v, want the scripted model unpriced", d)
	}
	for _, bad := range []struct{ cmd, id string }{
		{`{"type":"set_budget","id":"b1"}`, "b1"},
		{`{"type":"set_budget","run":"lots","id":"b2"}`, "b2"},
		{`{"type":"set_budget","session":-1,"id":"b3"}`, "b3"},
	} {
		h.send(bad.cmd)
		if r := h.response(bad.id); r["success"] != false || r["error"] == "" {
			t.Fatalf("%s: %v, want a failure with a reason", bad.cmd, r)
		}
	}
}
