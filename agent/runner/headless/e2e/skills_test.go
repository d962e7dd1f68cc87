package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// TestRunInvokesSkillsAndTemplates: a skill folder copied into the
// workspace's .claude/skills is listed in the system prompt of the request
// the server receives; `steer run "/skill:pdf hello"` sends its body with
// hello, and a template of .steer/prompts its text with $ARGUMENTS filled
// in. The skill waits for the workspace's trust (a skill tells the model
// to run its scripts); the template, text, does not.
func TestRunInvokesSkillsAndTemplates(t *testing.T) {
	s := newSandbox(t)
	write := func(rel, text string) {
		p := filepath.Join(s.workspace, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".claude/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Extract text from PDF files\n---\nRun pdftotext marker-7731.\n")
	write(".steer/prompts/review.md", "---\ndescription: Review a file\n---\nReview $ARGUMENTS carefully.\n")
	bodies := make(chan string, 4)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies <- string(b)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, openAIChunk(`{"role":"assistant","content":"answered"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
	}))
	t.Cleanup(ts.Close)
	cfg := localConfig(t, ts.URL+"/v1", []string{"m"})

	code, _, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "/skill:pdf hello")
	if code == headless.ExitOK || !strings.Contains(stderr, "this workspace is not trusted: its skills wait for `steer trust`") {
		t.Fatalf("an untrusted workspace's skill ran: exit %d, %s", code, stderr)
	}
	if code, out, errOut := s.run(nil, "trust"); code != 0 || !strings.Contains(out, filepath.Join(".claude", "skills", "pdf")) {
		t.Fatalf("steer trust: exit %d, %q %q; want the skill named", code, out, errOut)
	}
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "/skill:pdf hello")
	if code != headless.ExitOK || !strings.Contains(stdout, "answered") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	system, user := messages(t, <-bodies)
	if !strings.Contains(system, "pdf") || !strings.Contains(system, "Extract text from PDF files") ||
		!strings.Contains(system, filepath.Join(".claude", "skills", "pdf", "SKILL.md")) {
		t.Errorf("the system prompt does not list the skill:\n%s", system)
	}
	if !strings.Contains(user, `<skill name="pdf"`) || !strings.Contains(user, "Run pdftotext marker-7731.") ||
		!strings.HasSuffix(user, "</skill>\n\nhello") {
		t.Errorf("/skill:pdf hello sent:\n%s", user)
	}

	code, stdout, stderr = s.run(nil, "--config", cfg, "--model", "local/m", "run", "/review main.go")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	if _, user := messages(t, <-bodies); user != "Review main.go carefully." {
		t.Errorf("/review main.go sent %q", user)
	}
}

// messages are an OpenAI request's system prompt and its last message's
// text.
func messages(t *testing.T, body string) (system, last string) {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil || len(req.Messages) == 0 {
		t.Fatalf("the request %q: %v", body, err)
	}
	text := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		var parts []struct{ Text string }
		_ = json.Unmarshal(raw, &parts)
		var out []string
		for _, p := range parts {
			out = append(out, p.Text)
		}
		return strings.Join(out, "")
	}
	if req.Messages[0].Role == "system" {
		system = text(req.Messages[0].Content)
	}
	return system, text(req.Messages[len(req.Messages)-1].Content)
}
