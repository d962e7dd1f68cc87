package inspector

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/failover"
)

// choosers is who chose a profile: --profile (Preferred) and the saved
// sessions.
type choosers struct {
	Preferred             bool
	PreferredBy, LockedBy []string
}

// TestProfileChoiceWording: the table's CHOICE column and the --json
// fields for each mix of --profile and saved sessions' choices (an empty
// array decodes as []string{}, null as nil: the arrays are never null).
func TestProfileChoiceWording(t *testing.T) {
	cases := []struct {
		name                  string
		row                   choosers
		text                  string
		preferred, locked     bool
		preferredBy, lockedBy []string
	}{
		{name: "nobody", row: choosers{}, text: "-", preferredBy: []string{}, lockedBy: []string{}},
		{name: "--profile alone", row: choosers{Preferred: true}, text: "preferred", preferred: true,
			preferredBy: []string{}, lockedBy: []string{}},
		{name: "a session locks", row: choosers{LockedBy: []string{"s_ab12cd34ef56ab78"}}, text: "locked (s_ab12…)",
			locked: true, preferredBy: []string{}, lockedBy: []string{"s_ab12cd34ef56ab78"}},
		{name: "two sessions prefer, with --profile", row: choosers{Preferred: true, PreferredBy: []string{"s_0001aaaa", "s_0002bbbb"}},
			text: "preferred (--profile, s_0001…, s_0002…)", preferred: true,
			preferredBy: []string{"s_0001aaaa", "s_0002bbbb"}, lockedBy: []string{}},
		{name: "locked by one, preferred by another", row: choosers{PreferredBy: []string{"s_0001aaaa"}, LockedBy: []string{"s_0002bbbb"}},
			text: "locked (s_0002…); preferred (s_0001…)", preferred: true, locked: true,
			preferredBy: []string{"s_0001aaaa"}, lockedBy: []string{"s_0002bbbb"}},
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := savedProfile(ProfileRef{ID: "p:a", Provider: "p"}, failover.ProfileState{}, c.row.Preferred, c.row.PreferredBy, c.row.LockedBy, now)
			if got := choice(p, c.row.Preferred); got != c.text {
				t.Errorf("choice = %q, want %q", got, c.text)
			}
			out, err := json.Marshal(Profiles.JSON(ProfilesView{Profiles: []runner.ProfileView{p}}))
			if err != nil {
				t.Fatal(err)
			}
			var got []struct {
				Preferred, Locked     bool
				PreferredBy, LockedBy []string
			}
			if err := json.Unmarshal(out, &got); err != nil || len(got) != 1 {
				t.Fatalf("%v:\n%s", err, out)
			}
			v := got[0]
			if v.Preferred != c.preferred || v.Locked != c.locked || !reflect.DeepEqual(v.PreferredBy, c.preferredBy) || !reflect.DeepEqual(v.LockedBy, c.lockedBy) {
				t.Errorf("json = %+v, want preferred %v by %v, locked %v by %v", v, c.preferred, c.preferredBy, c.locked, c.lockedBy)
			}
		})
	}
}

// TestPrintProfiles: `steer inspect profiles` as JSON and as a table.
func TestPrintProfiles(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	v := ProfilesView{Profiles: []runner.ProfileView{
		savedProfile(ProfileRef{ID: "openai:a", Provider: "openai"}, failover.ProfileState{ProfileID: "openai:a", ErrorCount: 1, Failures: 1,
			LastFailureAt: now.Add(-2 * time.Second), CooldownUntil: now.Add(28 * time.Second), CooldownReason: failover.ReasonRateLimit, CooldownModel: "gpt-4.1"},
			false, nil, nil, now),
		savedProfile(ProfileRef{ID: "openai:b", Provider: "openai"}, failover.ProfileState{ProfileID: "openai:b", Successes: 3, LastSuccessAt: now.Add(-time.Minute)},
			false, nil, nil, now),
	}}
	data, err := json.Marshal(Profiles.JSON(v))
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
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

	var out strings.Builder
	Profiles.Print(&out, v, now)
	for _, want := range []string{"openai:a", "cooldown", "28s", "rate_limit", "gpt-4.1", "2s ago", "openai:b", "available", "1m0s ago"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}
