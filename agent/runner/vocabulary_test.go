package runner

import (
	"testing"

	"github.com/steer-tui/steer/failover"
)

// TestDecisionWords: the decision codes front ends compare with are
// failover's.
func TestDecisionWords(t *testing.T) {
	for _, c := range []struct {
		word string
		d    failover.Decision
	}{
		{DecisionContinueNormal, failover.DecisionContinueNormal},
		{DecisionRotateProfile, failover.DecisionRotateProfile},
		{DecisionFallbackModel, failover.DecisionFallbackModel},
		{DecisionSurfaceError, failover.DecisionSurfaceError},
	} {
		if c.word != c.d.String() {
			t.Errorf("%q, failover says %q", c.word, c.d.String())
		}
	}
}
