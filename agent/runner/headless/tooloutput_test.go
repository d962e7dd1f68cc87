package headless

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

func start(id string, args map[string]any) agent.Event {
	return agent.ToolExecutionStart{ToolCallID: id, ToolName: "bash", Args: args}
}

func update(id, out string) agent.Event {
	return agent.ToolExecutionUpdate{ToolCallID: id, ToolName: "bash", Partial: agent.TextResult(out)}
}

func end(id, out string, details any) agent.Event {
	r := agent.TextResult(out)
	r.Details = details
	return agent.ToolExecutionEnd{ToolCallID: id, ToolName: "bash", Result: r}
}

var cmd = map[string]any{"command": "make"}

// cmdUpdate is a command's partial result: its tail, ending at offset at of
// the output (which has a line end more), then notes.
func cmdUpdate(id, tail, notes string, at int64) agent.Event {
	r := agent.TextResult(tail + notes)
	r.Details = agent.OutputWindow{OutputBytes: at + 1, TailEndsAt: at, TailEnd: len(tail)}
	return agent.ToolExecutionUpdate{ToolCallID: id, ToolName: "bash", Partial: r}
}

// cmdEnd is a command's result: before, its tail (ending at offset at of
// the output, which has a line end more), then notes, with d's other
// details.
func cmdEnd(id, before, tail, notes string, at int64, d agent.CommandDetails) agent.Event {
	d.OutputBytes, d.TailEndsAt, d.TailStart, d.TailEnd = at+1, at, len(before), len(before)+len(tail)
	r := agent.TextResult(before + tail + notes)
	r.Details = d
	return agent.ToolExecutionEnd{ToolCallID: id, ToolName: "bash", Result: r}
}

