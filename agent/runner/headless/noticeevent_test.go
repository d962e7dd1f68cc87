package headless

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/persistence"
)

// TestNoticeEventNamesTheFacts: the notices that carry a fact are --json
// events under their event names; a failed save is not (it has its own
// exit status and stderr line).
func TestNoticeEventNamesTheFacts(t *testing.T) {
	for _, tt := range []struct {
		kind runner.NoticeKind
		want string
		ok   bool
	}{
		{runner.NoticeQuarantine, runner.AnnotationQuarantine, true},
		{runner.NoticeQuarantineCleared, "quarantine_cleared", true},
		{runner.NoticeCooldownCleared, "cooldown_cleared", true},
		{runner.NoticeCompaction, "compaction", true},
		{runner.NoticeRunStalled, string(runner.NoticeRunStalled), true},
		{runner.NoticeRunResumed, string(runner.NoticeRunResumed), true},
		{runner.NoticeHook, "hook", true},
		{runner.NoticePersistError, "", false},
		{runner.NoticePersistRecovered, "", false},
	} {
		if got, ok := noticeEvent(tt.kind); got != tt.want || ok != tt.ok {
			t.Errorf("noticeEvent(%s) = %q, %v; want %q, %v", tt.kind, got, ok, tt.want, tt.ok)
		}
	}
}

// TestRunPassesAClearedQuarantineOn: a quarantine cleared while steer run
// runs is a quarantine_cleared {engine} event with --json and a line on
// stderr without it.
func TestRunPassesAClearedQuarantineOn(t *testing.T) {
	for _, jsonOut := range []bool{true, false} {
		store, err := persistence.Open(t.TempDir(), persistence.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		ctx := context.Background()
		if _, err := store.EngineQuarantines().Record(ctx, engines.Quarantine{Engine: "legacy", Method: engines.MethodAssemble,
			Reason: engines.ReasonCrash, Since: agenttest.Clock(), Last: agenttest.Clock(), Count: 1}); err != nil {
			t.Fatal(err)
		}
		script := agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop))
		var rt *runner.Runtime
		cleared := make(chan error, 1)
		stream := func(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
			_, err := rt.ClearQuarantine(ctx, "legacy")
			cleared <- err
			return script.Stream(ctx, m, llm, opts)
		}
		rt, err = runner.New(ctx, runner.Options{Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: stream}},
			Store: store, Workspace: t.TempDir(), Now: agenttest.Clock})
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr strings.Builder
		code := Run(ctx, rt, "hi", RunOptions{JSON: jsonOut}, &stdout, &stderr)
		closeCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_ = rt.Close(closeCtx)
		cancel()
		if err := <-cleared; err != nil || code != ExitOK {
			t.Fatalf("json %v: clear %v, exit %d, stderr %q", jsonOut, err, code, stderr.String())
		}
		line := (runner.QuarantineCleared{Engine: "legacy"}).Line()
		if !jsonOut {
			if !strings.Contains(stderr.String(), line+"\n") {
				t.Errorf("stderr %q, want the line %q", stderr.String(), line)
			}
			continue
		}
		found := false
		for _, l := range strings.Split(stdout.String(), "\n") {
			var ev map[string]any
			if json.Unmarshal([]byte(l), &ev) == nil && ev["type"] == "quarantine_cleared" {
				found = ev["engine"] == "legacy" && ev["sessionId"] == rt.SessionID()
			}
		}
		if !found {
			t.Errorf("stdout %q, want a quarantine_cleared {engine: legacy, sessionId} event", stdout.String())
		}
	}
}
