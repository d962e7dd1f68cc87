package persistence

import (
	"reflect"
	"testing"
	"time"
)

func TestRunAttemptsKeepTheirOrder(t *testing.T) {
	f := newFixture(t)
	want := []Attempt{
		{Profile: "openai:a", Model: "openai/gpt-4.1", Reason: "rate_limit", Decision: "rotate_profile", Duration: 120 * time.Millisecond, Ended: at(1)},
		{Profile: "openai:b", Model: "openai/gpt-4.1", Duration: 900 * time.Millisecond, Ended: at(2)},
	}
	for _, a := range want {
		if err := f.store.AppendAttempt(f.ctx, testRun, a); err != nil {
			t.Fatal(err)
		}
	}
	got, err := f.store.RunAttempts(f.ctx, testRun)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i].Ended = got[i].Ended.UTC()
		want[i].Ended = want[i].Ended.UTC()
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("attempts\n got %+v\nwant %+v", got, want)
	}
	if other, err := f.store.RunAttempts(f.ctx, "nope"); err != nil || len(other) != 0 {
		t.Fatalf("attempts of an unknown run: %v, %v", other, err)
	}
	if err := f.store.AppendAttempt(f.ctx, "nope", want[0]); err == nil {
		t.Fatal("an attempt of an unknown run was recorded")
	}
}

func TestListRunsNewestFirstWithAttemptCounts(t *testing.T) {
	f := newFixture(t)
	if err := f.store.AppendAttempt(f.ctx, testRun, Attempt{Profile: "p:a", Model: "p/m", Reason: "rate_limit", Ended: at(1)}); err != nil {
		t.Fatal(err)
	}
	later := Run{ID: "r_later", SessionID: testSession, Trigger: "user", Started: at(5)}
	if err := f.store.BeginRun(f.ctx, later); err != nil {
		t.Fatal(err)
	}
	if err := f.store.EndRun(f.ctx, later.ID, "completed", "", at(6)); err != nil {
		t.Fatal(err)
	}
	runs, err := f.store.ListRuns(f.ctx, RunsOptions{SessionID: testSession})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) < 2 || runs[0].ID != "r_later" || runs[0].Outcome != "completed" || runs[0].Attempts != 0 {
		t.Fatalf("runs %+v", runs)
	}
	var first RunSummary
	for _, r := range runs {
		if r.ID == testRun {
			first = r
		}
	}
	if first.Attempts != 1 {
		t.Fatalf("the first run has %d attempts, want 1", first.Attempts)
	}
	if one, err := f.store.ListRuns(f.ctx, RunsOptions{Limit: 1}); err != nil || len(one) != 1 {
		t.Fatalf("limit 1: %d runs, %v", len(one), err)
	}
	if none, err := f.store.ListRuns(f.ctx, RunsOptions{SessionID: "s_nope"}); err != nil || none == nil || len(none) != 0 {
		t.Fatalf("another session: %v, %v", none, err)
	}
}
