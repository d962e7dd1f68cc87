// Package theme is the TUI's single source of styles: a semantic palette
// (Theme), the pure builder NewStyles that turns it into per-component style
// sets, and the Glamour style config for assistant markdown.
//
// Dark or light is decided once, before the program starts, by Detect: a
// setting, NO_COLOR, COLORFGBG, or else a question to the terminal with a
// short deadline (query.go). Bubble Tea v1's own question at package init,
// which waits up to 5 s, never happens (internal/deferquery). Nothing else
// here asks the terminal anything. No other package calls lipgloss.NewStyle.
package theme

import (
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/lipgloss"
)

// Theme is a palette with semantic names plus the markdown style that goes
// with it. Colours are plain lipgloss colours (never adaptive ones), so
// rendering never asks the terminal for its background.
type Theme struct {
	// Name identifies the theme in logs and tests: a built-in's name or a
	// theme file's (file.go).
	Name string
	// Base is the built-in the theme starts from, SettingDark or
	// SettingLight ("" for Plain): it says whether the background is light.
	Base string
	// Text is ordinary text; Muted is secondary text (thinking, hints,
	// separators); Subtle is the faintest (backgrounds of selections).
	Text, Muted, Subtle lipgloss.TerminalColor
	// Accent marks the user's own messages and the focused element.
	Accent lipgloss.TerminalColor
	// Error, Warning and Success are the status colours.
	Error, Warning, Success lipgloss.TerminalColor
	// Border draws rules and boxes.
	Border lipgloss.TerminalColor
	// Code is the text of inline code in markdown; it is never Error's
	// red, which would make every `name` look like a failure.
	Code lipgloss.TerminalColor
	// Markdown is the Glamour style used for assistant messages.
	Markdown ansi.StyleConfig
}

// Dark is the theme for dark terminal backgrounds.
func Dark() Theme {
	return Theme{
		Name: SettingDark, Base: SettingDark, Text: lipgloss.Color("252"), Muted: lipgloss.Color("244"),
		Subtle: lipgloss.Color("237"), Accent: lipgloss.Color("39"),
		Error: lipgloss.Color("203"), Warning: lipgloss.Color("214"),
		Success: lipgloss.Color("78"), Border: lipgloss.Color("240"),
		Code: lipgloss.Color("180"),
	}.withMarkdown(styles.DarkStyleConfig)
}

// Light is the theme for light terminal backgrounds.
func Light() Theme {
	return Theme{
		Name: SettingLight, Base: SettingLight, Text: lipgloss.Color("235"), Muted: lipgloss.Color("243"),
		Subtle: lipgloss.Color("254"), Accent: lipgloss.Color("26"),
		Error: lipgloss.Color("160"), Warning: lipgloss.Color("130"),
		Success: lipgloss.Color("28"), Border: lipgloss.Color("250"),
		Code: lipgloss.Color("94"),
	}.withMarkdown(styles.LightStyleConfig)
}

// Plain has no colours and renders markdown with Glamour's notty style: for
// tests (deterministic output) and for NO_COLOR.
func Plain() Theme {
	none := lipgloss.NoColor{}
	return Theme{
		Name: "plain", Text: none, Muted: none, Subtle: none, Accent: none,
		Error: none, Warning: none, Success: none, Border: none, Code: none,
		Markdown: compact(styles.NoTTYStyleConfig),
	}
}

// withMarkdown sets t's markdown style: base, compacted, with inline code
// in t.Code. Glamour's dark and light styles draw inline code in the red
// steer uses for errors.
func (t Theme) withMarkdown(base ansi.StyleConfig) Theme {
	t.Markdown = compact(base)
	if c, ok := t.Code.(lipgloss.Color); ok {
		code := string(c)
		t.Markdown.Code.Color = &code
	}
	return t
}

// compact drops the document margin (the chat view has its own layout) and
// the document's text colour, so that plain text uses the terminal's own
// foreground; everything else of the standard Glamour style stays. Without
// a document colour Glamour's line padding is plain spaces, which also
// makes the render of a streaming block about a third cheaper.
func compact(c ansi.StyleConfig) ansi.StyleConfig {
	zero := uint(0)
	c.Document.Margin = &zero
	c.Document.Color = nil
	c.Document.BackgroundColor = nil
	return c
}

// Fast returns c without syntax highlighting. Chroma costs about twenty
// times an uncoloured render, so the open block of a streaming message is
// rendered with this and highlighted once it is finished.
func Fast(c ansi.StyleConfig) ansi.StyleConfig {
	c.CodeBlock.Chroma = nil
	return c
}
