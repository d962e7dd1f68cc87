package failover

import "testing"

func TestClassifyResult(t *testing.T) {
	cases := []struct {
		name   string
		r      Result
		want   ResultVerdict
		failed bool
	}{
		{"a visible reply", Result{VisibleText: true, Reasoning: true}, ResultOK, false},
		{"nothing at all", Result{}, ResultEmpty, true},
		{"reasoning only", Result{Reasoning: true}, ResultReasoningOnly, true},
		{"planning only", Result{PlanningOnly: true, Reasoning: true}, ResultPlanningOnly, true},
		{"aborted and empty is never retried", Result{Aborted: true}, ResultAborted, false},
		{"delivered and empty is never retried", Result{Delivered: true}, ResultDelivered, false},
		{"hook-blocked is never retried", Result{HookBlocked: true, Reasoning: true}, ResultHookBlocked, false},
		{"deliberately silent is never retried", Result{Silent: true}, ResultSilent, false},
		{"an abort outranks the other guards", Result{Aborted: true, Delivered: true, Silent: true}, ResultAborted, false},
	}
	for _, c := range cases {
		got := ClassifyResult(c.r)
		if got != c.want || got.Failed() != c.failed {
			t.Errorf("%s: ClassifyResult = %s (failed %v), want %s (failed %v)", c.name, got, got.Failed(), c.want, c.failed)
		}
	}
}
