package headless

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/discover"
)

// TestRunListsModelsFirst: with ListModels, the servers are asked before
// the prompt, once the notices are said: one that is down is a line on
// stderr, and the answer still comes. Without it nothing is asked.
func TestRunListsModelsFirst(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	for _, list := range []bool{false, true} {
		cache := discover.NewCache([]discover.Server{{Provider: "box", BaseURL: down.URL + "/v1"}}, discover.Options{})
		defer cache.Close()
		rt, _ := newRuntime(t, agenttest.NewScript(agenttest.Reply().Text("Hello").Stop(agent.StopReasonStop)), runner.Options{Discovery: cache})
		var stdout, stderr strings.Builder
		if code := Run(context.Background(), rt, "hi", RunOptions{ListModels: list}, &stdout, &stderr); code != ExitOK {
			t.Fatalf("ListModels %v: exit %d, stderr %q", list, code, stderr.String())
		}
		told := strings.Contains(stderr.String(), "⚠ cannot list the models of box ("+down.URL+"/v1): connection refused")
		if told != list || stdout.String() != "Hello\n" {
			t.Errorf("ListModels %v: stdout %q, stderr %q", list, stdout.String(), stderr.String())
		}
	}
}
