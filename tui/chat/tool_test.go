package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// spinnerFrames are the frames the tests step through.
var spinnerFrames = []string{"⣾", "⣽", "⣻", "⢿", "⡿", "⣟", "⣯", "⣷"}

// testOutput is n lines of coloured test-runner output with progress bars,
// the kind of output that is expensive to sanitise.
func testOutput(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "\x1b[32mok\x1b[0m  pkg/%03d\t 10%%\r\x1b[32mok\x1b[0m  pkg/%03d\t100%%\n", i, i)
	}
	return b.String()
}

// runningTool returns a chat showing one running bash call with output.
func runningTool(output string) Model {
	m := newChat(80, 20)
	m, _ = m.Update(events(
		agent.ToolExecutionStart{ToolCallID: "t", ToolName: "bash", Args: map[string]any{"command": "go test ./..."}},
		agent.ToolExecutionUpdate{ToolCallID: "t", ToolName: "bash", Partial: agent.TextResult(output)},
	))
	return m
}

// BenchmarkRunningToolFrame draws spinner frames of a running tool with 10
// and 1,000 lines (50 KB) of output. Only the last lines show, so a frame
// should cost the same whatever the length of the output.
func BenchmarkRunningToolFrame(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("lines-%d", n), func(b *testing.B) {
			m := runningTool(testOutput(n))
			now := time.Unix(0, 0)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				i++
				m.SetSpinner(spinnerFrames[i%len(spinnerFrames)], now.Add(time.Duration(i)*time.Millisecond))
			}
		})
	}
}

// TestRunningToolOutputIsSanitisedOncePerUpdate redraws a running tool on
// every spinner frame and after a resize, and checks its output was
// sanitised once, and once more when new output arrived.
func TestRunningToolOutputIsSanitisedOncePerUpdate(t *testing.T) {
	m := runningTool(testOutput(50))
	tool := m.t.tools["t"]
	now := time.Unix(0, 0)
	for i, frame := range spinnerFrames {
		m.SetSpinner(frame, now.Add(time.Duration(i)*time.Second))
		if v := m.View(); !strings.Contains(v, frame+" bash go test") || !strings.Contains(v, "pkg/049") {
			t.Fatalf("frame %q is not drawn:\n%s", frame, v)
		}
	}
	m.SetSize(60, 20)
	if tool.out.made != 1 {
		t.Fatalf("output sanitised %d times for one update", tool.out.made)
	}
	m, _ = m.Update(events(agent.ToolExecutionUpdate{ToolCallID: "t", ToolName: "bash", Partial: agent.TextResult(testOutput(51))}))
	for i, frame := range spinnerFrames {
		m.SetSpinner(frame, now.Add(time.Duration(i)*time.Second))
	}
	if v := m.View(); !strings.Contains(v, "pkg/050") || strings.Contains(v, "\x1b") || strings.Contains(v, " 10%") {
		t.Fatalf("new output is not shown, or not sanitised:\n%s", v)
	}
	if tool.out.made != 2 {
		t.Fatalf("output sanitised %d times for two updates", tool.out.made)
	}
}

// TestHeaderTextFollowsNewArguments checks the cached summary is remade for
// a new arguments map, as a call's arguments grow while they stream.
func TestHeaderTextFollowsNewArguments(t *testing.T) {
	var h headerText
	if _, s := h.get("bash", map[string]any{"command": "ls"}); s != "ls" {
		t.Fatalf("summary %q, want ls", s)
	}
	if _, s := h.get("bash", map[string]any{"command": "ls -la"}); s != "ls -la" {
		t.Fatalf("summary %q after new arguments, want ls -la", s)
	}
	if name, _ := h.get("b\x1b[2Jash", nil); name != "bash" {
		t.Fatalf("name %q is not sanitised", name)
	}
}
