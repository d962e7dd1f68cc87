package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/tui/msgs"
)

// TestKeyScopes checks, in every state the UI can be in, that each binding
// that applies has help text and that no key is bound twice: help and
// behaviour come from the same declarations, so this keeps them honest.
func TestKeyScopes(t *testing.T) {
	h, probe := runWithGate(t)
	defer close(probe.release)
	h.typeText("queued")
	h.key(tea.KeyEnter, false)
	h.waitFor("a queued item", func(m Model) bool { return len(m.queue.Items()) == 1 })

	states := []struct {
		name  string
		setup func(m Model) Model
	}{
		{"editor, running, queue", func(m Model) Model { return m }},
		{"editor idle", func(m Model) Model { m.running = false; return m }},
		{"completion open", func(m Model) Model { m.input.SetValue("/"); return m }},
		{"history walk", func(m Model) Model { m.input, _ = m.input.Update(tea.KeyMsg{Type: tea.KeyUp}); return m }},
		{"history search", func(m Model) Model { m.input, _ = m.input.Update(tea.KeyMsg{Type: tea.KeyCtrlR}); return m }},
		{"transcript", func(m Model) Model { return m.setFocus(focusChat) }},
		{"transcript idle", func(m Model) Model { m.running = false; return m.setFocus(focusChat) }},
		{"queue", func(m Model) Model { return m.setFocus(focusQueue) }},
		{"dialog", func(m Model) Model { m, _ = m.handleOpenThinking(); return m }},
		{"picker filtering", func(m Model) Model {
			m, _ = m.handleOpenThinking()
			m.dialogs[0], _ = m.dialogs[0].Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("hi")})
			return m
		}},
		{"session picker", func(m Model) Model {
			m, _ = m.handleSessionsListed(msgs.SessionsListedMsg{Sessions: []SessionSummary{{ID: "s_a", Title: "a"}}})
			return m
		}},
		{"tree", func(m Model) Model {
			m, _ = m.handleTreeLoaded(treeLoadedMsg{tree: runner.SessionTree{Leaf: "e1", Entries: []runner.HistoryEntry{
				{ID: "e1", Kind: runner.HistoryMessage, Message: agent.UserMessage("hello", epoch)}}}})
			return m
		}},
		{"inspector", func(m Model) Model { m, _ = m.handleOpenInspector(msgs.InspectTrace); return m }},
		{"badge", func(m Model) Model {
			m, _ = m.handleHealth(msgs.HealthChangedMsg{Engines: runner.EnginesView{Quarantines: make([]engines.Quarantine, 1)}})
			return m
		}},
	}
	for _, st := range states {
		t.Run(st.name, func(t *testing.T) {
			m := st.setup(h.m)
			m.refresh()
			seen := map[string]string{}
			for _, b := range m.scope() {
				if !b.Enabled() {
					continue
				}
				help := b.Help()
				if help.Key == "" || help.Desc == "" {
					t.Errorf("binding %v has no help text", b.Keys())
				}
				for _, k := range b.Keys() {
					if prev, dup := seen[k]; dup {
						t.Errorf("key %q is bound to both %q and %q", k, prev, help.Desc)
					}
					seen[k] = help.Desc
				}
			}
			if len(seen) == 0 {
				t.Fatal("no bindings in scope")
			}
		})
	}
}

// scope is every binding that may take a key in the current state, by the
// ladder of handleKey.
func (m Model) scope() []key.Binding {
	if n := len(m.dialogs); n > 0 {
		return append(bindings(m.dialogs[n-1].Keys().FullHelp()), m.keys.Quit)
	}
	if m.treeOpen {
		return append(bindings(m.tree.Keys().FullHelp()), m.keys.Quit)
	}
	if m.inspecting {
		return append(bindings(m.inspector.Keys().FullHelp()), m.keys.Quit)
	}
	all := m.keys.all()
	switch m.focus {
	case focusInput:
		all = append(all, bindings(m.input.Keys().FullHelp())...)
		all = append(all, m.input.EditKeys().Bindings()...)
	case focusChat:
		all = append(all, bindings(m.chat.Keys().FullHelp())...)
	case focusQueue:
		all = append(all, m.queue.Keys().ShortHelp()...)
	}
	return all
}

