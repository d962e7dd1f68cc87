package status

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/humanize"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/sanitize"
)

// Height is one line, two while the warning line shows.
func (m Model) Height() int { return strings.Count(m.view, "\n") + 1 }

// View returns the warning line (while saving fails) and the bar.
func (m Model) View() string { return m.view }

func (m *Model) render() {
	m.view = m.bar()
	if m.warning != "" {
		text := "⚠ not saved: " + sanitize.String(strings.ReplaceAll(m.warning, "\n", " "), sanitize.Options{}) +
			" · kept in memory, saved once saving works again"
		m.view = m.d.Styles.Warning.Render(ansi.Truncate(text, m.width, "…")) + "\n" + m.view
	}
}

// bar renders the status line itself. The left side gives way first (the
// thinking level goes), then parts from the right end, then the left side is
// cut.
func (m *Model) bar() string {
	st := m.d.Styles
	lefts := m.lefts()
	if m.hint != "" {
		style := st.Info
		if m.isError {
			style = st.Error
		}
		lefts = []string{style.Render(sanitize.String(strings.ReplaceAll(m.hint, "\n", " "), sanitize.Options{}))}
	}
	parts := m.right()
	for {
		right := strings.Join(parts, st.Dim.Render(" · "))
		for _, left := range lefts {
			if gap := m.width - ansi.StringWidth(left) - ansi.StringWidth(right); gap >= 1 {
				return left + strings.Repeat(" ", gap) + right
			}
		}
		if len(parts) <= 1 {
			left := ansi.Truncate(lefts[len(lefts)-1], max(m.width-ansi.StringWidth(right)-1, 0), "…")
			gap := max(m.width-ansi.StringWidth(left)-ansi.StringWidth(right), 0)
			return ansi.Truncate(left+strings.Repeat(" ", gap)+right, m.width, "")
		}
		parts = parts[:len(parts)-1]
	}
}

// lefts returns the left side, whole and then shorter: the model answering
// (and whether it is offline, and whose fallback it is), the auth profile in
// use, the thinking level; the level goes first, then the model fallen back
// from.
func (m *Model) lefts() []string {
	st := m.d.Styles
	name, provider := m.model.Ref(), m.model.Provider
	if m.model.ID == "" {
		name = "no model"
	}
	fellBack := m.answering != "" && m.answering != m.model.Ref()
	if fellBack {
		name, _, _ = strings.Cut(m.answering, "/")
		provider, name = name, m.answering
	}
	head := st.Model.Render(sanitize.String(name, sanitize.Options{}))
	if provider == "scripted" {
		head += st.Dim.Render(" (offline)")
	}
	tail := ""
	if m.profile != "" {
		tail = st.Dim.Render(" · ") + st.Bar.Render(sanitize.String(m.profile, sanitize.Options{}))
	}
	level := string(m.thinking)
	if level == "" {
		level = string(agent.ThinkingOff)
	}
	thinking := st.Dim.Render(" · thinking " + level)
	if !fellBack {
		return []string{head + tail + thinking, head + tail}
	}
	from := st.Warning.Render(" (fallback from " + sanitize.String(m.model.Ref(), sanitize.Options{}) + ")")
	short := st.Warning.Render(" (fallback)")
	return []string{head + from + tail + thinking, head + from + tail, head + short + tail}
}

