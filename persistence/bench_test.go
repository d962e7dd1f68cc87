package persistence

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// typicalAssistant is an assistant message of about 1 KB of JSON.
func typicalAssistant(n int) agent.Message {
	m := assistantText(strings.Repeat(fmt.Sprintf("Step %d: the change compiles and the tests pass. ", n), 12), n)
	m.Content = append(m.Content, agent.ToolCall(fmt.Sprintf("call_%d", n), "read", map[string]any{"path": "persistence/store.go"}))
	m.StopReason = agent.StopReasonToolUse
	return m
}

// typicalTranscript is n messages of about 1 KB each, in the pattern of a
// working session: a prompt, then tool calls and their results.
func typicalTranscript(n int) []agent.Message {
	msgs := make([]agent.Message, n)
	for i := range msgs {
		switch {
		case i%50 == 0:
			msgs[i] = user(strings.Repeat("Please look into the failing test and fix it. ", 20), i)
		case i%2 == 1:
			msgs[i] = typicalAssistant(i)
		default:
			msgs[i] = toolResult(fmt.Sprintf("call_%d", i-1), "read", strings.Repeat("func open(dir string) error { return nil }\n", 22), i)
		}
	}
	return msgs
}

func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	s.Close()
	for b.Loop() {
		s, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkAppendMessage appends ~1 KB assistant messages one by one and
// reports the 99th percentile of a single append.
func BenchmarkAppendMessage(b *testing.B) {
	f := newFixture(b)
	msg := typicalAssistant(1)
	if enc, _ := json.Marshal(msg); len(enc) < 900 || len(enc) > 1300 {
		b.Fatalf("the message is %d bytes of JSON, want about 1 KB", len(enc))
	}
	var durations []time.Duration
	for b.Loop() {
		start := time.Now()
		if err := f.store.AppendMessage(f.ctx, testSession, testRun, msg); err != nil {
			b.Fatal(err)
		}
		durations = append(durations, time.Since(start))
	}
	slices.Sort(durations)
	p99 := durations[(len(durations)*99)/100]
	b.ReportMetric(float64(p99)/float64(time.Millisecond), "p99-ms")
}

// BenchmarkLoadSession10k loads a 10,000-message session, written once in one
// batch before the timer starts.
func BenchmarkLoadSession10k(b *testing.B) {
	const n = 10_000
	f := newFixture(b)
	if err := f.store.RewriteTranscript(f.ctx, testSession, testRun, typicalTranscript(n)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		msgs, err := f.store.LoadTranscript(f.ctx, testSession)
		if err != nil || len(msgs) != n {
			b.Fatalf("loaded %d messages, %v", len(msgs), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(time.Millisecond), "ms/load")
}
