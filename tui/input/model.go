// Package input is the editor at the bottom of the screen: multi-line text
// that grows to a few lines, the keys that send it as steering or a
// follow-up, and completion of slash commands as they are typed.
package input

import (
	"math"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/lazyregexp"
	"github.com/steer-tui/steer/agent/runner/mention"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

// Suggestion is a slash command offered while typing.
type Suggestion struct{ Name, Args, Summary string }

// Deps is what the editor needs from its owner.
type Deps struct {
	Styles      theme.InputStyles
	Keys        KeyMap
	Edit        EditKeyMap
	Commands    []Suggestion
	Placeholder string
	// MaxBytes is the largest text the runtime accepts (agent.maxInputBytes);
	// larger text is not sent and stays in the editor. 0 is no limit.
	MaxBytes int
	// Files is the workspace's file index for "@"; nil offers none.
	Files Files
	// Resources are the MCP servers' resources "@" offers beside the
	// files (mention_resources.go); nil offers none.
	Resources Resources
}

// Model is the editor: a Bubbles textarea, which does the editing, wrapping
// and drawing, and around it the sending keys and the completion list.
type Model struct {
	d        *Deps // shared by copies; changed only by SetStyles
	keys     KeyMap
	editKeys EditKeyMap
	ta       textarea.Model
	width    int
	maxLines int
	running  bool
	scroll   int             // first visible screen line of the text
	kind     agent.QueueKind // a taken-back item's kind, which Enter re-sends it as
	// pastes are the large pastes whose placeholders the text holds;
	// pasted numbers them (paste.go).
	pastes []paste
	pasted int

	matches   []Suggestion
	dynamic   []Suggestion // skills, templates, MCP prompts (SetDynamicCommands)
	sel       int
	dismissed bool // the list was closed for this text

	hist  history            // the prompt history, and a walk or a search through it (history.go)
	men   mentions           // the "@" file list (mention.go)
	chips []agent.Attachment // attached images (attach.go)

	view string
}

// maxSuggestions is how many completions show at once.
const maxSuggestions = 6

// prompt marks the first line of the text; the others are indented to match.
const prompt, indent = "› ", "  "

// SetStyles changes the styles (a theme chosen with /theme).
func (m *Model) SetStyles(st theme.InputStyles) {
	m.d.Styles = st
	m.ta.FocusedStyle, m.ta.BlurredStyle = st.Focused, st.Blurred
	m.ta.Cursor.Style = st.Cursor
}

// New returns an empty, focused editor.
func New(d Deps) Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	// No caps: a MaxHeight would also refuse newlines past it. The height
	// shown is set per frame by render.
	ta.MaxHeight, ta.MaxWidth = 0, 0
	ta.Placeholder = d.Placeholder
	ta.FocusedStyle, ta.BlurredStyle = d.Styles.Focused, d.Styles.Blurred
	ta.Cursor.Style = d.Styles.Cursor
	ta.Cursor.SetMode(cursor.CursorStatic) // no blink ticks: views stay deterministic
	ta.SetPromptFunc(len(indent), func(line int) string {
		if line == 0 {
			return prompt
		}
		return indent
	})
	m := Model{d: &d, keys: d.Keys, editKeys: d.Edit, ta: ta}
	m.ta.Focus()
	m.SetSize(40, 5)
	return m
}

// SetSize sets the width and the most lines the text may grow to.
func (m *Model) SetSize(width, maxLines int) {
	width, maxLines = max(width, 4), max(maxLines, 1)
	if width == m.width && maxLines == m.maxLines {
		return
	}
	m.width, m.maxLines = width, maxLines
	m.ta.SetWidth(width)
	m.sync()
}

// Focus gives the editor the keys.
func (m *Model) Focus() tea.Cmd {
	cmd := m.ta.Focus()
	m.sync()
	return cmd
}

// Blur takes the keys away.
func (m *Model) Blur() {
	m.ta.Blur()
	m.sync()
}

// SetRunning tells the editor whether a run is active, which changes what
// Enter is called in the help.
func (m *Model) SetRunning(running bool) {
	if running != m.running {
		m.running = running
		m.sync()
	}
}

// Value returns the text.
func (m Model) Value() string { return m.ta.Value() }

// SetValue replaces the text, with the cursor at its end.
func (m *Model) SetValue(s string) {
	m.ta.SetValue(s)
	m.dismissed = false
	m.sync()
}

