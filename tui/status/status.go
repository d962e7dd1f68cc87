// Package status is the one-line bar under the editor: the model and the
// auth profile in use, the thinking level, the run state with a spinner and
// elapsed time, a badge while auth profiles cannot be used or context
// engines are quarantined, the tokens and money spent, and how full the
// next request would be (a meter coloured by the context guard's route). It
// also shows one-line hints and errors until the next key (or for a set
// time), and a warning line above the bar while the session cannot be
// saved. A run the runner calls stalled (no progress for
// runner.StallAfter) says so instead of "working".
package status

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
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
	d        *Deps // shared by copies; changed only by SetStyles
	width    int
	spin     spinner.Model
	model    agent.Model
	thinking agent.ThinkingLevel
	running  bool
	started  time.Time
	now      time.Time
	in, out  int     // tokens read and written this session
	context  int     // tokens the last response saw
	cost     float64 // US dollars this session
	// streamed estimates the tokens of the answer streaming now (a quarter
	// of its characters) until message_end brings the provider's count.
	streamed int
	// streamedIn is the input the provider reported for the answer
	// streaming now (Anthropic says it as the message starts); 0 until it
	// does, when the meter's measure of the request stands in for it.
	streamedIn int
	hint       string
	hintID     uint64 // counts hints, so that an old hint's expiry is ignored
	isError    bool
	warning    string // why saving fails, while it does
	// profile is the auth profile of the latest attempt, answering its
	// model (another than model after a fallback); both are of sessionID.
	profile, answering string
	sessionID          string
	// wait is why the run makes no progress, while it makes none.
	wait runWait
	// stalled is when the run last made progress, while the runner calls
	// it stalled (run_stalled until run_resumed or the run's end).
	stalled time.Time
	// meter is the latest measure of the next request, once measured.
	meter    runner.ContextMeter
	measured bool
	// The badge: the profiles in cooldown and disabled and the context
	// engines in quarantine, as last read.
	cooling, disabled, quarantined int
	// background are the sessions whose runs go on while this one shows.
	background []runner.BackgroundRun
	// subagent says that the session shown is a sub-agent's, read-only.
	subagent bool
	// compacting says that a /compact is under way: no run, but not idle.
	compacting bool
	// mode is the session's approval mode; plan mode is shown.
	mode runner.ApprovalMode
	view string
}

// HintExpiredMsg reports that the hint numbered ID has been shown for its
// time (msgs.HintMsg.For). The root routes it to the bar, which clears the
// hint unless a newer one replaced it.
type HintExpiredMsg struct{ ID uint64 }

// New returns an idle bar.
func New(d Deps) Model {
	if d.Now == nil {
		d.Now = time.Now
	}
	m := Model{d: &d, width: 80, spin: spinner.New(spinner.WithSpinner(spinner.Dot))}
	m.render()
	return m
}

