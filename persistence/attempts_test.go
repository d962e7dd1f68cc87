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
