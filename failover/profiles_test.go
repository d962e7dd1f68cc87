package failover

import (
	"slices"
	"testing"
	"time"
)

func TestCheck(t *testing.T) {
	key := &Profile{ID: "openai:main", Provider: "openai", Mode: ModeAPIKey}
	scoped := &Profile{ID: "openai:mini", Provider: "openai", Mode: ModeAPIKey, Models: []string{"gpt-4o-mini"}}
	want := Want{Provider: "openai", Model: "gpt-4.1"}
	cooled := fail(0, ReasonRateLimit, "gpt-4.1")(ProfileState{})
	billed := fail(0, ReasonBilling, "gpt-4.1")(ProfileState{})
	cases := []struct {
		name      string
		p         *Profile
		st        ProfileState
		want      Want
		wantE     Eligibility
		wantUntil time.Time
	}{
		{"ok", key, ProfileState{}, want, EligibleOK, time.Time{}},
		{"missing", nil, ProfileState{}, want, EligibleProfileMissing, time.Time{}},
		{"provider", key, ProfileState{}, Want{Provider: "anthropic", Model: "x"}, EligibleProviderMismatch, time.Time{}},
		{"mode", key, ProfileState{}, Want{Provider: "openai", Mode: ModeOAuth, Model: "gpt-4.1"}, EligibleModeMismatch, time.Time{}},
		{"any mode", key, ProfileState{}, want, EligibleOK, time.Time{}},
		{"model out of scope", scoped, ProfileState{}, want, EligibleModelOutOfScope, time.Time{}},
		{"model in scope", scoped, ProfileState{}, Want{Provider: "openai", Model: "gpt-4o-mini"}, EligibleOK, time.Time{}},
		{"in cooldown", key, cooled, want, EligibleInCooldown, at(30 * time.Second)},
		{"cooldown of another model", key, cooled, Want{Provider: "openai", Model: "o3"}, EligibleOK, time.Time{}},
		{"disabled", key, billed, want, EligibleDisabled, at(5 * time.Hour)},
		{"mismatch before cooldown", key, billed, Want{Provider: "anthropic"}, EligibleProviderMismatch, time.Time{}},
	}
	for _, c := range cases {
		e, until := Check(c.p, c.st, c.want, at(time.Second))
		if e != c.wantE || !until.Equal(c.wantUntil) {
			t.Errorf("%s: Check = %s, %v; want %s, %v", c.name, e, until, c.wantE, c.wantUntil)
		}
	}
}

func TestEligibilityCodes(t *testing.T) {
	want := []string{"ok", "profile_missing", "provider_mismatch", "mode_mismatch", "model_out_of_scope", "disabled", "in_cooldown", "not_locked"}
	for i, code := range want {
		if got := Eligibility(i).String(); got != code {
			t.Errorf("Eligibility(%d) = %q, want %q", i, got, code)
		}
	}
}

func ids(cs []Candidate) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.ID+":"+c.Eligibility.String())
	}
	return out
}