// TakeBack puts text that left the queue unsent before what is typed, on
// its own line. kind is what Enter will send it as again (the editor shows
// it); "" sends it as usual.
//
// A large text comes back as a placeholder, as when it was pasted.
func (m *Model) TakeBack(text string, kind agent.QueueKind) {
	cur := m.ta.Value()
	m.hist.stop() // it is taken back, not recalled
	m.kind = kind
	if Large(text) {
		m.ta.SetValue("")
		m.hold(text)
		if strings.TrimSpace(cur) != "" {
			m.ta.InsertString("\n" + cur)
		}
		m.dismissed = false
		m.sync()
		return
	}
	if strings.TrimSpace(cur) != "" {
		text += "\n" + cur
	}
	m.SetValue(text)
}

// Holding returns the kind of the taken-back item the editor holds, or ""
// when it holds none. The root takes back one item at a time, so that each
// keeps its kind.
func (m Model) Holding() agent.QueueKind { return m.kind }

// Reset clears the text and forgets a taken-back item's kind.
func (m *Model) Reset() {
	m.kind = ""
	m.pastes, m.chips = nil, nil
	m.hist.stop()
	m.SetValue("")
}

// PopupOpen reports whether the completion list shows.
func (m Model) PopupOpen() bool { return len(m.matches) > 0 || m.mentionOpen() }

// Keys returns the bindings as they stand (enabled or not), for help.
func (m Model) Keys() KeyMap { return m.keys }

// EditKeys returns the editing bindings, for the full help.
func (m Model) EditKeys() EditKeyMap { return m.editKeys }

// Burst reports whether msg is a burst of text: several runes in one
// KeyRunes message. Without bracketed paste, Bubble Tea v1 delivers fast
// typing, dictation or a pasted line that way, split at spaces, and the
// String() that bindings are matched on is the text itself, so the words
// "up", "enter" or "ctrl+c" in a sentence would match those keys. A burst is
// text and never a key: the root and the editor check it before any binding.
func Burst(msg tea.KeyMsg) bool { return msg.Type == tea.KeyRunes && len(msg.Runes) > 1 }

// Wants reports whether a key is the editor's: one of its bindings, or text.
// The root offers keys to the editor before its global bindings.
func (m Model) Wants(msg tea.KeyMsg) bool {
	if !m.ta.Focused() {
		return false
	}
	if Burst(msg) {
		return true
	}
	k := m.keys
	if key.Matches(msg, k.Send, k.FollowUp, k.Newline, k.External, k.Complete, k.CompletePrev, k.CompleteNext, k.Dismiss, k.Detach) {
		return true
	}
	if key.Matches(msg, m.editKeys.Bindings()...) || key.Matches(msg, k.History.Bindings()...) {
		return true
	}
	return (msg.Type == tea.KeyRunes && !msg.Alt) || msg.Type == tea.KeySpace || msg.Paste
}

// Update handles keys while focused: its own bindings here, editing in the
// textarea. Other messages (a clipboard paste) go to the textarea too. The
// sending keys are not handled here but by Submit, which the root calls
// first, so that what is sent reaches it in the order it was typed.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if ext, ok := msg.(ExternalEditMsg); ok { // the editor's own, focused or not
		cmd := m.handleExternal(ext)
		return m, cmd
	}
	if cmd, ok := m.handleHistory(msg); ok { // the owner's replies, focused or not
		m.sync()
		return m, cmd
	}
	if !m.ta.Focused() {
		return m, nil
	}
	if cmd, ok := m.own(msg); ok {
		m.sync()
		return m, cmd
	}
	listing := m.typingCommand()
	k, isKey := msg.(tea.KeyMsg)
	var cmd tea.Cmd
	switch {
	case !isKey:
		cmd = m.edit(msg)
	case m.hist.search.active || !Burst(k) && key.Matches(k, m.keys.History.Prev, m.keys.History.Next, m.keys.History.Search):
		cmd = m.historyKey(k)
	case Burst(k) || k.Paste:
		// Marked as pasted, a burst matches none of the textarea's bindings
		// either (Bubble Tea brackets a paste's String()). The sanitiser
		// would make "\r\n" two lines. A large paste is held aside.
		text := normalizeNewlines(string(k.Runes))
		if path, ok := mention.PastedImage(text); ok && m.d.Files != nil {
			cmd = m.probeImage(path, text)
			break
		}
		if Large(text) {
			m.hold(text)
			m.dismissed = false
			break
		}
		k.Paste = true
		k.Runes = []rune(text)
		cmd = m.edit(k)
	case m.mentionOpen() && key.Matches(k, m.keys.Complete, m.keys.Send):
		cmd = m.pickMention()
	case m.mentionOpen() && key.Matches(k, m.keys.CompletePrev):
		m.moveMention(-1)
	case m.mentionOpen() && key.Matches(k, m.keys.CompleteNext):
		m.moveMention(1)
	case key.Matches(k, m.keys.Complete):
		m.complete()
	case key.Matches(k, m.keys.CompletePrev):
		m.sel = (m.sel + len(m.matches) - 1) % len(m.matches)
	case key.Matches(k, m.keys.CompleteNext):
		m.sel = (m.sel + 1) % len(m.matches)
	case key.Matches(k, m.keys.Detach):
		m.detach()
	case key.Matches(k, m.keys.Dismiss):
		m.dismissed = true
	case key.Matches(k, m.keys.External):
		cmd = openExternal(m.Text())
	case key.Matches(k, m.keys.Send, m.keys.FollowUp):
		// Submit's keys: nothing to edit.
	default:
		cmd = m.edit(k)
	}
	m.sync()
	return m, tea.Batch(cmd, m.mentionCmd(), listOpened(!listing && m.typingCommand()))
}

