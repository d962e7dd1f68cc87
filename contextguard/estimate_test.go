package contextguard

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestEstimateMessage(t *testing.T) {
	text400 := strings.Repeat("a", 400)
	cases := []struct {
		name string
		m    agent.Message
		want int
	}{
		{"empty", agent.Message{Role: agent.RoleUser}, 15},                                // 12 × 1.2 = 14.4
		{"user text /4", userAt(text400, t0), 142},                                        // (12+6+100) × 1.2 = 141.6
		{"assistant text /4", assistantText(text400), 142},                                //
		{"tool result /2", toolResultOf(text400), 262},                                    // (12+6+200) × 1.2
		{"tool call /3", assistantCall("c1", "read", map[string]any{"path": "a.go"}), 30}, // id 2 + name 4 + {"path":"a.go"} 15 = 21 → 7; (12+6+7) × 1.2
		{"image 2,000", agent.Message{Role: agent.RoleUser, Content: []agent.Content{image()}}, 2_422},
		{"thinking /4 and text", agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{
			{Type: agent.ContentThinking, Thinking: strings.Repeat("t", 40), Signature: strings.Repeat("s", 4_000)},
			agent.Text(strings.Repeat("x", 40))}}, 53}, // (12 + 6+10 + 6+10) × 1.2 = 52.8; the signature is not counted
		{"bytes, not runes", userAt(strings.Repeat("é", 200), t0), 142}, // 400 bytes
	}
	for _, c := range cases {
		if got := EstimateMessage(c.m); got != c.want {
			t.Errorf("%s: %d tokens, want %d", c.name, got, c.want)
		}
	}
}

func TestEstimateContext(t *testing.T) {
	llm := agent.LLMContext{
		SystemPrompt: strings.Repeat("s", 400),
		Tools:        []agent.ToolSpec{{Name: "read", Description: "reads a file", Parameters: json.RawMessage(strings.Repeat("p", 30))}},
		Messages:     []agent.Message{userAt(strings.Repeat("a", 400), t0)},
	}
	// system (12 + 100) + tool (6 + 16/4 + 30/3) = 132 → 158.4 → 159; the message 142
	if got := EstimateContext(llm); got != 159+142 {
		t.Fatalf("EstimateContext = %d, want %d", got, 159+142)
	}
	if got := NewEstimator().Context(llm); got != 159+142 {
		t.Fatalf("Estimator.Context = %d, want %d", got, 159+142)
	}
}

func TestEstimatorRemembersMessagesNotSlices(t *testing.T) {
	e := NewEstimator()
	msgs := []agent.Message{userAt("hello there", t0), assistantText("hi"), toolResultOf(boring(1_000))}
	want := EstimateMessage(msgs[0]) + EstimateMessage(msgs[1]) + EstimateMessage(msgs[2])
	if got := e.Messages(msgs); got != want {
		t.Fatalf("first measure %d, want %d", got, want)
	}
	copied := append([]agent.Message(nil), msgs...) // another slice, the same messages
	copied = append(copied, userAt("next", t0))
	if got := e.Messages(copied); got != want+EstimateMessage(copied[3]) {
		t.Fatalf("measure of the grown transcript %d", got)
	}
	if len(e.cur) != 4 {
		t.Fatalf("%d entries remembered, want 4 (copies share an entry)", len(e.cur))
	}

	// A changed message has a new content slice and is measured anew.
	changed := msgs[2].Clone()
	changed.Content[0].Text = boring(100)
	if got, want := e.Message(changed), EstimateMessage(changed); got != want {
		t.Fatalf("changed message measured %d, want %d", got, want)
	}
	// An in-place edit that changes a length is noticed too.
	msgs[0].Content[0].Text = strings.Repeat("z", 4_000)
	if got, want := e.Message(msgs[0]), EstimateMessage(msgs[0]); got != want {
		t.Fatalf("edited message measured %d, want %d", got, want)
	}
}

func TestEstimatorGenerationsStayCorrect(t *testing.T) {
	e := NewEstimator()
	msgs := make([]agent.Message, maxCachedMessages*2+10)
	want := 0
	for i := range msgs {
		msgs[i] = userAt(strings.Repeat("w", i%500), t0)
		want += EstimateMessage(msgs[i])
	}
	for range 3 {
		if got := e.Messages(msgs); got != want {
			t.Fatalf("measure %d, want %d", got, want)
		}
	}
	if len(e.cur) > maxCachedMessages || len(e.prev) > maxCachedMessages {
		t.Fatalf("cache grew past its generations: %d + %d", len(e.cur), len(e.prev))
	}
}

func TestEstimatorConcurrentUse(t *testing.T) {
	e := NewEstimator()
	msgs := []agent.Message{userAt("a", t0), toolResultOf(boring(3_000)), assistantText("b")}
	want := e.Messages(msgs)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if got := e.Messages(msgs); got != want {
					t.Errorf("measure %d, want %d", got, want)
				}
			}
		})
	}
	wg.Wait()
}
