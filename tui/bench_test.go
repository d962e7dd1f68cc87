package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

// BenchmarkStreamRender measures what one streamed delta costs: folding it
// into the root model (the open markdown block re-renders) and producing the
// next frame with View. history finished messages sit above the streaming
// one; the cost must not grow with them.
func BenchmarkStreamRender(b *testing.B) {
	for _, history := range []int{10, 1000} {
		b.Run(fmt.Sprintf("history=%d", history), func(b *testing.B) {
			m := benchModel(history)
			snaps := streamSnapshots(400)
			m = benchUpdate(m, msgs.RunEventMsg{RunID: 1, Events: []agent.Event{
				agent.AgentStart{}, agent.MessageStart{Message: assistant("")},
			}})
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				i++
				snap := snaps[i%len(snaps)]
				m = benchUpdate(m, msgs.RunEventMsg{RunID: 1, Events: []agent.Event{agent.MessageUpdate{
					Message: snap, Event: agent.AssistantEvent{Type: agent.EventTextDelta, Delta: "word "},
				}}})
				_ = m.View()
			}
		})
	}
}

func benchUpdate(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

// benchModel is a 120×40 root model with history finished exchanges.
func benchModel(history int) Model {
	m := New(nil, Options{Theme: theme.Dark(), Profile: termenv.ANSI256, Now: fixedClock})
	m = benchUpdate(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	var transcript []agent.Message
	for i := 0; i < history; i++ {
		if i%2 == 0 {
			transcript = append(transcript, agent.Message{Role: agent.RoleUser, Content: []agent.Content{agent.Text(fmt.Sprintf("question %d", i))}})
			continue
		}
		transcript = append(transcript, assistant(finishedAnswer(i)))
	}
	return benchUpdate(m, msgs.SessionLoadedMsg{SessionID: "s_bench", Messages: transcript, Model: agent.Model{Provider: "test", ID: "bench", ContextWindow: 100000}})
}

func assistant(text string) agent.Message {
	return agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text(text)}, StopReason: agent.StopReasonStop}
}

func finishedAnswer(i int) string {
	return fmt.Sprintf("## Answer %d\n\nHere is a paragraph with **bold** and `code` that wraps over a line or two "+
		"when the terminal is narrow enough.\n\n- first point\n- second point\n\n```go\nfunc f() int { return %d }\n```\n", i, i)
}

// streamSnapshots returns n growing texts, one word more each, with a blank
// line every forty words so that blocks finish as they would in a real
// answer.
func streamSnapshots(n int) []agent.Message {
	snaps := make([]agent.Message, n)
	var b strings.Builder
	for i := range snaps {
		if i > 0 && i%40 == 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "word%d ", i)
		snaps[i] = assistant(b.String())
	}
	return snaps
}
