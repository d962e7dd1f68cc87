package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner/inspector"
)

// TestWhileRunningRules: the rule of each command while a run is active,
// the table of held.go; a command added to the registry must be decided
// here too.
func TestWhileRunningRules(t *testing.T) {
	rules := map[string]runRule{
		"compact": ruleHold, "compact keep the tests": ruleHold, "clone": ruleHold,
		"model": ruleNow, "model test/other": ruleHold, "thinking": ruleNow, "thinking high": ruleHold,
		"tree": ruleRefuse, "fork": ruleRefuse,
		"new": ruleNow, "sessions": ruleNow, "name": ruleNow, "name x": ruleNow, "export": ruleNow,
		"help": ruleNow, "quit": ruleNow, "budget": ruleNow, "budget run 0.5": ruleNow,
		"copy": ruleNow, "skills": ruleNow, "theme": ruleNow, "rewind": ruleRefuse, "redo": ruleRefuse,
		"plan": ruleNow, "plan off": ruleNow,
		"srv:greet name=Ann": ruleNow, "skill:pdf hello": ruleNow, "review main.go": ruleNow,
	}
	for _, ins := range inspector.All() {
		rules[ins.Command()] = ruleNow
	}
	for line, want := range rules {
		name, args, _ := strings.Cut(line, " ")
		rule, why := whileRunning(name, args)
		if rule != want {
			t.Errorf("/%s: rule %d, want %d", line, rule, want)
		}
		if (rule == ruleRefuse) != (why != "") {
			t.Errorf("/%s: rule %d with reason %q", line, rule, why)
		}
	}
	m := New(newRuntime(t, nil), Options{})
	for _, c := range m.commands.All() {
		if _, ok := rules[c.Name]; !ok {
			t.Errorf("/%s has no rule in this table", c.Name)
		}
	}
}

// TestHeldCommandRunsAfterTheRun: /compact typed during a run shows in the
// queue strip as a command and runs once the run has ended; /tree is
// refused with its reason; /help opens at once.
func TestHeldCommandRunsAfterTheRun(t *testing.T) {
	release := make(chan struct{})
	rt := newRuntime(t, nil, agenttest.Reply().Text("working").Wait(release).Stop(agent.StopReasonStop),
		agenttest.Reply().Text("summary of it all").Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 80, 24)
	h.typeText("go")
	h.key(tea.KeyEnter, false)
	h.waitFor("the run", func(m Model) bool { return m.running })
	h.command("/tree")
	h.waitView("/tree moves the session the run works in")
	h.command("/compact")
	h.waitFor("the held command", func(m Model) bool { return strings.Contains(m.queue.View(), "command   › /compact") })
	h.waitFor("the runtime's replies", Model.settled) // the meter's measure among them
	checkGolden(t, h, 80, 24)
	close(release)
	h.waitFor("the command to run", func(m Model) bool { return !m.running && len(m.held) == 0 && len(m.queue.Items()) == 0 })
	h.waitView("⟲ ")
}

// TestHeldCommandTakenBack: Alt+↑ takes a held command back into the
// editor, and it never runs.
func TestHeldCommandTakenBack(t *testing.T) {
	h, probe := runWithGate(t, agenttest.Reply().Text("done").Stop(agent.StopReasonStop))
	h.command("/thinking high")
	h.waitFor("the held command", func(m Model) bool { return len(m.held) == 1 })
	h.send(tea.KeyMsg{Type: tea.KeyUp, Alt: true})
	h.waitFor("the command in the editor", func(m Model) bool {
		return m.input.Value() == "/thinking high" && len(m.held) == 0 && m.queue.View() == ""
	})
	close(probe.release)
	h.waitFor("the run to end", func(m Model) bool { return !m.running })
	h.waitFor("the runtime's replies", Model.settled)
	if got := h.m.rt.State().Thinking; got == agent.ThinkingHigh {
		t.Fatalf("thinking = %q: the taken-back command ran", got)
	}
}
