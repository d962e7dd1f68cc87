package chat

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/theme"
)

// Deps is what the chat needs from its owner. The zero value of each
// optional field is a sensible default.
type Deps struct {
	Styles theme.ChatStyles
	Keys   KeyMap
	// Profile is the colour profile Glamour renders for (Ascii in tests).
	Profile termenv.Profile
	// Now stamps the start and end of tool calls; it defaults to time.Now.
	Now func() time.Time
	// ToolColors keeps SGR colours in tool output.
	ToolColors bool
}

// Model is the transcript view. It is a value; the items and their render
// caches live behind the transcript pointer so that they survive copies.
type Model struct {
	d       *Deps // shared by copies; changed only by SetStyles
	width   int
	height  int
	focused bool
	t       *transcript

	follow   bool   // stick to the bottom as output arrives
	top      anchor // first visible line when not following
	unseen   bool   // output arrived below the view while scrolled up
	selected int    // index of the selected expandable item, -1 for none
	spinner  string
	now      time.Time
	frame    string
}

// anchor is a position in the transcript: display line line of item item
// (line 0 is the blank separator above every item but the first).
type anchor struct{ item, line int }

// transcript holds the items and what renders them; it is shared by copies
// of the model, which the Update loop replaces one by one.
type transcript struct {
	entries   []*entry
	byItem    map[item]*entry
	tools     map[string]*toolItem       // by tool call id
	active    map[*toolItem]bool         // tools not done yet
	streaming *assistantItem             // the assistant message in flight
	retry     *retryItem                 // the retry counting down, if any
	kinds     map[string]agent.QueueKind // queue item ids seen, for labels
	// children are the sub-agents' latest progress lines, by session: a
	// child reports before its task call ends and names it.
	children map[string]string
	md       *markdown
	// earlierSaved is the compaction above which saved history is still
	// to come (msgs.EarlierLoadedMsg), "" when none is.
	earlierSaved string
}

func newTranscript(md *markdown) *transcript {
	return &transcript{
		byItem: map[item]*entry{}, tools: map[string]*toolItem{},
		active: map[*toolItem]bool{}, kinds: map[string]agent.QueueKind{}, children: map[string]string{}, md: md,
	}
}

// New returns an empty transcript view that follows new output.
func New(d Deps) Model {
	if d.Now == nil {
		d.Now = time.Now
	}
	return Model{
		d: &d, follow: true, selected: -1, spinner: "⣾",
		t: newTranscript(nil),
	}
}

// SetStyles changes the styles (a theme chosen with /theme, or its file
// changed): every item is rendered again.
func (m *Model) SetStyles(st theme.ChatStyles) {
	m.d.Styles, m.t.md = st, nil
	for _, e := range m.t.entries {
		e.dirty = true
	}
	m.compose()
}

// SetSize sets the area the transcript fills.
func (m *Model) SetSize(width, height int) {
	if width == m.width && height == m.height {
		return
	}
	m.width, m.height = max(width, 0), max(height, 0)
	m.compose()
}

// Focus gives the chat the keys (block selection). It does not move the
// view, so a view that follows new output keeps following: the selection
// stays if it is on screen, else it moves to the newest expandable block
// on screen, if any (↑ then selects the nearest one above).
func (m *Model) Focus() tea.Cmd {
	m.focused = true
	m.compose() // places the view, so that visibility can be judged
	if m.selected < 0 || !m.visible(m.selected) {
		m.selected = -1
		for i := len(m.t.entries) - 1; i >= m.top.item && i >= 0; i-- {
			if _, ok := m.expanderAt(i); ok && m.visible(i) {
				m.selected = i
				break
			}
		}
	}
	m.compose()
	return nil
}

// visible reports whether item i shows, at least in part.
func (m *Model) visible(i int) bool {
	return i >= m.top.item && i < len(m.t.entries) && !m.below(i)
}

// Blur takes the keys away and clears the selection mark.
func (m *Model) Blur() {
	m.focused = false
	m.compose()
}

// Focused reports whether the chat has the keys.
func (m Model) Focused() bool { return m.focused }

// SetSpinner sets the spinner frame running tools show and the time their
// elapsed counters read; only running tools are re-rendered.
func (m *Model) SetSpinner(frame string, now time.Time) {
	m.spinner, m.now = frame, now
	changed := false
	for t := range m.t.active {
		if t.state == toolRunning {
			m.t.byItem[t].dirty, changed = true, true
		}
	}
	if r := m.t.retry; r != nil {
		m.t.byItem[r].dirty, changed = true, true
	}
	if changed {
		m.compose()
	}
}

// Following reports whether the view sticks to the newest output.
func (m Model) Following() bool { return m.follow }

// Len is the number of items in the transcript.
func (m Model) Len() int { return len(m.t.entries) }

// View returns the visible part of the transcript, composed in Update.
func (m Model) View() string { return m.frame }

func (m *Model) renderCtx() *renderCtx {
	width := max(m.width-gutter, 1)
	if m.t.md == nil || m.t.md.width != width {
		m.t.md = newMarkdown(width, m.d.Styles.Markdown, m.d.Styles.FastMarkdown, m.d.Profile)
	}
	return &renderCtx{
		width: width, st: &m.d.Styles, md: m.t.md, spinner: m.spinner,
		now: m.now, allowSGR: m.d.ToolColors,
	}
}

// add appends an item; a view scrolled up learns there is new output.
func (m *Model) add(it item) {
	e := &entry{it: it, dirty: true, index: len(m.t.entries)}
	m.t.entries = append(m.t.entries, e)
	m.t.byItem[it] = e
	if t, ok := it.(*toolItem); ok && t.state != toolDone {
		m.t.active[t] = true
	}
	if !m.follow {
		m.unseen = true
	}
}

// touch marks item it changed.
func (m *Model) touch(it item) {
	e, ok := m.t.byItem[it]
	if !ok {
		return
	}
	e.dirty = true
	if t, ok := it.(*toolItem); ok && t.state == toolDone {
		delete(m.t.active, t)
	}
	if !m.follow && m.below(e.index) {
		m.unseen = true
	}
}

// reset empties the transcript.
func (m *Model) reset() {
	md := m.t.md
	m.t = newTranscript(md)
	m.follow, m.top, m.unseen, m.selected = true, anchor{}, false, -1
}
