package headless

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/failover"
)

func TestShowProfiles(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	rows := []ProfileRow{
		{ID: "openai:a", Provider: "openai", State: failover.ProfileState{ProfileID: "openai:a", ErrorCount: 1, Failures: 1,
			LastFailureAt: now.Add(-2 * time.Second), CooldownUntil: now.Add(28 * time.Second), CooldownReason: failover.ReasonRateLimit, CooldownModel: "gpt-4.1"}},
		{ID: "openai:b", Provider: "openai", State: failover.ProfileState{ProfileID: "openai:b", Successes: 3, LastSuccessAt: now.Add(-time.Minute)}},
	}
	var out, errb strings.Builder
	if code := ShowProfiles(rows, now, true, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
		t.Fatal(err)
	}
	a, b := got[0], got[1]
	if a["id"] != "openai:a" || a["state"] != "cooldown" || a["reason"] != "rate_limit" || a["model"] != "gpt-4.1" ||
		a["until"] != "2026-12-01T12:00:28Z" || a["errorCount"] != 1.0 {
		t.Errorf("profile a: %v", a)
	}
	if b["state"] != "available" || b["until"] != nil || b["reason"] != nil || b["lastSuccess"] != "2026-12-01T11:59:00Z" {
		t.Errorf("profile b: %v", b)
	}

	out.Reset()
	ShowProfiles(rows, now, false, &out, &errb)
	for _, want := range []string{"openai:a", "cooldown", "28s", "rate_limit", "gpt-4.1", "2s ago", "openai:b", "available", "1m0s ago"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}
