package bench

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// chunkText is what each streamed chunk adds to the answer.
const chunkText = "tok "

// streamServer is a loopback OpenAI-compatible server answering every chat
// completion with chunks text chunks, unpaced, then usage and [DONE]: the
// same bytes for curl and steer.
func streamServer(b *testing.B, chunks int) *httptest.Server {
	b.Helper()
	var body bytes.Buffer
	for range chunks {
		body.WriteString(`data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1782321900,"model":"m","choices":[{"index":0,"delta":{"content":"` + chunkText + `"},"logprobs":null,"finish_reason":null}]}` + "\n\n")
	}
	body.WriteString(`data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1782321900,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":` + strconv.Itoa(chunks) + `}}` + "\n\ndata: [DONE]\n\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(body.Bytes())
	}))
	b.Cleanup(srv.Close)
	return srv
}
