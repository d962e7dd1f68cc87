// Package status is the one-line bar under the editor: the model in use, the
// thinking level, the run state with a spinner and elapsed time, the tokens
// spent and how full the model's context window is. It also shows one-line
// hints and errors until the next key.
package status

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/sanitize"
	"github.com/steer-tui/steer/tui/theme"
)

// Deps is what the bar needs from its owner.
type Deps struct {
	Styles theme.StatusStyles
	// Now reads the clock for the elapsed time; it defaults to time.Now.
	Now func() time.Time
}

// Model is the status bar.
type Model struct {
	d        *Deps // shared by copies; never changed after New
	width    int
	spin     spinner.Model
	model    agent.Model
	thinking agent.ThinkingLevel
	running  bool
	started  time.Time
	now      time.Time
	in, out  int // tokens read and written this session
	context  int // tokens the last response saw
	hint     string
	isError  bool
	view     string
}

// New returns an idle bar.
func New(d Deps) Model {
	if d.Now == nil {
		d.Now = time.Now
	}
	m := Model{d: &d, width: 80, spin: spinner.New(spinner.WithSpinner(spinner.Dot))}
	m.render()
	return m
}

// SetSize sets the width.
func (m *Model) SetSize(width int) {
	if width = max(width, 1); width != m.width {
		m.width = width
		m.render()
	}
}

// Running reports whether a run is active.
func (m Model) Running() bool { return m.running }

// Spinner returns the current spinner frame, which running tool blocks show
// too.
func (m Model) Spinner() string { return strings.TrimSpace(ansi.Strip(m.spin.View())) }

// ClearHint removes the hint or error; the root calls it on every key.
func (m *Model) ClearHint() {
	if m.hint != "" {
		m.hint, m.isError = "", false
		m.render()
	}
}

// Update folds run events, settings and hints into the bar. While a run is
// active it keeps its spinner ticking.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case msgs.RunEventMsg:
		var changed bool
		if cmd, changed = m.events(msg.Events); !changed {
			return m, nil // deltas change nothing here
		}
	case msgs.SessionLoadedMsg:
		m.model, m.thinking = msg.Model, msg.Thinking
		m.in, m.out, m.context = 0, 0, 0
		for _, mm := range msg.Messages {
			m.count(mm)
		}
		if msg.Running && !m.running {
			cmd = m.start()
		}
	case msgs.ModelChangedMsg:
		m.model = msg.Model
	case msgs.ThinkingChangedMsg:
		m.thinking = msg.Level
	case msgs.HintMsg:
		m.hint, m.isError = msg.Text, false
	case msgs.ErrorMsg:
		m.hint, m.isError = msg.Error(), true
	case spinner.TickMsg:
		if !m.running {
			return m, nil // let the tick chain stop
		}
		m.spin, cmd = m.spin.Update(msg)
		m.now = m.d.Now()
	default:
		return m, nil
	}
	m.render()
	return m, cmd
}

func (m *Model) events(events []agent.Event) (cmd tea.Cmd, changed bool) {
	for _, ev := range events {
		switch e := ev.(type) {
		case agent.AgentStart:
			if !m.running {
				cmd = m.start()
			}
			changed = true
		case agent.AgentEnd:
			m.running, changed = false, true
		case agent.MessageEnd:
			m.count(e.Message)
			changed = true
		}
	}
	return cmd, changed
}

func (m *Model) start() tea.Cmd {
	m.running, m.started = true, m.d.Now()
	m.now = m.started
	return m.spin.Tick
}

func (m *Model) count(msg agent.Message) {
	if msg.Role != agent.RoleAssistant {
		return
	}
	u := msg.Usage
	m.in += u.Input + u.CacheRead + u.CacheWrite
	m.out += u.Output
	if seen := u.Input + u.CacheRead + u.CacheWrite + u.Output; seen > 0 {
		m.context = seen
	}
}

// Height is always one line.
func (m Model) Height() int { return 1 }

// View returns the bar.
func (m Model) View() string { return m.view }

func (m *Model) render() {
	st := m.d.Styles
	left := m.left()
	if m.hint != "" {
		style := st.Info
		if m.isError {
			style = st.Error
		}
		left = style.Render(sanitize.String(strings.ReplaceAll(m.hint, "\n", " "), sanitize.Options{}))
	}
	parts := m.right()
	// Drop parts from the right until the bar fits, then cut the left side.
	for {
		right := strings.Join(parts, st.Dim.Render(" · "))
		gap := m.width - ansi.StringWidth(left) - ansi.StringWidth(right)
		if gap >= 1 || len(parts) <= 1 {
			if gap < 1 {
				left = ansi.Truncate(left, max(m.width-ansi.StringWidth(right)-1, 0), "…")
				gap = max(m.width-ansi.StringWidth(left)-ansi.StringWidth(right), 0)
			}
			m.view = ansi.Truncate(left+strings.Repeat(" ", gap)+right, m.width, "")
			return
		}
		parts = parts[:len(parts)-1]
	}
}

func (m *Model) left() string {
	st := m.d.Styles
	name := m.model.Ref()
	if m.model.ID == "" {
		name = "no model"
	}
	s := st.Model.Render(sanitize.String(name, sanitize.Options{}))
	if m.model.Provider == "scripted" {
		s += st.Dim.Render(" (offline)")
	}
	level := string(m.thinking)
	if level == "" {
		level = string(agent.ThinkingOff)
	}
	return s + st.Dim.Render(" · thinking "+level)
}

// right returns the run state, tokens and context meter, most important
// first.
func (m *Model) right() []string {
	st := m.d.Styles
	state := st.Idle.Render("idle")
	if m.running {
		state = st.Running.Render(m.Spinner() + " working " + elapsed(m.now.Sub(m.started)))
	}
	parts := []string{state}
	parts = append(parts, st.Dim.Render(fmt.Sprintf("↑%s ↓%s", tokens(m.in), tokens(m.out))))
	if w := m.model.ContextWindow; w > 0 {
		parts = append(parts, m.meter(float64(m.context)/float64(w)))
	}
	return parts
}

// meter draws context use as five cells and a percentage.
func (m *Model) meter(frac float64) string {
	st := m.d.Styles
	frac = min(max(frac, 0), 1)
	full := int(frac*5 + 0.5)
	style := st.Meter
	if frac >= 0.8 {
		style = st.Warning
	}
	return st.Dim.Render("ctx ") + style.Render(strings.Repeat("▰", full)) +
		st.MeterEmpty.Render(strings.Repeat("▱", 5-full)) + st.Dim.Render(fmt.Sprintf(" %d%%", int(frac*100+0.5)))
}

func elapsed(d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

func tokens(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// Model returns the model the bar shows.
func (m Model) Model() agent.Model { return m.model }
