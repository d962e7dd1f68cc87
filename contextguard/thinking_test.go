package contextguard

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

func thinkingAt(at time.Time, signature string, redacted bool) agent.Message {
	return agent.Message{Role: agent.RoleAssistant, Timestamp: at, Content: []agent.Content{
		{Type: agent.ContentThinking, Thinking: "let me think", Signature: signature, Redacted: redacted},
		agent.Text("answer"),
	}}
}

func TestStripStaleThinkingSignatures(t *testing.T) {
	before, compacted, after := t0, t0.Add(time.Hour), t0.Add(2*time.Hour)
	summary := SummaryMessage("earlier work", compacted)
	cases := []struct {
		name      string
		msgs      []agent.Message
		stripped  []int // messages whose signatures go
		redaction []int // messages whose redacted block goes
	}{
		{"no summary, nothing stripped", []agent.Message{thinkingAt(before, "sig", false)}, nil, nil},
		{"kept tail after the summary is older: stripped", []agent.Message{summary, thinkingAt(before, "sig", false), thinkingAt(after, "sig2", false)}, []int{1}, nil},
		{"messages before the summary: stripped", []agent.Message{thinkingAt(before, "sig", false), summary}, []int{0}, nil},
		{"redacted blocks are dropped", []agent.Message{summary, thinkingAt(before, "opaque", true)}, nil, []int{1}},
		{"the newest summary counts", []agent.Message{SummaryMessage("first", before), thinkingAt(before.Add(time.Minute), "s", false), summary, thinkingAt(after, "s2", false)}, []int{1}, nil},
		{"unsigned thinking untouched", []agent.Message{summary, thinkingAt(before, "", false)}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stored := deepCopy(c.msgs)
			out := StripStaleThinkingSignatures(c.msgs)
			if !reflect.DeepEqual(c.msgs, stored) {
				t.Fatal("the input was modified")
			}
			for i, m := range out {
				wantStripped, wantDropped := slices.Contains(c.stripped, i), slices.Contains(c.redaction, i)
				switch {
				case wantDropped:
					if len(m.Content) != 1 || m.Content[0].Type != agent.ContentText {
						t.Fatalf("message %d keeps its redacted block", i)
					}
				case wantStripped:
					if m.Content[0].Signature != "" || m.Content[0].Thinking != "let me think" {
						t.Fatalf("message %d: %+v", i, m.Content[0])
					}
				default:
					if !reflect.DeepEqual(m, c.msgs[i]) {
						t.Fatalf("message %d changed", i)
					}
				}
			}
		})
	}
}

func TestSummaryMessage(t *testing.T) {
	m := SummaryMessage("## Goal\nship it", t0)
	if text, ok := SummaryText(m); !ok || text != "## Goal\nship it" || m.Role != agent.RoleUser || !m.Timestamp.Equal(t0) {
		t.Fatalf("round trip: %q %v", text, ok)
	}
	for _, m := range []agent.Message{userAt("## Goal\nship it", t0), assistantText(m.TextContent())} {
		if IsSummary(m) {
			t.Fatalf("%s message taken for a summary", m.Role)
		}
	}
}
