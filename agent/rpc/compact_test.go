package rpc

import (
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
)

// TestServerAbortCancelsCompact: abort (or quit) sent while compact waits
// for a summary that never comes is read at once: compact answers that it
// was cancelled, the command sent in between is answered after it, in
// order, and the session is unchanged.
func TestServerAbortCancelsCompact(t *testing.T) {
	for _, stop := range []string{"abort", "quit"} {
		t.Run(stop, func(t *testing.T) {
			summarising := make(chan struct{})
			script := agenttest.NewScript(agenttest.Reply().Text("one").Stop(agent.StopReasonStop),
				agenttest.Reply().Text("two").Stop(agent.StopReasonStop), agenttest.Reply().Hang())
			h := newHarnessStream(t, agenttest.StartedAt(script.Stream, 3, summarising), runner.Options{})
			for _, id := range []string{"p1", "p2"} {
				h.send(`{"type":"prompt","message":"go","id":"` + id + `"}`)
				if _, r := h.run(id); r["success"] != true {
					t.Fatalf("prompt %s: %v", id, r)
				}
			}
			h.send(`{"type":"get_state","id":"s0"}`)
			h.response("s0")
			before := h.rt.State().Messages
			h.send(`{"type":"compact","id":"c"}`)
			<-summarising
			h.send(`{"type":"get_state","id":"s"}`)
			h.send(`{"type":"` + stop + `","id":"a"}`)
			var order []string
			for _, l := range h.until(func(l line) bool { return l.isResponse("a") }) {
				if l.is("response") {
					order = append(order, l["id"].(string))
				}
				if l.isResponse("c") && (l["success"] != false || !strings.Contains(l["error"].(string), "compaction cancelled")) {
					t.Errorf("compact answered %v, want that it was cancelled", l)
				}
				if l.isResponse("a") && l["success"] != true {
					t.Errorf("%s answered %v", stop, l)
				}
			}
			if strings.Join(order, ",") != "c,s,a" {
				t.Errorf("responses in order %v, want c,s,a", order)
			}
			if after := h.rt.State().Messages; !reflect.DeepEqual(after, before) {
				t.Errorf("the cancelled compaction changed the session: %d messages, had %d", len(after), len(before))
			}
		})
	}
}
