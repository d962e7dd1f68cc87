package input

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

// The prompt history: what was sent from the editor in this workspace,
// newest first, as the runner keeps it (runner.PromptHistory) plus what
// this editor sent since it was read. ↑ on the first line walks back
// through it and ↓ on the last line forward, back to the draft that was in
// the editor when the walk began. A recalled item comes back as it was
// typed: its paste placeholders with the pastes they stand for, and its
// kind, which Enter sends it as (a follow-up as a follow-up, steering as
// steering), as for a taken-back item. Editing a recalled item ends the
// walk: the edited text is the draft of the next one, so nothing typed is
// ever lost to ↑.
//
// The editor does no IO: it asks its owner to read the history
// (LoadHistoryMsg) when a walk or a search starts, so that what another
// steer process sent in the workspace shows up, and hands it each item it
// sent to save (Sent); the replies come back as HistoryLoadedMsg and
// HistorySavedMsg.

// LoadHistoryMsg asks the editor's owner to read the workspace's prompt
// history (runner.Host.PromptHistory) and answer with a HistoryLoadedMsg.
type LoadHistoryMsg struct{}

// HistoryLoadedMsg is the workspace's prompt history as read for a
// LoadHistoryMsg, or why it could not be read.
type HistoryLoadedMsg struct {
	History runner.PromptHistory
	Err     error
}

// SentPrompt is an item the editor sent, for its owner to save
// (runner.Host.AddPrompt); Seq numbers it in this editor.
type SentPrompt struct {
	Seq    int
	Prompt runner.Prompt
}

// HistorySavedMsg is the reply to saving sent item Seq: the item as saved,
// or why it was not.
type HistorySavedMsg struct {
	Seq    int
	Prompt runner.Prompt
	Err    error
}

// history is the editor's prompt history and where a walk through it is.
type history struct {
	items     []entry // newest first; never changed in place (models are values)
	workspace string  // whose history items is, once read
	seq       int     // the last number given to an item sent here
	sent      *SentPrompt

	walking bool
	pos     int    // while walking, the item shown
	shown   string // its text as the textarea holds it, to notice an edit
	draft   draft  // the editor as it was when the walk began
	// recalled says that the editor's kind came from a recalled item,
	// for the rule's label.
	recalled bool

	search search
	last   string // the latest search's query, which Ctrl+R repeats
}

// entry is an item of the history: a saved one has an ID, one sent here a
// seq (both once it is saved).
type entry struct {
	runner.Prompt
	seq int
}

// draft is what a walk puts back when it returns past the newest item.
type draft struct {
	text     string
	pastes   []paste
	kind     agent.QueueKind
	recalled bool
}

// loadHistory is the Cmd asking for the history.
func loadHistory() tea.Msg { return LoadHistoryMsg{} }

// Sent returns the item Submit just sent, once, for the owner to save; ok
// is false when it sent nothing.
func (m *Model) Sent() (p SentPrompt, ok bool) {
	if m.hist.sent == nil {
		return SentPrompt{}, false
	}
	p = *m.hist.sent
	m.hist.sent = nil
	return p, true
}

// remember records what Submit sends — text as the editor holds it, paste
// placeholders and all, unless the completion list chose a command — as
// the newest item of the history, for Sent.
func (m *Model) remember(sent string, followUp bool) {
	text, pastes := strings.TrimSpace(m.ta.Value()), m.pastes
	if m.expand(text) != sent {
		text, pastes = sent, nil
	}
	kind := runner.PromptNew
	switch {
	case commandLine.Get().MatchString(sent):
	case followUp:
		kind = runner.PromptFollowUp
	case m.running:
		kind = runner.PromptSteer
	}
	p := runner.Prompt{Kind: kind, Text: text}
	for _, ps := range pastes {
		p.Pastes = append(p.Pastes, runner.Paste{Label: ps.label, Text: ps.text})
	}
	h := &m.hist
	h.seq++
	h.sent = &SentPrompt{Seq: h.seq, Prompt: p}
	items := append([]entry{{Prompt: p, seq: h.seq}}, h.items...)
	h.items = items[:min(len(items), runner.PromptHistoryLimit)]
}

