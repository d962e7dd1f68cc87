package theme

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/lipgloss"
)

// Styles holds one style set per component; each component receives its own
// sub-struct in New.
type Styles struct {
	Chat    ChatStyles
	Queue   QueueStyles
	Todo    TodoStyles
	Status  StatusStyles
	Input   InputStyles
	Dialog  DialogStyles
	Inspect InspectStyles
	Help    help.Styles
}

// ChatStyles style the transcript.
type ChatStyles struct {
	// UserPrompt is the "❯" before a user message, UserText its text and
	// UserLabel the kind of an injected message (steer, follow-up).
	UserPrompt, UserText, UserLabel lipgloss.Style
	// Attachment is the chip of a file sent with a user message.
	Attachment lipgloss.Style
	// Thinking is the dimmed reasoning text; ThinkingHeader its one-line
	// summary when collapsed.
	Thinking, ThinkingHeader lipgloss.Style
	// ToolName, ToolArgs and ToolMeta make a tool block's header; ToolRunning,
	// ToolOK and ToolFailed its status mark; ToolOutput and ToolGutter its body.
	ToolName, ToolArgs, ToolMeta           lipgloss.Style
	ToolRunning, ToolOK, ToolFailed        lipgloss.Style
	ToolOutput, ToolGutter                 lipgloss.Style
	Error, Interrupted, Notice, Selected   lipgloss.Style
	NewOutput                              lipgloss.Style
	Markdown, FastMarkdown                 ansi.StyleConfig
	MarkdownFallback, MarkdownFallbackNote lipgloss.Style
}

// QueueStyles style the strip of pending inputs above the editor.
type QueueStyles struct {
	Steer, FollowUp, Text, Selected, More lipgloss.Style
}

// TodoStyles style the todo list pinned above the editor: Header its
// count (and the folded line's separator), Done, Doing and Pending an
// item by its status.
type TodoStyles struct {
	Header, Done, Doing, Pending lipgloss.Style
}

// StatusStyles style the one-line status bar.
type StatusStyles struct {
	Bar, Model, Dim, Running, Idle, Meter, MeterEmpty, Warning, Error, Info lipgloss.Style
}

// InputStyles style the editor and its completion list.
type InputStyles struct {
	Rule, RuleFocused lipgloss.Style
	// Focused and Blurred style the textarea (prompt, text, placeholder) with
	// and without the keys; Cursor is its cursor.
	Focused, Blurred                                  textarea.Style
	Cursor                                            lipgloss.Style
	Completion, CompletionSelected, CompletionSummary lipgloss.Style
	// Held labels the rule while the editor holds a taken-back item (or
	// one recalled from the prompt history).
	Held lipgloss.Style
	// Search, SearchQuery and SearchMatch style the line of a history
	// search (Ctrl+R): its label, what is typed and the match.
	Search, SearchQuery, SearchMatch lipgloss.Style
	// Chip is an attachment waiting to be sent.
	Chip lipgloss.Style
}

// DialogStyles style pickers and the help dialog.
type DialogStyles struct {
	Box, Title, Item, Selected, Detail, Hint lipgloss.Style
}

// InspectStyles style the inspectors: a box like a dialog's holding a
// table, with the selected row's details under it. OK, Warn and Bad colour
// a state cell (available, cooling down, disabled or quarantined).
type InspectStyles struct {
	Box, Title, Summary, Header, Cell, Selected, Detail, Hint lipgloss.Style
	OK, Warn, Bad                                             lipgloss.Style
}

