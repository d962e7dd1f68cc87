package anthropic

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// benchEvents is the number of text deltas in the benchmark's stream.
const benchEvents = 20_000

// BenchmarkAnthropicStream streams benchEvents text deltas from a loopback
// server through the provider and the kernel's stream, and reports the time
// per delta: BenchmarkOpenAIStream's twin.
func BenchmarkAnthropicStream(b *testing.B) {
	var body bytes.Buffer
	body.WriteString(messageStart(10, 0, 0) + blockStart(0, `{"type":"text","text":""}`))
	for range benchEvents {
		body.WriteString(textDelta(0, "tok "))
	}
	body.WriteString(blockStop(0) + messageEnd("end_turn", benchEvents))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(body.Bytes())
	}))
	defer srv.Close()
	p := newProvider(b, Config{BaseURL: srv.URL, APIKey: "sk-ant-bench"})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		stream := p.Stream(context.Background(), testModel, llmtest.Prompt, agent.StreamOptions{})
		n := 0 // bytes of text: the deltas of what one read brought are one event
		for ev := range stream.Events() {
			if ev.Type == agent.EventTextDelta {
				n += len(ev.Delta)
			}
		}
		if want := benchEvents * len("tok "); n != want {
			msg, _ := stream.Result(context.Background())
			b.Fatalf("%d bytes of text deltas, want %d (%s)", n, want, msg.ErrorMessage)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchEvents), "ns/event")
}
