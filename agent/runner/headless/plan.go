package headless

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/tools"
)

// A run in plan mode (--plan) ends by naming its plan file: on stderr,
// "steer: plan: PATH", or that no plan was written to it; with --json, a
// last event plan_file {path, written}.

// EventPlanFile is the type of --json's last event in plan mode.
const EventPlanFile = "plan_file"

// PlanFileInfo is its Data: the session's plan file and whether the model
// wrote a plan to it.
type PlanFileInfo struct {
	Path    string `json:"path"`
	Written bool   `json:"written"`
}

// planWritten reports whether path holds a plan.
func planWritten(path string) bool {
	raw, err := os.ReadFile(path)
	return err == nil && strings.TrimSpace(string(raw)) != ""
}

// reportPlan says where the plan of a run in plan mode is, writing out
// under mu, which guards it; it says nothing in the other modes.
func reportPlan(rt *runner.Runtime, asJSON bool, mu *sync.Mutex, out *bufio.Writer, flush *flusher, stderr io.Writer) {
	if rt.ApprovalMode() != tools.ModePlan {
		return
	}
	path, sessionID := rt.PlanFile(), rt.SessionID()
	written := planWritten(path)
	if asJSON {
		mu.Lock()
		defer mu.Unlock()
		writeJSONEvent(out, agent.Annotation{Kind: EventPlanFile, Data: PlanFileInfo{Path: path, Written: written}}, sessionID)
		flush.flush()
		return
	}
	if written {
		fmt.Fprintf(stderr, "steer: plan: %s\n", path)
		return
	}
	fmt.Fprintf(stderr, "steer: plan mode: no plan was written to %s\n", path)
}