// NewStyles builds every component's styles from t. It is pure: the same
// theme always gives the same styles.
func NewStyles(t Theme) Styles {
	s := lipgloss.NewStyle
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return s().Foreground(c) }
	editor := func(prompt lipgloss.Style) textarea.Style {
		return textarea.Style{
			Base: s(), Prompt: prompt, Text: fg(t.Text), CursorLine: fg(t.Text), Placeholder: fg(t.Muted),
			EndOfBuffer: fg(t.Border), LineNumber: fg(t.Muted), CursorLineNumber: fg(t.Muted),
		}
	}
	return Styles{
		Chat: ChatStyles{
			UserPrompt: fg(t.Accent).Bold(true), UserText: fg(t.Text).Bold(true),
			UserLabel:  fg(t.Muted).Italic(true),
			Attachment: fg(t.Accent),
			Thinking:   fg(t.Muted).Italic(true), ThinkingHeader: fg(t.Muted),
			ToolName: fg(t.Text).Bold(true), ToolArgs: fg(t.Muted), ToolMeta: fg(t.Muted),
			ToolRunning: fg(t.Accent), ToolOK: fg(t.Success), ToolFailed: fg(t.Error),
			ToolOutput: fg(t.Muted), ToolGutter: fg(t.Border),
			Error: fg(t.Error), Interrupted: fg(t.Warning), Notice: fg(t.Muted),
			Selected: fg(t.Accent).Bold(true), NewOutput: fg(t.Accent).Bold(true),
			Markdown: t.Markdown, FastMarkdown: Fast(t.Markdown),
			MarkdownFallback: fg(t.Text), MarkdownFallbackNote: fg(t.Muted),
		},
		Queue: QueueStyles{
			Steer: fg(t.Accent).Bold(true), FollowUp: fg(t.Warning).Bold(true),
			Text: fg(t.Text), Selected: fg(t.Accent).Bold(true).Reverse(true), More: fg(t.Muted),
		},
		Todo: TodoStyles{
			Header: fg(t.Muted).Bold(true), Done: fg(t.Muted), Doing: fg(t.Accent).Bold(true), Pending: fg(t.Text),
		},
		Status: StatusStyles{
			Bar: fg(t.Text), Model: fg(t.Text).Bold(true), Dim: fg(t.Muted),
			Running: fg(t.Accent), Idle: fg(t.Muted), Meter: fg(t.Accent),
			MeterEmpty: fg(t.Border), Warning: fg(t.Warning), Error: fg(t.Error).Bold(true),
			Info: fg(t.Accent),
		},
		Input: InputStyles{
			Rule: fg(t.Border), RuleFocused: fg(t.Accent),
			Focused: editor(fg(t.Accent).Bold(true)), Blurred: editor(fg(t.Muted)),
			Cursor: s().Reverse(true), Completion: fg(t.Text),
			CompletionSelected: fg(t.Accent).Bold(true), CompletionSummary: fg(t.Muted),
			Held: fg(t.Warning).Bold(true), Chip: fg(t.Accent),
			Search: fg(t.Muted), SearchQuery: fg(t.Accent).Bold(true), SearchMatch: fg(t.Text),
		},
		Dialog: DialogStyles{
			Box:   s().Border(lipgloss.RoundedBorder()).BorderForeground(t.Border).Padding(0, 1),
			Title: fg(t.Accent).Bold(true), Item: fg(t.Text),
			Selected: fg(t.Accent).Bold(true), Detail: fg(t.Muted), Hint: fg(t.Muted),
		},
		Inspect: InspectStyles{
			Box:   s().Border(lipgloss.RoundedBorder()).BorderForeground(t.Border).Padding(0, 1),
			Title: fg(t.Accent).Bold(true), Summary: fg(t.Muted), Header: fg(t.Muted).Bold(true),
			Cell: fg(t.Text), Selected: fg(t.Accent).Bold(true), Detail: fg(t.Text), Hint: fg(t.Muted),
			OK: fg(t.Success), Warn: fg(t.Warning), Bad: fg(t.Error).Bold(true),
		},
		Help: help.Styles{
			Ellipsis: fg(t.Muted), ShortKey: fg(t.Text), ShortDesc: fg(t.Muted),
			ShortSeparator: fg(t.Border), FullKey: fg(t.Text), FullDesc: fg(t.Muted),
			FullSeparator: fg(t.Border),
		},
	}
}
