package sandbox_test

import (
	"os"
	"testing"

	"github.com/steer-tui/steer/agent/tools/sandbox"
)

// TestMain lets this test binary be the sandbox's child.
func TestMain(m *testing.M) {
	sandbox.MaybeRunChild()
	os.Exit(m.Run())
}
