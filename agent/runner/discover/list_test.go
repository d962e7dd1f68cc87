package discover

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// ollamaServer answers like Ollama: /api/tags lists the models of shows,
// /api/show answers with the show of the model asked for (a name without
// one gets 404), and /v1/models is never asked.
func ollamaServer(t *testing.T, shows map[string]string, order ...string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/tags", func(w http.ResponseWriter, r *http.Request) {
		var list []map[string]string
		for _, name := range order {
			list = append(list, map[string]string{"name": name, "model": name})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"models": list})
	})
	mux.HandleFunc("POST /api/show", func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Model string }
		if json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		show, ok := shows[req.Model]
		if !ok {
			http.Error(w, `{"error":"model not found"}`, http.StatusNotFound)
			return
		}
		_, _ = w.Write([]byte(show))
	})
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("an Ollama server was asked %s", r.URL.Path)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// openAIServer answers GET /v1/models with body and 404 to anything else,
// as vLLM, llama.cpp and LM Studio do to /api/tags.
func openAIServer(t *testing.T, body string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(body)) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestListOllama(t *testing.T) {
	srv := ollamaServer(t, map[string]string{
		"qwen3:8b": `{"model_info": {"general.architecture": "qwen3", "qwen3.context_length": 40960, "qwen3.embedding_length": 4096},
			"capabilities": ["completion", "tools", "thinking"]}`,
		"llava:7b":         `{"model_info": {"general.architecture": "llama", "llama.context_length": 4096}, "capabilities": ["completion", "vision"]}`,
		"nomic-embed-text": `{"model_info": {"general.architecture": "nomic-bert", "nomic-bert.context_length": 2048}, "capabilities": ["embedding"]}`,
		// An Ollama before capabilities, whose architecture key is unusual.
		"old:latest": `{"model_info": {"general.architecture": "x", "y.context_length": 8192}}`,
	}, "qwen3:8b", "llava:7b", "nomic-embed-text", "old:latest", "unshown:1b")
	got, err := List(context.Background(), srv.Client(), Server{Provider: "box", BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	want := Listing{Kind: Ollama, Models: []agent.Model{
		{ID: "qwen3:8b", ContextWindow: 40960, Reasoning: true},
		{ID: "llava:7b", ContextWindow: 4096, Input: []string{"text", "image"}},
		{ID: "old:latest", ContextWindow: 8192},
		{ID: "unshown:1b"}, // its show failed: listed, nothing known of it
	}}
	assertListing(t, got, want)
}

func TestListOpenAI(t *testing.T) {
	tests := []struct {
		name, body string
		want       []agent.Model
	}{
		{"vLLM", `{"object": "list", "data": [{"id": "Qwen/Qwen3-8B", "object": "model", "max_model_len": 32768}]}`,
			[]agent.Model{{ID: "Qwen/Qwen3-8B", ContextWindow: 32768}}},
		{"OpenRouter", `{"data": [{"id": "a/b", "context_length": 200000, "top_provider": {"context_length": 100}}]}`,
			[]agent.Model{{ID: "a/b", ContextWindow: 200000}}},
		{"llama.cpp", `{"object": "list", "data": [{"id": "local.gguf", "meta": {"n_ctx_train": 131072, "n_vocab": 5}}]}`,
			[]agent.Model{{ID: "local.gguf", ContextWindow: 131072}}},
		{"Groq", `{"data": [{"id": "llama-3.3-70b", "context_window": 131072}]}`, []agent.Model{{ID: "llama-3.3-70b", ContextWindow: 131072}}},
		{"no window, odd fields", `{"data": [{"id": "m1", "context_length": "big"}, {"id": "m2", "max_model_len": 1.5}, {"object": "model"}]}`,
			[]agent.Model{{ID: "m1"}, {ID: "m2"}}},
		{"empty", `{"data": []}`, []agent.Model{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := openAIServer(t, tt.body)
			got, err := List(context.Background(), srv.Client(), Server{Provider: "lab", BaseURL: srv.URL + "/v1/"})
			if err != nil {
				t.Fatal(err)
			}
			assertListing(t, got, Listing{Kind: OpenAI, Models: tt.want})
		})
	}
}

// A server that answers neither API, or not with a list, or not at all, is
// an *Error saying why in a few words.
func TestListFails(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	tests := []struct {
		name    string
		handler http.HandlerFunc // nil: the closed server
		want    string
	}{
		{"neither", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
			"answers neither /api/tags nor /v1/models (HTTP 404)"},
		{"a page for every path", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("<html>hello</html>")) },
			"/v1/models answers with no list of models"},
		{"unauthorized", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/tags" {
				http.NotFound(w, r)
				return
			}
			http.Error(w, "no key", http.StatusUnauthorized)
		}, "answers neither /api/tags nor /v1/models (HTTP 401)"},
		{"hangs", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }, "no answer in time"},
		{"down", nil, "connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := closed.URL
			if tt.handler != nil {
				srv := httptest.NewServer(tt.handler)
				t.Cleanup(srv.Close)
				url = srv.URL
			}
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			_, err := List(ctx, http.DefaultClient, Server{Provider: "box", BaseURL: url + "/v1"})
			var le *Error
			if !errors.As(err, &le) || le.Reason != tt.want || le.Provider != "box" || le.BaseURL != url+"/v1" {
				t.Fatalf("error %#v, want an *Error saying %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), "box") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Error() = %q", err)
			}
		})
	}
}

// Every request carries the provider's key and headers.
func TestListSendsKeyAndHeaders(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.URL.Path+" "+r.Header.Get("Authorization")+" "+r.Header.Get("X-Team"))
		if r.URL.Path != "/openai/v1/models" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"data": [{"id": "m"}]}`))
	}))
	t.Cleanup(srv.Close)
	_, err := List(context.Background(), srv.Client(), Server{Provider: "lab", BaseURL: srv.URL + "/openai/v1",
		APIKey: "sk-1", Headers: map[string]string{"X-Team": "red"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/api/tags Bearer sk-1 red", "/openai/v1/models Bearer sk-1 red"}
	if !slices.Equal(seen, want) {
		t.Errorf("requests %q, want %q", seen, want)
	}
}

func assertListing(t *testing.T, got, want Listing) {
	t.Helper()
	if got.Kind != want.Kind || len(got.Models) != len(want.Models) {
		t.Fatalf("listing %+v, want %+v", got, want)
	}
	for i := range want.Models {
		g, w := got.Models[i], want.Models[i]
		if g.ID != w.ID || g.ContextWindow != w.ContextWindow || g.Reasoning != w.Reasoning || !slices.Equal(g.Input, w.Input) {
			t.Errorf("model %d = %+v, want %+v", i, g, w)
		}
	}
}