// listOpened tells the owner the command list opened, when it did.
func listOpened(opened bool) tea.Cmd {
	if !opened {
		return nil
	}
	return func() tea.Msg { return msgs.CommandListOpenedMsg{} }
}

// edit gives msg to the textarea. The textarea scrolls only to keep the
// cursor within its height; lifted for the call, the height never makes it
// scroll, so its view always starts at the first line and render cuts the
// window onto the text itself.
func (m *Model) edit(msg tea.Msg) tea.Cmd {
	before := m.ta.Value()
	m.ta.SetHeight(math.MaxInt32)
	var cmd tea.Cmd
	m.ta, cmd = m.ta.Update(msg)
	if m.ta.Value() != before {
		m.dismissed = false
	}
	return cmd
}

// commandLine matches a line that names a slash command: "/name" and its
// arguments. "/usr/bin is slow" is text, not a command.
// An MCP prompt's command is "/server:prompt".
var commandLine = lazyregexp.Regexp{Expr: `^/([a-z][a-z0-9-]*|[^\s/:]+:[^\s/]+)(?:\s+(.*))?$`}

// Submit handles a sending key: Enter sends the text as steering (or
// re-sends a taken-back item as the kind it had), Alt+Enter as a follow-up
// (a taken-back follow-up as steering). It returns the request the text
// means — a slash command when it names one (or the list offers one), else
// steering or a follow-up — and clears the editor; req is nil when there is
// nothing to send. ok is false when k is not a sending key. The root calls
// it before Update and routes req at once: requests made by Cmds would
// arrive in no particular order, and two quick Enters must reach the
// runtime in the order they were typed.
func (m *Model) Submit(k tea.KeyMsg) (req tea.Msg, ok bool) {
	if !m.ta.Focused() || Burst(k) || m.mentionOpen() && key.Matches(k, m.keys.Send) {
		return nil, false // Enter in the file list picks a file (Update)
	}
	var alt bool
	switch {
	case key.Matches(k, m.keys.Send):
	case key.Matches(k, m.keys.FollowUp):
		alt = true
	default:
		return nil, false
	}
	text := strings.TrimSpace(m.ta.Value())
	if sub := commandLine.Get().FindStringSubmatch(text); sub == nil && len(m.pastes) > 0 {
		// Expanded after trimming: a pasted file is sent as it was, its
		// final newline too.
		text = m.expand(text)
		if why := m.tooLarge(text); why != "" {
			return msgs.HintMsg{Text: "not sent: " + why + " · the text stays in the editor"}, true
		}
	}
	if len(m.matches) > 0 && !alt {
		if s := m.matches[m.sel]; "/"+s.Name != text {
			text = "/" + s.Name
		}
	}
	if text == "" && len(m.chips) == 0 {
		return nil, true
	}
	followUp := alt
	if m.kind == agent.QueueFollowUp {
		followUp = !alt
	}
	m.remember(text, followUp)
	chips, attach := m.chips, m.chipPaths()
	m.Reset()
	switch sub := commandLine.Get().FindStringSubmatch(text); {
	case sub != nil:
		m.chips = chips // a command sends no attachments: they wait for the next message
		m.sync()
		return msgs.RunCommandMsg{Name: sub[1], Args: strings.TrimSpace(sub[2])}, true
	case shellLine(text) != nil: // !cmd, !!cmd (shell.go)
		return *shellLine(text), true
	case followUp:
		return msgs.FollowUpMsg{Text: text, Attach: attach}, true
	}
	return msgs.SteerMsg{Text: text, Attach: attach}, true
}

// complete fills in the selected command and a space for its arguments.
func (m *Model) complete() {
	if len(m.matches) == 0 {
		return
	}
	m.ta.SetValue("/" + m.matches[m.sel].Name + " ")
}
