package lanes

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run when any test leaves a goroutine behind: a waiter
// that never left its queue, or a lane timer nobody stopped.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
