package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestTreeBranchesAndFork: /tree opens at the leaf; going back to the first
// answer and sending a message makes a branch the tree draws with
// connectors; a label shows on its entry; /fork from the second message
// opens a session with exactly the path before it, the message back in the
// editor.
func TestTreeBranchesAndFork(t *testing.T) {
	ok := func(text string) *agenttest.Response { return agenttest.Reply().Text(text).Stop(agent.StopReasonStop) }
	host, _ := newStoredHost(t, agenttest.NewScript(ok("first answer"), ok("second answer"), ok("third answer")).Stream)
	clk := &fakeClock{t: epoch}
	h := newHarness(t, host, 100, 30, func(o *Options) { o.Sessions = SessionsOf(host); o.Now = clk.Now })
	send := func(text string) {
		h.t.Helper()
		clk.Add(time.Second)
		h.typeText(text)
		h.key(tea.KeyEnter, false)
	}
	send("one")
	h.waitView("first answer")
	send("two")
	h.waitView("second answer")
	h.waitFor("the run's end", func(m Model) bool { return !m.running }) // /tree is refused during a run
	send("/tree")
	h.waitFor("the tree", func(m Model) bool { return m.treeOpen })
	h.waitView("Session tree", "user: one", "› ● assistant: second answer")
	h.key(tea.KeyUp, false)
	h.key(tea.KeyUp, false)
	h.typeText("l")
	h.typeText("start")
	h.key(tea.KeyEnter, false)
	h.waitView("[start] assistant: first answer", "labelled: start")
	h.key(tea.KeyEnter, false)
	h.waitView("Go back to this entry?", "(g) Go there without a summary")
	clk.Add(time.Second)
	h.typeText("g")
	h.waitView("moved back in the tree")
	h.waitFor("the branch left to leave the screen", func(m Model) bool { return !strings.Contains(m.chat.View(), "second answer") })
	send("three")
	h.waitView("third answer")
	send("/tree")
	h.waitFor("the tree", func(m Model) bool { return m.treeOpen })
	h.waitView("├─ user: two", "└─ user: three", "●    assistant: third answer")
	h.key(tea.KeyEsc, false)
	h.waitFor("the tree to close", func(m Model) bool { return !m.treeOpen })

	send("/fork")
	h.waitView("Fork: a new session from before which message?", "three", "one")
	h.key(tea.KeyEnter, false) // the newest: "three"
	h.waitView("forked into a new session")
	h.waitFor("the message in the editor", func(m Model) bool { return m.input.Value() == "three" })
	h.waitFor("the fork: exactly the path before the message", func(m Model) bool {
		v := m.chat.View()
		return strings.Contains(v, "first answer") && !strings.Contains(v, "third answer")
	})
}