func TestHelpLineFollowsState(t *testing.T) {
	h, probe := runWithGate(t)
	if !strings.Contains(h.m.View(), "esc interrupt") || !strings.Contains(h.m.View(), "enter steer") {
		t.Fatalf("while running the help line should offer steer and interrupt:\n%s", h.m.helpLine)
	}
	if strings.Contains(h.m.helpLine, "edit queued") {
		t.Fatal("take-back offered with an empty queue")
	}
	h.typeText("later")
	h.key(tea.KeyEnter, false)
	h.waitFor("take-back in the help", func(m Model) bool { return strings.Contains(m.helpLine, "alt+↑ edit queued") })
	close(probe.release)
	h.waitFor("idle help", func(m Model) bool {
		return !m.running && strings.Contains(m.helpLine, "enter send") && !strings.Contains(m.helpLine, "interrupt")
	})
}

func TestUnknownCommandHint(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24)
	h.typeText("/frobnicate now")
	h.key(tea.KeyEnter, false)
	h.waitFor("the hint", func(m Model) bool { return strings.Contains(m.status.View(), "unknown command /frobnicate") })
	h.typeText("x")
	if strings.Contains(h.m.status.View(), "unknown command") {
		t.Fatal("the hint did not clear on the next key")
	}
	// A path is text, not a command.
	h.m.input.Reset()
	if cmd := h.m.input.Value(); cmd != "" {
		t.Fatal(cmd)
	}
}

func TestThinkingCommandAndPicker(t *testing.T) {
	rt := newRuntime(t, nil)
	h := newHarness(t, rt, 80, 24)
	h.typeText("/thinking high")
	h.key(tea.KeyEnter, false)
	h.waitFor("thinking high", func(m Model) bool { return strings.Contains(m.status.View(), "thinking high") })
	if got := rt.State().Thinking; got != agent.ThinkingHigh {
		t.Fatalf("runtime thinking = %q", got)
	}
	h.typeText("/thinking")
	h.key(tea.KeyEnter, false)
	h.waitFor("the picker", func(m Model) bool { return len(m.dialogs) == 1 })
	h.waitView("› ● high") // the level in force, marked and selected
	h.key(tea.KeyDown, false)
	h.key(tea.KeyEnter, false)
	h.waitFor("xhigh", func(m Model) bool { return len(m.dialogs) == 0 && strings.Contains(m.status.View(), "thinking xhigh") })
}

func TestModelPicker(t *testing.T) {
	rt := newRuntime(t, nil)
	h := newHarness(t, rt, 80, 24)
	h.typeText("/mo")
	h.key(tea.KeyTab, false)
	if got := h.m.input.Value(); got != "/model " {
		t.Fatalf("tab completed to %q", got)
	}
	h.key(tea.KeyEnter, false)
	h.waitFor("the model picker", func(m Model) bool { return len(m.dialogs) == 1 })
	if !strings.Contains(h.m.View(), "test/scripted-test") {
		t.Fatalf("the picker does not list the model:\n%s", h.m.View())
	}
	h.key(tea.KeyEnter, false)
	h.waitView("model: test/scripted-test")
}

func TestModelPickerMarksUnusableModels(t *testing.T) {
	script := agenttest.NewScript()
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{
			{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream},
			{Name: "anthropic", Models: []agent.Model{{Provider: "anthropic", ID: "claude-x", Name: "Claude X"}},
				Stream: script.Stream, Unusable: "ANTHROPIC_API_KEY is not set"},
		},
		Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, rt, 100, 24)
	h.typeText("/model")
	h.key(tea.KeyEnter, false)
	h.waitFor("the model picker", func(m Model) bool { return len(m.dialogs) == 1 })
	if v := h.m.View(); !strings.Contains(v, "anthropic/claude-x") || !strings.Contains(v, "unusable: ANTHROPIC_API_KEY is not set") {
		t.Fatalf("the picker does not mark the unusable model:\n%s", v)
	}
}
