package tui

import (
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/theme"
)

// /theme: the built-in themes and the theme files of the config directory,
// picked from a list or named (/theme sea); the choice holds for this
// process (ui.theme keeps one). A theme read from a file is watched: when
// the file changes, it is read again and applied, or the hint says why
// not and the theme stays as it was. All IO runs in Cmds.

// themeMsg is the sealed set of the theme's messages.
type themeMsg interface{ themeMsg() }

type (
	// openThemesMsg asks for the picker; setThemeMsg for a theme by name.
	openThemesMsg struct{}
	setThemeMsg   struct{ name string }
	// themeFilesMsg lists the theme files for the picker.
	themeFilesMsg struct {
		names []string
		err   error
	}
	// themeReadMsg is a theme read (again, when reread): th applies unless
	// err says why not; stamp is its file's as read.
	themeReadMsg struct {
		name   string
		th     theme.Theme
		stamp  fileStamp
		err    error
		reread bool
	}
	// themeStatMsg is the watched file's stamp now.
	themeStatMsg struct {
		name  string
		stamp fileStamp
	}
)

func (openThemesMsg) themeMsg() {}
func (setThemeMsg) themeMsg()   {}
func (themeFilesMsg) themeMsg() {}
func (themeReadMsg) themeMsg()  {}
func (themeStatMsg) themeMsg()  {}

// fileStamp tells a changed file from the one read: its time and size.
type fileStamp struct {
	mod  time.Time
	size int64
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{mod: fi.ModTime(), size: fi.Size()}
}

// themeWatch is the theme file in use, if the theme came from one.
type themeWatch struct {
	name  string
	stamp fileStamp
	known bool // stamp was read (the first look at start-up only reads it)
}

// routeTheme handles the theme's messages.
func (m Model) routeTheme(msg themeMsg) (Model, tea.Cmd) {
	dir := m.opts.ThemesDir
	switch msg := msg.(type) {
	case openThemesMsg:
		return m, func() tea.Msg {
			names, err := theme.Files(dir)
			return themeFilesMsg{names: names, err: err}
		}
	case themeFilesMsg:
		if msg.err != nil {
			return m.hint("the themes directory: " + msg.err.Error())
		}
		return m.openThemePicker(msg.names), nil
	case setThemeMsg:
		return m, readTheme(msg.name, dir, false)
	case themeReadMsg:
		return m.handleThemeRead(msg)
	case themeStatMsg:
		w := m.themeWatch
		if w == nil || w.name != msg.name || (w.known && w.stamp == msg.stamp) {
			return m, nil
		}
		if !w.known {
			w.stamp, w.known = msg.stamp, true
			return m, nil
		}
		return m, readTheme(msg.name, dir, true)
	}
	return m, nil
}

// fromFile reports whether th was read from a theme file: not a built-in,
// nor the plain theme NO_COLOR asks for.
func fromFile(th theme.Theme) bool { return th.Base != "" && !theme.Builtin(th.Name) }

// readTheme reads the theme name (a built-in or a file of dir).
func readTheme(name, dir string, reread bool) tea.Cmd {
	return func() tea.Msg {
		stamp := stampOf(theme.Path(dir, name))
		th, err := theme.Choose(name, dir, os.Getenv, nil)
		return themeReadMsg{name: name, th: th, stamp: stamp, err: err, reread: reread}
	}
}

// openThemePicker lists the built-ins and the files, the current one
// marked.
func (m Model) openThemePicker(files []string) Model {
	names := append([]string{theme.SettingDark, theme.SettingLight}, files...)
	items := make([]dialog.Item, len(names))
	selected := 0
	for i, n := range names {
		current := n == m.opts.Theme.Name
		if current {
			selected = i
		}
		label := n
		if i >= 2 {
			label += "  (" + theme.Path(m.opts.ThemesDir, n) + ")"
		}
		items[i] = dialog.Item{Label: label, Msg: setThemeMsg{name: n}, Current: current}
	}
	return m.openDialog(dialog.NewPicker(m.dialogDeps(), "Theme", items, selected))
}

// handleThemeRead applies a theme read, or says why it is not.
func (m Model) handleThemeRead(msg themeReadMsg) (Model, tea.Cmd) {
	if msg.reread && m.themeWatch != nil {
		m.themeWatch.stamp = msg.stamp // a bad file is reported once, not at every look
	}
	if msg.err != nil {
		if msg.reread {
			return m.hint(fmt.Sprintf("the theme stays as it was: %v", msg.err))
		}
		return m.hint(msg.err.Error())
	}
	m = m.applyTheme(msg.th)
	m.themeWatch = nil
	if fromFile(msg.th) {
		m.themeWatch = &themeWatch{name: msg.name, stamp: msg.stamp, known: true}
	}
	if msg.reread {
		return m.hint("theme " + msg.name + " read again from its file")
	}
	return m.hint("theme " + msg.name + " (for this session; ui.theme keeps it)")
}

// applyTheme restyles every component with th.
func (m Model) applyTheme(th theme.Theme) Model {
	lipgloss.SetHasDarkBackground(th.Base != theme.SettingLight)
	m.opts.Theme = th
	*m.styles = theme.NewStyles(th)
	m.chat.SetStyles(m.styles.Chat)
	m.input.SetStyles(m.styles.Input)
	m.queue.SetStyles(m.styles.Queue)
	m.todos.SetStyles(m.styles.Todo)
	m.status.SetStyles(m.styles.Status)
	m.help.Styles = m.styles.Help
	m.refresh()
	return m
}

// checkThemeFile looks at the watched theme file's stamp (with the
// store's look, every few seconds).
func (m Model) checkThemeFile() tea.Cmd {
	w, dir := m.themeWatch, m.opts.ThemesDir
	if w == nil {
		return nil
	}
	name := w.name
	return func() tea.Msg { return themeStatMsg{name: name, stamp: stampOf(theme.Path(dir, name))} }
}
