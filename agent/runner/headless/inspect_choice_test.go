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
	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/persistence"
)

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
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if err := rt.WaitForIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if err := rt.LockProfile(context.Background(), "test:b"); err != nil {
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
	code := Inspect(ctx, InspectOptions{StateDir: dir, Name: "profiles", JSON: true, Saved: inspector.Saved{Now: time.Now(),
		Profiles: []inspector.ProfileRef{{ID: "test:a", Provider: "test"}, {ID: "test:b", Provider: "test"}}}}, &out, &errb)
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
