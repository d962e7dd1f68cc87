package rpc

import (
	"fmt"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence"
)

// TestTreeCommands: get_tree lists every entry with its parent and the
// leaf; navigate_tree moves the leaf back so that the next prompt branches;
// fork answers with the message's text in a new session; bad input fails.
func TestTreeCommands(t *testing.T) {
	store, err := persistence.Open(t.TempDir(), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ok := func(s string) *agenttest.Response { return agenttest.Reply().Text(s).Stop(agent.StopReasonStop) }
	h := newHarnessWith(t, agenttest.NewScript(ok("A1"), ok("A2"), ok("A3")), runner.Options{Store: store, Workspace: "/ws"})
	for i, p := range []string{"one", "two"} {
		h.send(fmt.Sprintf(`{"type":"prompt","message":%q,"id":"p%d"}`, p, i))
		h.run(fmt.Sprintf("p%d", i))
	}
	tree := func(id string) (string, []any) {
		h.send(`{"type":"get_tree","id":"` + id + `"}`)
		d := h.response(id).data()
		leaf, _ := d["leafId"].(string)
		entries, _ := d["entries"].([]any)
		return leaf, entries
	}
	if leaf, entries := tree("t1"); leaf != "4" || len(entries) != 4 {
		t.Fatalf("get_tree: leaf %q, %d entries", leaf, len(entries))
	}
	h.send(`{"type":"navigate_tree","targetId":"2","id":"n"}`)
	if r := h.response("n"); r["success"] != true {
		t.Fatalf("navigate_tree: %v", r)
	}
	h.send(`{"type":"prompt","message":"three","id":"p3"}`)
	h.run("p3")
	leaf, entries := tree("t2")
	if leaf != "6" || len(entries) != 6 {
		t.Fatalf("after the branch: leaf %q, %d entries", leaf, len(entries))
	}
	if e := entries[4].(map[string]any); e["parentId"] != "2" || e["type"] != "message" {
		t.Fatalf("the branch's first entry %v", e)
	}
	h.send(`{"type":"fork","entryId":"5","id":"f"}`)
	if d := h.response("f").data(); d["text"] != "three" || d["sessionId"] == "" {
		t.Fatalf("fork: %v", d)
	}
	for _, bad := range []string{`{"type":"navigate_tree","id":"b1"}`, `{"type":"navigate_tree","targetId":"99","id":"b2"}`,
		`{"type":"fork","entryId":"1x","id":"b3"}`} {
		h.send(bad)
	}
	for _, id := range []string{"b1", "b2", "b3"} {
		if r := h.response(id); r["success"] != false || r["error"] == "" {
			t.Errorf("%s: %v", id, r)
		}
	}
}