// TestToolOutput: each update prints only what it adds to the last, line by
// line under the prefix, within the per-call limit.
func TestToolOutput(t *testing.T) {
	tests := []struct {
		name   string
		limit  int
		clean  func(string) string
		events []agent.Event
		want   string
	}{
		{"lines as they arrive", 0, nil, []agent.Event{
			start("1", cmd), update("1", "step-1"), update("1", "step-1\nstep-2"), update("1", "step-1\nstep-2\nstep-3"),
			end("1", "step-1\nstep-2\nstep-3", agent.CommandDetails{}),
		}, "→ bash make\n  │ step-1\n  │ step-2\n  │ step-3\n← bash ok\n"},
		{"a line that goes on is continued on its own line", 0, nil, []agent.Event{
			start("1", cmd), update("1", "building"), update("1", "building..."), update("1", "building...\ndone"),
			end("1", "building...\ndone", agent.CommandDetails{}),
		}, "→ bash make\n  │ building\n  │ ...\n  │ done\n← bash ok\n"},
		{"the end adds what came after the last update, and notes", 0, nil, []agent.Event{
			start("1", cmd), update("1", "a"),
			end("1", "a\nb\n\n[exit code 2]", agent.CommandDetails{ExitCode: 2}),
		}, "→ bash make\n  │ a\n  │ b\n  │ \n  │ [exit code 2]\n← bash ok\n"},
		{"a command without updates shows its result", 0, nil, []agent.Event{
			start("1", cmd), end("1", "hi", agent.CommandDetails{}),
		}, "→ bash make\n  │ hi\n← bash ok\n"},
		{"other tools show no output", 0, nil, []agent.Event{
			start("1", map[string]any{"path": "README.md"}), end("1", "# steer\nlots", nil),
		}, "→ bash README.md\n← bash ok\n"},
		{"a window that moved is followed", 0, nil, []agent.Event{
			start("1", cmd), update("1", "l1\nl2\nl3"), update("1", "l2\nl3\nl4\nl5"),
			end("1", "l3\nl4\nl5", agent.CommandDetails{}),
		}, "→ bash make\n  │ l1\n  │ l2\n  │ l3\n  │ l4\n  │ l5\n← bash ok\n"},
		{"the limit cuts at a line end and counts the rest", 12, nil, []agent.Event{
			start("1", cmd), update("1", "12345\n67890\nabcde"), update("1", "12345\n67890\nabcde\nfghij"),
			end("1", "12345\n67890\nabcde\nfghij", agent.CommandDetails{}),
		}, "→ bash make\n  │ 12345\n  │ 67890\n  │ [… 11 more bytes not shown]\n← bash ok\n"},
		{"past the limit, a rewritten window is not counted exactly", 4, nil, []agent.Event{
			start("1", cmd), update("1", "abc\ndef"), update("1", "xyz"),
			end("1", "xyz", agent.CommandDetails{}),
		}, "→ bash make\n  │ abc\n  │ [… more output not shown]\n← bash ok\n"},
		{"output cut for the model counts what the result left out and says where it is", 8, nil, []agent.Event{
			start("1", cmd), update("1", "1\n2\n3\n"),
			end("1", "1\n2\n3\n4\n\n[... 90 B omitted ...]\n\n99\n100\n",
				agent.CommandDetails{Truncated: true, OutputWindow: agent.OutputWindow{OutputBytes: 292}, FullOutputPath: "/state/tool-output/bash.log"}),
		}, "→ bash make\n  │ 1\n  │ 2\n  │ 3\n  │ 4\n  │ [… 284 more bytes not shown; the whole output is in /state/tool-output/bash.log]\n← bash ok\n"},
		{"output cut for the model and not kept", 8, nil, []agent.Event{
			start("1", cmd), end("1", "1\n2\n3\n4\n\n[... omitted ...]\n\n100\n", agent.CommandDetails{Truncated: true, OutputWindow: agent.OutputWindow{OutputBytes: 292}}),
		}, "→ bash make\n  │ 1\n  │ 2\n  │ 3\n  │ 4\n  │ [… 284 more bytes not shown]\n← bash ok\n"},
		{"offsets: each update prints the bytes past what was seen", 0, nil, []agent.Event{
			start("1", cmd), cmdUpdate("1", "a\nb", "", 3), cmdUpdate("1", "b\nc\nd", "\n\n[output truncated: showing the last 3 of 4 lines]", 7),
			cmdEnd("1", "", "a\nb\nc\nd", "\n\n[exit code 1]", 7, agent.CommandDetails{ExitCode: 1}),
		}, "→ bash make\n  │ a\n  │ b\n  │ c\n  │ d\n  │ \n  │ [exit code 1]\n← bash ok\n"},
		{"offsets: output that went by between updates is said, in order", 0, nil, []agent.Event{
			start("1", cmd), cmdUpdate("1", "3\n4", "\n\n[output truncated: showing the last 2 of 4 lines]", 7),
			cmdEnd("1", "1\n2\n\n[... 2 B omitted ...]\n\n", "4\n5", "", 9,
				agent.CommandDetails{Truncated: true, FullOutputPath: "/out.log"}),
		}, "→ bash make\n  │ [… 4 bytes not shown]\n  │ 3\n  │ 4\n  │ 5\n  │ [… 4 of the output's 10 bytes not shown; the whole output is in /out.log]\n← bash ok\n"},
		{"offsets: past the limit, everything left is counted exactly", 4, nil, []agent.Event{
			start("1", cmd), cmdUpdate("1", "ab\ncd\nef", "", 8),
			cmdEnd("1", "ab\n\n[... omitted ...]\n\n", "ef\ngh", "", 11,
				agent.CommandDetails{Truncated: true, FullOutputPath: "/out.log"}),
		}, "→ bash make\n  │ ab\n  │ [… 9 of the output's 12 bytes not shown; the whole output is in /out.log]\n← bash ok\n"},
		{"offsets: a result without them (mended output) goes on from the text seen", 0, nil, []agent.Event{
			start("1", cmd), cmdUpdate("1", "caf", "", 3),
			end("1", "caf\uFFFD one\ncaf\uFFFD two", agent.CommandDetails{}),
		}, "→ bash make\n  │ caf\n  │ \uFFFD one\n  │ caf\uFFFD two\n← bash ok\n"},
		{"clean applies to every line and the header", 0, func(s string) string { return strings.ReplaceAll(s, "\x1b", "") },
			[]agent.Event{
				start("1", map[string]any{"command": "echo \x1b[2J\nrm -rf x"}), update("1", "\x1b[31mred"),
				end("1", "\x1b[31mred", agent.CommandDetails{}),
			}, "→ bash echo [2J …\n  │ [31mred\n← bash ok\n"},
		{"two calls at once keep their own state", 0, nil, []agent.Event{
			start("1", cmd), start("2", cmd), update("1", "one"), update("2", "two"), update("1", "one\nuno"),
			end("2", "two", agent.CommandDetails{}), end("1", "one\nuno", agent.CommandDetails{}),
		}, "→ bash make\n→ bash make\n  │ one\n  │ two\n  │ uno\n← bash ok\n← bash ok\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			o := newToolOutput(&b, tt.clean, tt.limit)
			for _, ev := range tt.events {
				o.event(ev)
			}
			if b.String() != tt.want {
				t.Errorf("printed\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

func TestNewPart(t *testing.T) {
	tests := []struct {
		seen, out, want string
		exact           bool
	}{
		{"", "abc", "abc", true},
		{"abc", "abcdef", "def", true},
		{"a\nb\nc", "b\nc\nd", "\nd", true},
		{"x\nx\nx", "x\nx\ny", "\ny", true},
		{"abc", "zzz", "zzz", false},
		{"abc", "abc", "", true},
	}
	for _, tt := range tests {
		if got, exact := newPart(tt.seen, tt.out); got != tt.want || exact != tt.exact {
			t.Errorf("newPart(%q, %q) = %q, %v; want %q, %v", tt.seen, tt.out, got, exact, tt.want, tt.exact)
		}
	}
}

// TestOneQuarantineIsOneLine: the failures of calls in flight together are
// one quarantine, and one ⚠ line on stderr.
func TestOneQuarantineIsOneLine(t *testing.T) {
	var b strings.Builder
	o := newToolOutput(&b, nil, 0)
	q := runner.QuarantineInfo{Engine: "crashy", Method: "ingest", Reason: "crash", Count: 1}
	again := q
	again.Method, again.Count = "assemble", 2
	o.event(agent.Annotation{Kind: runner.AnnotationQuarantine, Data: q})
	o.event(agent.Annotation{Kind: runner.AnnotationQuarantine, Data: again})
	if want := "⚠ " + q.Summary() + "\n"; b.String() != want {
		t.Errorf("stderr %q, want %q", b.String(), want)
	}
}
