package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pngHead is the start of a PNG file: enough for steer to know it as one.
const pngHead = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

// recordingServer is an OpenAI-compatible loopback server that answers
// every request with "answered" and hands each request's body to the test.
func recordingServer(t *testing.T) (url string, bodies <-chan string) {
	t.Helper()
	ch := make(chan string, 16)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ch <- string(b)
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta, finish string) string {
			return `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":` + delta +
				`,"finish_reason":` + finish + `}]}` + "\n\n"
		}
		fmt.Fprint(w, chunk(`{"role":"assistant","content":"answered"}`, "null")+chunk(`{}`, `"stop"`)+"data: [DONE]\n\n")
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/v1", ch
}

// mentionConfig is a config with the provider "local" at baseURL and two
// models: "vision" takes images, "plain" only text.
func mentionConfig(t *testing.T, baseURL string) string {
	t.Helper()
	cfg := map[string]any{"providers": map[string]any{"local": map[string]any{
		"api": "openai-chat", "baseURL": baseURL, "models": []map[string]any{
			{"id": "vision", "input": []string{"text", "image"}},
			{"id": "plain", "input": []string{"text"}},
		}}}}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startIn runs steer in workspace ws on model, against config cfg, and
// waits for its first screen, which names the model.
func startIn(t *testing.T, ws, cfg, model string) *pane {
	t.Helper()
	return startPaneShowing(t, fmt.Sprintf("cd %q && exec %q --state-dir %q --config %q --model %q --approve auto",
		ws, steerBin, t.TempDir(), cfg, model), model)
}

// requestBody waits for the next request the server receives.
func requestBody(t *testing.T, bodies <-chan string) string {
	t.Helper()
	select {
	case b := <-bodies:
		return b
	case <-time.After(15 * time.Second):
		t.Fatal("no request reached the server")
		return ""
	}
}

// TestMentionSendsTheFileInTmux: "@READ" and Tab put README.md in the
// editor; the request the server receives carries the file's text with its
// path, and the transcript shows a chip.
func TestMentionSendsTheFileInTmux(t *testing.T) {
	url, bodies := recordingServer(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "README.md"), []byte("# demo\nmarker-8842\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startIn(t, ws, mentionConfig(t, url), "local/vision")
	p.typeText("what is in @READ")
	p.waitFor("the file list", "› README.md", 10*time.Second)
	p.typeText("", "Tab")
	p.waitFor("the completed mention", "› what is in @README.md", 5*time.Second)
	p.typeText("", "Enter")
	body := requestBody(t, bodies)
	if !strings.Contains(body, `path=\"README.md\"`) || !strings.Contains(body, "marker-8842") {
		t.Fatalf("the request does not carry README.md with its path:\n%s", body)
	}
	p.waitFor("the chip", "📎 README.md · 19 B", 10*time.Second)
	p.waitFor("the answer", "answered", 10*time.Second)
}

// TestMentionFirstResultsOnAHugeWorkspace: on a workspace of 100,000
// files, "@" shows entries while the index is still being walked. The
// time it takes is logged; BenchmarkMentionQuery100k holds the target.
func TestMentionFirstResultsOnAHugeWorkspace(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100,000 files")
	}
	ws := t.TempDir()
	for d := range 100 {
		dir := filepath.Join(ws, fmt.Sprintf("pkg%02d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range 1000 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.go", f)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	p := startSteerInFresh(t, ws)
	p.typeText("@")
	took := p.waitFor("the first entries", "› pkg00/", 5*time.Second)
	t.Logf("the first entries were on screen %v after typing @ (polled every 20 ms)", took)
	p.typeText("pkg42/f0999")
	p.waitFor("a file deep in the tree", "› pkg42/f0999.go", 5*time.Second)
}

// startSteerIn is startSteer in workspace ws.
func startSteerInFresh(t *testing.T, ws string) *pane {
	t.Helper()
	return startPaneShowing(t, fmt.Sprintf("cd %q && exec %q --state-dir %q --approve auto", ws, steerBin, t.TempDir()), "scripted/echo")
}

// TestPastedImageInTmux: a pasted (quoted) PNG path becomes a chip, not
// text; sent to a model that takes images, the request carries an image
// block; to a text-only model it is refused on screen, nothing reaches the
// server, and the text and the chip stay in the editor.
func TestPastedImageInTmux(t *testing.T) {
	ws := t.TempDir()
	img := filepath.Join(t.TempDir(), "my shot.png")
	if err := os.WriteFile(img, []byte(pngHead), 0o644); err != nil {
		t.Fatal(err)
	}
	pasted := filepath.Join(t.TempDir(), "pasted.txt")
	if err := os.WriteFile(pasted, []byte("'"+img+"'"), 0o644); err != nil {
		t.Fatal(err)
	}
	chip := "📎 my shot.png · 16 B"
	for _, tc := range []struct {
		model  string
		accept bool
	}{{"local/vision", true}, {"local/plain", false}} {
		t.Run(tc.model, func(t *testing.T) {
			url, bodies := recordingServer(t)
			p := startIn(t, ws, mentionConfig(t, url), tc.model)
			p.typeText("describe ")
			p.paste(pasted)
			p.waitFor("the chip in the editor", chip, 5*time.Second)
			if strings.Contains(p.screen(), "'"+img) {
				t.Fatalf("the path was typed as text:\n%s", p.screen())
			}
			p.typeText("", "Enter")
			if tc.accept {
				body := requestBody(t, bodies)
				if !strings.Contains(body, `"image_url"`) || !strings.Contains(body, "data:image/png;base64,") {
					t.Fatalf("the request carries no image block:\n%s", body)
				}
				p.waitFor("the answer", "answered", 10*time.Second)
				return
			}
			p.waitFor("the refusal", "not sent: plain takes no images", 5*time.Second)
			select {
			case b := <-bodies:
				t.Fatalf("a request reached the server after the refusal:\n%s", b)
			default:
			}
			screen := p.screen()
			if !strings.Contains(screen, "› describe") || !strings.Contains(screen, chip) {
				t.Fatalf("the text and the chip are not back in the editor:\n%s", screen)
			}
		})
	}
}
