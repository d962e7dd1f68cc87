package runner

import (
	"testing"

	"github.com/steer-tui/steer/agent/agenttest"
)

// TestSessionKeyIsBackfilled: every engine call names the session by a key
// backfilled from its id (a sub-agent's after its parent's), never "".
func TestSessionKeyIsBackfilled(t *testing.T) {
	for _, tt := range []struct{ id, parent, want string }{
		{"s_1", "", "s_1"},
		{"s_2", "s_1", "s_1/s_2"},
	} {
		if got := sessionKey(tt.id, tt.parent); got != tt.want {
			t.Errorf("sessionKey(%q, %q) = %q, want %q", tt.id, tt.parent, got, tt.want)
		}
	}
	rt := newRuntime(t, nil, agenttest.NewScript(), Options{ParentSession: "s_parent"})
	if s := rt.keeper.engines.sessionNow(); s.Key != "s_parent/"+rt.SessionID() || s.ID != rt.SessionID() {
		t.Fatalf("engine session %+v", s)
	}
}
