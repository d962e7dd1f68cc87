package headless

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence"
)

// TestProfileChoiceWording: the table's CHOICE column and the --json
// fields for each mix of --profile and saved sessions' choices (an empty
// array decodes as []string{}, null as nil: the arrays are never null).
func TestProfileChoiceWording(t *testing.T) {
	cases := []struct {
		name                  string
		row                   ProfileRow
		text                  string
		preferred, locked     bool
		preferredBy, lockedBy []string
	}{
		{name: "nobody", row: ProfileRow{}, text: "-", preferredBy: []string{}, lockedBy: []string{}},
		{name: "--profile alone", row: ProfileRow{Preferred: true}, text: "preferred", preferred: true,
			preferredBy: []string{}, lockedBy: []string{}},
		{name: "a session locks", row: ProfileRow{LockedBy: []string{"s_ab12cd34ef56ab78"}}, text: "locked (s_ab12…)",
			locked: true, preferredBy: []string{}, lockedBy: []string{"s_ab12cd34ef56ab78"}},
		{name: "two sessions prefer, with --profile", row: ProfileRow{Preferred: true, PreferredBy: []string{"s_0001aaaa", "s_0002bbbb"}},
			text: "preferred (--profile, s_0001…, s_0002…)", preferred: true,
			preferredBy: []string{"s_0001aaaa", "s_0002bbbb"}, lockedBy: []string{}},
		{name: "locked by one, preferred by another", row: ProfileRow{PreferredBy: []string{"s_0001aaaa"}, LockedBy: []string{"s_0002bbbb"}},
			text: "locked (s_0002…); preferred (s_0001…)", preferred: true, locked: true,
			preferredBy: []string{"s_0001aaaa"}, lockedBy: []string{"s_0002bbbb"}},
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.row.ID, c.row.Provider = "p:a", "p"
			if got := choice(c.row); got != c.text {
				t.Errorf("choice = %q, want %q", got, c.text)
			}
			var out, errb strings.Builder
			if code := ShowProfiles([]ProfileRow{c.row}, now, true, &out, &errb); code != ExitOK {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			var got []struct {
				Preferred, Locked     bool
				PreferredBy, LockedBy []string
			}
			if err := json.Unmarshal([]byte(out.String()), &got); err != nil || len(got) != 1 {
				t.Fatalf("%v:\n%s", err, out.String())
			}
			v := got[0]
			if v.Preferred != c.preferred || v.Locked != c.locked || !reflect.DeepEqual(v.PreferredBy, c.preferredBy) || !reflect.DeepEqual(v.LockedBy, c.lockedBy) {
				t.Errorf("json = %+v, want preferred %v by %v, locked %v by %v", v, c.preferred, c.preferredBy, c.locked, c.lockedBy)
			}
		})
	}
}

// TestInspectShowsASavedLock: a lock one runtime saved, and closed, shows
// in `steer inspect profiles --json` read afresh from the state directory.
func TestInspectShowsASavedLock(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	script := agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop))
	rt, err := runner.New(ctx, runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream,
			Profiles: []runner.Profile{{ID: "test:a"}, {ID: "test:b"}}}},
		Store: store, Workspace: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	if err := rt.WaitForIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if err := rt.LockProfile("test:b"); err != nil {
		t.Fatal(err)
	}
	id := rt.SessionID()
	if err := rt.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	var out, errb strings.Builder
	code := Inspect(ctx, InspectOptions{StateDir: dir, JSON: true, Now: time.Now(),
		Profiles: []ProfileRef{{ID: "test:a", Provider: "test"}, {ID: "test:b", Provider: "test"}}}, &out, &errb)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got []struct {
		ID                    string
		Preferred, Locked     bool
		PreferredBy, LockedBy []string
	}
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil || len(got) != 2 {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if a := got[0]; a.Locked || a.Preferred || len(a.LockedBy) != 0 || a.LockedBy == nil {
		t.Errorf("test:a = %+v, want no choice and an empty lockedBy", a)
	}
	if b := got[1]; !b.Locked || !reflect.DeepEqual(b.LockedBy, []string{id}) || b.Preferred {
		t.Errorf("test:b = %+v, want locked by %s", b, id)
	}
}
