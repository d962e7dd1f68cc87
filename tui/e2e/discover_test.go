package e2e

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/discover/discovertest"
)

// discoveryNotice starts the notice of box's outage.
const discoveryNotice = "⚠ cannot list the models of box"

// TestDiscoveredModelsInThePicker: two loopback servers, one speaking
// Ollama's API and one OpenAI's /v1/models, behind providers with
// "discover": true. /model lists the models of both, marked, with their
// context windows (the configured model keeps its own). Once the Ollama
// server stops, /model says so once, however often it is opened, and no
// longer lists its models.
func TestDiscoveredModelsInThePicker(t *testing.T) {
	box := httptest.NewServer(discovertest.Ollama(discovertest.Model{ID: "qwen3:8b", ContextWindow: 40960},
		discovertest.Model{ID: "llama3.2:latest", ContextWindow: 131072}))
	defer box.Close()
	lab := httptest.NewServer(discovertest.OpenAI(discovertest.Model{ID: "served", ContextWindow: 32768},
		discovertest.Model{ID: "Qwen/Qwen3-8B", ContextWindow: 65536}))
	defer lab.Close()
	cfg := map[string]any{"providers": map[string]any{
		"box": map[string]any{"api": "openai-chat", "baseURL": box.URL + "/v1", "discover": true},
		"lab": map[string]any{"api": "openai-chat", "baseURL": lab.URL + "/v1", "discover": true,
			"models": []any{map[string]any{"id": "served", "name": "Served", "contextWindow": 8192}}},
	}}
	raw, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, fmt.Sprintf("exec %q --state-dir %q --config %q --model scripted/echo", steerBin, t.TempDir(), path))

	p.typeText("/model", "Enter")
	p.waitFor("the model picker", "type to filter", 10*time.Second)
	p.waitFor("the Ollama server's models", "box/llama3.2:latest", 5*time.Second)
	screen := p.screen()
	for _, row := range [][]string{
		{"box/qwen3:8b", "discovered · 40k context"},
		{"box/llama3.2:latest", "discovered · 131k context"},
		{"lab/served", "Served · 8k context"},
		{"lab/Qwen/Qwen3-8B", "discovered · 65k context"},
	} {
		if !rowWith(screen, row...) {
			t.Errorf("the picker has no row with %q:\n%s", row, screen)
		}
	}
	p.closeOverlay("type to filter")
	if strings.Contains(p.screen(), discoveryNotice) {
		t.Fatalf("an outage told while both servers answer:\n%s", p.screen())
	}

	box.Close()
	for range 3 {
		p.typeText("/model", "Enter")
		p.waitFor("the model picker", "type to filter", 10*time.Second)
		if screen := p.screen(); strings.Contains(screen, "box/qwen3:8b") || !strings.Contains(screen, "lab/served") {
			t.Fatalf("the picker after box stopped:\n%s", screen)
		}
		p.closeOverlay("type to filter")
	}
	p.waitFor("the notice", discoveryNotice, 5*time.Second)
	screen = p.screen()
	if n := strings.Count(screen, discoveryNotice); n != 1 {
		t.Fatalf("the outage told %d times:\n%s", n, screen)
	}
	if !strings.Contains(screen, "connection refused") {
		t.Errorf("the notice does not say why:\n%s", screen)
	}
}
