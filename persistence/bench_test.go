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

// BenchmarkAppendConcurrentProcesses runs four writer processes on one state
// directory, each appending ~1 KB assistant messages to its own session, and
// reports the 99th percentile of a single append across all four (p99-ms);
// b.N appends are shared among them. "paced" has each process append every
// 4 ms, starting together — 1,000 appends a second in all, far more than
// four agents write, yet below what the machine can do, so that it measures
// waiting for the other writers; "saturated" has them append back to back,
// so that four processes compete for two cores and it measures the
// scheduler as much as the database.
func BenchmarkAppendConcurrentProcesses(b *testing.B) {
	for _, bb := range []struct {
		name string
		pace time.Duration
	}{
		{"paced", 4 * time.Millisecond},
		{"saturated", 0},
	} {
		b.Run(bb.name, func(b *testing.B) { benchmarkAppendProcesses(b, 4, bb.pace) })
	}
}

func benchmarkAppendProcesses(b *testing.B, writers int, pace time.Duration) {
	dir := b.TempDir()
	per := max(b.N/writers, 1)
	env := append(appendEnv(per, false), helperPaceEnv+"="+pace.String())
	var children []*child
	for i := range writers {
		children = append(children, startChild(b, "append", dir, fmt.Sprintf("w%d", i), env...))
	}
	for _, c := range children {
		c.expect("ready")
	}
	b.ResetTimer()
	for _, c := range children {
		c.send("go")
	}
	var durations []time.Duration
	for _, c := range children {
		durations = append(durations, c.durations()...)
	}
	b.StopTimer()
	slices.Sort(durations)
	p99 := durations[(len(durations)*99)/100]
	b.ReportMetric(float64(p99)/float64(time.Millisecond), "p99-ms")
	b.ReportMetric(float64(durations[len(durations)/2])/float64(time.Millisecond), "p50-ms")
}
