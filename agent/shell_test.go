package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// fakeBash plays the bash tool: it prints the command's words after
// "echo" and fails a command that is "false".
func fakeBash() funcTool {
	return funcTool{name: "bash", run: func(_ context.Context, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
		cmd := args["command"].(string)
		if cmd == "false" {
			return agent.ToolResult{Content: []agent.Content{agent.Text("[exit code 1]")}, IsError: true,
				Details: agent.CommandDetails{ExitCode: 1}}, nil
		}
		return agent.ToolResult{Content: []agent.Content{agent.Text(strings.TrimPrefix(cmd, "echo ") + "\n")},
			Details: agent.CommandDetails{ExitCode: 0}}, nil
	}}
}

// TestShellInputs: the user's shell commands run through the bash tool with
// its events and no request; the model's next request sees a `!` command
// as user text and never a `!!` one; queued while a run is active, they
// run when the agent would stop.
func TestShellInputs(t *testing.T) {
	for _, c := range []struct {
		name   string
		inputs []agent.QueueItem
		// trace is the first run's events, queue updates left out.
		trace []string
		// sent is what the model's request holds after "hi" is prompted.
		sent, unsent []string
	}{
		{
			name:   "shared",
			inputs: []agent.QueueItem{{Kind: agent.QueueShell, Text: "echo hi there"}},
			trace: []string{"agent_start", "tool_execution_start bash", "tool_execution_end bash error=false",
				"message_start user hi there\n", "message_end user hi there\n", "agent_end messages=1"},
			sent: []string{"echo hi there", "exited with status 0", "hi there"},
		},
		{
			name:   "private",
			inputs: []agent.QueueItem{{Kind: agent.QueueShellPrivate, Text: "echo secret"}},
			trace: []string{"agent_start", "tool_execution_start bash", "tool_execution_end bash error=false",
				"message_start user secret\n", "message_end user secret\n", "agent_end messages=1"},
			unsent: []string{"secret"},
		},
		{
			name:   "failed",
			inputs: []agent.QueueItem{{Kind: agent.QueueShell, Text: "false"}},
			trace: []string{"agent_start", "tool_execution_start bash", "tool_execution_end bash error=true",
				"message_start user [exit code 1]", "message_end user [exit code 1]", "agent_end messages=1"},
			sent: []string{"exited with status 1", "[exit code 1]"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop)), fakeBash())
			for _, it := range c.inputs {
				if _, queued := f.agent.Deliver(it); queued {
					t.Fatalf("%s queued on an idle agent", it.Text)
				}
				f.wait(t)
			}
			if got := withoutQueueUpdates(f.rec.Traces(false)); strings.Join(got, "|") != strings.Join(c.trace, "|") {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.trace, "\n"))
			}
			if n := len(f.script.Requests()); n != 0 {
				t.Fatalf("%d requests for shell commands alone", n)
			}
			if err := f.agent.Prompt("hi"); err != nil {
				t.Fatal(err)
			}
			f.wait(t)
			reqs := f.script.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			var sent []string
			for _, m := range reqs[0].Messages {
				sent = append(sent, m.TextContent())
			}
			all := strings.Join(sent, "\n")
			for _, s := range c.sent {
				if !strings.Contains(all, s) {
					t.Errorf("the request lacks %q:\n%s", s, all)
				}
			}
			for _, s := range c.unsent {
				if strings.Contains(all, s) {
					t.Errorf("the request holds %q:\n%s", s, all)
				}
			}
			msgs := f.agent.State().Messages
			d, ok := agent.ShellDetailsOf(msgs[0].Details)
			if !ok || d.Command != c.inputs[0].Text || d.Private != (c.inputs[0].Kind == agent.QueueShellPrivate) || d.Result == nil {
				t.Errorf("the shell message's details = %+v, %v", d, ok)
			}
		})
	}
}

// TestShellQueuedRunsWhenTheAgentWouldStop: a shell command delivered while
// a run is active waits like a follow-up, runs after the answer, and asks
// the model nothing more.
func TestShellQueuedRunsWhenTheAgentWouldStop(t *testing.T) {
	release := make(chan struct{})
	f := newFixture(t, agenttest.NewScript(agenttest.Reply().Wait(release).Text("answer").Stop(agent.StopReasonStop)), fakeBash())
	requested := waitForEvent(f.agent, "message_start assistant stop")
	if err := f.agent.Prompt("start"); err != nil {
		t.Fatal(err)
	}
	within(t, requested, "the request")
	if _, queued := f.agent.Deliver(agent.QueueItem{Kind: agent.QueueShell, Text: "echo later"}); !queued {
		t.Fatal("the shell command was not queued while the run is active")
	}
	close(release)
	f.wait(t)
	if got := strings.Join(texts(f.agent.State().Messages), "|"); got != "start|answer|later\n" {
		t.Fatalf("messages = %q", got)
	}
	if n := len(f.script.Requests()); n != 1 {
		t.Fatalf("%d requests, want only the first", n)
	}
}

// TestShellDetailsRoundTrip: a shell message read back from JSON is still
// one, and what the model is sent is the same.
func TestShellDetailsRoundTrip(t *testing.T) {
	res := agent.CommandDetails{ExitCode: 2}
	m := agent.Message{Role: agent.RoleUser, Content: []agent.Content{agent.Text("out")}, Timestamp: agenttest.Epoch,
		Details: agent.ShellDetails{Command: "make", ToolCallID: "call_shell_1", IsError: true, Result: &res}}
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back agent.Message
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	d, ok := agent.ShellDetailsOf(back.Details)
	if !ok || d.Command != "make" || d.Result == nil || d.Result.ExitCode != 2 || !d.IsError {
		t.Fatalf("read back %+v, %v from %s", d, ok, raw)
	}
	if a, b := agent.ForModel([]agent.Message{m})[0].TextContent(), agent.ForModel([]agent.Message{back})[0].TextContent(); a != b {
		t.Fatalf("the model is sent %q live and %q read back", a, b)
	}
}
