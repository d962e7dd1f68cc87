package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// fixtureDir is where the recorded streams live: shared/ is a sibling of the
// repository (CI clones it there), four levels up from this package.
const fixtureDir = "../../../../shared/fixtures/sse"

var t0 = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

var testModel = agent.Model{Provider: "openai", ID: "gpt-test", API: "openai-completions"}

// sidecar is the expected result of a recorded stream.
type sidecar struct {
	API           string `json:"api"`
	ExpectedText  string `json:"expected_text"`
	ExpectedCalls []struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
		ID        string         `json:"id"`
	} `json:"expected_tool_calls"`
	ExpectedStop      *string        `json:"expected_stop"`
	ExpectedUsage     map[string]any `json:"expected_usage"`
	ExpectedReasoning string         `json:"expected_reasoning"`
}

type fixture struct {
	name string
	body []byte
	want sidecar
}

// loadFixtures returns the recorded streams of api, skipping the test when
// the shared fixtures are not checked out next to the repository.
func loadFixtures(t testing.TB, api string) []fixture {
	t.Helper()
	sidecars, err := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	if err != nil || len(sidecars) == 0 {
		t.Skipf("no recorded streams at %s (shared/ must be a sibling of the repository)", fixtureDir)
	}
	var out []fixture
	for _, path := range sidecars {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var want sidecar
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if want.API != api {
			continue
		}
		body, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".sse")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fixture{name: strings.TrimSuffix(filepath.Base(path), ".json"), body: body, want: want})
	}
	if len(out) == 0 {
		t.Fatalf("no %s fixtures in %s", api, fixtureDir)
	}
	return out
}

// pieceSizes are the irregular sizes a stream is cut into when served in
// pieces, cycled.
var pieceSizes = []int{1, 7, 3, 13, 2, 29, 5, 64, 11}

// writeSSE writes body as an event stream, whole or in small irregular
// pieces with a flush after each.
func writeSSE(w http.ResponseWriter, body []byte, pieces bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f := w.(http.Flusher)
	if !pieces {
		_, _ = w.Write(body)
		f.Flush()
		return
	}
	for i := 0; len(body) > 0; i++ {
		n := min(pieceSizes[i%len(pieceSizes)], len(body))
		if _, err := w.Write(body[:n]); err != nil {
			return
		}
		f.Flush()
		body = body[n:]
	}
}

// sseServer serves body to every request.
func sseServer(t testing.TB, body []byte, pieces bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		writeSSE(w, body, pieces)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newProvider(t testing.TB, cfg Config) *Provider {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return t0 }
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var simpleContext = agent.LLMContext{
	SystemPrompt: "You are a test.",
	Messages:     []agent.Message{agent.UserMessage("Say hi in Portuguese", t0)},
}

// drain reads every event, then the result.
func drain(t testing.TB, stream *agent.AssistantStream) ([]agent.AssistantEvent, agent.Message) {
	t.Helper()
	var events []agent.AssistantEvent
	for ev := range stream.Events() {
		events = append(events, ev)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := stream.Result(ctx)
	if err != nil {
		t.Fatalf("Result: %v", err)
	}
	return events, msg
}

// ask streams simpleContext from a provider at url.
func ask(t testing.TB, cfg Config) ([]agent.AssistantEvent, agent.Message) {
	t.Helper()
	p := newProvider(t, cfg)
	return drain(t, p.Stream(context.Background(), testModel, simpleContext, agent.StreamOptions{}))
}

// thinkingOf joins the thinking blocks of m.
func thinkingOf(m agent.Message) string {
	var b strings.Builder
	for _, c := range m.Content {
		if c.Type == agent.ContentThinking {
			b.WriteString(c.Thinking)
		}
	}
	return b.String()
}

// jsonValue round-trips v through JSON so that numbers compare as float64.
func jsonValue(t testing.TB, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// bodyTransport answers every request with status and body, without a
// network, for the fuzz target.
type bodyTransport struct {
	status int
	body   []byte
}

func (b bodyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, req.Body)
	_ = req.Body.Close()
	return &http.Response{
		StatusCode: b.status,
		Header:     http.Header{"Content-Type": []string{"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(b.body)),
		Request:    req,
	}, nil
}
