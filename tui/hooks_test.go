package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/hooks"
	"github.com/steer-tui/steer/failover"
)

// TestProgramHooks: a prompt a UserPromptSubmit hook blocks is refused
// with the hook's reason, and /hooks lists the
// hook with that outcome.
func TestProgramHooks(t *testing.T) {
	h, err := hooks.New(hooks.Hook{Event: hooks.UserPromptSubmit, Command: "echo no prompts today >&2; exit 2",
		Timeout: 5 * time.Second, Source: "config.json"})
	if err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{t: epoch}
	rt := rotationRuntime(t, clock, &failover.MemLedger{}, func(o *runner.Options) {
		o.Hooks, o.Workspace = []hooks.Hook{h}, t.TempDir()
	})
	tm := startProgram(t, rt)
	tm.Type("hello")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "no prompts today")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	tm.Type("/hooks")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "UserPromptSubmit[0]", "block: no prompts today")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	final := quit(t, tm)
	if strings.Contains(final.View(), "answered by") {
		t.Errorf("the blocked prompt reached the model:\n%s", final.View())
	}
}
