package runner

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// delegating answers a prompt that starts with "delegate" with a task call
// per line, a child's task with "done: TASK", a tool result with "waiting",
// and the merged answers with "got them".
func delegating(ctx context.Context, m agent.Model, llm agent.LLMContext, _ agent.StreamOptions) *agent.AssistantStream {
	out := agent.NewAssistantStream()
	last := llm.Messages[len(llm.Messages)-1]
	go func() {
		w := agent.NewStreamWriter(ctx, out, m, agenttest.Epoch)
		w.Start()
		text := last.TextContent()
		switch {
		case last.Role == agent.RoleToolResult:
			w.TextDelta("waiting")
		case strings.HasPrefix(text, lanes.SteeringPreamble[:20]):
			w.TextDelta("got them")
		case strings.HasPrefix(text, "delegate"):
			for i, line := range strings.Split(text, "\n") {
				task := strings.TrimSpace(strings.TrimPrefix(line, "delegate"))
				w.ToolCallStart("call_"+string(rune('a'+i)), TaskToolName)
				w.ToolCallDelta(`{"task":"` + task + `"}`)
				w.EndBlock()
			}
			w.Finish(agent.StopReasonToolUse)
			return
		default:
			w.TextDelta("done: " + text)
		}
		w.Finish(agent.StopReasonStop)
	}()
	return out
}

// TestSubagentsAnswerInTheSameRun: two delegations run as children in their
// own sessions; their answers come back as one steering message, in the
// parent's one run.
func TestSubagentsAnswerInTheSameRun(t *testing.T) {
	store := openStore(t, t.TempDir())
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: delegating}},
		Store:     store, Workspace: t.TempDir(), Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	stopOnCleanup(t, rt) // its background writes end before the store closes
	var mu sync.Mutex
	ends, childEvents := 0, map[string]int{}
	rt.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.AgentEnd); ok {
			mu.Lock()
			ends++
			mu.Unlock()
		}
	})
	rt.SubscribeChildren(func(id string, ev agent.Event) {
		mu.Lock()
		childEvents[id]++
		mu.Unlock()
	})
	if err := rt.Prompt(context.Background(), "delegate count to three\ndelegate name a colour"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	msgs := rt.State().Messages
	if last := msgs[len(msgs)-1]; last.TextContent() != "got them" {
		t.Fatalf("the parent did not answer the results: %+v", last)
	}
	var merged string // one message, or one per child when they end apart
	for _, m := range msgs {
		if m.Role == agent.RoleUser && strings.HasPrefix(m.TextContent(), lanes.SteeringPreamble) {
			merged += m.TextContent()
		}
	}
	for _, want := range []string{"done: count to three", "done: name a colour"} {
		if !strings.Contains(merged, want) {
			t.Fatalf("the merged steering lacks %q:\n%s", want, merged)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if ends != 1 {
		t.Fatalf("%d agent_end in the parent, want 1", ends)
	}
	if len(childEvents) != 2 {
		t.Fatalf("events from %d children, want 2", len(childEvents))
	}
	sessions, err := store.ListSessions(context.Background(), persistence.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	children := 0
	for _, s := range sessions {
		if s.ParentID == rt.SessionID() {
			children++
		}
	}
	if children != 2 {
		t.Fatalf("%d child sessions saved with the parent's id, want 2", children)
	}
	if pending, _ := store.PendingSteering(context.Background(), rt.SessionID()); len(pending) != 0 {
		t.Fatalf("%d answers left in the steering queue after delivery", len(pending))
	}
}

// TestAbortBetweenPollAndInjectDeliversInTheNextRun: the parent's run is
// aborted just after a drain point took a sub-agent's answer; the answer is
// not injected into the aborted run, its lease is released at once (not
// when it goes stale), and the next run delivers it (S47).
func TestAbortBetweenPollAndInjectDeliversInTheNextRun(t *testing.T) {
	tests := []struct {
		name  string
		store bool
	}{
		{"leased from the database", true},
		{"kept in memory", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{
				Providers: []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: delegating}},
				Workspace: t.TempDir(), Now: agenttest.Clock,
			}
			var store *persistence.Store
			if tt.store {
				store = openStore(t, t.TempDir())
				opts.Store = store
			}
			rt, err := New(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			taken, proceed := make(chan struct{}), make(chan struct{})
			var once sync.Once
			rt.subs.takenHook = func() { once.Do(func() { close(taken); <-proceed }) }
			if err := rt.Prompt(context.Background(), "delegate count to three"); err != nil {
				t.Fatal(err)
			}
			within(t, taken, "the answer to be taken")
			rt.Abort()
			close(proceed)
			waitIdle(t, rt)
			if n := answersIn(rt.State().Messages); n != 0 {
				t.Fatalf("the aborted run injected %d answers", n)
			}
			if store != nil {
				pending, err := store.PendingSteering(context.Background(), rt.SessionID())
				if err != nil || len(pending) != 1 {
					t.Fatalf("after the abort %d answers are pending (%v), want the released one", len(pending), err)
				}
			}
			if err := rt.Prompt(context.Background(), "again"); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, rt)
			msgs := rt.State().Messages
			if n := answersIn(msgs); n != 1 {
				t.Fatalf("the next run injected %d answers, want 1", n)
			}
			if last := msgs[len(msgs)-1]; last.TextContent() != "got them" {
				t.Fatalf("the next run did not answer the result: %+v", last)
			}
		})
	}
}

// answersIn counts the steering messages carrying sub-agents' answers.
func answersIn(msgs []agent.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == agent.RoleUser && strings.HasPrefix(m.TextContent(), lanes.SteeringPreamble) {
			n++
		}
	}
	return n
}
