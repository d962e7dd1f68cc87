package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
)

// mentionHost is a host working in a workspace holding files, its index
// walked, with the scripted provider playing responses; the harness gets
// it as Options.Mentions, as RunTerminal gives it.
func mentionHost(t *testing.T, files map[string]string, responses ...*agenttest.Response) (*runner.Host, string) {
	t.Helper()
	ws := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: agenttest.NewScript(responses...).Stream}},
		Now:       agenttest.Clock, Workspace: ws,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := runner.NewHost(rt)
	t.Cleanup(func() {
		h.AbortWith(runner.AbortQuit)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.WaitForIdle(ctx)
		_ = h.Close(ctx)
	})
	if err := h.FileIndex().Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	return h, ws
}

var mentionFiles = map[string]string{"README.md": "# steer\n", "main.go": "package main\n", "logo.png": "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}

// TestGoldenMentionList: "@READ" lists README.md; Tab puts it in the text.
func TestGoldenMentionList(t *testing.T) {
	host, _ := mentionHost(t, mentionFiles)
	h := newHarness(t, host, 80, 24, func(o *Options) { o.Mentions = host })
	h.typeText("what is in @READ")
	h.waitView("› README.md")
	checkGolden(t, h, 80, 24)
	h.key(tea.KeyTab, false)
	if got := h.m.input.Value(); got != "what is in @README.md " {
		t.Fatalf("after Tab the editor holds %q", got)
	}
}

// TestGoldenMentionChips: the sent message shows its file as a chip, and
// an image picked after "@" waits in the editor as a chip of its own.
func TestGoldenMentionChips(t *testing.T) {
	host, _ := mentionHost(t, mentionFiles, agenttest.Reply().Text("It says steer.").Stop(agent.StopReasonStop))
	h := newHarness(t, host, 80, 24, func(o *Options) { o.Mentions = host })
	h.typeText("what is in @README.md")
	h.key(tea.KeyEnter, false) // picks README.md from the list
	h.key(tea.KeyEnter, false) // sends
	h.waitView("📎 README.md · 8 B", "It says steer.")
	h.waitFor("the run to end", func(m Model) bool { return !m.running })
	h.typeText("and @logo")
	h.waitView("› logo.png")
	h.key(tea.KeyTab, false)
	h.waitView("📎 logo.png · 16 B")
	if got := h.m.input.Value(); got != "and " {
		t.Fatalf("the image stayed in the text: %q", got)
	}
	checkGolden(t, h, 80, 24)
	h.send(tea.KeyMsg{Type: tea.KeyCtrlX})
	if v := h.m.View(); strings.Contains(v, "📎 logo.png") {
		t.Fatalf("ctrl+x left the chip:\n%s", v)
	}
}
