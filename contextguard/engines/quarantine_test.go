package engines

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestQuarantineMerge(t *testing.T) {
	at := func(s int) time.Time { return epoch.Add(time.Duration(s) * time.Second) }
	first := Quarantine{Engine: "e", Method: MethodAssemble, Reason: ReasonCrash, Error: "exit status 3", Since: at(1), Last: at(1), Count: 1}
	later := Quarantine{Engine: "e", Method: MethodCompact, Reason: ReasonTimeout, Error: "no answer", Since: at(5), Last: at(5), Count: 1}
	cases := []struct {
		name    string
		q, next Quarantine
		want    Quarantine
	}{
		{"nothing recorded yet", Quarantine{}, first, first},
		{"the first failure wins", first, later,
			Quarantine{Engine: "e", Method: MethodAssemble, Reason: ReasonCrash, Error: "exit status 3", Since: at(1), Last: at(5), Count: 2}},
		{"counts add up", Quarantine{Engine: "e", Method: MethodIngest, Reason: ReasonError, Since: at(1), Last: at(2), Count: 4},
			Quarantine{Engine: "e", Method: MethodCompact, Reason: ReasonPanic, Since: at(3), Last: at(3), Count: 2},
			Quarantine{Engine: "e", Method: MethodIngest, Reason: ReasonError, Since: at(1), Last: at(3), Count: 6}},
		{"a late report of an earlier failure keeps Last", Quarantine{Engine: "e", Method: MethodInfo, Reason: ReasonError, Since: at(1), Last: at(9), Count: 1},
			later, Quarantine{Engine: "e", Method: MethodInfo, Reason: ReasonError, Since: at(1), Last: at(9), Count: 2}},
		{"a count below one counts one", Quarantine{}, Quarantine{Engine: "e", Method: MethodInfo, Reason: ReasonError, Since: at(2), Last: at(2)},
			Quarantine{Engine: "e", Method: MethodInfo, Reason: ReasonError, Since: at(2), Last: at(2), Count: 1}},
		{"only Last is known", Quarantine{}, Quarantine{Engine: "e", Method: MethodInfo, Reason: ReasonError, Last: at(2), Count: 1},
			Quarantine{Engine: "e", Method: MethodInfo, Reason: ReasonError, Since: at(2), Last: at(2), Count: 1}},
		{"only Since is known", Quarantine{}, Quarantine{Engine: "e", Method: MethodInfo, Reason: ReasonError, Since: at(2), Count: 1},
			Quarantine{Engine: "e", Method: MethodInfo, Reason: ReasonError, Since: at(2), Last: at(2), Count: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.q.Merge(tc.next); got != tc.want {
				t.Errorf("Merge =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

func TestReasonOf(t *testing.T) {
	cases := []struct {
		err  error
		want Reason
	}{
		{errors.New("plain"), ReasonError},
		{&Failure{Reason: ReasonCrash, Err: errors.New("exit")}, ReasonCrash},
		{fmt.Errorf("call: %w", &Failure{Reason: ReasonInvalidOutput, Err: errors.New("junk")}), ReasonInvalidOutput},
		{&RemoteError{Message: "no"}, ReasonError},
	}
	for _, tc := range cases {
		if got := ReasonOf(tc.err); got != tc.want {
			t.Errorf("ReasonOf(%v) = %s, want %s", tc.err, got, tc.want)
		}
	}
}