func TestOrder(t *testing.T) {
	profiles := map[string]Profile{
		"a": {ID: "a", Provider: "openai"},
		"b": {ID: "b", Provider: "openai"},
		"c": {ID: "c", Provider: "openai"},
		"d": {ID: "d", Provider: "openai"},
		"x": {ID: "x", Provider: "anthropic"},
	}
	want := Want{Provider: "openai", Model: "m"}
	short := fail(0, ReasonRateLimit, "m")(ProfileState{})              // until +30 s
	long := fail(0, ReasonBilling, "m")(ProfileState{})                 // until +5 h
	expired := fail(-time.Minute, ReasonRateLimit, "m")(ProfileState{}) // ended at -30 s
	cases := []struct {
		name        string
		in          OrderInput
		wantUsable  []string
		wantSkipped []string
	}{
		{"configured order", OrderInput{Order: []string{"c", "a", "b"}, Profiles: profiles, Want: want},
			[]string{"c:ok", "a:ok", "b:ok"}, []string{}},
		{"cooldowns behind, soonest first",
			OrderInput{Order: []string{"a", "b", "c", "d"}, Profiles: profiles, Want: want,
				States: map[string]ProfileState{"a": long, "b": short}},
			[]string{"c:ok", "d:ok", "b:in_cooldown", "a:disabled"}, []string{}},
		{"equal expiries keep the configured order",
			OrderInput{Order: []string{"b", "a", "c"}, Profiles: profiles, Want: want,
				States: map[string]ProfileState{"a": short, "b": short}},
			[]string{"c:ok", "b:in_cooldown", "a:in_cooldown"}, []string{}},
		{"preferred goes first",
			OrderInput{Order: []string{"a", "b", "c"}, Profiles: profiles, Want: want, Preferred: "c"},
			[]string{"c:ok", "a:ok", "b:ok"}, []string{}},
		{"preferred in cooldown still goes first",
			OrderInput{Order: []string{"a", "b"}, Profiles: profiles, Want: want, Preferred: "b",
				States: map[string]ProfileState{"b": short}},
			[]string{"b:in_cooldown", "a:ok"}, []string{}},
		{"preferred not in the list is ignored",
			OrderInput{Order: []string{"a", "b"}, Profiles: profiles, Want: want, Preferred: "zz"},
			[]string{"a:ok", "b:ok"}, []string{}},
		{"preferred and eligible goes first, before the rest of the configured order",
			OrderInput{Order: []string{"a", "b", "c"}, Profiles: profiles, Want: want, Preferred: "b",
				States: map[string]ProfileState{"a": short}},
			[]string{"b:ok", "c:ok", "a:in_cooldown"}, []string{}},
		{"locked: the only usable one, the others skipped",
			OrderInput{Order: []string{"a", "b", "c"}, Profiles: profiles, Want: want, Locked: "b"},
			[]string{"b:ok"}, []string{"a:not_locked", "c:not_locked"}},
		{"locked and cooling down: it waits alone",
			OrderInput{Order: []string{"a", "b"}, Profiles: profiles, Want: want, Locked: "b",
				States: map[string]ProfileState{"b": short}},
			[]string{"b:in_cooldown"}, []string{"a:not_locked"}},
		{"locked beats preferred",
			OrderInput{Order: []string{"a", "b"}, Profiles: profiles, Want: want, Locked: "a", Preferred: "b"},
			[]string{"a:ok"}, []string{"b:not_locked"}},
		{"locked to another provider's profile: nothing usable",
			OrderInput{Order: []string{"a", "b"}, Profiles: profiles, Want: want, Locked: "x"},
			[]string{}, []string{"a:not_locked", "b:not_locked"}},
		{"unfit profiles are skipped with their code",
			OrderInput{Order: []string{"x", "a", "ghost", "a"}, Profiles: profiles, Want: want},
			[]string{"a:ok"}, []string{"x:provider_mismatch", "ghost:profile_missing"}},
		{"an expired cooldown is cleared before ordering",
			OrderInput{Order: []string{"a", "b"}, Profiles: profiles, Want: want,
				States: map[string]ProfileState{"a": expired, "b": short}},
			[]string{"a:ok", "b:in_cooldown"}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			usable, skipped := Order(c.in, at(time.Second))
			if got := ids(usable); !slices.Equal(got, c.wantUsable) {
				t.Errorf("usable = %v, want %v", got, c.wantUsable)
			}
			if got := ids(skipped); !slices.Equal(got, c.wantSkipped) {
				t.Errorf("skipped = %v, want %v", got, c.wantSkipped)
			}
		})
	}
}

func TestOrderClearsExpiredCooldownsWithFreshCounts(t *testing.T) {
	expired := fail(-time.Minute, ReasonRateLimit, "m")(ProfileState{ProfileID: "a"})
	usable, _ := Order(OrderInput{
		Order:    []string{"a", "b"},
		Profiles: map[string]Profile{"a": {ID: "a", Provider: "p"}, "b": {ID: "b", Provider: "p"}},
		States:   map[string]ProfileState{"a": expired},
		Want:     Want{Provider: "p", Model: "m"},
	}, t0)
	a, b := usable[0], usable[1]
	if !a.Cleared || a.State.ErrorCount != 0 || !a.State.CooldownUntil.IsZero() || a.State.Failures != 1 {
		t.Errorf("a = %+v, want cleared with a fresh count and its statistics", a)
	}
	if b.Cleared || b.State.ProfileID != "b" {
		t.Errorf("b = %+v, want a fresh state that needs no write", b)
	}
}

func TestNextAndLeft(t *testing.T) {
	cands := []Candidate{
		{ID: "a", Eligibility: EligibleOK},
		{ID: "b", Eligibility: EligibleOK},
		{ID: "c", Eligibility: EligibleOK},
		{ID: "d", Eligibility: EligibleInCooldown},
	}
	cases := []struct {
		name     string
		tried    []string
		locked   string
		wantID   string
		wantOK   bool
		wantLeft int
	}{
		{"first available", nil, "", "a", true, 3},
		{"skips tried", []string{"a"}, "", "b", true, 2},
		{"locked: only it", nil, "b", "b", true, 1},
		{"locked and tried: nothing else", []string{"b"}, "b", "", false, 0},
		{"locked and cooling down: nothing", nil, "d", "", false, 0},
		{"never a profile in cooldown", []string{"a", "b", "c"}, "", "", false, 0},
	}
	for _, c := range cases {
		got, ok := Next(cands, c.tried, c.locked)
		if got.ID != c.wantID || ok != c.wantOK {
			t.Errorf("%s: Next = %q, %v; want %q, %v", c.name, got.ID, ok, c.wantID, c.wantOK)
		}
		if n := Left(cands, c.tried, c.locked); n != c.wantLeft {
			t.Errorf("%s: Left = %d, want %d", c.name, n, c.wantLeft)
		}
	}
}
