package rpc

import (
	"encoding/json"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// TestAStallNoticeCarriesItsFields: run_stalled goes out as {"type":
// "run_stalled", "sessionId", "message", "sinceMs", "idleMs",
// "abortAfterMs"}; other notices carry none of those.
func TestAStallNoticeCarriesItsFields(t *testing.T) {
	st := runner.StallInfo{SessionID: "s_1", SinceMs: 1_700_000_000_000, IdleMs: 120_000, AbortAfterMs: 360_000}
	line, err := agent.EncodeJSON(noticeOut{Type: string(runner.NoticeRunStalled), SessionID: "s_1", Message: "stalled", StallInfo: &st})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(line, &got); err != nil {
		t.Fatal(err)
	}
	if got["type"] != "run_stalled" || got["sessionId"] != "s_1" || got["sinceMs"] != 1.7e12 || got["idleMs"] != 120000.0 || got["abortAfterMs"] != 360000.0 {
		t.Fatalf("event %s", line)
	}
	plain, _ := agent.EncodeJSON(noticeOut{Type: "persist_error", SessionID: "s_1", Message: "x"})
	var other map[string]any
	if err := json.Unmarshal(plain, &other); err != nil {
		t.Fatal(err)
	}
	if _, ok := other["sinceMs"]; ok {
		t.Fatalf("persist_error carries stall fields: %s", plain)
	}
}