// SetStyles changes the styles (a theme chosen with /theme).
func (m *Model) SetStyles(st theme.StatusStyles) {
	m.d.Styles = st
	m.render()
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

// SetCompacting says whether a /compact is under way; the root calls it as
// one starts and ends, so that no key clears it as keys clear hints.
func (m *Model) SetCompacting(on bool) {
	if on != m.compacting {
		m.compacting = on
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
		m.model, m.thinking, m.warning, m.subagent = msg.Model, msg.Thinking, msg.PersistError, msg.Subagent
		m.mode = msg.Approval
		if msg.SessionID != m.sessionID { // the last attempt was another session's
			m.profile, m.answering, m.sessionID = "", "", msg.SessionID
		}
		m.wait, m.stalled = loaded(msg.Approvals), msg.Stalled
		m.in, m.out, m.context, m.cost, m.streamed = 0, 0, 0, 0, 0
		for _, mm := range msg.Messages {
			m.count(mm)
		}
		switch {
		case msg.Running && !m.running:
			cmd = m.start()
			if !msg.RunStarted.IsZero() { // a run switched to: its own elapsed time
				m.started = msg.RunStarted
			}
		case msg.Running:
			if !msg.RunStarted.IsZero() {
				m.started = msg.RunStarted
			}
		case !msg.Running:
			m.running = false
		}
	case msgs.ModelChangedMsg:
		if msg.Model.Ref() != m.model.Ref() {
			m.profile, m.answering = "", "" // the last attempt served another model
		}
		m.model, m.measured = msg.Model, false
	case msgs.ContextMeasuredMsg:
		m.meter, m.measured = msg.Meter, true
	case msgs.HealthChangedMsg:
		m.health(msg)
	case msgs.ThinkingChangedMsg:
		m.thinking = msg.Level
	case msgs.NoticeArrivedMsg:
		switch msg.Notice.Kind {
		case runner.NoticePersistError:
			m.warning = msg.Notice.Text
		case runner.NoticePersistRecovered:
			m.warning = ""
		case runner.NoticeRunStalled, runner.NoticeRunResumed:
			if !m.stall(msg.Notice) {
				return m, nil
			}
		case runner.NoticeApprovalMode:
			info, ok := msg.Notice.Data.(runner.ApprovalModeInfo)
			if !ok {
				return m, nil
			}
			m.mode = info.Mode
		default:
			return m, nil
		}
	case msgs.HintMsg:
		m.hintID++
		m.hint, m.isError = msg.Text, false
		if msg.For > 0 {
			id := m.hintID
			cmd = tea.Tick(msg.For, func(time.Time) tea.Msg { return HintExpiredMsg{ID: id} })
		}
	case HintExpiredMsg:
		if msg.ID != m.hintID || m.hint == "" {
			return m, nil
		}
		m.hint, m.isError = "", false
	case msgs.ErrorMsg:
		m.hintID++
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
	now := m.d.Now()
	for _, ev := range events {
		if m.wait.fold(ev, now) {
			m.now, changed = now, true
		}
		switch e := ev.(type) {
		case agent.AgentStart:
			if !m.running {
				cmd = m.start()
			}
			m.stalled, changed = time.Time{}, true
		case agent.AgentEnd:
			m.running, m.streamed, m.streamedIn, m.stalled, changed = false, 0, 0, time.Time{}, true
		case agent.MessageUpdate:
			if e.Message.Role == agent.RoleAssistant {
				if n := estimate(e.Message); n != m.streamed || e.Message.Usage.Input != m.streamedIn {
					m.streamed, m.streamedIn, changed = n, e.Message.Usage.Input, true
				}
			}
		case agent.MessageEnd:
			m.count(e.Message)
			m.streamed, m.streamedIn, changed = 0, 0, true
		case agent.Annotation:
			if info, ok := e.Data.(runner.AttemptInfo); ok && e.Kind == runner.AnnotationAttemptStart && info.Profile != m.profile {
				m.profile, changed = info.Profile, true
			}
			if ref := answering(e); ref != "" && ref != m.answering {
				m.answering, changed = ref, true
			}
			if runs, ok := e.Data.([]runner.BackgroundRun); ok && e.Kind == runner.AnnotationBackgroundRuns {
				m.background, changed = runs, true
			}
		}
	}
	return cmd, changed
}

// stall folds a run_stalled or run_resumed notice (the host sends those of
// the session shown only), reporting whether it changed the bar.
func (m *Model) stall(n runner.Notice) bool {
	info, ok := n.Data.(runner.StallInfo)
	if !ok {
		return false
	}
	if n.Kind == runner.NoticeRunStalled {
		m.stalled, m.now = info.Since(), m.d.Now()
	} else {
		m.stalled = time.Time{}
	}
	return true
}

// health counts what the badge shows.
func (m *Model) health(h msgs.HealthChangedMsg) {
	m.cooling, m.disabled, m.quarantined = 0, 0, len(h.Engines.Quarantines)
	for _, p := range h.Profiles {
		switch p.State {
		case runner.ProfileCooldown:
			m.cooling++
		case runner.ProfileDisabled:
			m.disabled++
		}
	}
}

// Badge words what cannot be used now ("1 cooldown, 1 quarantined"); ""
// when everything can.
func (m Model) Badge() string {
	var parts []string
	if m.cooling > 0 {
		parts = append(parts, fmt.Sprintf("%d cooldown", m.cooling))
	}
	if m.disabled > 0 {
		parts = append(parts, fmt.Sprintf("%d disabled", m.disabled))
	}
	if m.quarantined > 0 {
		parts = append(parts, fmt.Sprintf("%d quarantined", m.quarantined))
	}
	return strings.Join(parts, ", ")
}

// estimate guesses the tokens of a message still streaming: about four
// bytes a token of its text and thinking.
func estimate(msg agent.Message) int {
	n := 0
	for _, c := range msg.Content {
		n += len(c.Text) + len(c.Thinking)
	}
	return (n + 3) / 4
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
	if c := u.Cost; c.Total > 0 {
		m.cost += c.Total
	} else {
		m.cost += c.Input + c.Output + c.CacheRead + c.CacheWrite
	}
	if seen := u.Input + u.CacheRead + u.CacheWrite + u.Output; seen > 0 {
		m.context = seen
	}
}
