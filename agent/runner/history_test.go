package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

func histMsg(text string, n int) agent.Message {
	return agent.UserMessage(text, time.UnixMilli(int64(n)))
}

func textsOf(ms []agent.Message) string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.TextContent()
	}
	return strings.Join(out, ",")
}

func earlierOf(es []HistoryEntry) string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Message.TextContent()
		if e.Kind == HistoryContext {
			out[i] = "⟲"
		}
	}
	return strings.Join(out, ",")
}

// TestSplitHistory: the model sees the latest context entry's messages and
// what follows; the screen shows before them everything else, each message
// once and each compaction's marker where it happened.
func TestSplitHistory(t *testing.T) {
	a, b, c, d, e := histMsg("a", 1), histMsg("b", 2), histMsg("c", 3), histMsg("d", 4), histMsg("e", 5)
	sum1, sum2 := histMsg("sum1", 10), histMsg("sum2", 11)
	message := func(m agent.Message) HistoryEntry { return HistoryEntry{Kind: HistoryMessage, Message: m} }
	context := func(ms ...agent.Message) HistoryEntry { return HistoryEntry{Kind: HistoryContext, Context: ms} }
	tests := []struct {
		name             string
		history          []HistoryEntry
		earlier, context string
	}{
		{"never compacted", []HistoryEntry{message(a), message(b)}, "", "a,b"},
		{"compacted, keeping b", []HistoryEntry{message(a), message(b), context(sum1, b), message(c)}, "a,⟲", "sum1,b,c"},
		{"compacted twice", []HistoryEntry{message(a), message(b), context(sum1, b), message(c), message(d),
			context(sum2, d), message(e)}, "a,b,⟲,c,⟲", "sum2,d,e"},
		{"compacted last", []HistoryEntry{message(a), context(sum1)}, "a,⟲", "sum1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			earlier, ctx := splitHistory(tt.history)
			if got := earlierOf(earlier); got != tt.earlier {
				t.Errorf("earlier = %q, want %q", got, tt.earlier)
			}
			if got := textsOf(ctx); got != tt.context {
				t.Errorf("context = %q, want %q", got, tt.context)
			}
		})
	}
}

// TestReplacedEntries: a live rewrite adds to the earlier history what the
// new context no longer holds, then the marker.
func TestReplacedEntries(t *testing.T) {
	a, b, c, sum := histMsg("a", 1), histMsg("b", 2), histMsg("c", 3), histMsg("sum", 9)
	truncatedB := b
	truncatedB.Content = []agent.Content{agent.Text("b, cut")}
	tests := []struct {
		name string
		ev   agent.ContextReplaced
		want string
	}{
		{"a compaction keeping c", agent.ContextReplaced{Replaced: []agent.Message{a, b, c}, Messages: []agent.Message{sum, c}}, "a,b,⟲"},
		{"a truncation keeps every message", agent.ContextReplaced{Replaced: []agent.Message{a, b}, Messages: []agent.Message{a, truncatedB}}, "⟲"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := earlierOf(replacedEntries(tt.ev, time.UnixMilli(100))); got != tt.want {
				t.Errorf("entries = %q, want %q", got, tt.want)
			}
		})
	}
}
