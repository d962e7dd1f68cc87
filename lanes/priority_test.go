package lanes

import (
	"encoding/json"
	"testing"
)

func TestPriorityOf(t *testing.T) {
	cases := []struct {
		trigger string
		want    Priority
	}{
		{"user", Foreground},
		{"manual", Foreground},
		{"cron", Background},
		{"heartbeat", Background},
		{"memory", Background},
		{"overflow", Background},
		{"follow_up", Normal},
		{"rpc", Normal},
		{"subagent", Normal},
		{"", Normal},
		{"User", Normal}, // triggers are exact names
	}
	for _, tc := range cases {
		if got := PriorityOf(tc.trigger); got != tc.want {
			t.Errorf("PriorityOf(%q) = %v, want %v", tc.trigger, got, tc.want)
		}
	}
}

func TestPriorityOrderAndNames(t *testing.T) {
	if !(Background < Normal && Normal < Foreground) {
		t.Fatalf("priorities out of order: %d %d %d", Background, Normal, Foreground)
	}
	var zero Priority
	if zero != Normal {
		t.Errorf("zero priority = %v, want normal", zero)
	}
	for _, p := range []Priority{Background, Normal, Foreground} {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back Priority
		if err := json.Unmarshal(b, &back); err != nil || back != p {
			t.Errorf("%v: JSON %s read back as %v, %v", p, b, back, err)
		}
	}
	if _, err := ParsePriority("urgent"); err == nil {
		t.Error("ParsePriority(urgent) succeeded")
	}
}
