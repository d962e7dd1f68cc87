package tui

import (
	"context"
	"slices"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

// The pickers filter as the user types: these run the real program
// (teatest), type into a picker or the command list, and compare the last
// frame with a golden (regenerate with go test ./tui -run Filter -update).

// manyModels is a runtime with models of several providers, the scripted
// one in use.
func manyModels(t *testing.T) *runner.Host {
	t.Helper()
	script := agenttest.NewScript()
	model := func(provider string, ids ...string) []agent.Model {
		var out []agent.Model
		for _, id := range ids {
			out = append(out, agent.Model{Provider: provider, ID: id, Name: id, ContextWindow: 200_000})
		}
		return out
	}
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{
			{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream},
			{Name: "anthropic", Models: model("anthropic", "claude-opus-4-8", "claude-opus-4-1", "claude-sonnet-4-6", "claude-haiku-4-5"), Stream: script.Stream},
			{Name: "openai", Models: model("openai", "gpt-5", "gpt-5-mini", "gpt-5.3-codex", "o3", "o3-mini"), Stream: script.Stream},
		},
		Now: agenttest.Clock,
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
	})
	return h
}

// lastFrame stops the program and returns its model, whose view it checks
// against the golden file.
func lastFrame(t *testing.T, tm *teatest.TestModel) Model {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	view := final.View()
	checkSize(t, view, 80, 24)
	golden.RequireEqual(t, []byte(view))
	return final
}

// measured is the status line's context meter once the empty session has
// been measured (a Cmd, which the goldens must not race).
const measured = "184/100k"

// TestFilterModelPicker: typing part of a model's id narrows the picker to
// that one model, and Enter switches to it.
func TestFilterModelPicker(t *testing.T) {
	tm := startProgram(t, manyModels(t))
	waitOutput(t, tm, measured)
	tm.Type("/model")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "type to filter", "● test/scripted-test")
	tm.Type("opus-4-8")
	waitOutput(t, tm, "1 of 10")
	final := lastFrame(t, tm)
	if len(final.dialogs) != 1 {
		t.Fatalf("%d dialogs open", len(final.dialogs))
	}
	if got := final.dialogs[0].Matches(); !slices.Equal(got, []string{"anthropic/claude-opus-4-8"}) {
		t.Fatalf("the picker shows %q, want the one model", got)
	}
}

// TestFilterModelPickerChooses: Backspace widens, ↓ selects among the
// matches, Enter takes the selected one.
func TestFilterModelPickerChooses(t *testing.T) {
	h := newHarness(t, manyModels(t), 80, 24)
	h.typeText("/model")
	h.key(tea.KeyEnter, false)
	h.waitFor("the model picker", func(m Model) bool { return len(m.dialogs) == 1 })
	h.typeText("o3-m")
	if got := h.m.dialogs[0].Matches(); !slices.Equal(got, []string{"openai/o3-mini"}) {
		t.Fatalf("o3-m shows %q", got)
	}
	h.key(tea.KeyBackspace, false)
	h.key(tea.KeyBackspace, false)
	if got := h.m.dialogs[0].Matches(); !slices.Equal(got, []string{"openai/o3", "openai/o3-mini"}) {
		t.Fatalf("backspace widened to %q", got)
	}
	h.key(tea.KeyDown, false)
	h.key(tea.KeyEnter, false)
	h.waitView("model: openai/o3-mini")
}

// TestFilterSessionPicker: the session picker's search, the session on
// screen marked.
func TestFilterSessionPicker(t *testing.T) {
	rt := newStoredRuntime(t, "s_a", "s_b")
	if err := rt.SwitchSession(context.Background(), "s_a"); err != nil { // a fixed id for the golden
		t.Fatal(err)
	}
	fake := &fakeSessions{list: []SessionSummary{
		{ID: "s_a", Title: "quarterly numbers", Updated: epoch.Add(-time.Minute), Messages: 2},
		{ID: "s_b", Title: "quarterly report", Updated: epoch.Add(-2 * time.Minute), Messages: 4},
		{ID: "s_c", Title: "fix the flaky test", Updated: epoch.Add(-3 * time.Hour), Messages: 9},
	}}
	tm := startProgramAt(t, rt, &fakeClock{t: epoch}, func(o *Options) { o.Sessions = fake })
	waitOutput(t, tm, measured)
	tm.Type("/sessions")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "type to search", "fix the flaky test")
	tm.Type("quar")
	waitOutput(t, tm, "[quar]terly report")
	final := lastFrame(t, tm)
	if got := final.dialogs[0].Matches(); len(got) != 2 {
		t.Fatalf("the picker shows %q, want the two quarterly sessions", got)
	}
}

// TestFilterCommandList: the command list narrows fuzzily as a command is
// typed.
func TestFilterCommandList(t *testing.T) {
	tm := startProgram(t, newRuntime(t, nil))
	waitOutput(t, tm, measured)
	tm.Type("/thk")
	waitOutput(t, tm, "/thinking")
	final := lastFrame(t, tm)
	if !final.input.PopupOpen() {
		t.Fatal("the list is closed")
	}
}

// TestThinkingPickerMarksOff: a session that never set a level is off, and
// the picker marks off.
func TestThinkingPickerMarksOff(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24)
	h.typeText("/thinking")
	h.key(tea.KeyEnter, false)
	h.waitView("› ● off")
}

// The model picker says of each model its name, whether only its server
// lists it, and its window; or only why it cannot be used.
func TestModelDetail(t *testing.T) {
	tests := []struct {
		model      agent.Model
		problem    string
		discovered bool
		want       string
	}{
		{agent.Model{ID: "a", Name: "Opus", ContextWindow: 200_000}, "", false, "Opus · 200k context"},
		{agent.Model{ID: "qwen3:8b", ContextWindow: 40960}, "", true, "discovered · 40k context"},
		{agent.Model{ID: "extra"}, "", true, "discovered"},
		{agent.Model{ID: "bare"}, "", false, ""},
		{agent.Model{ID: "a", Name: "Opus", ContextWindow: 200_000}, "ANTHROPIC_API_KEY is not set", false, "unusable: ANTHROPIC_API_KEY is not set"},
	}
	for _, tt := range tests {
		if got := modelDetail(tt.model, tt.problem, tt.discovered); got != tt.want {
			t.Errorf("modelDetail(%+v, %q, %v) = %q, want %q", tt.model, tt.problem, tt.discovered, got, tt.want)
		}
	}
}

// TestDiscoveryNotices: a server that cannot list its models, and its
// return, get a line each in the transcript.
func TestDiscoveryNotices(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 120, 20)
	h.send(msgs.NoticeArrivedMsg{Notice: runner.Notice{Kind: runner.NoticeDiscoveryFailed,
		Text: "cannot list the models of box (http://127.0.0.1:11434/v1): connection refused"}})
	h.waitView("⚠ cannot list the models of box (http://127.0.0.1:11434/v1): connection refused; /model asks again")
	h.send(msgs.NoticeArrivedMsg{Notice: runner.Notice{Kind: runner.NoticeDiscoveryRecovered, Text: "box lists its models again: 2 models"}})
	h.waitView("box lists its models again: 2 models")
}
