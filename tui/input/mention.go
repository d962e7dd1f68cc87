package input

import (
	"strings"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent/runner/mention"
)

// mentionLimit is how many files one query asks for: more than show at
// once, so that ↓ has somewhere to go.
const mentionLimit = 50

// mentionRetry is how soon a query answered from a walk still going is
// asked again, so that the list fills in as the walk finds more;
// mentionFirst is how soon while it has found nothing to show yet (the
// walk publishes its first entries within milliseconds).
const (
	mentionRetry = 120 * time.Millisecond
	mentionFirst = 10 * time.Millisecond
)

// Files gives the editor the workspace's file index (runner.Host's
// FileIndex). It is called in Cmds only: it may start the walk.
type Files func() *mention.Index

// mentions is the @-finder: the "@word" at the cursor, the query last sent
// out for it and the matches that came back. Queries run in Cmds, never in
// Update, and an answer to an older query than the last is dropped.
type mentions struct {
	token   string // from the "@" to the cursor, as typed ("" when none)
	asked   string // the query last sent out, when sent
	sent    bool
	seq     int // numbers the queries
	matches []mention.Match
	sel     int
}

// mentionFoundMsg is a query's answer, numbered as it was asked.
type mentionFoundMsg struct {
	seq int
	res mention.Result
}

// mentionRetryMsg asks query seq again: its walk had not ended.
type mentionRetryMsg struct{ seq int }

// mentionOpen reports whether the file list shows.
func (m Model) mentionOpen() bool { return m.men.token != "" && len(m.men.matches) > 0 }

// mentionToken returns the "@word" that ends at the cursor: an "@" at the
// start of a word and what follows it up to the cursor, without a space
// (or inside the quotes of `@"my notes.md`). "" when the cursor is not in
// one.
func (m Model) mentionToken() string {
	lines := strings.Split(m.ta.Value(), "\n")
	row := m.ta.Line()
	if row >= len(lines) {
		return ""
	}
	li := m.ta.LineInfo()
	runes := []rune(lines[row])
	before := string(runes[:min(li.StartColumn+li.ColumnOffset, len(runes))])
	at := strings.LastIndexByte(before, '@')
	for at >= 0 && at > 0 && !isBlank(before[at-1]) {
		at = strings.LastIndexByte(before[:at], '@')
	}
	if at < 0 {
		return ""
	}
	tok := before[at:]
	if q, quoted := strings.CutPrefix(tok, `@"`); quoted {
		if strings.ContainsRune(q, '"') {
			return ""
		}
		return tok
	}
	if strings.ContainsAny(tok, " \t") {
		return ""
	}
	return tok
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

// mentionQuery is what token asks the index for.
func mentionQuery(token string) string {
	return strings.TrimPrefix(strings.TrimPrefix(token, "@"), `"`)
}

// updateMentions follows the cursor in and out of an "@word"; sync calls it.
func (m *Model) updateMentions() {
	tok := ""
	if m.d.Files != nil && m.ta.Focused() && !m.dismissed {
		tok = m.mentionToken()
	}
	if tok == "" {
		m.men = mentions{seq: m.men.seq}
		return
	}
	m.men.token = tok
}

// mentionCmd sends the query of the "@word" at the cursor out, unless it
// is the one last sent.
func (m *Model) mentionCmd() tea.Cmd {
	if m.men.token == "" {
		return nil
	}
	q := mentionQuery(m.men.token)
	if m.men.sent && q == m.men.asked {
		return nil
	}
	m.men.seq++
	m.men.asked, m.men.sent = q, true
	seq, files, resources := m.men.seq, m.d.Files, m.d.Resources
	return func() tea.Msg {
		return mentionFoundMsg{seq: seq, res: withResources(files().Query(q, mentionLimit), resources, q)}
	}
}

// handleMentionFound shows the answer to the latest query, and asks again
// soon while the walk goes on.
func (m *Model) handleMentionFound(msg mentionFoundMsg) tea.Cmd {
	if msg.seq != m.men.seq || m.men.token == "" {
		return nil
	}
	m.men.matches = msg.res.Matches
	if m.men.sel >= len(m.men.matches) {
		m.men.sel = 0
	}
	if msg.res.Complete {
		return nil
	}
	seq, wait := msg.seq, mentionRetry
	if len(m.men.matches) == 0 {
		wait = mentionFirst
	}
	return tea.Tick(wait, func(time.Time) tea.Msg { return mentionRetryMsg{seq: seq} })
}

// handleMentionRetry asks the same query again, for what the walk found
// since.
func (m *Model) handleMentionRetry(msg mentionRetryMsg) tea.Cmd {
	if msg.seq != m.men.seq {
		return nil
	}
	m.men.sent = false
	return m.mentionCmd()
}

// pickMention puts the selected file in place of the "@word": its
// mention, then a space, or for a directory "@dir/", which lists the
// directory next. An image becomes an attachment chip instead; an MCP
// resource is written as "@server:uri" (resourceToken).
func (m *Model) pickMention() tea.Cmd {
	if !m.mentionOpen() {
		return nil
	}
	picked := m.men.matches[m.men.sel]
	path := picked.Path
	for range utf8.RuneCountInString(m.men.token) {
		m.edit(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	if picked.Resource != nil {
		m.ta.InsertString(resourceToken(picked.Resource))
		return nil
	}
	if !mention.IsDir(path) && mention.LooksLikeImage(path) {
		return m.probeImage(path, mention.Token(path)+" ")
	}
	tok := mention.Token(path)
	if !mention.IsDir(path) {
		tok += " "
	}
	m.ta.InsertString(tok)
	return nil
}

// moveMention moves the selection in the file list by d, round.
func (m *Model) moveMention(d int) {
	n := len(m.men.matches)
	m.men.sel = (m.men.sel + d + n) % n
}

// own handles the editor's own messages: query answers and image probes.
func (m *Model) own(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case mentionFoundMsg:
		return m.handleMentionFound(msg), true
	case mentionRetryMsg:
		return m.handleMentionRetry(msg), true
	case imageProbedMsg:
		return m.handleImageProbed(msg), true
	}
	return nil, false
}

// renderMentions is the file list, drawn as the command list is.
func (m *Model) renderMentions() []string {
	if !m.mentionOpen() {
		return nil
	}
	st := m.d.Styles
	rows := min(maxSuggestions, m.maxLines+1)
	first := max(m.men.sel-rows+1, 0)
	var out []string
	for i := first; i < len(m.men.matches) && i < first+rows; i++ {
		label := mentionLabel(m.men.matches[i])
		line := st.Completion.Render("  " + label)
		if i == m.men.sel {
			line = st.CompletionSelected.Render("› " + label)
		}
		out = append(out, ansi.Truncate(line, m.width, "…"))
	}
	return out
}
