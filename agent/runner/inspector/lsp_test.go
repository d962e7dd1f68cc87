package inspector

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/lsp"
	"github.com/steer-tui/steer/agent/runner"
)

func TestLSPTable(t *testing.T) {
	servers := []runner.LSPServer{
		{Language: "go", Command: "gopls", Filetypes: []string{"go"}, Detected: true, State: runner.LSPReady, PID: 42, OpenFiles: 2,
			Diagnostics: lsp.Counts{Errors: 1, Warnings: 2}},
		{Language: "python", Command: "pyright-langserver", Args: []string{"--stdio"}, Filetypes: []string{"py"}, State: runner.LSPFailed,
			Reason: "exited (signal: killed)", Stderr: []string{"boom"}},
		{Language: "rust", Command: "rust-analyzer", Filetypes: []string{"rs"}, State: runner.LSPDisabled},
		{Language: "zig", Command: "zls", Filetypes: []string{"zig", "zon"}, State: runner.LSPNotStarted},
	}
	tab := lspTable(servers)
	if want := "4 servers: 1 ready, 1 not started, 1 failed, 1 disabled"; tab.Summary != want {
		t.Errorf("summary = %q, want %q", tab.Summary, want)
	}
	for _, c := range []struct {
		row                int
		command            string
		state, diagnostics Cell
		target             string
		inDetail           string
	}{
		{0, "gopls (on PATH)", Cell{Text: "ready", Tone: ToneOK}, Cell{Text: "1 error, 2 warnings", Tone: ToneBad}, "go",
			"found on PATH: .go files; 2 open files\nprocess 42"},
		{1, "pyright-langserver --stdio", Cell{Text: "failed", Tone: ToneBad}, Cell{Text: "none"}, "python",
			"failed: exited (signal: killed)\nstderr: boom"},
		{2, "rust-analyzer", Cell{Text: "disabled"}, Cell{Text: "none"}, "", `"enabled": false`},
		{3, "zls", Cell{Text: "not started"}, Cell{Text: "none"}, "zig", "configured in lsp.zig: .zig .zon files; 0 open files"},
	} {
		r := tab.Rows[c.row]
		if r.Cells[1].Text != c.command || r.Cells[2] != c.state || r.Cells[4] != c.diagnostics || r.Target != c.target {
			t.Errorf("row %d = %+v (target %q), want command %q, state %+v, diagnostics %+v, target %q", c.row, r.Cells, r.Target,
				c.command, c.state, c.diagnostics, c.target)
		}
		if d := strings.Join(r.Detail, "\n"); !strings.Contains(d, c.inDetail) {
			t.Errorf("row %d detail = %q, want it to hold %q", c.row, d, c.inDetail)
		}
	}
	if got := lspTable(nil); len(got.Rows) != 0 || got.Summary != "" || !strings.Contains(got.Empty, "gopls") {
		t.Errorf("empty table = %+v", got)
	}
}

func TestLSPJSONAndPrint(t *testing.T) {
	raw, err := json.Marshal(LSP.JSON(nil))
	if err != nil || string(raw) != `{"servers":[]}` {
		t.Errorf("JSON(nil) = %s, %v", raw, err)
	}
	var b bytes.Buffer
	LSP.Print(&b, []runner.LSPServer{{Language: "go", Command: "gopls", Filetypes: []string{"go"}, State: runner.LSPFailed,
		Reason: "exited", Stderr: []string{"boom"}}}, time.Time{})
	for _, want := range []string{"LANGUAGE", "gopls", "failed", "exited", "go's last stderr lines:\n  boom"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("printed %q, want it to hold %q", b.String(), want)
		}
	}
}
