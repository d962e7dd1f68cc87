package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
)

// libraryWorkspace is the fixture library, relative so that the paths the
// goldens show are the same on every machine: a pdf skill in .claude (and
// a duplicate in .agents), a skill without a description, a template
// /review and one named like /help.
const libraryWorkspace = "testdata/library"

// libraryHost is a host on the fixture workspace, trusted (its skills
// wait for that), whose provider plays responses, with the script to read
// its requests.
func libraryHost(t *testing.T, responses ...*agenttest.Response) (*runner.Host, *agenttest.Script) {
	t.Helper()
	script := agenttest.NewScript(responses...)
	gate, err := runner.CheckWorkspace(libraryWorkspace, t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Now:       agenttest.Clock, Workspace: libraryWorkspace, Trust: gate,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := runner.NewHost(rt)
	t.Cleanup(func() {
		h.AbortWith(runner.AbortQuit)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.WaitForIdle(ctx)
	})
	return h, script
}

// TestProgramListsSkills: /skills lists the skill, the template, and each
// file skipped with why (the duplicate, the missing description, the name
// of a built-in command).
func TestProgramListsSkills(t *testing.T) {
	rt, _ := libraryHost(t)
	tm := startProgram(t, rt)
	tm.Type("/skills")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "Skipped (3)")
	lastFrame(t, tm)
}

// TestSkillCompletionAndSend: "/" offers the skill and the template with
// their descriptions; /skill:pdf hello sends the skill's body with hello,
// /review x the template filled in.
func TestSkillCompletionAndSend(t *testing.T) {
	rt, script := libraryHost(t, agenttest.Reply().Text("read it").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("reviewed").Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 100, 30)
	h.typeText("/sk")
	h.waitView("/skill:pdf", "Extract text and tables from PDF files")
	h.key(tea.KeyCtrlU, false)
	h.typeText("/rev")
	h.waitView("/review <file>", "Review a change for bugs")
	h.key(tea.KeyCtrlU, false)
	h.typeText("/skill:pdf hello")
	h.key(tea.KeyEnter, false)
	h.waitView("read it")
	h.waitFor("the run to end", func(m Model) bool { return !m.running })
	h.typeText("/review main.go")
	h.key(tea.KeyEnter, false)
	h.waitView("reviewed")
	reqs := script.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	skill := lastUserText(reqs[0])
	for _, want := range []string{`<skill name="pdf"`, "pdftotext FILE -", "</skill>\n\nhello"} {
		if !strings.Contains(skill, want) {
			t.Errorf("the skill's message lacks %q:\n%s", want, skill)
		}
	}
	if got := lastUserText(reqs[1]); got != "Review main.go for bugs and say what you would change." {
		t.Errorf("the template sent %q", got)
	}
	if !strings.Contains(reqs[0].SystemPrompt, "pdf") {
		t.Errorf("the system prompt does not list the skill:\n%s", reqs[0].SystemPrompt)
	}
}

// TestUnknownSkillComesBack: /skill:nope is refused by the runner with the
// skills there are, and the line comes back into the editor.
func TestUnknownSkillComesBack(t *testing.T) {
	rt, _ := libraryHost(t)
	h := newHarness(t, rt, 100, 30)
	h.typeText("/skill:nope now")
	h.key(tea.KeyEnter, false)
	h.waitView(`no skill "nope": the skills are pdf`)
	if got := h.m.input.Text(); got != "/skill:nope now" {
		t.Errorf("the editor holds %q", got)
	}
}

// lastUserText is the text of a request's last message.
func lastUserText(c agent.LLMContext) string { return c.Messages[len(c.Messages)-1].Typed() }