// handleHistory takes the replies of the editor's owner; ok is false for
// any other message.
func (m *Model) handleHistory(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case HistoryLoadedMsg:
		if msg.Err != nil {
			return hint("the prompt history could not be read: " + msg.Err.Error()), true
		}
		m.hist.loaded(msg.History)
		return nil, true
	case HistorySavedMsg:
		if msg.Err != nil {
			return hint("not kept in the prompt history: " + msg.Err.Error()), true
		}
		m.hist.saved(msg.Seq, msg.Prompt.ID)
		return nil, true
	case HistoryFoundMsg:
		return m.found(msg), true
	}
	return nil, false
}

func hint(text string) tea.Cmd {
	return func() tea.Msg { return msgs.HintMsg{Text: text} }
}

// loaded takes the history as read. What this editor sent that the read
// does not hold yet (not saved, or saved after it) stays in front; a walk
// stays on the item it shows. A history of another workspace (the session
// switched) replaces everything.
func (h *history) loaded(read runner.PromptHistory) {
	var newest int64
	if len(read.Prompts) > 0 {
		newest = read.Prompts[0].ID
	}
	var items []entry
	if read.Workspace == h.workspace || h.workspace == "" {
		for _, e := range h.items {
			if e.ID == 0 || e.ID > newest {
				items = append(items, e)
			}
		}
	}
	for _, p := range read.Prompts {
		items = append(items, entry{Prompt: p})
	}
	items = items[:min(len(items), runner.PromptHistoryLimit)]
	if h.walking {
		at := slices.IndexFunc(items, h.items[h.pos].same)
		if at < 0 {
			return // the item shown is gone from the window: keep the walk as it is
		}
		h.pos = at
	}
	h.search.moved(h.items, items)
	h.items, h.workspace = items, read.Workspace
}

// same reports whether e is the item f.
func (e entry) same(f entry) bool {
	if e.ID != 0 && f.ID != 0 {
		return e.ID == f.ID
	}
	return e.seq != 0 && e.seq == f.seq
}

// saved gives item seq its id.
func (h *history) saved(seq int, id int64) {
	i := slices.IndexFunc(h.items, func(e entry) bool { return e.seq == seq })
	if i < 0 {
		return
	}
	h.items = slices.Clone(h.items)
	h.items[i].ID = id
}

// stop ends a walk and a search, keeping the text (Reset clears it).
func (h *history) stop() {
	h.walking, h.recalled = false, false
	h.search = search{}
}

// syncHistory notices an edit of a recalled item and sets the history's
// keys for the cursor: ↑ walks back only from the first line, ↓ forward
// only from the last, and neither while the completion list is open; while
// searching, the search's keys replace the sending ones. A search outlives
// a blur: the root refocuses the editor (Blur, then Focus) to hand it text
// typed fast.
func (m *Model) syncHistory() {
	h := &m.hist
	if h.walking && m.ta.Value() != h.shown {
		h.walking = false
	}
	if m.ta.Value() == "" {
		h.recalled = false
	}
	searching := h.search.active
	walkable := m.ta.Focused() && !m.PopupOpen() && !searching
	k := &m.keys.History
	k.Prev.SetEnabled(walkable && m.onFirstLine() && (!h.walking || h.pos+1 < len(h.items)))
	k.Next.SetEnabled(walkable && h.walking && m.onLastLine())
	k.Search.SetEnabled(m.ta.Focused() && !searching)
	for _, b := range []*key.Binding{&k.Older, &k.Take, &k.Cancel} {
		b.SetEnabled(searching)
	}
	for _, b := range []*key.Binding{&m.keys.Send, &m.keys.FollowUp, &m.keys.Newline} {
		b.SetEnabled(!searching)
	}
	if k.Prev.Enabled() {
		m.editKeys.Up.SetEnabled(false)
	}
	if k.Next.Enabled() {
		m.editKeys.Down.SetEnabled(false)
	}
}