// right returns the run state, the badge, the context meter, tokens and
// cost, most important first. While an answer streams, its tokens are an
// estimate ("~") until the provider's count arrives: the answer's from its
// text, the request's from the meter. The cost is left out while it is
// nothing and the model is free.
func (m *Model) right() []string {
	st := m.d.Styles
	state := st.Idle.Render("idle")
	if m.compacting && !m.running {
		state = st.Running.Render("⟲ compacting · esc cancels")
	}
	if m.running {
		state = st.Running.Render(m.Spinner() + " working " + elapsed(m.now.Sub(m.started)))
		if why := m.wait.text(m.now); why != "" {
			state = st.Warning.Render(m.Spinner() + " " + why)
		} else if !m.stalled.IsZero() {
			state = st.Error.Render("⚠ stalled: no progress for " + elapsed(m.now.Sub(m.stalled)))
		}
	}
	parts := []string{state}
	if m.mode == runner.ApprovalPlan {
		parts = append(parts, st.Warning.Render(planBadge))
	}
	if m.subagent {
		parts = append(parts, st.Warning.Render("sub-agent · read-only"))
	}
	if b := m.backgroundBadge(); b != "" {
		parts = append(parts, st.Running.Render(b))
	}
	if b := m.Badge(); b != "" {
		parts = append(parts, st.Warning.Render("⚠ "+b))
	}
	in, out := humanize.Tokens(m.in), humanize.Tokens(m.out)
	if m.streamed > 0 {
		out = "~" + humanize.Tokens(m.out+m.streamed)
		switch {
		case m.streamedIn > 0:
			in = humanize.Tokens(m.in + m.streamedIn)
		case m.measured && m.meter.Tokens > 0:
			in = "~" + humanize.Tokens(m.in+m.meter.Tokens)
		}
	}
	if c := m.contextMeter(); c != "" {
		parts = append(parts, c)
	}
	parts = append(parts, st.Dim.Render(fmt.Sprintf("↑%s ↓%s", in, out)))
	if m.cost > 0 || m.model.Cost != (agent.ModelCost{}) {
		parts = append(parts, st.Dim.Render(dollars(m.cost)))
	}
	return parts
}

// planBadge is what the bar shows while plan mode is on.
const planBadge = "⏸ plan mode"

// meterWarnAt is how full an unmeasured context is drawn as a warning.
const meterWarnAt = 0.8

// contextMeter draws how full the next request would be: five cells, the
// tokens against the window, and what the guard would do unless it fits,
// coloured by that route. Until the runtime has measured the session, the
// last response's usage stands in.
func (m *Model) contextMeter() string {
	st := m.d.Styles
	used, window, route := m.context, m.model.ContextWindow, runner.MeterRoute("")
	if m.measured && m.meter.Window > 0 {
		used, window, route = m.meter.Tokens, m.meter.Window, m.meter.Route
	}
	if window <= 0 {
		return ""
	}
	frac := min(max(float64(used)/float64(window), 0), 1)
	full := int(frac*5 + 0.5)
	style, note := st.Meter, ""
	switch {
	case route == runner.MeterCompact:
		style, note = st.Error, " will compact"
	case route == runner.MeterTruncate:
		style, note = st.Warning, " will truncate"
	case route == "" && frac >= meterWarnAt:
		style = st.Warning
	}
	return st.Dim.Render("ctx ") + style.Render(strings.Repeat("▰", full)) +
		st.MeterEmpty.Render(strings.Repeat("▱", 5-full)) + st.Dim.Render(" "+size(used)+"/"+size(window)) + style.Render(note)
}

func elapsed(d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// size is tokens without a needless decimal: "200k", "8.2k".
func size(n int) string { return strings.Replace(humanize.Tokens(n), ".0", "", 1) }

// Model returns the model the bar shows.
func (m Model) Model() agent.Model { return m.model }

// dollars formats a cost: "$0.012", "$1.234", "$12.35".
func dollars(c float64) string {
	if c >= 10 {
		return fmt.Sprintf("$%.2f", c)
	}
	return fmt.Sprintf("$%.3f", c)
}

// backgroundBadge says how many other sessions run in the background and
// how many of them wait for an approval ("▶ 2 in background, 1 asks").
func (m *Model) backgroundBadge() string {
	if len(m.background) == 0 {
		return ""
	}
	asking := 0
	for _, r := range m.background {
		if r.Approvals > 0 {
			asking++
		}
	}
	b := fmt.Sprintf("▶ %d in background", len(m.background))
	if asking > 0 {
		b += fmt.Sprintf(", %d asks", asking)
	}
	return b
}

// Background lists the sessions running in the background, as last told.
func (m Model) Background() []runner.BackgroundRun { return m.background }
