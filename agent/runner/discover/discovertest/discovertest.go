// Package discovertest serves the two APIs package discover lists models
// through, for tests: Ollama's (/api/tags, /api/show) and OpenAI's
// /v1/models as vLLM answers it.
package discovertest

import (
	"encoding/json"
	"net/http"
	"slices"
	"sync/atomic"
)

// Model is one model a fake server offers; ContextWindow 0 leaves the
// window out.
type Model struct {
	ID            string
	ContextWindow int
}

// fakeArch is the architecture the fake Ollama says its models have.
const fakeArch = "fake"

// Ollama answers like Ollama with models: GET /api/tags lists them, POST
// /api/show describes one (model_info's "fake.context_length", the
// completion capability); any other path is 404, /v1/models included.
func Ollama(models ...Model) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/tags", func(w http.ResponseWriter, r *http.Request) {
		list := make([]map[string]string, len(models))
		for i, m := range models {
			list[i] = map[string]string{"name": m.ID, "model": m.ID}
		}
		writeJSON(w, map[string]any{"models": list})
	})
	mux.HandleFunc("POST /api/show", func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Model string }
		_ = json.NewDecoder(r.Body).Decode(&req)
		i := slices.IndexFunc(models, func(m Model) bool { return m.ID == req.Model })
		if i < 0 {
			http.Error(w, `{"error": "model not found"}`, http.StatusNotFound)
			return
		}
		info := map[string]any{"general.architecture": fakeArch}
		if n := models[i].ContextWindow; n > 0 {
			info[fakeArch+".context_length"] = n
		}
		writeJSON(w, map[string]any{"model_info": info, "capabilities": []string{"completion", "tools"}})
	})
	return mux
}

// OpenAI answers GET /v1/models with models as vLLM does (the window in
// max_model_len); any other path is 404, /api/tags included.
func OpenAI(models ...Model) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		data := make([]map[string]any, len(models))
		for i, m := range models {
			data[i] = map[string]any{"id": m.ID, "object": "model"}
			if m.ContextWindow > 0 {
				data[i]["max_model_len"] = m.ContextWindow
			}
		}
		writeJSON(w, map[string]any{"object": "list", "data": data})
	})
	return mux
}

// Switch is a handler that answers every request with 503 while it is
// off, as a server whose models are being reloaded: it lets a test take a
// server away and bring it back on the same address.
type Switch struct {
	Handler http.Handler
	off     atomic.Bool
}

// SetOff turns the server off (true) or on again (false).
func (s *Switch) SetOff(off bool) { s.off.Store(off) }

func (s *Switch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.off.Load() {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	s.Handler.ServeHTTP(w, r)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