func (m *Model) onFirstLine() bool { return m.ta.Line() == 0 && m.ta.LineInfo().RowOffset == 0 }

func (m *Model) onLastLine() bool {
	info := m.ta.LineInfo()
	return m.ta.Line() == m.ta.LineCount()-1 && info.RowOffset == info.Height-1
}

// historyKey handles a key of the history or, while searching, any key.
func (m *Model) historyKey(k tea.KeyMsg) tea.Cmd {
	if m.hist.search.active {
		return m.searchKey(k)
	}
	switch {
	case key.Matches(k, m.keys.History.Prev):
		return m.older()
	case key.Matches(k, m.keys.History.Next):
		m.newer()
	case key.Matches(k, m.keys.History.Search):
		return m.startSearch()
	}
	return nil
}

// older shows the item before the one shown, starting a walk from the
// draft; a walk's start reads the history again, for what other steer
// processes sent (the walk goes on meanwhile with what is there).
func (m *Model) older() tea.Cmd {
	h := &m.hist
	if !h.walking {
		if len(h.items) == 0 {
			return loadHistory
		}
		h.draft = m.capture()
		h.walking = true
		m.show(0, true)
		return loadHistory
	}
	m.show(h.pos+1, true)
	return nil
}

// newer shows the item after the one shown, or the draft after the newest.
func (m *Model) newer() {
	h := &m.hist
	if h.pos == 0 {
		m.restore(h.draft)
		h.walking = false
		return
	}
	m.show(h.pos-1, false)
}

// capture is the editor as it stands, for a walk to return to.
func (m *Model) capture() draft {
	return draft{text: m.ta.Value(), pastes: m.pastes, kind: m.kind, recalled: m.hist.recalled}
}

func (m *Model) restore(d draft) {
	m.ta.SetValue(d.text)
	m.pastes, m.kind, m.hist.recalled = d.pastes, d.kind, d.recalled
	m.dismissed = false
}

// show puts item i into the editor as it was typed, the cursor at its end;
// walking back, an item of several lines has it at the top instead, so
// that ↑ goes on at once.
// The completion list stays closed: ↑ must go on past a recalled command.
func (m *Model) show(i int, top bool) {
	h := &m.hist
	e := h.items[i]
	h.pos = i
	m.ta.SetValue(e.Text)
	if top && !m.onFirstLine() {
		for range m.ta.LineCount() * max(m.width, 1) {
			if m.onFirstLine() {
				break
			}
			m.ta.CursorUp()
		}
		m.ta.CursorStart()
	}
	h.shown = m.ta.Value()
	m.pastes = nil
	for _, p := range e.Pastes {
		m.pastes = append(m.pastes, paste{label: p.Label, text: p.Text})
		var n int
		if _, err := fmt.Sscanf(p.Label, "[paste #%d", &n); err == nil {
			m.pasted = max(m.pasted, n) // a new paste's placeholder differs from these
		}
	}
	m.kind = queueKind(e.Kind)
	h.recalled = m.kind != ""
	m.dismissed = true
}

// queueKind is what Enter sends an item of kind k as again: "" sends it as
// a new text is sent.
func queueKind(k runner.PromptKind) agent.QueueKind {
	switch k {
	case runner.PromptSteer:
		return agent.QueueSteer
	case runner.PromptFollowUp:
		return agent.QueueFollowUp
	}
	return ""
}

// historyLabel labels the rule while the editor shows an item of the
// history: where the walk is and what Enter sends the item as.
func (m *Model) historyLabel() string {
	h := &m.hist
	var as string
	switch m.kind {
	case agent.QueueFollowUp:
		as = "enter queues it as a follow-up "
	case agent.QueueSteer:
		as = "enter sends it as steering "
	}
	switch {
	case h.walking:
		label := fmt.Sprintf(" history %d/%d ", h.pos+1, len(h.items))
		if as != "" {
			label += "· " + as
		}
		return label
	case h.recalled && as != "":
		return " from history · " + as
	}
	return ""
}
