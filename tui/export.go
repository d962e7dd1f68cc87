package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

// Exporter writes the current session to a file (*runner.Host). It is
// optional (Options.Exporter): without it /export says it is not
// available. It is called from a tea.Cmd goroutine and does IO.
type Exporter interface {
	ExportFile(ctx context.Context, file string) (runner.ExportedFile, error)
}

var _ Exporter = (*runner.Host)(nil)

// exportSessionMsg is /export [file]: write the current session there.
type exportSessionMsg struct{ file string }

// sessionExportedMsg is the runtime's answer.
type sessionExportedMsg struct{ runner.ExportedFile }

func (e sessionExportedMsg) note() string {
	return fmt.Sprintf("exported %d entries to %s; %d secrets redacted", e.Entries, e.Path, e.Redacted)
}

// handleExportSession writes the session in a call; the runtime picks the
// format from the name and never overwrites a file.
func (m Model) handleExportSession(msg exportSessionMsg) (Model, tea.Cmd) {
	if m.opts.Exporter == nil {
		return m.hint("export is not available")
	}
	exporter, file := m.opts.Exporter, msg.file
	m.calls.submit(call{run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		done, err := exporter.ExportFile(ctx, file)
		if err != nil {
			return msgs.ErrorMsg{Action: "export the session", Err: err}
		}
		return sessionExportedMsg{done}
	}})
	return m, nil
}
