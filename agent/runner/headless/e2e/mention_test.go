package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// TestRunAttachesMentionedFiles: `steer run "what is in @README.md"`
// sends the file's text, with its path, to the server, as the TUI does; a
// mention of nothing stays text.
func TestRunAttachesMentionedFiles(t *testing.T) {
	s := newSandbox(t)
	if err := os.WriteFile(filepath.Join(s.workspace, "README.md"), []byte("marker-5521\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bodies := make(chan string, 4)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies <- string(b)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, openAIChunk(`{"role":"assistant","content":"answered"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
	}))
	t.Cleanup(ts.Close)
	cfg := localConfig(t, ts.URL+"/v1", []string{"m"})
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "what is in @README.md, asks @someone")
	if code != headless.ExitOK || !strings.Contains(stdout, "answered") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	body := <-bodies
	if !strings.Contains(body, `path=\"README.md\"`) || !strings.Contains(body, "marker-5521") || !strings.Contains(body, "asks @someone") {
		t.Fatalf("the request does not carry README.md with its path:\n%s", body)
	}
}
