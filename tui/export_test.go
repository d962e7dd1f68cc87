package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestExportCommand: /export FILE.md writes the saved session as Markdown
// with a key redacted and says where; a second /export to the same file
// is refused and leaves it as it was.
func TestExportCommand(t *testing.T) {
	const key = "sk-proj-FAKEfake0123456789abcdefABCDEF"
	script := agenttest.NewScript(agenttest.Reply().Text("the answer holds " + key).Stop(agent.StopReasonStop))
	host, _ := newStoredHost(t, script.Stream)
	h := newHarness(t, host, 100, 30, func(o *Options) { o.Exporter = host })
	h.typeText("what is the key?")
	h.key(tea.KeyEnter, false)
	h.waitView("the answer holds")
	file := filepath.Join(t.TempDir(), "s.md")
	h.typeText("/export " + file)
	h.key(tea.KeyEnter, false)
	h.waitView("secrets redacted")
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), "what is the key?") || strings.Contains(string(body), key) || !strings.Contains(string(body), "[redacted]") {
		t.Fatalf("the Markdown export:\n%s", body)
	}
	h.typeText("/export " + file)
	h.key(tea.KeyEnter, false)
	h.waitView("not overwritten")
	if again, _ := os.ReadFile(file); string(again) != string(body) {
		t.Fatal("the refused export changed the file")
	}
}
