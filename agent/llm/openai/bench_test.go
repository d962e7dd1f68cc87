package openai

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// benchChunks is the length of the benchmark's stream.
const benchChunks = 20_000

// BenchmarkOpenAIStream streams benchChunks text chunks from a loopback
// server through the provider and the kernel's stream, and reports the time
// per chunk.
func BenchmarkOpenAIStream(b *testing.B) {
	var body bytes.Buffer
	for range benchChunks {
		body.WriteString(`data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1782321900,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"tok "},"logprobs":null,"finish_reason":null}]}` + "\n\n")
	}
	body.WriteString(finish("stop") + done)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(body.Bytes())
	}))
	defer srv.Close()
	p := newProvider(b, Config{BaseURL: srv.URL})
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
		if want := benchChunks * len("tok "); n != want {
			msg, _ := stream.Result(context.Background())
			b.Fatalf("%d bytes of text deltas, want %d (%s)", n, want, msg.ErrorMessage)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchChunks), "ns/chunk")
}
