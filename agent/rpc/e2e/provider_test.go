package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// localServer serves a recorded chat-completions stream as an
// OpenAI-compatible server on loopback would.
func localServer(t *testing.T, fixture string) (url, wantText string) {
	t.Helper()
	fx := llmtest.LoadFixture(t, fixture)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(fx.Body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", fx.Want.ExpectedText
}

// writeConfig writes a config with one local OpenAI-compatible provider.
func writeConfig(t *testing.T, baseURL string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.json")
	cfg := fmt.Sprintf(`{
  "providers": {
    "local": {
      "api": "openai-chat",
      "baseURL": %q,
      "models": [ { "id": "recorded", "contextWindow": 32768 } ]
    }
  }
}`, baseURL)
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunAgainstALocalOpenAIServer(t *testing.T) {
	url, want := localServer(t, "openai_chat_text_usage")
	cfg := writeConfig(t, url)
	cmd := steer(t, "--config", cfg, "run", "--model", "local/recorded", "say hi in Portuguese")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("steer run: %v\n%s", err, out)
	}
	if got := strings.TrimRight(string(out), "\n"); got != want {
		t.Fatalf("steer run printed %q, want %q", got, want)
	}
}

// eventTypes runs `steer run --json` and returns its event types, with runs
// of message_update collapsed into one.
func eventTypes(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := steer(t, append([]string{"run", "--json"}, args...)...).Output()
	if err != nil {
		t.Fatalf("steer run --json %v: %v", args, err)
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var ev struct{ Type string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		if n := len(types); n > 0 && ev.Type == "message_update" && types[n-1] == "message_update" {
			continue
		}
		types = append(types, ev.Type)
	}
	return types
}

func TestJSONEventsMatchTheScriptedProvider(t *testing.T) {
	url, _ := localServer(t, "openai_chat_text_usage")
	cfg := writeConfig(t, url)
	local := eventTypes(t, "--config", cfg, "--model", "local/recorded", "hi")
	offline := eventTypes(t, "hi")
	if !slices.Equal(local, offline) {
		t.Fatalf("events differ\nlocal:   %v\nscripted: %v", local, offline)
	}
	want := []string{"session", "agent_start", "turn_start", "message_start", "message_end",
		"attempt_start", "message_start", "message_update", "attempt_end", "message_end", "turn_end", "agent_end", "run_end"}
	if !slices.Equal(local, want) {
		t.Fatalf("events = %v, want %v", local, want)
	}
}

func TestConfigErrorsExitTwo(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "config.json")
	os.WriteFile(bad, []byte("{\n  \"providers\": {\n    \"local\": { \"api\": \"openai-chat\", \"baseUrl\": \"http://127.0.0.1:1/v1\" }\n  }\n}\n"), 0o600)
	tests := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"unknown key", []string{"--config", bad, "run", "hi"}, nil, `config.json:3: unknown key "providers.local.baseUrl"`},
		{"missing file", []string{"--config", filepath.Join(dir, "nope.json"), "run", "hi"}, nil, "nope.json"},
		{"unknown model", []string{"run", "--model", "nope/x", "hi"}, nil, "nope/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := steer(t, tt.args...)
			cmd.Env = append(cmd.Env, tt.env...)
			out, err := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != 2 {
				t.Fatalf("exit %d (%v), want 2; output:\n%s", code, err, out)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tt.want) {
				t.Fatalf("output %q, want one line containing %q", out, tt.want)
			}
		})
	}
}

func TestKeysNeverReachTheOutput(t *testing.T) {
	const key = "sk-test-secret-value-1234567890"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s","type":"invalid_request_error","code":"invalid_api_key"}}`, key)
	}))
	defer srv.Close()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`{"providers":{"local":{"api":"openai-chat","baseURL":%q,
		"profiles":[{"id":"local:main","apiKeyEnv":"LOCAL_KEY"}],"models":[{"id":"m"}]}}}`, srv.URL+"/v1")), 0o600)
	state := t.TempDir()
	cmd := steerIn(state, t.TempDir(), "--config", cfg, "run", "--json", "--model", "local/m", "hi")
	cmd.Env = append(cmd.Env, "LOCAL_KEY="+key)
	out, _ := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit %d, want 1 (a 401); output:\n%s", code, out)
	}
	if strings.Contains(string(out), key) {
		t.Fatalf("the key appears in the output:\n%s", out)
	}
	logs, _ := os.ReadFile(filepath.Join(state, "logs", "steer.log"))
	db, _ := os.ReadFile(filepath.Join(state, "steer.db"))
	wal, _ := os.ReadFile(filepath.Join(state, "steer.db-wal"))
	for name, data := range map[string][]byte{"log": logs, "database": db, "wal": wal} {
		if strings.Contains(string(data), key) {
			t.Errorf("the key appears in the %s", name)
		}
	}
}
